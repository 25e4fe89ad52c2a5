#!/bin/bash
# expect_failure.sh STATUS REGEX -- COMMAND...
#
# Runs COMMAND (a job: a launcher and its PEs) and passes only if
#   - it ends within TANDEM_TEST_TIME_LIMIT seconds (default 30): a bad call must not hang;
#   - its exit status is STATUS (a number), or any non-zero status if STATUS is "nonzero";
#   - its standard error matches the extended regular expression REGEX (an empty REGEX
#     matches anything);
#   - no process of the job is left once the command returned (5 s of grace);
#   - /dev/shm holds no tandem-<pid>-* file of any of the job's PEs.
# The PEs are found through TANDEM_TEST_PIDDIR: the test programs create a file named after
# their pid in that directory (see common.h).
set -u

usage() {
  echo "usage: $0 STATUS REGEX -- COMMAND..." >&2
  exit 2
}
[ $# -ge 4 ] || usage
expected=$1
regex=$2
shift 2
[ "$1" = "--" ] || usage
shift
case "$expected" in
  nonzero) ;;
  *[!0-9]* | "" | 0) echo "$0: STATUS must be a non-zero number or 'nonzero'" >&2; exit 2 ;;
esac
limit=${TANDEM_TEST_TIME_LIMIT:-30}

piddir=$(mktemp -d "${TMPDIR:-/tmp}/tandem-test-pids.XXXXXX") || exit 2
output=$(mktemp "${TMPDIR:-/tmp}/tandem-test-stdout.XXXXXX") || exit 2
errors=$(mktemp "${TMPDIR:-/tmp}/tandem-test-stderr.XXXXXX") || exit 2
before=$(mktemp "${TMPDIR:-/tmp}/tandem-test-shm.XXXXXX") || exit 2
trap 'rm -rf "$piddir" "$output" "$errors" "$before"' EXIT
ls /dev/shm 2>/dev/null | grep '^tandem-' | sort >"$before"

export TANDEM_TEST_PIDDIR=$piddir
start=$(date +%s.%N)
timeout -k 5 "$limit" "$@" >"$output" 2>"$errors"
status=$?
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

echo "---- standard output of: $* ----"
cat "$output"
echo "---- standard error ----"
cat "$errors"
echo "---- exit status $status after ${elapsed}s ----"

failed=0
fail() {
  echo "expect_failure: FAIL: $*"
  failed=1
}

if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  fail "the job did not end within ${limit}s (timeout killed it)"
elif [ "$status" -eq 0 ]; then
  fail "the job exited 0; a non-zero status was expected"
elif [ "$expected" != nonzero ] && [ "$status" -ne "$expected" ]; then
  fail "the job exited with status $status, expected $expected"
fi

if [ -n "$regex" ] && ! grep -Eq -- "$regex" "$errors"; then
  fail "the standard error does not match /$regex/"
fi

pids=$(ls "$piddir" | grep -E '^[0-9]+$' || true)
if [ -z "$pids" ]; then
  fail "no PE recorded its pid in TANDEM_TEST_PIDDIR: were the PEs started at all?"
fi

# A process that is gone or a zombie counts as ended.
alive() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  case "$state" in Z*) return 1 ;; esac
  return 0
}
deadline=$(($(date +%s) + 5))
for pid in $pids; do
  while alive "$pid" && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
  if alive "$pid"; then
    fail "PE process $pid is still running after the job ended: $(ps -o pid=,stat=,args= -p "$pid")"
    kill -9 "$pid" 2>/dev/null
  fi
done

for pid in $pids; do
  left=$(ls /dev/shm 2>/dev/null | grep -E "^tandem-$pid-" || true)
  if [ -n "$left" ]; then
    fail "/dev/shm still holds files of PE process $pid: $(echo $left)"
    for f in $left; do rm -f "/dev/shm/$f"; done
  fi
done

# Files of processes that are gone and that were not there before: not attributable to this
# job with certainty (tests run in parallel), so only reported.
for f in $(ls /dev/shm 2>/dev/null | grep '^tandem-' | sort | comm -13 "$before" -); do
  owner=$(echo "$f" | sed -n 's/^tandem-\([0-9]*\)-.*/\1/p')
  if [ -n "$owner" ] && ! alive "$owner"; then
    echo "expect_failure: note: /dev/shm/$f of a finished process appeared during the test"
  fi
done

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "expect_failure: as expected (status $status, output matched)"
exit 0
