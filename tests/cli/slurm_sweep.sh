#!/usr/bin/env bash
# sonicsim sweep --executor slurm on a real single-node Slurm cluster (tests/cli/slurm_cluster.sh):
# a 20-point sweep gives the local executor's sweep.csv byte for byte, failed points included; a
# sweep cancelled mid-way (scancel) resumes without losing or rerunning a point.
set -u
sonicsim=$1
repo=$2
source "$(dirname "$0")/harness.sh"
source "$(dirname "$0")/slurm_cluster.sh"
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: the test Slurm cluster needs root (slurmd starts jobs as their user)"
  exit 77
fi
for program in munged mungekey slurmctld slurmd sbatch squeue scancel; do
  command -v "$program" >/dev/null || { echo "FAIL $program is missing: bash scripts/setup.sh installs Slurm"; exit 1; }
done
trap 'slurm_stop; rm -rf "$work"' EXIT
chmod 755 "$work"  # munged wants every directory above its socket searchable by all
slurm_start "$work/cluster" || { fail "the Slurm cluster did not start"; tail -n 5 "$work"/cluster/*.log; finish; exit 1; }

scenario=$repo/scenarios/protodune-2021-sonic.json
# 4 x 5 points; "bogus" is no duration, so the checks refuse 4 points before any runs, the same way
# under both executors: neither runs them, and Slurm gets the other 16.
grid=(--set /workload/events_per_job=1:4:1 --set /platform/wan/latency=1ms,2ms,3ms,4ms,bogus
      --set '/simulation/outputs=[[]]')
cd "$work"

# 1. The same sweep.csv from Slurm as from local processes.
"$sonicsim" sweep "$scenario" "${grid[@]}" --jobs 2 --output local --quiet
local_rc=$?
out=$("$sonicsim" sweep "$scenario" "${grid[@]}" --executor slurm --points-per-task 2 --output on_slurm 2>&1); rc=$?
if [ $local_rc -eq 1 ] && [ $rc -eq 1 ] && [[ "$out" == *"16 points ok, 4 failed"* ]]; then pass
else fail "exit codes $local_rc (local) and $rc (slurm), expected 1 (4 points fail): $out"; fi
if cmp -s local/sweep.csv on_slurm/sweep.csv; then pass; else fail "sweep.csv differs:"; diff local/sweep.csv on_slurm/sweep.csv | head -5; fi
if [ "$(ls on_slurm/slurm/*.out | wc -l)" -eq 8 ] && [[ "$out" == *"4 of 20 points refused"*"/platform/wan/latency=bogus"* ]]
then pass; else fail "expected 8 array tasks' logs (16 points, 2 a task) and the 4 refused said: $out"; ls on_slurm/slurm; fi

# 2. Submitted without waiting, one task at a time; while it runs the local executor refuses the
#    directory; cancelled after a few points; resumed by rerunning.
out=$("$sonicsim" sweep "$scenario" "${grid[@]}" --executor slurm --array-parallelism 1 --no-wait --output cancelled 2>&1)
job=$(sed -n 's/.*submitted as Slurm job \([0-9]*\).*/\1/p' <<<"$out")
if [ -n "$job" ]; then pass; else fail "no job id in: $out"; fi
for _ in $(seq 1 300); do
  [ "$(find cancelled/points -name '*.json' | wc -l)" -ge 3 ] && break
  sleep 0.1
done
out=$("$sonicsim" sweep "$scenario" "${grid[@]}" --jobs 2 --output cancelled 2>&1); rc=$?
if [ $rc -eq 1 ] && [[ "$out" == *"is being swept by Slurm job $job"* ]]; then pass
else fail "the local executor ran beside the Slurm job: exit $rc: $out"; fi
scancel "$job"
for _ in $(seq 1 100); do
  [ -z "$(squeue --noheader --jobs="$job" 2>/dev/null)" ] && break
  sleep 0.1
done
done_before=$(find cancelled/points -name '*.json' | wc -l)
if [ "$done_before" -ge 3 ] && [ "$done_before" -lt 16 ]; then pass; else fail "the cancel came at $done_before of 16 points"; fi
"$sonicsim" sweep --collect cancelled --quiet
if grep -q "did not run: Slurm job $job, array task" cancelled/sweep.csv; then pass
else fail "the collected table does not say which points the cancelled job left"; fi
stat -c '%n %y' cancelled/points/*.json | sort > before.txt
out=$("$sonicsim" sweep "$scenario" "${grid[@]}" --executor slurm --points-per-task 4 --output cancelled 2>&1); rc=$?
errors=$(find cancelled/points -name '*.error' | wc -l)
if [ $rc -eq 1 ] && [[ "$out" == *"20 points, $done_before already done, 4 refused, running $((16 - done_before)) as a Slurm job array"* ]]; then pass
else fail "resume: exit $rc: $out"; fi
stat -c '%n %y' $(cut -d' ' -f1 before.txt) | sort > after.txt
if cmp -s before.txt after.txt; then pass; else fail "a finished point was run again"; fi
if cmp -s local/sweep.csv cancelled/sweep.csv; then pass; else fail "the resumed sweep.csv differs from the local one"; fi
if [ "$(find cancelled/points -name '*.json' | wc -l)" -eq 16 ] && [ "$errors" -eq 4 ]; then pass
else fail "expected 16 results and 4 errors after the resume"; fi

finish
