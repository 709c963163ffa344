#!/usr/bin/env bash
# sonicsim validate round trips: logs written by sonicsim from a scenario validate with near-zero
# error against the same scenario and fail against a perturbed one; --fit finds the perturbation.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
scenario=$repo/scenarios/protodune-2021-sonic.json
jobs=(--set /workload/jobs=300)

"$sonicsim" run "$scenario" --quiet "${jobs[@]}" --set '/simulation/outputs=["events","metrics"]' --output "$work/logs"
end=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['simulated_time_s'])" "$work/logs/summary.json")
# The Prometheus counters at time 0, before any request.
printf 'nv_inference_request_success{model="emtrkmichelid",version="1"} 0\nnv_inference_count{model="emtrkmichelid",version="1"} 0\nnv_inference_exec_count{model="emtrkmichelid",version="1"} 0\nnv_inference_queue_duration_us{model="emtrkmichelid",version="1"} 0\n' \
  > "$work/logs/metrics-start.prom"
# condor_history -json of the same run: each job's span from its first event's start to its last end.
python3 - "$work/logs/events.csv" > "$work/logs/condor.json" <<'PY'
import csv, json, sys
spans = {}
for r in csv.DictReader(open(sys.argv[1])):
    s, e = float(r["start_s"]), float(r["end_s"])
    a, b = spans.get(r["job"], (s, e))
    spans[r["job"]] = (min(a, s), max(b, e))
print(json.dumps([{"ClusterId": 1, "ProcId": int(j), "JobCurrentStartDate": s, "CompletionDate": e,
                   "RemoteWallClockTime": e - s} for j, (s, e) in spans.items()], indent=1))
PY
logs=("$work/logs/events.csv" "$work/logs/condor.json" "$work/logs/metrics-start.prom@0"
      "$work/logs/metrics-cloud-t4-0.prom@$end")

# 1. Same scenario: every metric within 0.1% (the CSV's microsecond rounding and the metrics'
#    whole microseconds are all that differ), exit 0.
out=$("$sonicsim" validate "$scenario" "${logs[@]}" "${jobs[@]}" --tolerances <(echo '{"relative": 0.001, "ks": 0.01}') 2>&1)
rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"all 18 metrics within their tolerance"* ]]; then pass; else fail "round trip: $rc $out"; fi

# 1b. --run: the same logs against the run that wrote them, read from its directory instead of
#     simulated again: the same table, row for row (events.csv holds the microseconds the
#     comparison rounds to; summary.json Triton's counters and the GPU utilisation).
table=$(echo "$out" | sed -n '/^metric /,$p')
out=$("$sonicsim" validate "$scenario" "${logs[@]}" "${jobs[@]}" --run "$work/logs" --tolerances <(echo '{"relative": 0.001, "ks": 0.01}') 2>&1)
rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"the run in $work/logs, not simulated again"* ]] && [ -n "$table" ] \
   && [ "$(echo "$out" | sed -n '/^metric /,$p')" = "$table" ]
then pass; else fail "--run round trip: $rc $out"; fi
# What --run cannot compare is refused on one line, exit 2: a run without the file a log needs
# (named, with the /simulation/outputs entry that writes it), a per-job throughput log on a static
# farm (no jobs.csv), a run of another scenario or seed, and --fit (it simulates each value).
mkdir -p "$work/no-events" && cp "$work/logs/summary.json" "$work/no-events/"
expect_run_refused() {
  local name=$1 expected=$2
  shift 2
  local out rc
  out=$("$sonicsim" validate "$@" 2>&1); rc=$?
  if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == *"$expected"* ]]; then pass; else fail "$name: $rc $out"; fi
}
expect_run_refused "run without events.csv" \
  "no-events/events.csv: /: missing: event logs and condor_history need the run's events.csv, which sonicsim run --output writes where /simulation/outputs has \"events\"" \
  "$scenario" "$work/logs/events.csv" "${jobs[@]}" --run "$work/no-events"
expect_run_refused "run of another scenario" "summary.json: /scenario: the run in $work/logs is of scenario \"protodune-2021-sonic\", not of" \
  "$repo/scenarios/protodune-2021-cpu-only.json" "$work/logs/events.csv" --run "$work/logs"
expect_run_refused "run of another seed" "summary.json: /seed: the run used seed 2021, the scenario 7" \
  "$scenario" "$work/logs/events.csv" "${jobs[@]}" --set /simulation/seed=7 --run "$work/logs"
expect_run_refused "--run with --fit" "--fit simulates each value it tries; it does not go with --run" \
  "$scenario" "$work/logs/events.csv" --fit /workload/modules/0/time=100s,110s --run "$work/logs"
expect_run_refused "--run of no directory" "no-such-run: /: not a directory" "$scenario" "$work/logs/events.csv" --run "$work/no-such-run"

