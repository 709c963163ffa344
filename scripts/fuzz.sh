#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time, seeded with the repository's own inputs.
#   scripts/fuzz.sh BUILD_DIR SECONDS_PER_TARGET [PARALLEL]
# BUILD_DIR is a SONICSIM_SANITIZE build made with clang (scripts/sanitize.sh makes one). A
# finding (crash, sanitizer report, a reader throwing anything but an InputError, a hang past
# 10 s, more than 2 GB) stops that target, leaves its input in BUILD_DIR/fuzz-findings/ and
# makes this script exit 1. Each target prints its executions and coverage at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
seconds=$2
parallel=${3:-2}
findings=$build/fuzz-findings
corpora=$build/fuzz-corpora
mkdir -p "$findings"
rm -rf "$corpora"

# seed TARGET SELECTOR_BYTE FILE...: the files as seeds, each prefixed with the byte that picks
# its reader (targets that read one format take no selector: pass "").
seed() {
  local target=$1 selector=$2
  shift 2
  mkdir -p "$corpora/$target"
  for file in "$@"; do
    [ -f "$file" ] || continue
    { [ -n "$selector" ] && printf "\\x$selector"; cat "$file"; } > "$corpora/$target/$(basename "$file").$selector"
  done
}
seed scenario "" scenarios/*.json tests/data/regression/*.json
seed config_pbtxt "" tests/data/triton/*.pbtxt
seed values "" tests/data/supersonic/*.yaml
seed measurements 00 calibration/data/*.csv
seed measurements 01 tests/data/logs/perf_analyzer*.csv
seed measurements 02 calibration/models/*.json
seed logs 00 tests/data/logs/events*.csv
seed logs 01 tests/data/logs/condor*.json
seed logs 02 tests/data/logs/triton_metrics*.txt
seed logs 03 tests/data/logs/perf_profile*.json
seed logs 04 tests/data/logs/job_trace*.csv tests/data/logs/condor*.json
seed logs 05 scenarios/validation/data/cms-miniaod/jobs/JustDT_TRT/*.txt
seed logs 06 tests/data/logs/prometheus*.json

run_target() {
  local target=$1 log=$build/fuzz-$1.log
  if "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$findings/$target-" "$corpora/$target" < /dev/null > "$log" 2>&1; then
    echo "fuzz_$target: $(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') executions, $(grep -o 'cov: [0-9]*' "$log" | tail -1), no findings"
  else
    echo "fuzz_$target: FINDING (input in $findings/):"
    grep -m5 -E "ERROR|runtime error|threw|spans several lines|deadly signal|timeout|out-of-memory" "$log" || tail -20 "$log"
    return 1
  fi
}

status=0
pids=()
for target in scenario config_pbtxt values measurements logs; do
  run_target "$target" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$parallel" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
