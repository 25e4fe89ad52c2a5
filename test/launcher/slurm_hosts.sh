#!/bin/bash
# slurm_hosts.sh N: Tandem PEs launched by srun --mpi=pmix across N hosts of a private Slurm.
# Each host is a slurmd in network and UTS namespaces of its own (test/netns/netns.sh makes
# the networks: one address per host on a bridge, no loopback between hosts; its own host
# name; its own temporary directory, slurm_lib.sh's TmpFS), the controller and srun in the
# bridge's hub.  Two PEs run on each host: the rank and node check (Tandem's
# nodes must be Slurm's, which the PEs learn from PMIx alone: with N=2 both hosts have the
# same host name, as containers may, and must not be taken for one node), the RMA, atomics
# and collectives tests (between hosts only a host's own address reaches another: these pass
# only if every PE published one), the hybrid MPI + OpenSHMEM program in both orders (N=4,
# where Open MPI's mpicc builds it), shmem_global_exit, and a PE killed with SIGKILL, which must
# end the job; no PE process and no /dev/shm file may outlive a job.
#
# Skipped (77) without root, Slurm's daemons, srun's PMIx plugin, iproute2 or unshare.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm_lib.sh"

hosts=${1:?usage: slurm_hosts.sh N}
PATH=$PATH:/usr/sbin:/sbin
for cmd in slurmctld slurmd srun sinfo ip nsenter unshare; do
  command -v "$cmd" >/dev/null || skip "$cmd is not installed (Debian: slurmctld slurmd slurm-client iproute2)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd and network namespaces need root"
SHMEM_BIN=${SHMEM_BIN:-${TANDEM_BUILD:?}/test/shmem}
for p in ranks rma_types atomics collectives negative kill_target; do
  [ -x "$SHMEM_BIN/$p" ] || { fail "test program $SHMEM_BIN/$p is not built"; finish; }
done

netns=${TANDEM_SRC:?}/test/netns/netns.sh
export TANDEM_TEST_NETNS_TAG=$(($$ % 200 + 20))
octet=$((TANDEM_TEST_NETNS_TAG % 250 + 1))
hub=/var/run/netns/tandem-$TANDEM_TEST_NETNS_TAG-hub
trap 'slurm_stop; bash "$netns" down; cleanup' EXIT
bash "$netns" up "$hosts" || { fail "netns.sh could not make $hosts hosts"; finish; }

SL=$WORKDIR/slurm
export SLURM_CONF=$SL/slurm.conf
nodes=()
for ((k = 0; k < hosts; k++)); do nodes+=("NodeName=h$k NodeAddr=10.77.$octet.$((k + 1)) CPUs=2 State=UNKNOWN"); done
slurm_conf "$SLURM_CONF" "$SL" "ctl(10.77.$octet.254)" 6817 6818 "${nodes[@]}"
in_hub() { nsenter --net="$hub" "$@"; }
in_hub srun --mpi=list >"$WORKDIR/mpi" 2>&1
grep -qw pmix "$WORKDIR/mpi" || skip "srun has no PMIx plugin: $(tr '\n' ' ' <"$WORKDIR/mpi")"

# Daemons and timed commands go through nsenter itself, not in_hub: $! must be the
# daemon, and timeout runs no shell function.
nsenter --net="$hub" unshare --uts sh -c 'hostname ctl && exec slurmctld -D -c' >"$SL/slurmctld.log" 2>&1 &
slurm_daemons+=($!)
for ((k = 0; k < hosts; k++)); do
  # With 2 hosts, one name for both.
  name=h$k
  [ "$hosts" -eq 2 ] && name=twin
  nsenter --net="/var/run/netns/tandem-$TANDEM_TEST_NETNS_TAG-n$k" \
    unshare --uts sh -c "hostname $name && exec slurmd -D -N h$k" \
    >"$SL/slurmd.h$k.out" 2>&1 &
  slurm_daemons+=($!)
done
if ! slurm_wait_idle in_hub sinfo; then
  fail "the private Slurm did not come up; its logs:"
  tail -n 20 "$SL"/*.log "$SL"/*.out | sed 's/^/    | /' >&2
  finish
fi

PES=$((2 * hosts))
mkdir -p "$WORKDIR/pids"
# run NAME PROGRAM ARGS...: on every host, 2 PEs each, with a time limit; output in
# $WORKDIR/out.NAME, status returned.
run() {
  local name=$1
  shift
  (cd / && TANDEM_TEST_PIDDIR=$WORKDIR/pids timeout -k 5 90 nsenter --net="$hub" \
    srun --mpi=pmix -N "$hosts" -n "$PES" --overcommit --kill-on-bad-exit=1 "$@") \
    >"$WORKDIR/out.$name" 2>&1
}

passes ranks "$SHMEM_BIN/ranks" "$PES" 2
passes rma_types "$SHMEM_BIN/rma_types"
passes atomics "$SHMEM_BIN/atomics"
passes collectives "$SHMEM_BIN/collectives"

runs=4
# A program that uses MPI too, in both orders, where Open MPI's mpicc builds one; not on
# hosts that share a name, which Open MPI takes for one node (its shared-memory transport
# between them crashes).
OSHCC=${OSHCC:-$TANDEM_BUILD/tools/oshcc}
if [ "$hosts" -eq 2 ]; then
  echo "$TEST_NAME: the hosts share a name: the hybrid runs are left out"
elif build_hybrid; then
  hybrid_passes
fi

# The last PE calls shmem_global_exit(3): srun ends every task and reports a failure.
run exit "$SHMEM_BIN/negative" global_exit
status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "global_exit: srun exited with $status"
expect_grep "global_exit" "$WORKDIR/out.exit" "^PE $((PES - 1)): shmem_global_exit at"

# A PE killed outright ends the job.
run kill "$SHMEM_BIN/kill_target" &
job=$!
for _ in $(seq 300); do
  [ "$(ls "$WORKDIR/pids" | grep -c '^running\.')" -ge "$PES" ] && break
  sleep 0.1
done
victim=$(ls -t "$WORKDIR/pids" | sed -n 's/^running\.//p' | head -1)
t0=$(now)
[ -n "$victim" ] && kill -9 "$victim"
wait "$job"
status=$?
[ -n "$victim" ] || fail "kill: the PEs never ran"
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "kill: srun exited with $status"
expect_faster "kill: the job ends after the PE is killed" "$(elapsed "$t0")" 30

expect_pes_gone $(((runs + 2) * PES))
[ "$failures" -eq 0 ] || tail -n 30 "$WORKDIR"/out.* >&2
finish
