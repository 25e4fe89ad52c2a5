# Shared by the oshrun tests (sourced, not run): paths, checks, timing, and "sleeper"
# processes that can be counted afterwards to prove that nothing outlived the job.
#
# Environment: TANDEM_BUILD (the build tree) or OSHRUN / PMIX_CLIENT directly.

set -u

OSHRUN=${OSHRUN:-${TANDEM_BUILD:?set TANDEM_BUILD to the build tree, or OSHRUN}/tools/oshrun/oshrun}
PMIX_CLIENT=${PMIX_CLIENT:-${TANDEM_BUILD:-.}/test/launcher/pmix_client}
TEST_NAME=$(basename "$0" .sh)

if [ ! -x "$OSHRUN" ]; then
  echo "FAIL: $TEST_NAME: oshrun not found at $OSHRUN" >&2
  exit 1
fi

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/oshrun-test.XXXXXX")
# A TMPDIR for oshrun whose contents the test can inspect (short: oshrun ignores a long one).
JOBTMP=$(mktemp -d /tmp/oshrun-jobtmp.XXXXXX)
# A private copy of sleep: its path in a process's command line marks it as ours.
SLEEPER="$WORKDIR/sleeper"
cp "$(command -v sleep)" "$SLEEPER"

failures=0

# The pids of live sleeper processes started by this test (zombies do not count).
sleeper_pids() {
  local pid state
  for pid in $(pgrep -f -- "^$SLEEPER" || true); do
    state=$(awk '/^State:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$state" ] && [ "$state" != Z ] && echo "$pid"
  done
  return 0
}

count_sleepers() { sleeper_pids | wc -l; }

cleanup() {
  local pids
  pids=$(sleeper_pids)
  [ -n "$pids" ] && kill -9 $pids 2>/dev/null
  rm -rf "$WORKDIR" "$JOBTMP"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $TEST_NAME: $*" >&2
  failures=$((failures + 1))
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
  if [ "$2" != "$3" ]; then fail "$1: expected '$2', got '$3'"; fi
}

# expect_line WHAT FILE TEXT: FILE has a line that is exactly TEXT.
expect_line() {
  if ! grep -qxF -- "$3" "$2"; then
    fail "$1: no line '$3' in:"
    sed 's/^/    | /' "$2" >&2
  fi
}

# expect_grep WHAT FILE REGEX: FILE has a line matching the extended REGEX.
expect_grep() {
  if ! grep -qE -- "$3" "$2"; then
    fail "$1: nothing matches /$3/ in:"
    sed 's/^/    | /' "$2" >&2
  fi
}

# Seconds since the epoch, with microseconds.
now() { echo "$EPOCHREALTIME"; }
# elapsed START: seconds since START, e.g. "1.234".
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
# expect_faster WHAT SECONDS LIMIT
expect_faster() {
  if ! awk -v t="$2" -v l="$3" 'BEGIN { exit !(t < l) }'; then
    fail "$1: took ${2}s, limit ${3}s"
  fi
}

# wait_for_sleepers N SECONDS: until N sleepers run (true) or the time is up (false).
wait_for_sleepers() {
  local deadline
  deadline=$(awk -v n="$EPOCHREALTIME" -v s="$2" 'BEGIN { printf "%.3f", n + s }')
  while [ "$(count_sleepers)" -lt "$1" ]; do
    awk -v n="$EPOCHREALTIME" -v d="$deadline" 'BEGIN { exit !(n > d) }' && return 1
    sleep 0.05
  done
  return 0
}

# skip WHY: the test cannot run here (CTest's SKIP_RETURN_CODE 77).
skip() {
  echo "SKIP: $TEST_NAME: $*"
  exit 77
}

# passes NAME PROGRAM ARGS...: the test's own `run NAME PROGRAM ARGS...` (its output in
# $WORKDIR/out.NAME) exits 0, and the program says it passed on $PES PEs.
passes() {
  local name=$1 program=$2
  run "$@"
  local status=$?
  expect_eq "$name: status" 0 "$status"
  expect_grep "$name" "$WORKDIR/out.$name" "^$(basename "$program"): passed on ${PES:?} PE\(s\)"
}

# build_hybrid: the hybrid MPI + OpenSHMEM program (test/hybrid/hybrid.c) as
# $WORKDIR/hybrid, built with Open MPI's mpicc ($MPICC) and oshcc's flags ($OSHCC); false,
# saying so (the compiler's words in $WORKDIR/mpicc.err), where no mpicc builds an MPI
# program.
build_hybrid() {
  if command -v "${MPICC:-mpicc}" >/dev/null &&
     "${MPICC:-mpicc}" $("${OSHCC:?}" --showme:compile) -o "$WORKDIR/hybrid" \
       "${TANDEM_SRC:?}/test/hybrid/hybrid.c" $("$OSHCC" --showme:link) 2>"$WORKDIR/mpicc.err"; then
    return 0
  fi
  echo "$TEST_NAME: no mpicc that builds an MPI program: the hybrid runs are left out"
  return 1
}

# hybrid_passes: the test's `run` of $WORKDIR/hybrid in both orders passes on $PES PEs;
# adds the runs to $runs.
hybrid_passes() {
  local order
  for order in mpi-first shmem-first; do
    run "hybrid-$order" "$WORKDIR/hybrid" "$order"
    expect_eq "hybrid $order: status" 0 $?
    expect_grep "hybrid $order" "$WORKDIR/out.hybrid-$order" "^hybrid: passed on ${PES:?} PE\(s\) \($order\)"
    runs=$((runs + 1))
  done
}

# expect_pes_gone COUNT: COUNT PE processes recorded their pids in $WORKDIR/pids
# (TANDEM_TEST_PIDDIR), and none of them is still running or has a file left in /dev/shm.
expect_pes_gone() {
  local pids pid left
  sleep 0.5
  pids=$(ls "$WORKDIR/pids" | grep -E '^[0-9]+$')
  expect_eq "PE processes recorded" "$1" "$(echo "$pids" | grep -c .)"
  for pid in $pids; do
    kill -0 "$pid" 2>/dev/null && fail "PE process $pid outlived its job: $(ps -o args= -p "$pid")"
    left=$(ls /dev/shm | grep -E "^tandem-$pid-" || true)
    [ -z "$left" ] || fail "/dev/shm still holds files of PE process $pid: $left"
  done
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$TEST_NAME: $failures check(s) failed" >&2
    exit 1
  fi
  echo "$TEST_NAME: passed"
  exit 0
}
