#!/bin/bash
# Tandem PEs under Slurm's srun --mpi=pmix: a private one-machine Slurm (a controller and
# one slurmd, no authentication daemon, no cgroups, ports of its own, everything in a
# temporary directory) runs hello, the rank check and the RMA test on 4 PEs, on one node and
# with TANDEM_VIRTUAL_NODES=2, and a PE calling shmem_global_exit ends the job.  Where
# Open MPI's mpicc builds MPI programs, the hybrid MPI + OpenSHMEM program (test/hybrid)
# runs too, in both orders of MPI_Init and shmem_init.
#
# Skipped (status 77) where Slurm's daemons are not installed, where this is not root (slurmd
# starts the PEs as the job's user), or where srun has no PMIx plugin.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm_lib.sh"

PATH=$PATH:/usr/sbin:/sbin
for cmd in slurmctld slurmd srun sinfo; do
  command -v "$cmd" >/dev/null || skip "$cmd is not installed (Debian: slurmctld slurmd slurm-client)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd needs root"

SHMEM_BIN=${SHMEM_BIN:-${TANDEM_BUILD:?}/test/shmem}
OSHCC=${OSHCC:-${TANDEM_BUILD:?}/tools/oshcc}
for p in ranks rma_types negative; do
  [ -x "$SHMEM_BIN/$p" ] || { fail "test program $SHMEM_BIN/$p is not built"; finish; }
done

# A TCP port nobody listens on (/proc/net/tcp lists them in hex).
free_port() {
  local port hex
  for port in $(shuf -i 20000-60000 -n 50); do
    hex=$(printf ':%04X ' "$port")
    grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$port"; return 0; }
  done
  return 1
}

SL=$WORKDIR/slurm
node=$(hostname -s)
export SLURM_CONF=$SL/slurm.conf
slurm_conf "$SLURM_CONF" "$SL" "$node(127.0.0.1)" "$(free_port)" "$(free_port)" \
  "NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN"

srun --mpi=list >"$WORKDIR/mpi" 2>&1
grep -qw pmix "$WORKDIR/mpi" || skip "srun has no PMIx plugin: $(tr '\n' ' ' <"$WORKDIR/mpi")"

trap 'slurm_stop; cleanup' EXIT
slurmctld -D -c >"$SL/slurmctld.log" 2>&1 &
slurm_daemons+=($!)
slurmd -D >"$SL/slurmd.log" 2>&1 &
slurm_daemons+=($!)
if ! slurm_wait_idle sinfo; then
  fail "the private Slurm did not come up; its logs:"
  sed 's/^/    | /' "$SL"/*.log >&2
  finish
fi

"$OSHCC" -o "$WORKDIR/hello" "${TANDEM_SRC:?}/examples/hello.c" || { fail "oshcc hello.c"; finish; }
hybrid=
build_hybrid && hybrid=$WORKDIR/hybrid

# run NAME OPTIONS...: srun --mpi=pmix with a time limit; output in $WORKDIR/out.NAME; the test
# programs record their pids in $WORKDIR/pids.
mkdir -p "$WORKDIR/pids"
run() {
  local name=$1
  shift
  TANDEM_TEST_PIDDIR=$WORKDIR/pids timeout -k 5 60 \
    srun --mpi=pmix --overcommit --kill-on-bad-exit=1 "$@" >"$WORKDIR/out.$name" 2>&1
}

for nodes in 1 2; do
  export TANDEM_VIRTUAL_NODES=$nodes
  tag="TANDEM_VIRTUAL_NODES=$nodes"

  run hello -n 4 "$WORKDIR/hello"
  expect_eq "hello ($tag) status" 0 $?
  for pe in 0 1 2 3; do
    expect_grep "hello ($tag) PE $pe" "$WORKDIR/out.hello" "^Hello from PE $pe of 4"
  done

  run ranks -n 4 "$SHMEM_BIN/ranks" 4
  expect_eq "ranks ($tag) status" 0 $?
  expect_grep "ranks ($tag)" "$WORKDIR/out.ranks" '^ranks: passed on 4 PE\(s\)'

  run rma -n 4 "$SHMEM_BIN/rma_types"
  expect_eq "rma_types ($tag) status" 0 $?
  expect_grep "rma_types ($tag)" "$WORKDIR/out.rma" '^rma_types: passed on 4 PE\(s\)'

  for order in mpi-first shmem-first; do
    [ -n "$hybrid" ] || break
    run hybrid -n 4 "$hybrid" "$order"
    expect_eq "hybrid $order ($tag) status" 0 $?
    expect_grep "hybrid $order ($tag)" "$WORKDIR/out.hybrid" "^hybrid: passed on 4 PE\(s\) \($order\)"
  done

  # The last PE calls shmem_global_exit(3); srun ends every task and reports a failure.  The
  # end is timed from the call, which the PE prints: start-up across virtual nodes takes
  # seconds when the machine is loaded, and is not what this checks.
  run exit -n 4 "$SHMEM_BIN/negative" global_exit
  status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "global_exit ($tag): srun exited with $status"
  called=$(sed -n 's/^PE 3: shmem_global_exit at \([0-9.]*\)$/\1/p' "$WORKDIR/out.exit")
  if [ -n "$called" ]; then
    expect_faster "global_exit ($tag): the job ends after the call" "$(elapsed "$called")" 5
  else
    fail "global_exit ($tag): PE 3 did not say when it called shmem_global_exit"
  fi
done
unset TANDEM_VIRTUAL_NODES

# Every PE process of every job has ended and left nothing in /dev/shm.
expect_pes_gone $((${hybrid:+16} + 24))

finish
