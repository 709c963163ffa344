#!/usr/bin/env bash
# Builds sonicsim with AddressSanitizer and UndefinedBehaviorSanitizer (clang; float-to-int casts
# included; every report is fatal) in build-sanitize/, runs the unit tests, every bundled and
# regression scenario and the hostile-input cases under them, then fuzzes each input reader.
#   scripts/sanitize.sh [FUZZ_SECONDS_PER_TARGET]   (default 40; 0: no fuzzing)
# Needs the packages of scripts/setup.sh (clang and libclang-rt-14-dev among them).
set -euo pipefail
cd "$(dirname "$0")/.."
# Fuzz targets two at a time on two cores, 40 s each (scripts/fuzz.sh lists which run).
fuzz_seconds=${1:-40}
build=build-sanitize
jobs=$(nproc)

# Ninja, as scripts/test.sh says why (an existing build-sanitize/ keeps its generator).
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
# -O1 keeps the instrumented build affordable on two cores; line tables name the lines in reports.
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSONICSIM_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" > /dev/null
cmake --build "$build" -j "$jobs" --target sonicsim_model_tests sonicsim_analysis_tests sonicsim_sim_tests sonicsim_cli_tests sonicsim fuzz_scenario fuzz_config_pbtxt fuzz_values fuzz_measurements fuzz_logs

# SimGrid switches between actor stacks itself, which ASan cannot follow for stack-use-after-return;
# leaks are SimGrid's own at exit (its engine and actors are process-wide).
export ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# ASan warns once per process when an exception unwinds across a SimGrid actor's stack, which it
# cannot see SimGrid switch to; the tests fork a process per simulation, so the note is dropped.
quiet_asan_notes() { grep -v -e "ASan is ignoring requested __asan_handle_no_return" \
  -e "False positive error reports may follow" -e "google/sanitizers/issues/189" >&2 || true; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run_scenarios() {  # every bundled and regression scenario, one after another
  for scenario in scenarios/*.json tests/data/regression/*.json; do
    name=$(basename "$scenario" .json)
    if grep -q '"perf_analyzer"' "$scenario"; then
      args=(--perf-csv "$out/$name.csv" --set '/perf_analyzer/concurrency=[1,4]')
    else
      args=(--output "$out/$name" --set '/simulation/outputs=["events","requests","batches","metrics","jobs"]')
    fi
    # A batch-system scenario's first 50 jobs (cms-t2-waves runs 1.8 million requests in full).
    if grep -q '"submit"' "$scenario"; then args+=(--set /workload/jobs=50); fi
    "$build/sonicsim" run "$scenario" --quiet "${args[@]}" 2> "$out/$name.stderr" ||
      { cat "$out/$name.stderr"; echo "sanitize: $scenario failed"; return 1; }
  done
}

# One queue, $jobs items at a time, whoever finishes taking the next: every unit-test case as its own
# doctest run (--first/--last over a binary's cases in file order), then two streams of a process at a
# time: the scenarios and hostile_input.py (about 80 s under ASan on two cores), and hostile_files.py
# (about 95 s). The simulation binary goes first: its few cases of 30-50 s under ASan (the upload fast
# path's whole-run comparisons, the HPA step response) then start early, and the streams take up a core
# as soon as the cases run out, instead of waiting for the last one: 330 s of wall time on two cores,
# where cases dealt out in turn to two fixed workers, then the streams, took 267 s + 146 s.
binaries=(sonicsim_sim_tests sonicsim_model_tests sonicsim_analysis_tests sonicsim_cli_tests)
# Test cases in the "large" suite measure statistics over 10^5 simulated jobs or requests: minutes
# under ASan, for code the bundled scenarios run too (run_scenarios; cms-t2-waves: the batch system and
# least_request).
options=(--minimal --test-suite-exclude=large)
items=()  # "case BINARY CASE_NUMBER" for every case of every binary, then "stream NAME"
for binary in "${binaries[@]}"; do
  count=$(cd "$build/tests" && "./$binary" "${options[@]}" --count | sed -n 's/.*passing the current filters: //p')
  for ((case_number = 1; case_number <= count; ++case_number)); do items+=("case $binary $case_number"); done
done
cases=${#items[@]}
items+=("stream scenarios_and_hostile_input" "stream hostile_files")
scenarios_and_hostile_input() { run_scenarios && SONICSIM_SANITIZED=1 python3 tests/cli/hostile_input.py "$build/sonicsim" .; }
hostile_files() { SONICSIM_SANITIZED=1 python3 tests/cli/hostile_files.py "$build/sonicsim" .; }
run_item() {  # an item of the queue; a stream's output goes to $out/NAME.log, shown after the queue
  case $1 in
    case) (cd "$build/tests" && "./$2" "${options[@]}" --first="$3" --last="$3") ;;
    stream) "$2" > "$out/$2.log" 2>&1 ;;
  esac
}
run_queue() {  # returns 1 if any item failed (each failure prints its own report)
  local running=0 failed=0 item
  for item in "${items[@]}"; do
    if ((running == jobs)); then wait -n || failed=1; running=$((running - 1)); fi
    # shellcheck disable=SC2086  # an item's words are its arguments
    run_item $item &
    running=$((running + 1))
  done
  while ((running > 0)); do wait -n || failed=1; running=$((running - 1)); done
  return "$failed"
}
echo "sanitize: unit tests ($cases cases), bundled and regression scenarios, hostile input ($jobs processes)"
queue_failed=0
run_queue 2> >(quiet_asan_notes) || queue_failed=1
cat "$out/scenarios_and_hostile_input.log" "$out/hostile_files.log"
if [ "$queue_failed" -ne 0 ]; then echo "sanitize: a unit-test case, scenario or hostile-input case failed (above)"; exit 1; fi

if [ "$fuzz_seconds" -gt 0 ]; then
  echo "sanitize: fuzzing, $fuzz_seconds s per target"
  scripts/fuzz.sh "$build" "$fuzz_seconds" "$jobs"
fi
echo "sanitize: no findings"
