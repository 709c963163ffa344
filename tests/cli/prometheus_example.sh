#!/usr/bin/env bash
# The bundled Prometheus example (scenarios/examples/prometheus-cms-t2-simulated/) is what its README
# says: the exports of cms-t2-autoscaling's run with its own seed, made by the commands it shows,
# byte for byte; and the README's validate command passes against that run, read with --run.
# The run is the ctest fixture cms_t2_autoscaling_run (the README's command, whose
# /simulation/outputs only leaves jobs.csv out).
set -u
sonicsim=$1
repo=$2
run=$3  # sonicsim run scenarios/cms-t2-autoscaling.json --quiet --output DIR
source "$(dirname "$0")/harness.sh"
example=$repo/scenarios/examples/prometheus-cms-t2-simulated
columns=(ready requests_per_s metric queue_ms gpu_utilization)

cd "$work" || exit 1
python3 "$repo/analysis/validation/timeseries_to_prometheus.py" "$run/timeseries.csv" --out-dir prom >/dev/null
for c in "${columns[@]}"; do
  if cmp -s "prom/$c.json" "$example/$c.json"; then pass
  else fail "$example/$c.json is not what the run exports (results changed on purpose? make it again as $example/README.md shows)"; fi
done

logs=("$example/ready.json")
for c in "${columns[@]:1}"; do logs+=("$c=$example/$c.json"); done
out=$("$sonicsim" validate "$repo/scenarios/cms-t2-autoscaling.json" --run "$run" "${logs[@]}" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *"the run in $run, not simulated again"* ]] && [[ "$out" == *"all 20 metrics within their tolerance"* ]] \
   && ! echo "$out" | grep -E '^[a-zA-Z].* -?[0-9.]+%' | grep -vq ' 0\.00% '
then pass; else fail "the example against its run: $rc $out"; fi

finish
