#!/usr/bin/env bash
# sonicsim calibrate end to end: the committed model file is what calibrate writes from the
# committed measurements; the bundled calibrated scenario matches its closed form; a perf_analyzer
# round trip recovers the kernel latency the simulation was given; bad inputs get clear errors.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
cd "$repo" || exit 1

# 1. The committed model file is reproduced byte for byte, except the command line that wrote it.
csv=calibration/data/nvidia-h100-80gb-hbm3_emtrkmichelid_pytorch.csv
model=calibration/models/nvidia-h100-80gb-hbm3_emtrkmichelid_pytorch.json
if "$sonicsim" calibrate "$csv" --quiet --output "$work/model.json" &&
   python3 - "$model" "$work/model.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a.pop("command"); b.pop("command")
sys.exit(0 if a == b else 1)
PY
then pass; else fail "calibrate does not reproduce $model from $csv"; fi

# 2. One job, one request in flight: the per-event time on the H100 differs from the T4 scenario by
#    exactly the difference in summed kernel time (same network, same frontend, same CPU work).
"$sonicsim" run scenarios/protodune-2021-sonic.json --quiet --set /simulation/outputs=[] --output "$work/t4"
"$sonicsim" run scenarios/protodune-h100-calibrated.json --quiet --set /simulation/outputs=[] --output "$work/h100"
if python3 - "$work" "$model" <<'PY'
import json, sys
work, model = sys.argv[1], json.load(open(sys.argv[2]))
mean = lambda name: json.load(open(f"{work}/{name}/summary.json"))["events"]["time_s"]["mean"]
points = [(p["batch"], p["latency_s"]) for p in model["forms"]["table"]["points"]]
def tau_h100(b):  # linear between measured points (1693 lies between 1024 and 2048)
    for (b0, t0), (b1, t1) in zip(points, points[1:]):
        if b0 <= b <= b1:
            return t0 + (b - b0) * (t1 - t0) / (b1 - b0)
    raise ValueError(b)
t4 = json.load(open("scenarios/protodune-2021-sonic.json"))["models"]["emtrkmichelid"]["kernel_latency"]
assert t4["type"] == "affine" and t4["intercept"].endswith("ms") and t4["per_item"].endswith("us")
tau_t4 = lambda b: float(t4["intercept"][:-2]) * 1e-3 + float(t4["per_item"][:-2]) * 1e-6 * b
requests = [1693] * 32 + [55000 - 32 * 1693]  # 55,000 patches per event in requests of 1693
expected = mean("t4") - sum(map(tau_t4, requests)) + sum(map(tau_h100, requests))
print(f"H100 per-event time {mean('h100'):.6f} s, closed form {expected:.6f} s")
sys.exit(0 if abs(mean("h100") - expected) < 1e-6 * expected else 1)
PY
then pass; else fail "the calibrated H100 scenario does not match its closed form"; fi

# 3. Band quantiles order the predictions: the 0.5% curve is no slower than the 99.5% curve.
"$sonicsim" run scenarios/protodune-h100-calibrated.json --quiet --latency-quantile 0.005 --set /workload/jobs=300 \
  --set /simulation/outputs=[] --output "$work/low"
"$sonicsim" run scenarios/protodune-h100-calibrated.json --quiet --latency-quantile 0.995 --set /workload/jobs=300 \
  --set /simulation/outputs=[] --output "$work/high"
if python3 - "$work" <<'PY'
import json, sys
s = {q: json.load(open(f"{sys.argv[1]}/{q}/summary.json")) for q in ("low", "high")}
assert s["low"]["latency_quantile"] == 0.005 and s["high"]["latency_quantile"] == 0.995
busy = lambda q: s[q]["gpu"]["utilization"]
print(f"GPU utilisation at 300 jobs: {busy('low'):.5f} (0.5% band) vs {busy('high'):.5f} (99.5% band)")
sys.exit(0 if busy("low") < busy("high") else 1)
PY
then pass; else fail "the 0.005 quantile run is not faster on the GPU than the 0.995 one"; fi

# 4. perf_analyzer round trip: simulate perf_analyzer at three batch sizes against an affine kernel
#    (1 ms + 50 us/item, no dynamic batching), write its CSVs, calibrate from them: the affine fit
#    gives back 1 ms and 50 us/item to within the microsecond truncation of the CSV.
perf=scenarios/perf-analyzer-small-requests.json
inputs=()
for b in 1 16 256; do
  "$sonicsim" run "$perf" --quiet --set /perf_analyzer/batch_size=$b --set /perf_analyzer/concurrency=[1,2] \
    --set '/models/emtrkmichelid/kernel_latency={"type":"affine","intercept":"1ms","per_item":"50us"}' \
    --set /models/emtrkmichelid/dynamic_batching=null --perf-csv "$work/perf-b$b.csv"
  inputs+=("$work/perf-b$b.csv@$b")
