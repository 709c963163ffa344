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
# A module graph ("after"): names of the workload's modules, no cycle.
expect_error after_unknown 's["workload"]["modules"][1]["after"] = ["nope"]' '/workload/modules/1/after/0: no module named "nope"'
expect_error after_itself 's["workload"]["modules"][1]["after"] = ["emtrkmichelid"]' '/workload/modules/1/after/0: a module cannot wait for itself'
expect_error after_cycle 's["workload"]["modules"][0]["after"] = ["emtrkmichelid"]; s["workload"]["modules"][1]["after"] = ["non-ml-reconstruction"]' \
  '/workload/modules/0/after: the modules "non-ml-reconstruction" -> "emtrkmichelid" -> "non-ml-reconstruction" each wait for the next (a cycle)'
# "after" of another type, or NaN (not JSON: the parser names the line and column).
expect_error after_nan 's["workload"]["modules"][1]["after"] = float("nan")' 'invalid JSON: parse error at line 1, column '
expect_error after_nan_name 's["workload"]["modules"][1]["after"] = [float("nan")]' 'invalid JSON: parse error at line 1, column '
expect_error after_a_name 's["workload"]["modules"][1]["after"] = "non-ml-reconstruction"' \
  '/workload/modules/1/after: expected an array, got string "non-ml-reconstruction"'
expect_error after_an_object 's["workload"]["modules"][1]["after"] = {"module": "non-ml-reconstruction"}' \
  '/workload/modules/1/after: expected an array, got object'
expect_error after_a_number 's["workload"]["modules"][1]["after"] = [0]' '/workload/modules/1/after/0: expected a string, got number 0'
expect_error after_a_nested_list 's["workload"]["modules"][1]["after"] = [["non-ml-reconstruction"]]' \
  '/workload/modules/1/after/0: expected a string, got array'

# The request path (scenarios/README.md, "The request path"): frontend cost blocks, the clients'
# protocol, a cost per tensor of a model without listed tensors, a model's staging.
expect_error frontend_flat_and_block 's["platform"]["servers"][0]["frontend"]["grpc"] = {"per_request": "1ms"}' \
  '/platform/servers/0/frontend/grpc: expected either costs per protocol or the flat "input_bandwidth"'
expect_error frontend_no_client_block 's["platform"]["servers"][0]["frontend"] = {"http": {"per_request": "1ms"}}' \
  '/platform/servers/0/frontend: expected a "grpc" block: the clients use "grpc"'
expect_error unknown_protocol 's["workload"]["protocol"] = "grpcs"' '/workload/protocol: expected "grpc", "http", "system_shm" or "cuda_shm"'
expect_error per_tensor_without_tensors 's["platform"]["servers"][0]["frontend"]["per_input_tensor"] = "5us"' \
  '/platform/servers/0/frontend/per_input_tensor: model "emtrkmichelid" lists no input tensors'
expect_error staging_rate_for_other_memory 's["models"]["emtrkmichelid"]["staging"] = {"memory": "pageable", "host_to_device": {"pinned": "80Gbps"}}' \
  '/models/emtrkmichelid/staging/host_to_device: expected a "pageable" rate'

# A workload from a FastTimerService report (cms-particlenet-fasttimer.json): a bad report, or a bad
# setting of modules_from, is one line naming the file (the report for what is in it) and the JSON
# pointer. expect_report_error NAME REPORT-EDIT EXPECTED [--set ...]: the bundled report, edited by
# the Python in REPORT-EDIT (`r` is the report), is written as NAME-report.json and read instead.
expect_report_error() {
  local name=$1 report_edit=$2 expected=$3
  shift 3
  python3 - "$scenarios/reports/miniaod-fasttimer.json" "$work/$name-report.json" "$report_edit" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(r))
PY
  local out rc lines
  out=$("$sonicsim" run "$scenarios/cms-particlenet-fasttimer.json" --set "/workload/modules_from/fasttimer=\"$work/$name-report.json\"" \
        "$@" 2>&1 >/dev/null)
  rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [[ "$out" == *"$expected"* ]]; then pass; else fail "$name: exit $rc, $lines line(s): $out"; fi
}
expect_report_error report_missing '' 'scenarios/no-such-report.json: /: cannot open the file' --set '/workload/modules_from/fasttimer="no-such-report.json"'
expect_report_error report_wrong_type 'r["modules"][2]["time_thread"] = "3000"' 'report_wrong_type-report.json: /modules/2/time_thread: expected a number'
expect_report_error report_negative_time 'r["modules"][4]["time_thread"] = -20000.0' \
  'report_negative_time-report.json: /modules/4/time_thread: expected a number >= 0'
