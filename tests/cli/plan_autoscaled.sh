#!/usr/bin/env bash
# sonicsim plan on autoscaled farms: the two ways to size one (--devices, --target-event-time) give
# one answer from the same runs, and neither answers from runs whose jobs failed.
set -u
sonicsim=$1
scenarios=$2
source "$(dirname "$0")/harness.sh"

# The Geddes values file at 800 jobs. As the values are, the chart's preStop hook sends SIGTERM at
# once (a values note says so): every scale-down refuses requests, and every one of the 800 job runs
# fails. Both modes say there is no answer, each with the notes of the values file once.
G=(--set /workload/jobs=800)
"$sonicsim" plan "$scenarios/cms-t2-geddes-values.json" "${G[@]}" --devices --tolerance 10% >"$work/broken-devices.txt" 2>&1
rc1=$?
"$sonicsim" plan "$scenarios/cms-t2-geddes-values.json" "${G[@]}" --target-event-time 0.6s --max-replicas 11 \
  >"$work/broken-target.txt" 2>&1
rc2=$?
if [ $rc1 -eq 1 ] && [ $rc2 -eq 1 ] && python3 - "$work" <<'PY'
import collections, re, sys
devices = open(f"{sys.argv[1]}/broken-devices.txt").read()
target = open(f"{sys.argv[1]}/broken-target.txt").read()
assert re.search(r"no answer: even 11 replicas \(11 GPUs\) give no sound run \(800 of 800 job runs failed", devices), devices
assert "fewest replicas within tolerance" not in devices, devices
assert re.search(r"^\s+20\s+11 .*<- unsound: 800 of 800 job runs failed", target, re.M), target
assert "no setting in the grid meets the target" in target, target
for text in (devices, target):
    notes = [l for l in text.splitlines() if l.startswith("sonicsim: note:")]
    assert any("preStop hook" in n for n in notes), text
    assert len(notes) == len(set(notes)), collections.Counter(notes).most_common(2)
print("as the values are: no answer from either mode, notes once each")
PY
then pass; else fail "Geddes values at 800 jobs: $rc1 $rc2 $(cat "$work/broken-devices.txt" "$work/broken-target.txt")"; fi

# With the preStop sleep the chart intends, the jobs finish: --devices (10% over one job alone, about
# 0.61 s) and --target-event-time 0.61s over max_replicas 3 and 4 find the same count from the same
# runs, with the same per-event time (--devices shows that one fewer is too few). The farm is a
# quarter of the 800 jobs above, two waves of 100, each event's kernel four times as long (the same
# GPU-seconds per wave, in a quarter of the requests): its closed form asks for 3 replicas, as the
# 800 jobs' does. Each probe stops at the end of a whole load cycle (tests/models/closed_form/
# test_load_cycle.cpp), never inside KEDA's scale-up after a wave.
P=(--set /workload/jobs=200 --set /workload/submit/jobs_per_wave=100 --set /models/particlenet/kernel_latency/scale=4
   --set '/platform/servers/0/autoscaling/prestop_sleep="60s"')
"$sonicsim" plan "$scenarios/cms-t2-geddes-values.json" "${P[@]}" --devices --tolerance 10% >"$work/devices.txt" 2>&1
rc1=$?
"$sonicsim" plan "$scenarios/cms-t2-geddes-values.json" "${P[@]}" --target-event-time 0.61s --max-replicas 3,4 \
  >"$work/target.txt" 2>&1
