#!/usr/bin/env bash
# sonicsim sweep: 100 points on 2 processes, killed halfway, resumed without rerunning finished
# points; a failing point is reported without losing the others; results do not depend on --jobs;
# points the scenario's checks refuse are found, and said once per reason, before any point runs.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
scenario=$repo/scenarios/protodune-2021-sonic.json
grid=(--set /workload/events_per_job=1:10:1 --set /platform/wan/latency=1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms,10ms
      --set /simulation/outputs=[[]] --jobs 2 --output "$work/grid")

# 1. Start, kill the whole process group once some points are done, then resume.
setsid "$sonicsim" sweep "$scenario" "${grid[@]}" --quiet &
pid=$!
for _ in $(seq 1 600); do
  done_now=$(find "$work/grid/points" -name '*.json' 2>/dev/null | wc -l)
  [ "$done_now" -ge 30 ] && break
  sleep 0.05
done
kill -KILL -- -"$pid" 2>/dev/null
wait "$pid" 2>/dev/null
finished=$(find "$work/grid/points" -name '*.json' | wc -l)
if [ "$finished" -gt 0 ] && [ "$finished" -lt 100 ]; then pass; else fail "the kill came at $finished of 100 points"; fi
stat -c '%n %y' "$work"/grid/points/*.json | sort > "$work/before.txt"

out=$("$sonicsim" sweep "$scenario" "${grid[@]}" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"100 points, $finished already done, running $((100 - finished))"* ]]; then pass
else fail "resume: exit $rc: $out"; fi
stat -c '%n %y' $(cut -d' ' -f1 "$work/before.txt") | sort > "$work/after.txt"
if cmp -s "$work/before.txt" "$work/after.txt"; then pass; else fail "a finished point was run again"; fi
if python3 - "$work/grid/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 100 and all(r["status"] == "ok" for r in rows), "not 100 ok rows"
# One job alone: every event takes the same time however many events it runs, and a longer WAN
# latency makes each event slower.
by = {(int(r["/workload/events_per_job"]), int(r["/platform/wan/latency"][:-2])): float(r["event_time_mean_s"]) for r in rows}
for lat in range(1, 11):
    times = [by[(e, lat)] for e in range(1, 11)]
    assert max(times) - min(times) < 1e-9 * times[0], (lat, times)
assert all(by[(1, lat + 1)] > by[(1, lat)] for lat in range(1, 10))
print(f"per-event time {by[(1, 1)]:.3f} s at 1 ms, {by[(1, 10)]:.3f} s at 10 ms one-way WAN latency")
PY
then pass; else fail "sweep.csv content"; fi

# 2. A point that fails (0 jobs is invalid) is reported; the others still run; exit code 1.
out=$("$sonicsim" sweep "$scenario" --set /workload/jobs=1,0,2 --set /simulation/outputs=[[]] --quiet --output "$work/bad" 2>&1)
rc=$?
if [ $rc -eq 1 ] && python3 - "$work/bad/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["status"] for r in rows] == ["ok", "failed", "ok"], [r["status"] for r in rows]
assert "/workload/jobs: expected an integer >= 1" in rows[1]["error"], rows[1]["error"]
PY
then pass; else fail "failed point: exit $rc: $out"; fi

# 3. Same grid on one process: the same table, byte for byte.
"$sonicsim" sweep "$scenario" --set /workload/jobs=1,2,3 --set /simulation/outputs=[[]] --jobs 1 --quiet --output "$work/one"
"$sonicsim" sweep "$scenario" --set /workload/jobs=1,2,3 --set /simulation/outputs=[[]] --jobs 2 --quiet --output "$work/two"
if cmp -s "$work/one/sweep.csv" "$work/two/sweep.csv"; then pass; else fail "sweep.csv depends on --jobs"; fi

# 4. A directory holding another sweep is not overwritten.
out=$("$sonicsim" sweep "$scenario" --set /workload/jobs=4 --output "$work/one" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$out" == *"holds a different sweep"* ]]; then pass; else fail "foreign directory: $rc $out"; fi

# 5. A sweep over an autoscaler's knob: the usage columns appear, and more replicas cost more
# GPU-hours on the GPU-bound shrunk CMS farm of plan.sh (one replica: 1.2 s per event).
"$sonicsim" sweep "$repo/scenarios/cms-t2-autoscaling.json" --set /platform/servers/0/autoscaling/max_replicas=1,3 \
  --set /workload/jobs=60 --set /workload/submit/jobs_per_wave=60 --set /workload/events_per_job=300 \
  --set '/models/particlenet/kernel_latency=[{"type":"affine","intercept":"5ms","per_item":"1ms"}]' \
  --set /simulation/outputs=[[]] --quiet --output "$work/autoscaled"
if python3 - "$work/autoscaled/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
one, three = (float(r["gpu_hours"]) for r in rows)
assert [r["status"] for r in rows] == ["ok", "ok"], rows
assert float(rows[0]["mean_ready_replicas"]) == 1.0 and float(rows[1]["mean_ready_replicas"]) > 1.5, rows
assert three > one and float(rows[1]["event_time_mean_s"]) < float(rows[0]["event_time_mean_s"]), rows
assert rows[0]["cost_per_event"] != "" and rows[0]["jobs_gated"] != "", rows
PY
then pass; else fail "autoscaled sweep columns"; fi
if ! head -1 "$work/one/sweep.csv" | grep -q gpu_hours; then pass; else fail "usage columns in a sweep without Prometheus"; fi

# 6. Points the scenario's checks refuse are found before any point runs. ProtoDUNE's 50 nodes of 8
#    cores hold 400 jobs, one per core (scenarios/README.md), so 401 and 402 jobs are refused at both
#    latencies: 4 of the 8 points, said once, grouped, before the 4 others run (their .error files
#    are older than every result, on one process); sweep.csv has them failed with the reason; exit 1.
refusing=(--set /workload/jobs=399:402:1 --set /platform/wan/latency=5ms,20ms --set /workload/events_per_job=1
          --set /simulation/outputs=[[]] --jobs 1 --output "$work/refused")
out=$("$sonicsim" sweep "$scenario" "${refusing[@]}" 2>&1); rc=$?
reason="/workload/jobs: expected at most 400 jobs"
grouped="4 points (/workload/jobs=401,402 at every /platform/wan/latency): $scenario: $reason"
if [ $rc -eq 1 ] && [[ "$out" == *"4 of 8 points refused by the scenario's checks"*"$grouped"*"running 4 with 1 process"* ]] &&
   [ "$(grep -c "$reason" <<<"$out")" -eq 1 ]
then pass; else fail "refused points: exit $rc: $out"; fi
newest_error=$(stat -c '%.9Y' "$work"/refused/points/*.error | sort -n | tail -1)
oldest_result=$(stat -c '%.9Y' "$work"/refused/points/*.json | sort -n | head -1)
if [ "$(ls "$work"/refused/points/*.error | wc -l)" -eq 4 ] && [ "$(ls "$work"/refused/points/*.json | wc -l)" -eq 4 ] &&
   python3 -c "import sys; sys.exit(not $newest_error <= $oldest_result)"
then pass; else fail "the refused points were not recorded before the others ran"; ls -l --time-style=full-iso "$work"/refused/points; fi
if python3 - "$work/refused/sweep.csv" "$reason" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r["/workload/jobs"], r["status"]) for r in rows] == [(j, s) for j, s in
    [("399", "ok"), ("400", "ok"), ("401", "failed"), ("402", "failed")] for _ in range(2)], rows
assert all(sys.argv[2] in r["error"] for r in rows if r["status"] == "failed"), rows
PY
then pass; else fail "sweep.csv of the refused points"; fi
# Rerun: nothing runs again, the refusal is said again, the table is the same.
cp "$work/refused/sweep.csv" "$work/refused-before.csv"
out=$("$sonicsim" sweep "$scenario" "${refusing[@]}" 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"$grouped"*"8 points, 4 already done, 4 refused, running 0"* ]] &&
   cmp -s "$work/refused/sweep.csv" "$work/refused-before.csv"
then pass; else fail "resumed sweep with refused points: exit $rc: $out"; fi

# 7. Every point refused: nothing to run is bad input, one line per reason (here one), exit code 2,
#    and no directory left behind.
out=$("$sonicsim" sweep "$scenario" --set /workload/jobs=401:1000:1 --output "$work/all-refused" 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [ ! -e "$work/all-refused" ] &&
   [[ "$out" == "sonicsim: error: all 600 points refused by the scenario's checks, none run: 600 points (/workload/jobs=401..1000): $scenario: $reason"* ]]
then pass; else fail "every point refused: exit $rc: $out"; fi

finish
