#!/bin/bash
# hybrid.sh LAUNCHER [NODES]: a program that uses MPI and OpenSHMEM together (hybrid.c)
# under LAUNCHER (oshrun or mpirun) on 4 PEs, in both orders of MPI_Init and shmem_init, on
# one node or on NODES virtual nodes.  It is built both ways users build one: with mpicc
# and oshcc's flags, and with oshcc and mpicc's flags.  Each run must exit 0 and PE 0 report
# success (as many MPI ranks as PEs, ranks equal to PE numbers, MPI's and SHMEM's sums
# equal); nothing of the job may be left running, in /dev/shm, or in /tmp.
#
# hybrid.sh guard: under oshrun, Open MPI made to run as a singleton (its launch detection
# left to its own default, as under a launcher it does not know), initialised before
# shmem_init: every PE must stop in shmem_init with the line that says why, and the job
# must end with a non-zero status within 20 s.
#
# Environment: MPICC (Open MPI's mpicc), MPIRUN, OSHRUN, TANDEM_BUILD, TANDEM_SRC.
# Skipped (77) without an mpicc that compiles an MPI program (Debian: libopenmpi-dev).
. "$(dirname "$0")/../launcher/lib.sh"

launcher=${1:?usage: hybrid.sh oshrun|mpirun|guard [NODES]}
nodes=${2:-1}
MPICC=${MPICC:-mpicc}
OSHCC=${OSHCC:-${TANDEM_BUILD:?}/tools/oshcc}
source=${TANDEM_SRC:?}/test/hybrid/hybrid.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if ! build_hybrid; then
  sed 's/^/    | /' "$WORKDIR/mpicc.err" 2>/dev/null
  skip "(Debian: libopenmpi-dev)"
fi
"$OSHCC" $("$MPICC" --showme:compile) -o "$WORKDIR/hybrid-oshcc" "$source" \
  $("$MPICC" --showme:link) || { fail "oshcc with mpicc's flags does not build hybrid.c"; finish; }

# The jobs' temporary directory: Open MPI leaves its per-job files there when it runs
# without its own launcher, unless it is told to put them elsewhere.
export TMPDIR=$JOBTMP
pids=$WORKDIR/pids  # expect_pes_gone's
mkdir -p "$pids"

# start ORDER BINARY: the job, its output in $WORKDIR/out.ORDER, its status returned.
start() {
  local order=$1 binary=$2
  case $launcher in
    oshrun | guard)
      local extra=() wrapper=()
      [ "$launcher" = guard ] && extra=(-x OMPI_MCA_schizo=orte) wrapper=("$WORKDIR/own-session")
      timeout -k 5 60 "$OSHRUN" --nodes "$nodes" "${extra[@]}" -n 4 "${wrapper[@]}" "$binary" "$order" ;;
    mpirun)
      timeout -k 5 60 "${MPIRUN:-mpirun}" --oversubscribe -x TANDEM_VIRTUAL_NODES="$nodes" \
        -np 4 "$binary" "$order" ;;
    *) fail "unknown launcher $launcher"; finish ;;
  esac >"$WORKDIR/out.$order" 2>&1
}

if [ "$launcher" = guard ]; then
  # Singletons have no start-up fence: one that stops in shmem_init removes Open MPI's
  # shared top session directory while another is still creating its own in it, and
  # that one fails in MPI_Init with a mkdir error.  A session directory for each PE
  # (inside oshrun's, which goes with the job) keeps the singletons apart.
  printf '%s\n' '#!/bin/sh' \
    'OMPI_MCA_orte_tmpdir_base=$OMPI_MCA_orte_tmpdir_base/pe.$PMIX_RANK exec "$@"' \
    >"$WORKDIR/own-session"
  chmod +x "$WORKDIR/own-session"
  t0=$(now)
  TANDEM_TEST_PIDDIR=$pids start mpi-first "$WORKDIR/hybrid"
  status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "the job exited with status $status"
  expect_faster "the job ends" "$(elapsed "$t0")" 20
  expect_grep "shmem_init says why" "$WORKDIR/out.mpi-first" \
    "shmem_init .*started as rank [0-3] of PMIx job oshrun\.[0-9]+, but a library initialised before shmem_init \(MPI_Init\?\) connected it to a PMIx server of its own"
  grep -q "hybrid: passed" "$WORKDIR/out.mpi-first" && fail "the program ran to its end"
else
  for order in mpi-first shmem-first; do
    binary=$WORKDIR/hybrid
    [ "$order" = shmem-first ] && binary=$WORKDIR/hybrid-oshcc
    TANDEM_TEST_PIDDIR=$pids start "$order" "$binary"
    status=$?
    expect_eq "$launcher, $nodes node(s), $order: status" 0 "$status"
    expect_grep "$launcher, $nodes node(s), $order" "$WORKDIR/out.$order" \
      "^hybrid: passed on 4 PE\(s\) \($order\)"
    [ "$status" -eq 0 ] || sed 's/^/    | /' "$WORKDIR/out.$order" >&2
  done
fi

runs=2
[ "$launcher" = guard ] && runs=1
expect_pes_gone $((4 * runs))
left=$(pgrep -f -- "$WORKDIR/hybrid" || true)
[ -z "$left" ] || { fail "processes of the job outlived it: $(echo $left)"; kill -9 $left; }
left=$(ls -A "$JOBTMP")
[ -z "$left" ] || fail "the jobs left files in their TMPDIR: $(echo $left)"
finish
