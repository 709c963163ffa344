#!/usr/bin/env bash
# Declared unknowns through run, sweep and plan: each run of the design against a closed form, the
# bands as the quantiles of those runs, malformed declarations as one-line errors, and the commands
# that need one value refusing them.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
protodune=$repo/scenarios/protodune-2021-sonic.json

# 1. M/D/1: Poisson requests of batch 1 at 600/s on one instance whose kernel takes tau = intercept +
#    10 us, the intercept declared between 500 and 900 us. Each run's Server Queue is
#    Pollaczek-Khinchine's mean wait for its own tau, W = rho tau / (2 (1 - rho)) with rho = 600 tau;
#    the band of the waits is their quantiles, inside the closed form's range over the declared one.
python3 - "$repo/scenarios/perf-analyzer-small-requests.json" "$work/md1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["models"]["emtrkmichelid"]
del m["dynamic_batching"]
m["max_batch_size"] = 1
m["kernel_latency"] = {"type": "affine", "per_item": "10us",
                       "intercept": {"between": ["500us", "900us"], "why": "a T4 of either clock"}}
d["perf_analyzer"] = {"model": "emtrkmichelid", "batch_size": 1, "request_rate": [600],
                      "request_distribution": "poisson", "warmup": "5s", "measurement_interval": "100s", "windows": 1}
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$sonicsim" run "$work/md1.json" --samples 8 -j 2 --bands "$work/bands.json" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"declared unknowns (1), over 8 runs"* ]] &&
   [[ "$out" == *"/models/emtrkmichelid/kernel_latency/intercept: between 500us and 900us (a T4 of either clock)"* ]] &&
   [[ "$out" == *"the nominal run (every range at its median"* ]]; then pass
else fail "run over the declared intercept: exit $rc: $out"; fi
# An unwritable --bands file fails before any run of the design: at once, no run said, exit 1.
out=$("$sonicsim" run "$work/md1.json" --samples 8 -j 2 --bands "$work/bands.json/x.json" 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"bands.json/x.json"* ]] && [[ "$out" != *"runs over the declared unknowns"* ]]; then pass
else fail "unwritable --bands: exit $rc: $out"; fi
if msg=$(python3 - "$work/bands.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rate = 600.0
def pk(tau):  # Pollaczek-Khinchine, deterministic service, in s
    rho = rate * tau
    return rho * tau / (2 * (1 - rho))
def quantile(values, q):  # linear interpolation, as the band takes it
    v = sorted(values); h = (len(v) - 1) * q; i = int(h)
    return v[i] + (h - i) * (v[min(i + 1, len(v) - 1)] - v[i])
runs = d["runs"]
assert len(runs) == 8 and d["design"]["runs"] == 8, "8 runs recorded"
names = [o["output"] for o in d["outputs"]]
queue = names.index("server queue at request rate 600")
throughput = names.index("inferences/s at request rate 600")
waits = []
for r in runs:
    assert r["unsound"] == "", r
    tau = (float(json.loads(r["values"][0])[:-2]) + 10) * 1e-6
    assert 510e-6 <= tau < 910e-6, tau
    measured = r["outputs"][queue] * 1e-6
    # ~60,000 requests: the mean wait's relative standard error is below 2% at these loads.
    assert abs(measured / pk(tau) - 1) < 0.06, f"tau {tau}: wait {measured} s, P-K {pk(tau)} s"
    assert abs(r["outputs"][throughput] / rate - 1) < 0.01, r
    waits.append(r["outputs"][queue])
band = d["outputs"][queue]
for key, q in (("p5", 0.05), ("median", 0.5), ("p95", 0.95)):
    assert abs(band[key] - quantile(waits, q)) < 1e-9 * band[key], (key, band[key], quantile(waits, q))
low, high = pk(510e-6) * 1e6, pk(910e-6) * 1e6
assert low * 0.94 < band["p5"] < band["p95"] < high * 1.06, (band, low, high)
# The strata of a Latin hypercube: one run in each eighth of the declared range.
assert sorted(int((float(json.loads(r["values"][0])[:-2]) - 500) / 50) for r in runs) == list(range(8))
assert band["first_order_index"][0]["index"] > 0.9, band
PY
); then pass; else fail "M/D/1 runs against Pollaczek-Khinchine: $msg"; fi

# A perf_analyzer load with --output: the nominal run (intercept at its median, 700 us) writes its
# requests and batches; every batch of max_batch_size 1 is one request and takes 700 + 10 us.
out=$("$sonicsim" run "$work/md1.json" --samples 3 -j 2 --set /perf_analyzer/measurement_interval=5s \
      --output "$work/perf" 2>&1); rc=$?
if [ $rc -eq 0 ] && msg=$(python3 - "$work/perf" <<'PY'
import csv, sys
batches = list(csv.DictReader(open(sys.argv[1] + "/batches.csv")))
requests = list(csv.DictReader(open(sys.argv[1] + "/requests.csv")))
assert batches and requests and all(r["request_rate"] == "600" for r in requests + batches)
assert all(b["requests"] == "1" and abs(float(b["kernel_s"]) - 710e-6) <= 1e-6 for b in batches), batches[0]
PY
); then pass; else fail "a perf load with declared unknowns and --output: exit $rc: $out $msg"; fi

