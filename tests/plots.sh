#!/usr/bin/env bash
# analysis/plots/plot.py draws the knee curve of a sweep and a run's histogram and utilisation plots
# as PNG files, and reports the knee it marked.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
python=/usr/bin/python3  # Debian's, which has python3-matplotlib
[ -x "$python" ] || python=python3
plot=$repo/analysis/plots/plot.py
is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }

"$sonicsim" sweep "$repo/scenarios/protodune-2021-sonic.json" --set /workload/jobs=100:400:100 --set '/simulation/outputs=[[]]' \
  --quiet --output "$work/sweep"
out=$("$python" "$plot" sweep "$work/sweep/sweep.csv" --x /workload/jobs --out "$work/knee.png" 2>&1); rc=$?
# Flat to 200 jobs (t_SONIC knee at 270), 11% slower at 300: the knee is marked at 200.
if [ $rc -eq 0 ] && is_png "$work/knee.png" && [[ "$out" == *"knee at /workload/jobs = 200"* ]]; then pass
else fail "sweep plot: $rc $out"; fi

"$sonicsim" run "$repo/scenarios/protodune-2021-sonic.json" --quiet --set /workload/jobs=20 --output "$work/run"
if "$python" "$plot" run "$work/run" --out-dir "$work/plots" > /dev/null; then
  for f in event_time_histogram gpu_utilization link_utilization; do
    if is_png "$work/plots/$f.png"; then pass; else fail "$f.png missing or not a PNG"; fi
  done
else fail "run plots failed"; fi

out=$("$python" "$plot" sweep "$work/nowhere.csv" --x /workload/jobs --out "$work/x.png" 2>&1); rc=$?
if [ $rc -ne 0 ] && [[ "$out" == *"nowhere.csv"* ]]; then pass; else fail "missing file: $rc $out"; fi

finish
