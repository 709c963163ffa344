#!/usr/bin/env bash
# analysis/plots/plot.py draws the knee curve of a sweep and a run's histogram and utilisation plots
# as PNG files, and reports the knee it marked.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
plot=$repo/analysis/plots/plot.py

# The scripts run as the README shows them, whatever python3 comes first on PATH: here a virtual
# environment without matplotlib, from which plot.py finds Debian's python3 that has it.
if python3 -m venv --without-pip "$work/venv" 2>/dev/null; then
  export PATH="$work/venv/bin:$PATH"
  if ! "$work/venv/bin/python3" -c "import matplotlib" 2>/dev/null; then pass; else fail "the venv has matplotlib"; fi
fi
is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }

# The README's sweep: two axes, so one line per WAN latency, each with its own knee and reference;
# past the 400 worker cores, 500 and 600 jobs are refused at both latencies.
"$sonicsim" sweep "$repo/scenarios/protodune-2021-sonic.json" --set /workload/jobs=100:600:100 \
  --set /platform/wan/latency=5ms,20ms --set '/simulation/outputs=[[]]' --quiet --output "$work/sweep" 2>/dev/null
out=$("$plot" sweep "$work/sweep/sweep.csv" --x /workload/jobs --out "$work/knee.png" 2>&1); rc=$?
# Flat to 200 jobs (t_SONIC knee at 270), 11% slower at 300, at either latency: a knee at 200 per line,
# each line measured from its own best point (122 s at 5 ms, 128 s at 20 ms); the axes go by their
# keys, with units.
if [ $rc -eq 0 ] && is_png "$work/knee.png" &&
  [[ "$out" == *"knee at jobs = 200 for latency = 5 ms (largest value within 5% of 121.8 s)"* ]] &&
  [[ "$out" == *"knee at jobs = 200 for latency = 20 ms (largest value within 5% of 127.9 s)"* ]]
then pass; else fail "two-axis sweep plot: $rc $out"; fi
# The refused points are marked and said, never dropped; the equal knees are drawn apart.
if [[ "$out" == *"4 failed points, marked 'x' in the grey strip at the foot (jobs = 500, 600 for latency = 5 ms; jobs = 500, 600 for latency = 20 ms): /workload/jobs: expected at most 400 jobs"* ]] &&
   [[ "$out" == *"equal knees at jobs = 200 (latency = 5 ms; latency = 20 ms): their dashed lines are drawn side by side"* ]]