# 2. A perturbed scenario (non-ML CPU 110 s -> 125 s) fails, exit 1.
out=$("$sonicsim" validate "$scenario" "${logs[@]}" "${jobs[@]}" --set /workload/modules/0/time=125s 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"outside their tolerance"* ]] && [[ "$out" == *"event time KS statistic"*"FAIL"* ]]; then pass
else fail "perturbed: $rc $out"; fi

# 3. --fit recovers the CPU time the logs were made with.
out=$("$sonicsim" validate "$scenario" "$work/logs/events.csv" "${jobs[@]}" --fit /workload/modules/0/time=100s,105s,110s,115s,120s 2>&1)
rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"best: /workload/modules/0/time = 110s"* ]]; then pass; else fail "fit: $rc $out"; fi

# 4. perf_analyzer logs against a perf_analyzer scenario: its own CSV validates exactly; a foreign
#    profile export (2-4 ms latencies at concurrency 1 and 2) is read and fails.
perf=$repo/scenarios/perf-analyzer-small-requests.json
"$sonicsim" run "$perf" --quiet --set /perf_analyzer/concurrency=[1,2] --perf-csv "$work/perf.csv"
out=$("$sonicsim" validate "$perf" "$work/perf.csv" --set /perf_analyzer/concurrency=[1,2] 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"p99 latency (us) at Concurrency 2 "*"0.00%"*"all 6 metrics within"* ]]; then pass
else fail "perf CSV round trip: $rc $out"; fi
out=$("$sonicsim" validate "$perf" "$repo/tests/data/logs/perf_profile.json" --set /perf_analyzer/concurrency=[1,2] 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"latency at concurrency 2 KS statistic"* ]]; then pass; else fail "perf profile: $rc $out"; fi

# 5. A per-job throughput log (one events/s value per line, as the CMS Mini-AOD SONIC tests wrote
#    it) made from the run's events.csv: each job's events over its span from its first event's
#    start to its last event's end, which is the job's wall time in a static farm. Against the same
#    scenario every metric is within 1e-6 (the CSV's microsecond rounding of ~1200 s jobs) and the
#    KS statistic is at most one job in 300 (values that close can swap places); the perturbed
#    scenario (CPU 110 s -> 125 s, jobs some 12% slower) fails its median, exit 1.
python3 - "$work/logs/events.csv" > "$work/logs/rates.txt" <<'PY'
import csv, sys
spans, events = {}, {}
for r in csv.DictReader(open(sys.argv[1])):
    s, e = float(r["start_s"]), float(r["end_s"])
    a, b = spans.get(r["job"], (s, e))
    spans[r["job"]] = (min(a, s), max(b, e))
    events[r["job"]] = events.get(r["job"], 0) + 1
print("# per-job events/s of a sonicsim run (tests/cli/validation.sh)")
for job, (s, e) in spans.items():
    print(repr(events[job] / (e - s)))
PY
out=$("$sonicsim" validate "$scenario" "$work/logs/rates.txt" "${jobs[@]}" --tolerances <(echo '{"relative": 1e-6, "ks": 0.0034}') 2>&1)
rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"job throughput p10 (events/s)"*"all 6 metrics within their tolerance"* ]]; then pass
else fail "per-job throughput round trip: $rc $out"; fi
out=$("$sonicsim" validate "$scenario" "$work/logs/rates.txt" "${jobs[@]}" --set /workload/modules/0/time=125s 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"job throughput p50 (events/s)"*"FAIL"* ]] && [[ "$out" == *"job throughput KS statistic"*"FAIL"* ]]
then pass; else fail "per-job throughput, perturbed: $rc $out"; fi
expect_run_refused "per-job throughputs of a static farm's run" \
  "logs/jobs.csv: /: missing: per-job throughput logs need the run's jobs.csv, which sonicsim run writes only for batch-system and threaded workloads" \
  "$scenario" "$work/logs/rates.txt" "${jobs[@]}" --run "$work/logs"
out=$("$sonicsim" validate "$scenario" "$work/logs/rates.txt" "${jobs[@]}" --fit /workload/modules/0/time=100s,110s,120s 2>&1)
rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"by job_throughput_wasserstein"*"best: /workload/modules/0/time = 110s"* ]]; then pass
else fail "per-job throughput fit: $rc $out"; fi

# 6. Bad logs: a clear error naming the file, exit 2.
printf 'job,event,start_s,end_s\n0,0,1.0,soon\n' > "$work/bad.csv"
out=$("$sonicsim" validate "$scenario" "$work/bad.csv" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"bad.csv: line 2, column \"end_s\": expected a number"* ]]; then pass; else fail "bad log: $rc $out"; fi

