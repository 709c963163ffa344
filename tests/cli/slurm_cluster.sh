# A single-node Slurm cluster in a scratch directory, for the tests: munged, slurmctld and slurmd
# from Debian's packages, their configuration, state, sockets and logs all under $1, on free
# ports, so nothing of the machine's own Slurm (if any) is used or changed. Needs root (slurmd
# starts jobs as their user). Source it; `slurm_start DIR` exports SLURM_CONF for sbatch and
# squeue, `slurm_stop` ends the daemons by their PIDs.

slurm_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_start() {
  slurm_home=$1
  mkdir -p "$slurm_home/state" "$slurm_home/spool"
  chmod 755 "$slurm_home"  # munged wants every directory above its socket searchable by all (the caller's too)
  mungekey --create --keyfile="$slurm_home/munge.key" || return 1
  munged --socket="$slurm_home/munge.socket" --key-file="$slurm_home/munge.key" --pid-file="$slurm_home/munged.pid" \
         --log-file="$slurm_home/munged.log" --seed-file="$slurm_home/munged.seed" || return 1
  local host
  host=$(hostname -s)
  # slurm.conf(5). proctrack/linuxproc and task/none need no cgroups; cons_tres with CR_Core runs
  # one array task per core. MinJobAge: sbatch --wait polls its job at growing intervals, which it
  # keeps short of MinJobAge so as not to miss a purged record (src/sbatch/sbatch.c, _job_wait);
  # measured with the default 300 s, a sweep whose tasks had all ended after 12 s returned 30 s later
  # (slurm_sweep took 63 s), with 6 s at once (38 s).
  cat > "$slurm_home/slurm.conf" <<CONF
ClusterName=sonicsim-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$(slurm_free_port)
SlurmdPort=$(slurm_free_port)
AuthType=auth/munge
AuthInfo=socket=$slurm_home/munge.socket
CredType=cred/munge
StateSaveLocation=$slurm_home/state
SlurmdSpoolDir=$slurm_home/spool
SlurmctldPidFile=$slurm_home/slurmctld.pid
SlurmdPidFile=$slurm_home/slurmd.pid
SlurmctldLogFile=$slurm_home/slurmctld.log
SlurmdLogFile=$slurm_home/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=6
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$slurm_home/slurm.conf
  slurmctld || return 1
  slurmd || return 1
  local _
  for _ in $(seq 1 100); do
    [ "$(sinfo --noheader --format=%t 2>/dev/null)" = "idle" ] && return 0
    sleep 0.2
  done
  echo "slurm: the node did not come up; logs in $slurm_home" >&2
  return 1
}

slurm_stop() {
  [ -n "${slurm_home:-}" ] || return 0
  local daemon pids=()
  for daemon in slurmd slurmctld munged; do
    [ -s "$slurm_home/$daemon.pid" ] && pids+=("$(cat "$slurm_home/$daemon.pid")")
  done
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  local _ pid
  for _ in $(seq 1 50); do
    kill -0 "${pids[@]}" 2>/dev/null || break
    sleep 0.2
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  slurm_home=
}
