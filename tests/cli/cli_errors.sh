#!/usr/bin/env bash
# Bad scenarios get a one-line error naming the file and JSON path, and exit code 2; never a crash.
set -u
sonicsim=$1
scenarios=$2
source "$(dirname "$0")/harness.sh"

# expect_error NAME JQ-LIKE-PYTHON-EDIT EXPECTED-SUBSTRING
expect_error() {
  local name=$1 edit=$2 expected=$3
  python3 - "$scenarios/protodune-2021-sonic.json" "$work/$name.json" "$edit" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(s) if not isinstance(s, str) else s)
PY
  local out rc
  out=$("$sonicsim" run "$work/$name.json" 2>&1 >/dev/null)
  rc=$?
  local lines
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [[ "$out" == *"$name.json: "*"$expected"* ]]; then
    pass
  else
    fail "$name: exit $rc, $lines line(s): $out"
  fi
}

expect_error wrong_unit 's["platform"]["wan"]["bandwidth"] = "100GB"' '/platform/wan/bandwidth: '
expect_error bare_number 's["platform"]["wan"]["latency"] = "6"' '/platform/wan/latency: expected a duration'
expect_error missing_field 'del s["models"]["emtrkmichelid"]["max_batch_size"]' '/models/emtrkmichelid/max_batch_size: missing required field'
expect_error unknown_key 's["workload"]["jobz"] = 3' '/workload/jobz: unknown key'
expect_error negative_count 's["workload"]["jobs"] = -1' '/workload/jobs: expected an integer >= 1'
expect_error too_many_jobs 's["workload"]["jobs"] = 100000' '/workload/jobs: expected at most 400 jobs'
expect_error bad_distribution 's["workload"]["modules"][0]["time"] = {"distribution": "weibull"}' '/workload/modules/0/time/distribution'
# Multi-threaded jobs (the grid has 50 nodes of 8 cores).
expect_error zero_threads 's["workload"]["threads"] = 0' '/workload/threads: expected an integer >= 1'
expect_error zero_streams 's["workload"]["streams"] = 0' '/workload/streams: expected an integer >= 1'
expect_error fractional_streams 's["workload"]["streams"] = 2.5' '/workload/streams: expected an integer'
expect_error streams_as_text 's["workload"]["streams"] = "4"' '/workload/streams: expected an integer'
expect_error external_work_not_boolean 's["workload"]["modules"][1]["external_work"] = "yes"' '/workload/modules/1/external_work: expected true or false'
expect_error threads_beyond_a_node 's["workload"]["threads"] = 16' '/workload/threads: expected at most 8 threads'
expect_error threaded_jobs_beyond_the_nodes 's["workload"].update(threads=3, jobs=101)' '/workload/jobs: expected at most 100 jobs'
expect_error not_json 's = "{ \"name\": "' 'invalid JSON'

# Command-line mistakes.
out=$("$sonicsim" run "$work/does-not-exist.json" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"cannot open the file"* ]]; then pass; else fail "missing file: $rc $out"; fi
out=$("$sonicsim" run "$scenarios/protodune-2021-sonic.json" --set workload/jobs=2 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--set expects"* ]]; then pass; else fail "bad --set: $rc $out"; fi
out=$("$sonicsim" frobnicate 2>&1); rc=$?
if [ $rc -eq 2 ]; then pass; else fail "unknown command: $rc"; fi

# A device type set on the command line that the models' one kernel latency ignores: the run goes
# on, and one line says so.
err=$("$sonicsim" run "$scenarios/protodune-2021-sonic.json" --quiet --set /platform/servers/0/gpu=A100 2>&1 >/dev/null); rc=$?
if [ $rc -eq 0 ] && [ "$err" = 'sonicsim: warning: server group "cloud-t4": GPU type "A100" changes nothing: model "emtrkmichelid" gives one kernel_latency for every GPU (set its kernel_latency_by_gpu for per-type latencies)' ]
then pass; else fail "device type without effect: $rc $err"; fi

finish
