# Shared by the Slurm tests (sourced): a private Slurm's configuration and daemons, with no
# authentication daemon, no cgroups and no accounting, everything in one directory.

# slurm_conf FILE DIR CONTROLLER CTLD_PORT SLURMD_PORT NODE-LINE...: writes the
# configuration; CONTROLLER is "name(address)"; %n in the slurmd paths keeps several
# slurmd apart.  Each node's temporary directory (TmpFS), where Slurm's PMIx plugin makes a
# directory named after the job and step only, is DIR's own: the jobs of a private Slurm are
# numbered from 1, and another's on this machine (or one killed, whose directories stay in
# /tmp) would collide with them.
slurm_conf() {
  local file=$1 dir=$2 controller=$3 ctld_port=$4 slurmd_port=$5 line
  shift 5
  mkdir -p "$dir/state" "$dir/spool"
  for line in "$@"; do
    line=${line#NodeName=}
    mkdir -p "$dir/tmp/${line%% *}"
  done
  {
    cat <<EOC
ClusterName=tandemtest
SlurmctldHost=$controller
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.%n.pid
SlurmdLogFile=$dir/slurmd.%n.log
TmpFS=$dir/tmp/%n
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
EOC
    printf '%s\n' "$@"
    echo "PartitionName=tandem Nodes=ALL Default=YES MaxTime=10 State=UP OverSubscribe=FORCE:8"
  } >"$file"
}

# The daemons started, last first when stopping (slurmd tells the controller it is going).
slurm_daemons=()
slurm_stop() {
  local i pid
  for ((i = ${#slurm_daemons[@]} - 1; i >= 0; i--)); do
    pid=${slurm_daemons[i]}
    kill "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  slurm_daemons=()
  # A step daemon of this Slurm that outlived its slurmd (one whose step failed to launch
  # can stay): known by the configuration it was started with.
  for pid in $(pgrep -x slurmstepd); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "SLURM_CONF=${SLURM_CONF:-}" &&
      kill -9 "$pid" 2>/dev/null
  done
}

# slurm_wait_idle SINFO-COMMAND...: true once every node is idle (20 s at most).
slurm_wait_idle() {
  for _ in $(seq 100); do
    [ "$("$@" -h -o %T 2>/dev/null | sort -u)" = idle ] && return 0
    sleep 0.2
  done
  return 1
}
