#!/bin/bash
# mpirun_launch.sh MPIRUN PROGRAM
#
# Tandem PEs are PMIx clients, so Open MPI's mpirun (a PMIx server) can launch them.  Runs
# PROGRAM (ranks, see ranks.c) on 4 PEs with `MPIRUN --oversubscribe -np 4`: every PE checks
# that there are 4 PEs and the ranks are 0..3.  Passes if the job exits 0 within 60 s, PE 0
# reports success, and no tandem-<pid>-* file of the PEs is left in /dev/shm.
set -u

[ $# -eq 2 ] || { echo "usage: $0 MPIRUN PROGRAM" >&2; exit 2; }
mpirun=$1
program=$2

piddir=$(mktemp -d "${TMPDIR:-/tmp}/tandem-mpirun-test.XXXXXX") || exit 2
trap 'rm -rf "$piddir"' EXIT
export TANDEM_TEST_PIDDIR=$piddir
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

output=$(timeout -k 5 60 "$mpirun" --oversubscribe -np 4 "$program" 4 2>&1)
status=$?
echo "$output"
echo "---- $mpirun exited with status $status ----"

failed=0
fail() {
  echo "mpirun_launch: FAIL: $*"
  failed=1
}
[ "$status" -eq 0 ] || fail "the job exited with status $status"
echo "$output" | grep -q "ranks: passed on 4 PE(s)" || fail "PE 0 did not report success"
pids=$(ls "$piddir" | grep -E '^[0-9]+$' || true)
[ "$(echo "$pids" | grep -c .)" -eq 4 ] || fail "expected 4 PE processes, found: $(echo $pids)"
for pid in $pids; do
  left=$(ls /dev/shm 2>/dev/null | grep -E "^tandem-$pid-" || true)
  if [ -n "$left" ]; then
    fail "/dev/shm still holds files of PE process $pid: $(echo $left)"
    for f in $left; do rm -f "/dev/shm/$f"; done
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "mpirun_launch: passed"
exit 0