done
if "$sonicsim" calibrate "${inputs[@]}" --bootstrap 0 --select affine --output "$work/perf-model.json" > "$work/perf.out" &&
   python3 - "$work/perf-model.json" <<'PY'
import json, sys
affine = json.load(open(sys.argv[1]))["forms"]["affine"]
print(f"from perf_analyzer CSVs: {affine['intercept_s'] * 1e3:.4f} ms + {affine['per_item_s'] * 1e6:.4f} us/item")
sys.exit(0 if abs(affine["intercept_s"] - 1e-3) < 2e-6 and abs(affine["per_item_s"] - 50e-6) < 2e-8 else 1)
PY
then pass; else fail "the perf_analyzer round trip does not recover 1 ms + 50 us/item"; cat "$work/perf.out"; fi

# 5. Mistakes on the command line and in files: one line, exit 2, naming what was expected.
expect_error() {
  local name=$1 expected=$2; shift 2
  local out rc lines
  out=$("$sonicsim" calibrate "$@" 2>&1 >/dev/null); rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [[ "$out" == *"$expected"* ]]; then pass; else fail "$name: exit $rc: $out"; fi
}
expect_error perf_without_batch "does not record the batch size: name it" "$work/perf-b1.csv"
expect_error perf_bad_batch "expected FILE@BATCH with BATCH a positive integer" "$work/perf-b1.csv@x"
expect_error batch_on_ours "drop the @BATCH" "$csv@4"
expect_error missing_file "nowhere.csv: line 1: cannot open the file" nowhere.csv
expect_error unknown_format "scenarios/protodune-2021-sonic.json: line 1: expected \"# sonicsim calibration data v1\"" \
  scenarios/protodune-2021-sonic.json
expect_error bad_statistic "expected a latency statistic" "$csv" --statistic p90
expect_error bad_form "expected a latency form" "$csv" --select cubic
expect_error perf_p50 "use --statistic mean" "$work/perf-b1.csv@1" --statistic p50
printf '# sonicsim calibration data v1\nbatch_size,mean_s,p50_s,p99_s,stddev_s,repeats\n1,2e-4,2e-4,3e-4,1e-5,10\n2,oops,2e-4,3e-4,1e-5,10\n' > "$work/bad.csv"
expect_error bad_cell "bad.csv: line 4, column \"mean_s\": expected a number, got \"oops\"" "$work/bad.csv"

# 6. The published scans' models (calibration/models/published/) and their table are what
#    calibrate writes from the committed transcriptions today, byte for byte.
if python3 calibration/fit_published.py "$sonicsim" --check; then pass
else fail "calibration/models/published/ is stale: run python3 calibration/fit_published.py $sonicsim --plot"; fi

# 7. The posters' GPU claims (docs/reference/published-results.md §3, §4) as the models answer them
#    (calibration/models/published/README.md says the same in words): throughput ratios
#    MI100 / rival = tau_rival(b) / tau_MI100(b).
if python3 - <<'PY'
import json
def tau(stem):
    m = json.load(open(f"calibration/models/published/{stem}.json"))
    return {int(p["batch"]): p["latency_s"] for p in m["points"]}
def ratios(runtime, rival):
    mi100, other = tau(f"amd-instinct-mi100_particlenet_{runtime}"), tau(f"{rival}_particlenet_{runtime}")
    return {b: other[b] / mi100[b] for b in mi100}
small = lambda r, upto: all(v > 1 for b, v in r.items() if b <= upto) and all(v < 1 for b, v in r.items() if b > upto)
checks = {
    "AMD GPU poster on ONNX Runtime: MI100 ahead of V100 and A30 at every batch size":
        all(v > 1 for rival in ("nvidia-v100-32gb", "nvidia-a30") for v in ratios("onnxruntime", rival).values()),
    "AMD GPU poster on PyTorch: ahead of V100 everywhere; of A30 up to 32, within 10% above":
        all(v > 1 for v in ratios("pytorch", "nvidia-v100-32gb").values())
        and all((v > 1) if b <= 32 else (0.9 < v < 1.1) for b, v in ratios("pytorch", "nvidia-a30").items()),
    "Tier-2 poster: ahead of the A100 up to batch 16 (ONNX Runtime) and 32 (PyTorch), behind above":
        small(ratios("onnxruntime", "nvidia-a100-40gb"), 16) and small(ratios("pytorch", "nvidia-a100-40gb"), 32),
}
for what, ok in checks.items():
    print(("holds: " if ok else "DOES NOT HOLD: ") + what)
raise SystemExit(0 if all(checks.values()) else 1)
PY
then pass; else fail "the posters' GPU claims no longer come out as calibration/models/published/README.md says"; fi

finish