then pass; else fail "failed points and equal knees not said: $out"; fi
# 10 events per job leave fewer than 20 a job after the warm-up cut: no interval (scenarios/README.md,
# "Steady state"), and the plot says so and what to change.
if [[ "$out" == *"no error bars: no point has a steady-state 95% interval"*"these points kept at most "*" events per job after the cut, and need 20"*"--set /workload/events_per_job=40"* ]]
then pass; else fail "no word on the missing error bars: $out"; fi
fig=$(python3 "$repo/tests/cli/sweep_figure.py" "$repo" refused "$work/sweep/sweep.csv" 2>&1); rc=$?
if [ $rc -eq 0 ]; then pass; else fail "the sweep figure: $fig"; fi
out=$("$plot" sweep "$work/sweep/sweep.csv" --x /workload/jobs --baseline 122.1 --tolerance 0.04 --out "$work/knee.png" 2>&1)
# Against one job's 122.1 s, 20 ms is already 4.7% slower: that line has no point within 4%.
if [[ "$out" == *"no point within 4% of the reference for latency = 20 ms"* ]]; then pass
else fail "sweep plot against a baseline: $out"; fi
# The directory for its sweep.csv, without --x (the first axis that varies), a label of our own.
out=$("$plot" sweep "$work/sweep" --label '/platform/wan/latency=WAN one-way' --out "$work/knee2.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"x: /workload/jobs (the first axis with more than one value; --x picks another)"* ]] &&
   [[ "$out" == *"knee at jobs = 200 for WAN one-way = 20 ms"* ]]
then pass; else fail "sweep plot of a directory with a label: $rc $out"; fi
out=$("$plot" sweep "$work/sweep" --label 'jobs' --out "$work/x.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == *'expected /JSON/POINTER=TEXT (e.g. /workload/jobs="grid jobs"), got "jobs"'* ]]
then pass; else fail "sweep plot --label without a pointer: $rc $out"; fi

# A failed point within the tolerance hides where the line leaves it: no knee, said so, the line
# broken there; error bars where the points have a half-width (a sweep.csv written by hand).
cat > "$work/broken.csv" <<'CSV'
point,/a,status,events,event_time_mean_s,warmup_cut_events,steady_event_time_mean_s,steady_event_time_half_width_s,error
0,1,ok,1000,100,10,100.5,1.5,
1,2,ok,1000,100.2,10,100.4,2,
2,3,failed,,,,,,x.json: /a: refused
3,4,ok,1000,101,10,,,
4,5,ok,1000,150,10,,,
CSV
out=$("$plot" sweep "$work/broken.csv" --x /a --out "$work/broken.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"no knee: within 5% up to a = 2, then the point at a = 3 failed; the knee lies past 2, not known where"* ]] &&
   [[ "$out" != *"knee at"* ]] && [[ "$out" == *"error bars on 2 of 4 points; the other 2 have no steady-state 95% interval"* ]]
then pass; else fail "sweep plot with a failed point within the tolerance: $rc $out"; fi
fig=$(python3 "$repo/tests/cli/sweep_figure.py" "$repo" broken "$work/broken.csv" 2>&1); rc=$?
if [ $rc -eq 0 ]; then pass; else fail "the broken sweep's figure: $fig"; fi

# A line whose every point failed, and a failed point whose x is no number: said, never dropped.
cat > "$work/failed.csv" <<'CSV'
point,/a,/b,status,event_time_mean_s,error
0,1,x,ok,100,
1,2,x,ok,101,
2,1,y,failed,,s.json: /b: refused
3,2,y,failed,,s.json: /b: refused
4,bogus,x,failed,,s.json: /a: expected a number
CSV
out=$("$plot" sweep "$work/failed.csv" --x /a --out "$work/failed.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"every point for b = y failed: only their marks are drawn"* ]] &&
   [[ "$out" == *"2 failed points, marked '+' in the grey strip at the foot (a = 1, 2 for b = y): /b: refused"* ]] &&
   [[ "$out" == *"1 failed point (b = x): /a: expected a number; not placed: 1, as a = bogus is no number"* ]]
then pass; else fail "sweep plot of failed lines and unplaced points: $rc $out"; fi

# Time falls as devices are added: the knee is the fewest devices within 5% of the best, 6 for 400
# jobs (closed form: 400 jobs x 1.81 s of GPU per event / 122.1 s per event = 5.9 devices).
"$sonicsim" sweep "$repo/scenarios/protodune-2021-sonic.json" --set /workload/jobs=400 \
  --set /platform/servers/0/gpus_per_server=3:8:1 --set '/simulation/outputs=[[]]' --quiet --output "$work/devices"
out=$("$plot" sweep "$work/devices/sweep.csv" --x /platform/servers/0/gpus_per_server --out "$work/devices.png" 2>&1)
if is_png "$work/devices.png" && [[ "$out" == *"knee at gpus_per_server = 6 (smallest value"* ]]
then pass; else fail "falling sweep plot: $out"; fi
out=$("$plot" sweep "$work/devices/sweep.csv" --x /platform/servers/0/gpus_per_server --tolerance 5 --out "$work/x.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == *'expected a fraction below 1 (0.05) or a percentage (5%), got "5" (write 5% for a percentage)'* ]]
then pass; else fail "sweep plot --tolerance 5: $rc $out"; fi
out=$("$plot" sweep "$work/devices/sweep.csv" --x /platform/servers/0/gpus_per_server --tolerance 5% --baseline -1 --out "$work/x.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *'expected a positive number of seconds, got "-1"'* ]]; then pass; else fail "sweep plot --baseline -1: $rc $out"; fi
printf 'point,/platform/wan/latency,status,event_time_mean_s\n0,500us,ok,1\n1,1ms,ok,2\n' > "$work/mixed.csv"
out=$("$plot" sweep "$work/mixed.csv" --x /platform/wan/latency --out "$work/x.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *'column "/platform/wan/latency": its values mix units (ms, us); sweep it in one unit'* ]]
then pass; else fail "sweep plot of mixed units: $rc $out"; fi
out=$("$plot" sweep "$work/devices/sweep.csv" --x /platform/wan/latency --out "$work/x.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--x /platform/wan/latency is not a swept pointer (the sweep's axes: /workload/jobs, /platform/servers/0/gpus_per_server, /simulation/outputs)"* ]]
then pass; else fail "sweep plot of an axis not swept: $rc $out"; fi

"$sonicsim" run "$repo/scenarios/protodune-2021-sonic.json" --quiet --set /workload/jobs=20 --output "$work/run"
if "$plot" run "$work/run" --out-dir "$work/plots" > /dev/null; then
  for f in event_time_histogram gpu_utilization link_utilization; do
    if is_png "$work/plots/$f.png"; then pass; else fail "$f.png missing or not a PNG"; fi
  done
else fail "run plots failed"; fi

# A run that wrote only some tables: the plots of those, and a line naming each missing table and the
# output that writes it; with none of them, one line and exit code 2.
"$sonicsim" run "$repo/scenarios/protodune-2021-sonic.json" --quiet --set /workload/jobs=5 \
  --set '/simulation/outputs=["batches"]' --output "$work/run-batches"
out=$("$plot" run "$work/run-batches" --out-dir "$work/plots-batches" 2>&1); rc=$?
if [ $rc -eq 0 ] && is_png "$work/plots-batches/gpu_utilization.png" &&
  [[ "$out" == *'has no events.csv: the event-time histogram is left out; the run writes it with "events" in /simulation/outputs'* ]]
then pass; else fail "run plots without events.csv: $rc $out"; fi
"$sonicsim" run "$repo/scenarios/protodune-2021-sonic.json" --quiet --set /workload/jobs=5 \
  --set '/simulation/outputs=[]' --output "$work/run-none"
out=$("$plot" run "$work/run-none" --out-dir "$work/plots-none" 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == *"no events.csv, batches.csv or requests.csv to plot"* ]]
then pass; else fail "run plots without tables: $rc $out"; fi

# The waves of scenarios/cms-t2-waves.json (first 100 jobs): least_request loads the 4 GPUs evenly
# in every 300 s bin, per_job less so; the plot has a panel per run.
for lb in least_request per_job; do
  "$sonicsim" run "$repo/scenarios/cms-t2-waves.json" --quiet --set /workload/jobs=100 \
    --set "/platform/load_balancing=\"$lb\"" --output "$work/waves-$lb"
done
out=$("$plot" gpus "$work/waves-least_request" "$work/waves-per_job" --labels least_request,per_job --out "$work/gpus.png" 2>&1)
rc=$?
if [ $rc -eq 0 ] && is_png "$work/gpus.png" && python3 - "$out" <<'PY'
import re, sys
cv = {m[0]: (float(m[1]), float(m[2])) for m in re.findall(r"(\w+): 4 GPUs; CV of whole-run busy time ([\d.]+); CV per 300 s bin ([\d.]+) mean", sys.argv[1])}
print(cv)
even = cv["least_request"][0] < 0.05 and cv["least_request"][1] < 0.02
sys.exit(0 if even and cv["per_job"][1] > 2 * cv["least_request"][1] else 1)
PY
then pass; else fail "per-GPU plot: $rc $out"; fi

# The autoscaled CMS farm shrunk as in plan.sh (60 jobs, a GPU-bound kernel): replicas rise to the
# 3 allowed, and the plot of replicas, metric and per-event time is drawn.
"$sonicsim" run "$repo/scenarios/cms-t2-autoscaling.json" --quiet --set /workload/jobs=60 --set /workload/submit/jobs_per_wave=60 \
  --set /workload/events_per_job=300 --set /platform/servers/0/autoscaling/max_replicas=3 \
  --set '/models/particlenet/kernel_latency={"type":"affine","intercept":"5ms","per_item":"1ms"}' \
  --set '/simulation/outputs=["events","timeseries"]' --output "$work/autoscaled"
out=$("$plot" timeseries "$work/autoscaled" --threshold 20 --out "$work/autoscaling.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && is_png "$work/autoscaling.png" && [[ "$out" == *"most replicas ready at once 3;"* ]]; then pass
else fail "timeseries plot: $rc $out"; fi
# Without --threshold, the run's own (the autoscaler's 20, from summary.json) is drawn and counted.
with_flag=$(echo "$out" | sed -n 's/.*\(metric above the threshold [^;]*\)$/\1/p')
out=$("$plot" timeseries "$work/autoscaled" --out "$work/autoscaling.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"metric above the threshold 20 in "* ]] && [ -n "$with_flag" ] && [[ "$out" == *"$with_flag"* ]]
then pass; else fail "timeseries plot, threshold from the summary: $rc $out"; fi

# Prometheus exports over that run: no time is drawn that the terminal calls without a value.
# Two deployments' ready replicas, 2 and 1, the first's sample at 20 s "NaN": at 20 s only the
# second has a value, 1, drawn hollow (from some series only, as validate compares it).
printf '%s' '{"status":"success","data":{"resultType":"matrix","result":[
  {"metric":{"__name__":"kube_deployment_status_replicas_ready","deployment":"a"},"values":[[0,"2"],[10,"2"],[20,"NaN"],[30,"2"]]},
  {"metric":{"__name__":"kube_deployment_status_replicas_ready","deployment":"b"},"values":[[0,"1"],[10,"1"],[20,"1"],[30,"1"]]}]}}' \
  > "$work/ready-nan.json"
out=$("$plot" prometheus "$work/autoscaled" "$work/ready-nan.json" --out "$work/prom.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"ready: 8 samples of 2 series at 4 times; drawn at 4, 1 of them hollow (from some series only"*"; no value at 0; samples without a value: 1 NaN, 0 a counter's first (no rate yet); 0 counter resets"* ]] &&
   python3 "$repo/tests/cli/prometheus_figure.py" "$repo" "$work/autoscaled" "$work/ready-nan.json" 0:3,10:3,30:3 20:1 -
then pass; else fail "Prometheus plot of a NaN beside a value: $rc $out"; fi
# The 30 s, 2-pod counter fixture: the counters' first samples (0 s, and 30 s after the NaN at 25 s)
# have no rate and 25 s none at all: 3 times with no value, not drawn; drawn: (40 - 0)/5 + (30 - 0)/5
# = 14/s at 5 s, (85 - 40)/5 + (64 - 30)/5 = 15.8/s at 10 s, and the restart to 12 over 5 s, 2.4/s,
# at 15 s (pod triton-1 gone).
fixture=$repo/tests/data/logs/prometheus_requests.json
out=$("$plot" prometheus "$work/autoscaled" "$fixture" --out "$work/prom.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"requests_per_s: 9 samples of 2 series at 6 times; drawn at 3; no value at 3 (ticks at the foot, not drawn); samples without a value: 1 NaN, 3 a counter's first (no rate yet); 1 counter resets"* ]] &&
   python3 "$repo/tests/cli/prometheus_figure.py" "$repo" "$work/autoscaled" "$fixture" 5:14,10:15.8,15:2.4 - 0,25,30
then pass; else fail "Prometheus plot of the counter fixture: $rc $out"; fi

# Bad input to the timeseries plot: one line, exit code 2.
mkdir -p "$work/empty" && echo "time_s,pending,starting,ready,draining,desired,metric" > "$work/empty/timeseries.csv"
out=$("$plot" timeseries "$work/empty" --out "$work/e.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"no rows"* ]] && [ "$(echo "$out" | wc -l)" -eq 1 ]; then pass; else fail "empty timeseries: $rc $out"; fi
out=$("$plot" timeseries "$work/autoscaled" --threshold nan --out "$work/e.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--threshold"* ]]; then pass; else fail "NaN threshold: $rc $out"; fi

# tau(batch) of latency model files: two published ParticleNet models in one figure; a file that is
# not a latency model gets one line and exit 2, as do labels that do not match the models.
models="$repo/calibration/models/published"
out=$("$plot" latency "$models/amd-instinct-mi100_particlenet_pytorch.json" "$models/nvidia-a100-40gb_particlenet_pytorch.json" \
  --out "$work/tau.png" 2>&1); rc=$?
if [ $rc -eq 0 ] && is_png "$work/tau.png" && [[ "$out" == *"2 latency models"* ]]; then pass; else fail "latency plot: $rc $out"; fi
out=$("$plot" latency "$repo/scenarios/cms-particlenet-gpus.json" --out "$work/e.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *'/format: expected "sonicsim latency model v1"'* ]] && [ "$(echo "$out" | wc -l)" -eq 1 ]; then pass
else fail "latency plot of a scenario: $rc $out"; fi
out=$("$plot" latency "$models/nvidia-t4_particlenet_onnxruntime.json" --labels a,b --out "$work/e.png" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"--labels: expected as many names as models (1), got 2"* ]]; then pass; else fail "latency labels: $rc $out"; fi

out=$("$plot" sweep "$work/nowhere.csv" --x /workload/jobs --out "$work/x.png" 2>&1); rc=$?
if [ $rc -ne 0 ] && [[ "$out" == *"nowhere.csv"* ]]; then pass; else fail "missing file: $rc $out"; fi

# With no interpreter that has the module, one line names the interpreter and the package.
out=$(python3 -c "import sys; sys.path.insert(0, '$repo/analysis'); import python_interpreter; python_interpreter.require('no_such_module_x', 'python3-no-such', 'x.py')" 2>&1); rc=$?
if [ $rc -ne 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ "$out" == "x.py: error: no_such_module_x is not installed for "*"install python3-no-such"* ]]; then pass
else fail "missing module message: $rc $out"; fi

finish