rc2=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && python3 - "$work" <<'PY'
import re, sys
devices = open(f"{sys.argv[1]}/devices.txt").read()
target = open(f"{sys.argv[1]}/target.txt").read()
fewest = int(re.search(r"fewest replicas within tolerance: (\d+) replicas? \(\d+ GPUs?\), ([\d.]+) s per event", devices).group(1))
chosen = re.search(r"cheapest setting meeting the target: threshold [\d.]+, max_replicas (\d+): ([\d.]+) s per event", target)
alone = float(re.search(r"1 job alone: ([\d.]+) s per event", devices).group(1))
print(f"--devices: {fewest} replicas; --target-event-time 0.61s: max_replicas {chosen.group(1)}; one job alone {alone} s")
assert abs(1.1 * alone - 0.61) < 0.01, alone  # the two criteria are the same time to a percent
assert fewest == int(chosen.group(1)), (devices, target)
# The same runs: each max_replicas probed by both gives the same per-event time.
by_devices = {int(n): float(t) for n, t in re.findall(r"^\s+(\d+) replicas? \(\d+ GPUs?\): ([\d.]+) s per event", devices, re.M)}
by_target = {int(m): float(e) for m, e in re.findall(r"^\s+20\s+(\d+)\s+([\d.]+)", target, re.M)}
for m in set(by_devices) & set(by_target):
    assert abs(by_devices[m] - by_target[m]) < 0.0015, (m, by_devices[m], by_target[m])
assert len(set(by_devices) & set(by_target)) >= 2, (by_devices, by_target)
# The diagnosis of one fewer names the part that grew most, by how much of the whole rise, and the
# GPUs' utilisation is over the GPU-seconds in service.
line = re.search(rf"one fewer, {fewest - 1} replicas? \(\d+ GPUs?\): (.*)", devices).group(1)
grown, total = map(float, re.search(r"([\d.]+) of the ([\d.]+) s more per event", line).groups())
one = by_devices[fewest - 1]
assert abs(total - (one - alone)) < 0.002, (line, one, alone)
assert "GPU" in devices and " in service" in devices, devices
PY
then pass; else fail "the two autoscaled plans disagree: $rc1 $rc2 $(cat "$work/devices.txt" "$work/target.txt")"; fi

# An autoscaled scenario is planned over a grid of thresholds and max replicas. The bundled CMS
# farm, shrunk to 60 jobs of 300 events with a kernel of 5 ms + 1 ms per jet (20 jets per event):
# one replica serves at most 1000 jets/s = 50 events/s at large batches, against the ~109 events/s
# 60 jobs would run at 0.55 s per event, so with max_replicas 1 the per-event time is bound by the
# GPU: 60 jobs x 20 ms = 1.2 s. Three replicas meet 0.8 s; plan picks the cheapest row that does.
S=(--set /workload/jobs=60 --set /workload/submit/jobs_per_wave=60 --set /workload/events_per_job=300
   --set '/models/particlenet/kernel_latency={"type":"affine","intercept":"5ms","per_item":"1ms"}')
out=$("$sonicsim" plan "$scenarios/cms-t2-autoscaling.json" "${S[@]}" --target-event-time 0.8s --thresholds 20,200 \
  --max-replicas 1,3 2>&1); rc=$?
if [ $rc -eq 0 ] && python3 - "$out" <<'PY'
import re, sys
text = sys.argv[1]
rows = [(float(t), int(m), float(e), float(c), "<-" not in rest) for t, m, e, h, ph, c, r, g, rest in
        re.findall(r"^\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.e+-]+)\s+([\d.]+)\s+(\d+)(.*)$", text, re.M)]
assert len(rows) == 4, text
for t, m, e, c, ok in rows:
    if m == 1:
        assert abs(e / 1.2 - 1) < 0.02 and not ok, (t, m, e)
    else:
        assert e <= 0.8 and ok, (t, m, e)
best = min((c, t, m) for t, m, e, c, ok in rows if ok)
chosen = re.search(r"cheapest setting meeting the target: threshold ([\d.]+), max_replicas (\d+)", text)
assert chosen and (float(chosen.group(1)), int(chosen.group(2))) == best[1:], (chosen, best)
print(f"autoscaling plan: {best}")
PY
then pass; else fail "autoscaling plan: $rc $out"; fi
out=$("$sonicsim" plan "$scenarios/cms-t2-autoscaling.json" "${S[@]}" --max-replicas 1 --target-event-time 0.8s 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"no setting in the grid meets the target"* ]]; then pass; else fail "unmet target: $rc $out"; fi

# --devices on an autoscaled group varies its max_replicas, as plan --help says.
out=$("$sonicsim" plan --help 2>&1 | tr -s ' \n' ' ')
if [[ "$out" == *"on an autoscaled group, the fewest max_replicas"* ]]; then pass; else fail "plan --help: $out"; fi

finish