# 7. A tolerance for a metric no comparison gives (a misspelling) is refused before any
#    simulation, on one line that lists the known names, exit 2: by flag and in a file.
out=$("$sonicsim" validate "$scenario" "$work/logs/events.csv" --tolerance event_time_p95=0.2 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == *'--tolerance: unknown metric "event_time_p95"'*"known: event_time_mean, event_time_p50,"*"perf_LOAD_inferences_per_s"* ]]
then pass; else fail "unknown --tolerance: $rc $out"; fi
echo '{"metrics": {"event_time_p99": 0.2, "queue_time_per_request": 0.3}}' > "$work/tolerances.json"
out=$("$sonicsim" validate "$scenario" "$work/logs/events.csv" --tolerances "$work/tolerances.json" 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == *'tolerances.json: /metrics/queue_time_per_request: unknown metric'*"known: "*"queue_per_request"* ]]
then pass; else fail "unknown metric in a tolerances file: $rc $out"; fi
# A perf_analyzer level's metric names its load.
out=$("$sonicsim" validate "$perf" "$work/perf.csv" --set /perf_analyzer/concurrency=[1,2] --tolerance perf_2_p99=0.5 --tolerance perf_2_p95=0.5 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *'unknown metric "perf_2_p95"'* ]]; then pass; else fail "unknown perf metric: $rc $out"; fi

# 8. A deterministic per-event time (CPU only: 330 s every event) against a log whose every event
#    took 330.000001 s: a KS statistic between two point masses (1 here, though they are a
#    microsecond apart) says nothing, so it is not applicable and the verdict rests on the other
#    metrics (errors of 3e-9), exit 0.
cpu=$repo/scenarios/protodune-2021-cpu-only.json
"$sonicsim" run "$cpu" --quiet --set /workload/jobs=3 --set '/simulation/outputs=["events"]' --output "$work/cpu"
python3 - "$work/cpu/events.csv" > "$work/cpu-log.csv" <<'PY'
import csv, sys
print("job,event,start_s,end_s")
for r in csv.DictReader(open(sys.argv[1])):
    print(f'{r["job"]},{r["event"]},{r["start_s"]},{float(r["end_s"]) + 1e-6:.6f}')
PY
out=$("$sonicsim" validate "$cpu" "$work/cpu-log.csv" --set /workload/jobs=3 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"event time KS statistic"*"n/a"*"a point mass at the log's resolution"* ]] \
   && [[ "$out" == *"all 6 metrics within their tolerance (1 not applicable)"* ]]
then pass; else fail "point masses: $rc $out"; fi
# Job 0's events a second longer in the log: the log has two times, the simulation still one, so
# KS is still not applicable (section 2 shows it applying where neither is a point mass).
python3 - "$work/cpu/events.csv" > "$work/cpu-log2.csv" <<'PY'
import csv, sys
print("job,event,start_s,end_s")
for r in csv.DictReader(open(sys.argv[1])):
    print(f'{r["job"]},{r["event"]},{r["start_s"]},{float(r["end_s"]) + (1 if r["job"] == "0" else 0):.6f}')
PY
out=$("$sonicsim" validate "$cpu" "$work/cpu-log2.csv" --set /workload/jobs=3 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"event time KS statistic"*"n/a"*"the simulation is a point mass at the log's resolution"* ]]
then pass; else fail "two times in the log, one simulated: $rc $out"; fi

# 9. Prometheus range-query exports of an autoscaled run (the CMS farm shrunk as in plots.sh: 60
#    jobs, at most 3 replicas), written from its timeseries.csv: against the same scenario every
#    series' error is ~0 (the CSV's 6 significant digits), exit 0; with the ready replicas 60 s late
#    (a farm slower to start its pods) the lag to the first new ready replica is 60 s longer and
#    the replica rows fail, exit 1.
auto=(--set /workload/jobs=60 --set /workload/submit/jobs_per_wave=60 --set /workload/events_per_job=300
      --set /platform/servers/0/autoscaling/max_replicas=3
      --set '/models/particlenet/kernel_latency={"type":"affine","intercept":"5ms","per_item":"1ms"}')
cms=$repo/scenarios/cms-t2-autoscaling.json
to_prom=$repo/analysis/validation/timeseries_to_prometheus.py
"$sonicsim" run "$cms" --quiet "${auto[@]}" --set '/simulation/outputs=["timeseries"]' --output "$work/auto"
python3 "$to_prom" "$work/auto/timeseries.csv" --out-dir "$work/prom" > /dev/null
python3 "$to_prom" "$work/auto/timeseries.csv" --out-dir "$work/prom-late" --shift ready=60 > /dev/null
exports=("$work/prom/ready.json" "metric=$work/prom/metric.json" "requests_per_s=$work/prom/requests_per_s.json"
         "queue_ms=$work/prom/queue_ms.json" "gpu_utilization=$work/prom/gpu_utilization.json")