# 2. Grid jobs: one ProtoDUNE job's per-event time grows linearly with the WAN latency (its requests
#    go one after another, nothing else shares the links); the runs keep their latencies, the nominal
#    run takes the median latency, summary.json carries the design.
out=$("$sonicsim" run "$protodune" --set '/platform/wan/latency={"between":["1ms","10ms"],"why":"route unknown"}' \
      --set /workload/events_per_job=2 --samples 6 -j 2 --output "$work/grid" 2>&1); rc=$?
if [ $rc -eq 0 ] && msg=$(python3 - "$work/grid/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
d = s["declared_unknowns"]
runs = d["runs"]
assert len(runs) == 6 and all(r["unsound"] == "" for r in runs)
x = [float(json.loads(r["values"][0])[:-2]) for r in runs]
y = [r["outputs"][0] for r in runs]
assert d["outputs"][0]["output"] == "mean per-event time"
slope = (y[1] - y[0]) / (x[1] - x[0])
assert slope > 0
for xi, yi in zip(x, y):
    assert abs(y[0] + slope * (xi - x[0]) - yi) < 1e-9 * yi, (xi, yi)
PY
); then pass; else fail "grid runs over the WAN latency: exit $rc: ${msg:-} $out"; fi
nominal=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print(json.dumps(s["declared_unknowns"]["unknowns"]))' "$work/grid/summary.json")
if [[ "$nominal" == *'"pointer": "/platform/wan/latency"'* && "$nominal" == *'"why": "route unknown"'* ]]; then pass
else fail "summary.json's unknowns: $nominal"; fi

# 3. sweep: every point gets its band; plan: the band of its answer over its plans.
out=$("$sonicsim" sweep "$protodune" --set '/platform/wan/latency={"between":["1ms","10ms"]}' \
      --set /workload/events_per_job=1,2 --output "$work/sweep" --quiet 2>&1); rc=$?
if [ $rc -eq 0 ] && python3 - "$work/sweep/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2
for r in rows:
    assert r["status"] == "ok"
    p5, median, p95 = (float(r[k]) for k in ("band_event_time_p5_s", "band_event_time_median_s", "band_event_time_p95_s"))
    assert p5 < median < p95 and int(r["unknowns_runs"]) >= 10, r
PY
then pass; else fail "sweep bands: exit $rc: $out"; fi
out=$("$sonicsim" plan "$protodune" --set '/platform/wan/latency={"between":["1ms","10ms"]}' --samples 3 -j 2 2>&1); rc=$?
line=$(grep "^over the declared unknowns: largest job count within tolerance" <<< "$out")
# Three plans: the 5%, 50% and 95% quantiles of three whole job counts a <= b <= c are a + 0.1 (b - a),
# b and b + 0.9 (c - b) (linear interpolation); a and c come back whole from them.
if [ $rc -eq 0 ] && python3 - "$line" <<'PY'
import re, sys
m = re.search(r"tolerance ([0-9.]+) to ([0-9.]+) jobs \(90% band of 3 plans, median ([0-9.]+)\)", sys.argv[1])
low, high, b = map(float, m.groups())
a = (low - 0.1 * b) / 0.9
c = (high - 0.1 * b) / 0.9
# Printed to 4 significant digits: job counts near 280 carry one decimal.
assert all(abs(v - round(v)) < 0.12 for v in (a, b, c)) and a <= b <= c, (a, b, c)
PY
then pass; else fail "plan over the declared unknowns: exit $rc: $out"; fi

# 4. Malformed declarations: one line naming the pointer and what was expected, exit 2.
check_error() {
  local expected=$1; shift
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <<< "$out")" -eq 1 ] && [[ "$out" == *"$expected"* ]]; then pass
  else fail "expected exit 2 and one line with '$expected': exit $rc: $out"; fi
}
check_error '/platform/wan/latency/between: expected two ends' \
  "$sonicsim" run "$protodune" --set '/platform/wan/latency={"between":["1ms"]}'
check_error '/platform/wan/latency/between: give both ends in one unit, got "ms" and "s"' \
  "$sonicsim" run "$protodune" --set '/platform/wan/latency={"between":["1ms","2s"]}'
check_error '/platform/wan/latency/distribution: expected uniform, log-uniform or triangular' \
  "$sonicsim" run "$protodune" --set '/platform/wan/latency={"between":["1ms","2ms"],"distribution":"beta"}'
check_error '/platform/wan/latency/one_of: expected a list of 2 to 1000 alternatives' \
  "$sonicsim" sweep "$protodune" --set '/platform/wan/latency={"one_of":["1ms"]}' --output "$work/bad"
# A range a value cannot take is the scenario's own error, at the run that draws it.
check_error '/platform/wan/latency' \
  "$sonicsim" run "$protodune" --set '/platform/wan/latency={"between":[-5,-1]}' --samples 2
# 5. A command that needs one value refuses the unknown and says how to give one.
check_error "/platform/wan/latency: a declared unknown (between 1ms and 10ms): \`run\`, \`sweep\` and \`plan\` propagate declared unknowns; this command needs one value: --set /platform/wan/latency=VALUE" \
  "$sonicsim" analytic "$protodune" --set '/platform/wan/latency={"between":["1ms","10ms"]}'

finish
