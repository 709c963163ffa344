#!/usr/bin/env bash
# SuperSONIC values files in: scenarios/cms-t2-geddes-values.json, which names Purdue Geddes's
# values file instead of spelling out the deployment, runs the farm of the hand-written
# scenarios/cms-t2-autoscaling.json: with the differences scenarios/README.md lists ("SuperSONIC
# values", what the file says and the hand-written scenario does not) set back to the hand-written
# values, the two runs' outputs (summary.json, jobs.csv, timeseries.csv) are byte-identical. Every site values file of SuperSONIC at
# e578801 (tests/data/supersonic/, and Geddes's in data/supersonic/ since the bundled scenario reads
# it) runs, and says what it ignores, one line per kind of value.
set -u
sonicsim=$1
repo=$2
hand_written_run=$3  # sonicsim run scenarios/cms-t2-autoscaling.json --quiet --output DIR (the ctest fixture)
source "$(dirname "$0")/harness.sh"

# The differences, in the order of scenarios/README.md's list: the scenario's name; Geddes's own
# serverLoadMetric (summed per pod) for KEDA and the gate; the preStop hook as written at e578801
# (SIGTERM at once) against the intended 60 s; the chart's 0.25 s connect timeout; KEDA's cooldown
# of so.yaml (120 s, which matters only when scaling to zero) against KEDA's default.
as_hand_written=(
  --set /name='"cms-t2-autoscaling"'
  --set /platform/servers/0/autoscaling/metric='"supersonic_load"'
  --set /platform/proxy/saturation_gate/metric='"supersonic_load"'
  --set /platform/servers/0/autoscaling/prestop_sleep='"60s"'
  --set /platform/proxy/connect_timeout='"5s"'
  --set /platform/servers/0/autoscaling/cooldown='"300s"'
)
"$sonicsim" run "$repo/scenarios/cms-t2-geddes-values.json" --quiet "${as_hand_written[@]}" --output "$work/from-values"
from_values=$?
# summary.json, and the scenario's other outputs: jobs.csv and timeseries.csv.
for output in summary.json jobs.csv timeseries.csv; do
  if [ "$from_values" -eq 0 ] && cmp "$hand_written_run/$output" "$work/from-values/$output"; then
    pass
  else
    fail "cms-t2-geddes-values.json with the listed differences set back does not give cms-t2-autoscaling.json's $output"
  fi
done

# Each site file, named by a small scenario (the files of Anvil, IceCube and the minimal examples
# request no GPU for their pods: the scenario gives devices_per_server). Every line on stderr is a
# note naming the values file; the keys the simulation leaves out are on one "ignored" line.
site_scenario() {  # FILE DEVICES: a scenario naming FILE, with devices_per_server DEVICES ("" for none)
  python3 - "$1" "$2" <<'PY'
import json, sys
group = {"name": "triton", "device": "T4", "nic": {"bandwidth": "25Gbps", "latency": "50us"}, "models": ["m"],
         "supersonic_values": sys.argv[1]}
if sys.argv[2]:
    group["devices_per_server"] = int(sys.argv[2])
print(json.dumps({
    "name": "site",
    "platform": {"worker_pools": [{"name": "w", "nodes": 1, "cores_per_node": 4, "cpu_speed": 1.0,
                                   "nic": {"bandwidth": "10Gbps", "latency": "50us"}}],
                 "site_uplink": {"bandwidth": "10Gbps", "latency": "50us"}, "servers": [group],
                 "proxy": {"nic": {"bandwidth": "100Gbps", "latency": "50us"}}},
    "models": {"m": {"input_bytes_per_item": "1kB", "output_bytes_per_item": "100B", "max_batch_size": 64,
                     "instances_per_device": 1, "kernel_latency": {"type": "affine", "intercept": "1ms", "per_item": "10us"}}},
    "workload": {"jobs": 4, "events_per_job": 5, "start": {"pattern": "all_at_once"},
                 "modules": [{"type": "cpu", "name": "reco", "time": "10ms"},
                             {"type": "inference", "name": "ml", "model": "m", "items_per_event": 10, "items_per_request": 10,
                              "preprocess": "1ms", "in_flight": 1, "cpu_fallback": "50ms"}]},
    "simulation": {"seed": 1}}))
PY
}
for site in geddes-cms:"" anvil-cms:1 nautilus-cms:"" nautilus-icecube:1 nautilus-atlas:"" minimal:1 minimal-full:1; do
  name=${site%%:*}
  file="$repo/tests/data/supersonic/values-$name.yaml"
  [ "$name" = geddes-cms ] && file="$repo/data/supersonic/values-$name.yaml"
  site_scenario "$file" "${site#*:}" > "$work/$name.json"
  "$sonicsim" run "$work/$name.json" --output "$work/site-$name" > /dev/null 2> "$work/$name.err"
  rc=$?
  notes=$(grep -c "^sonicsim: note: $file: " "$work/$name.err")
  ignored=$(grep -c "^sonicsim: note: $file: ignored, not simulated: " "$work/$name.err")
  lines=$(wc -l < "$work/$name.err")
  if [ "$rc" -eq 0 ] && [ "$notes" -eq "$lines" ] && [ "$ignored" -eq 1 ]; then
    pass
  else
    fail "values-$name.yaml: exit $rc, $lines lines on stderr of which $notes notes and $ignored \"ignored\" lines: $(head -c 600 "$work/$name.err")"
  fi
done

finish
