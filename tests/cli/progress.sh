#!/usr/bin/env bash
# run and validate keep a progress line on a terminal while they simulate (simulated time, events,
# time left), and only there: a pipe or a file gets nothing, and the results are the same byte for
# byte. util-linux's `script` gives the command a terminal (a pseudo-terminal) as a user's shell would.
set -u
sonicsim=$(realpath "$1")
repo=$(realpath "$2")
source "$(dirname "$0")/harness.sh"
scenario=$repo/scenarios/protodune-2021-sonic.json
# 300 jobs of 10 events: some seconds of wall time, long enough for several redraws.
jobs=(--set /workload/jobs=300 --set '/simulation/outputs=["events","metrics"]')

# on_terminal FILE COMMAND...: runs COMMAND with a terminal as stdin, stdout and stderr, everything it
# wrote in FILE; returns its exit code.
on_terminal() {
  local file=$1
  shift
  script -qec "$(printf '%q ' "$@")" /dev/null >"$file" </dev/null
}

# 1. On a terminal: the line names the simulated time, the events done of the 3000 the 300 jobs run,
#    and the time left; the summary follows it. (Each run writes to "out" in its own directory, so
#    that the summaries, which name it, compare.)
mkdir -p "$work/tty" "$work/pipe"
cd "$work/tty" || exit 1
on_terminal "$work/tty.txt" "$sonicsim" run "$scenario" "${jobs[@]}" --output out; rc=$?
if [ $rc -eq 0 ] && grep -aEq 'simulated [0-9.]+ s, [0-9]+ of 3000 events( \([0-9]+%\))?, [0-9]+ s elapsed, (about [0-9]+ s left|time left unknown)' "$work/tty.txt" \
   && grep -aEq 'about [0-9]+ s left' "$work/tty.txt" && grep -aq 'per-event time over 3000 events' "$work/tty.txt"
then pass; else fail "no progress line on a terminal: $rc $(tr '\r' '\n' <"$work/tty.txt" | head -5)"; fi

# 2. Through pipes: nothing on stderr, the same summary, and every output file byte for byte the
#    terminal run's.
cd "$work/pipe" || exit 1
"$sonicsim" run "$scenario" "${jobs[@]}" --output out >"$work/pipe.out" 2>"$work/pipe.err"; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$work/pipe.err" ] && diff -r "$work/tty/out" "$work/pipe/out" >/dev/null \
   && diff <(tr -d '\r' <"$work/tty.txt" | sed 's/.*\x1b\[K//' | grep -v '^$') <(grep -v '^$' "$work/pipe.out") >/dev/null
then pass; else fail "the terminal run differs from the piped one: $rc $(head -c 300 "$work/pipe.err")"; fi

# 3. --quiet prints nothing but errors, on a terminal too.
on_terminal "$work/quiet.txt" "$sonicsim" run "$scenario" "${jobs[@]}" --quiet; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$work/quiet.txt" ]; then pass; else fail "--quiet on a terminal: $rc $(head -c 300 "$work/quiet.txt")"; fi

# 4. validate simulates too: its line shows on a terminal, and its table is the piped one's.
args=(validate "$scenario" "$work/pipe/out/events.csv" --set /workload/jobs=300)
on_terminal "$work/validate-tty.txt" "$sonicsim" "${args[@]}"; rc=$?
"$sonicsim" "${args[@]}" >"$work/validate.out" 2>"$work/validate.err"
if [ $rc -eq 0 ] && grep -aEq 'simulated [0-9.]+ s, [0-9]+ of 3000 events' "$work/validate-tty.txt" && [ ! -s "$work/validate.err" ] \
   && diff <(tr -d '\r' <"$work/validate-tty.txt" | sed 's/.*\x1b\[K//' | grep -v '^$') <(grep -v '^$' "$work/validate.out") >/dev/null
then pass; else fail "validate on a terminal: $rc $(tr '\r' '\n' <"$work/validate-tty.txt" | head -5)"; fi

finish