out=$("$sonicsim" validate "$cms" "${exports[@]}" "${auto[@]}" --tolerances <(echo '{"relative": 1e-5}') 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"ready replicas, time-weighted mean"*"lag, step at 0 s to new ready (s)"*"GPU utilisation, mean abs. error"* ]] \
   && [[ "$out" == *"all 14 metrics within their tolerance"* ]]
then pass; else fail "Prometheus round trip: $rc $out"; fi
lag=$(echo "$out" | sed -n 's/^lag, step at 0 s to new ready (s) *\([0-9.]*\) .*/\1/p')
# --run: the same exports against the run's timeseries.csv (the exports' own 6 digits, so every
# error is 0), and against a copy of it with one more ready replica in every scrape: the simulated
# mean is the measured one plus exactly 1, which only reading the file can give.
out=$("$sonicsim" validate "$cms" "${exports[@]}" "${auto[@]}" --run "$work/auto" --tolerances <(echo '{"relative": 1e-9}') 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"all 14 metrics within their tolerance"* ]]; then pass; else fail "Prometheus, --run: $rc $out"; fi
mkdir -p "$work/auto-plus-one"
cp "$work/auto/summary.json" "$work/auto-plus-one/"
python3 - "$work/auto/timeseries.csv" > "$work/auto-plus-one/timeseries.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()), lineterminator="\n")
w.writeheader()
for r in rows:
    r["ready"] = str(int(r["ready"]) + 1)
    w.writerow(r)
PY
out=$("$sonicsim" validate "$cms" "$work/prom/ready.json" "${auto[@]}" --run "$work/auto-plus-one" 2>&1); rc=$?
read -r measured simulated < <(echo "$out" | sed -n 's/^ready replicas, time-weighted mean *\([0-9.]*\) *\([0-9.]*\) .*/\1 \2/p')
if [ $rc -eq 1 ] && [ -n "${simulated:-}" ] && python3 -c "import sys; sys.exit(abs($simulated - $measured - 1) > 1e-5)"
then pass; else fail "--run reads timeseries.csv: $rc ${measured:-} ${simulated:-} $out"; fi
sed -i '3s/^\([^,]*\),\([^,]*\),\([^,]*\),[^,]*,/\1,\2,\3,-1,/' "$work/auto-plus-one/timeseries.csv"
expect_run_refused "a negative ready count in timeseries.csv" \
  "auto-plus-one/timeseries.csv: line 3, column \"ready\": expected a count of ready servers from 0 to 200000" \
  "$cms" "$work/prom/ready.json" "${auto[@]}" --run "$work/auto-plus-one"
rm "$work/auto-plus-one/timeseries.csv"
expect_run_refused "run without timeseries.csv" \
  "auto-plus-one/timeseries.csv: /: missing: Prometheus exports need the run's timeseries.csv, which sonicsim run --output writes where /simulation/outputs has \"timeseries\"" \
  "$cms" "$work/prom/ready.json" "${auto[@]}" --run "$work/auto-plus-one"
out=$("$sonicsim" validate "$cms" "$work/prom-late/ready.json" "${auto[@]}" 2>&1); rc=$?
late=$(echo "$out" | sed -n 's/^lag, step at 0 s to new ready (s) *\([0-9.]*\) .*/\1/p')
if [ $rc -eq 1 ] && [ -n "$lag" ] && [ -n "$late" ] && python3 -c "import sys; sys.exit(abs(float('$late') - float('$lag') - 60) > 1e-9)" \
   && [[ "$out" == *"lag, step at 0 s to new ready (s)"*"FAIL"* ]]
then pass; else fail "Prometheus export 60 s late: $rc lag $lag late $late $out"; fi
# The overlay plot of measured and simulated series.
out=$(python3 "$repo/analysis/plots/plot.py" prometheus "$work/auto" "$work/prom-late/ready.json" \
      "requests_per_s=$work/prom/requests_per_s.json" --out "$work/prom.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -s "$work/prom.png" ] && [[ "$out" == *"ready: "*"requests_per_s: "* ]]; then pass
else fail "Prometheus overlay plot: $rc $out"; fi
# Bad exports given to the plot: one line naming the file, exit 2.
python3 -c 'print("{\"data\": " + "[" * 100000 + "]" * 100000 + "}")' > "$work/deep.json"
echo '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[0,1]]}]}}' > "$work/bare.json"
for bad in "$work/deep.json:not JSON" "ready=$work/bare.json:/data/result/0/values/0: expected [UNIX_TIME" "$work/bare.json:cannot tell which series"; do
  out=$(python3 "$repo/analysis/plots/plot.py" prometheus "$work/auto" "${bad%%:*}" --out "$work/bad.png" 2>&1); rc=$?
  if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == *"${bad#*:}"* ]]; then pass; else fail "bad export plotted: $rc $out"; fi
done

finish
