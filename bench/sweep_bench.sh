#!/usr/bin/env bash
# Wall time of a 100-point sweep (ProtoDUNE 2021 with 20 to 200 jobs and 1 to 10 ms of WAN
# latency; 0.1 to 1.4 s a point on one core) on 1 and 2 local processes and through Slurm, one
# point per array task and ten. With SLURM_CONF set it uses that cluster; otherwise, as root, it starts
# the single-node test cluster of tests/cli/slurm_cluster.sh for the run.
#
#   bash bench/sweep_bench.sh build/sonicsim [--partition P]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
chmod 755 "$work"
cp "$1" "$work/sonicsim"  # a copy: the array tasks must not see a rebuild mid-way
sonicsim=$work/sonicsim
shift
source "$repo/tests/cli/slurm_cluster.sh"
trap 'slurm_stop; rm -rf "$work"' EXIT
if [ -z "${SLURM_CONF:-}" ]; then slurm_start "$work/cluster"; fi
grid=(--set /workload/jobs=20:200:20 --set /platform/wan/latency=1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms,10ms
      --set '/simulation/outputs=[[]]' --quiet)
scenario=$repo/scenarios/protodune-2021-sonic.json

seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" || true  # the table is what is timed; a failed point would show in it
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.1f}')"
}

one=$(seconds "$sonicsim" sweep "$scenario" "${grid[@]}" --jobs 1 --output "$work/one")
two=$(seconds "$sonicsim" sweep "$scenario" "${grid[@]}" --jobs 2 --output "$work/two")
slurm=$(seconds "$sonicsim" sweep "$scenario" "${grid[@]}" --executor slurm "$@" --output "$work/slurm")
slurm10=$(seconds "$sonicsim" sweep "$scenario" "${grid[@]}" --executor slurm --points-per-task 10 "$@" --output "$work/slurm10")
for run in two slurm slurm10; do cmp "$work/one/sweep.csv" "$work/$run/sweep.csv"; done
echo "| executor | wall s, 100 points |"
echo "|---|---|"
echo "| local, 1 process | $one |"
echo "| local, 2 processes | $two |"
cpus=$(sinfo --noheader --format=%c | head -1)
echo "| slurm ($cpus CPUs), one point per array task | $slurm |"
echo "| slurm ($cpus CPUs), ten points per array task | $slurm10 |"
