#!/bin/bash
# Tandem PEs launched by Open MPI's mpirun across 2 hosts: mpirun --host h0:2,h1:2 in the hub
# of test/netns/netns.sh, its remote-shell agent (plm_rsh_agent) a script that runs the
# command it is given inside host K's network and UTS namespaces (own address on the bridge,
# own host name hK), as ssh would on host K.  The rank and node check
# (SHMEM_TEAM_SHARED must be mpirun's node), the RMA, atomics and collectives tests, and
# shmem_global_exit; where Open MPI's mpicc builds MPI programs, the hybrid program in both
# orders.  No PE process, no /dev/shm file and no daemon may outlive a job.
#
# Skipped (77) without root, mpirun, iproute2 or unshare.
. "$(dirname "$0")/lib.sh"

MPIRUN=${MPIRUN:-mpirun}
PATH=$PATH:/usr/sbin:/sbin
for cmd in "$MPIRUN" ip nsenter unshare; do
  command -v "$cmd" >/dev/null || skip "$cmd is not installed (Debian: openmpi-bin iproute2)"
done
[ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
SHMEM_BIN=${SHMEM_BIN:-${TANDEM_BUILD:?}/test/shmem}
OSHCC=${OSHCC:-$TANDEM_BUILD/tools/oshcc}
for p in ranks rma_types atomics collectives negative; do
  [ -x "$SHMEM_BIN/$p" ] || { fail "test program $SHMEM_BIN/$p is not built"; finish; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

netns=${TANDEM_SRC:?}/test/netns/netns.sh
export TANDEM_TEST_NETNS_TAG=$(($$ % 200 + 20))
hub=/var/run/netns/tandem-$TANDEM_TEST_NETNS_TAG-hub
trap 'bash "$netns" down; cleanup' EXIT
bash "$netns" up 2 || { fail "netns.sh could not make 2 hosts"; finish; }

# The remote shell: "agent [options] HOST COMMAND...", the command a shell line.
agent=$WORKDIR/agent
cat >"$agent" <<EOA
#!/bin/bash
while [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1
shift
k=\${host#h}
exec nsenter --net=/var/run/netns/tandem-$TANDEM_TEST_NETNS_TAG-n\$k unshare --uts \\
  sh -c "hostname \$host && \$*"
EOA
chmod +x "$agent"

mkdir -p "$WORKDIR/pids"
PES=4
# run NAME PROGRAM ARGS...: 2 PEs on each host, with a time limit; output in
# $WORKDIR/out.NAME, status returned.
run() {
  local name=$1
  shift
  (cd / && timeout -k 5 90 nsenter --net="$hub" "$MPIRUN" --mca plm_rsh_agent "$agent" \
    --host h0:2,h1:2 -np 4 -x TANDEM_TEST_PIDDIR="$WORKDIR/pids" -x PATH "$@") \
    >"$WORKDIR/out.$name" 2>&1
}

passes ranks "$SHMEM_BIN/ranks" 4 2
# The PEs ran where mpirun says: two on each host, each host under its own name.
run hosts hostname
expect_eq "hosts" "h0 h0 h1 h1" "$(sort "$WORKDIR/out.hosts" | tr '\n' ' ' | sed 's/ $//')"
passes rma_types "$SHMEM_BIN/rma_types"
passes atomics "$SHMEM_BIN/atomics"
passes collectives "$SHMEM_BIN/collectives"
runs=4

# The last PE calls shmem_global_exit(3): mpirun ends every process, with a failure.
run exit "$SHMEM_BIN/negative" global_exit
status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "global_exit: mpirun exited with $status"
expect_grep "global_exit" "$WORKDIR/out.exit" "^PE 3: shmem_global_exit at"
runs=$((runs + 1))

build_hybrid && hybrid_passes

expect_pes_gone $((4 * runs))
left=$(pgrep -f -- "orted.*10\.77\.$((TANDEM_TEST_NETNS_TAG % 250 + 1))\." || true)
[ -z "$left" ] || fail "Open MPI's daemons outlived the jobs: $(ps -o args= -p "$left")"
[ "$failures" -eq 0 ] || tail -n 30 "$WORKDIR"/out.* >&2
finish