expect_report_error report_zero_events 'r["total"]["events"] = 0' 'report_zero_events-report.json: /total/events: the job processed no events'
expect_report_error report_unknown_offload '' \
  'cms-particlenet-fasttimer.json: /workload/modules_from/offload/pfParticleNetAK8JetTags: no module labelled "pfParticleNetAK8JetTags"' \
  --set '/workload/modules_from/offload/pfParticleNetAK8JetTags={"model": "particlenet", "request": {}}'
expect_report_error report_group_wrong_type '' \
  'cms-particlenet-fasttimer.json: /workload/modules_from/group: expected "all", "type" or "module" (or an object of named groups), got number' \
  --set /workload/modules_from/group=3

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

# The same with the other name of the key than the file gives (cms-t2-waves says "gpu"): the --set
# replaces the file's value, as the first did. Only a file that gives both names is refused.
waves=(--quiet --set /workload/jobs=4 --set /workload/submit/jobs_per_wave=2 --set /workload/events_per_job=20)
err=$("$sonicsim" run "$scenarios/cms-t2-waves.json" "${waves[@]}" --set /platform/servers/0/device=T4 2>&1 >/dev/null); rc=$?
if [ $rc -eq 0 ] && [ "$err" = 'sonicsim: warning: server group "triton-h100": GPU type "T4" changes nothing: model "particlenet" gives one kernel_latency for every GPU (set its kernel_latency_by_gpu for per-type latencies)' ]
then pass; else fail "--set device on a file that says gpu: $rc $err"; fi
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); s["platform"]["servers"][0]["device"]="T4"; print(json.dumps(s))' \
  "$scenarios/cms-t2-waves.json" > "$work/both-names.json"
err=$("$sonicsim" run "$work/both-names.json" "${waves[@]}" 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && [[ "$err" == *'both-names.json: /platform/servers/0/gpu: give "device" or its older name "gpu", not both' ]]
then pass; else fail "a file with both names: $rc $err"; fi

# A device type the model has no latency for: the message lists those it has, each with its
# calibration file (read here from the file, sorted as the message sorts them).
have=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["models"]["particlenet"]["kernel_latency_by_device"]; k=[t + " (calibrated: " + d[t]["file"] + ")" for t in sorted(d)]; print(", ".join(k[:-1]) + " and " + k[-1])' \
       "$scenarios/cms-particlenet-gpus.json")
err=$("$sonicsim" run "$scenarios/cms-particlenet-gpus.json" --quiet --set /platform/servers/0/device=T4 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && [[ "$err" == *'/models/particlenet: no kernel latency for device type "T4" (served by server group "gpu"): kernel_latency_by_device has '"$have"' only' ]]
then pass; else fail "no latency for the device: $rc $err (expected the list $have)"; fi

# A misspelt option gets the nearest of the command's own options; one far from all of them, none.
err=$("$sonicsim" validate "$scenarios/protodune-2021-sonic.json" log.csv --tolerence event_time_mean=0.1 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$err" = "sonicsim: error: unrecognised option '--tolerence'; did you mean --tolerance?" ]; then pass
else fail "--tolerence: $rc $err"; fi
err=$("$sonicsim" run "$scenarios/protodune-2021-sonic.json" --outptu out 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$err" = "sonicsim: error: unrecognised option '--outptu'; did you mean --output?" ]; then pass
else fail "--outptu: $rc $err"; fi
err=$("$sonicsim" run "$scenarios/protodune-2021-sonic.json" --frobnicate 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$err" = "sonicsim: error: unrecognised option '--frobnicate' (sonicsim run --help lists the options)" ]; then pass
else fail "--frobnicate: $rc $err"; fi

# --version (and the version command): sonicsim's version as CMakeLists.txt's project() gives it, and
# SimGrid's as pkg-config reports the library it links.
version=$(sed -n 's/^project(sonicsim VERSION \([0-9.]*\).*/\1/p' "$scenarios/../CMakeLists.txt")
simgrid=$(pkg-config --modversion simgrid 2>/dev/null)
for flag in --version version; do
  out=$("$sonicsim" $flag 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ -n "$version" ] && [[ "$out" == "sonicsim $version (SimGrid $simgrid"* ]]; then pass
  else fail "sonicsim $flag: $rc $out (expected sonicsim $version, SimGrid $simgrid)"; fi
done

finish
