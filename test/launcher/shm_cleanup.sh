#!/bin/bash
# Shared-memory files a PE leaves in /dev/shm (tandem-<pid>-*, and <pid>:<uid>:<n> of
# libfabric's shm provider) are removed when the job ends, whether the PE crashed or exited;
# files of other processes are left alone.
. "$(dirname "$0")/lib.sh"

if [ ! -d /dev/shm ] || [ ! -w /dev/shm ]; then
  echo "$TEST_NAME: skipped: /dev/shm is not writable"
  exit 0
fi

keep="/dev/shm/tandem-$$-not-a-pe"
keep_provider="/dev/shm/$$:0:0"
touch "$keep" "$keep_provider"

# Each PE creates its files and records its pid, waits until both PEs have, then dies.
crash='touch /dev/shm/tandem-$$-x /dev/shm/tandem-$$-heap /dev/shm/$$:0:1
echo $$ >"$PIDDIR/$PMIX_RANK"
while [ "$(ls "$PIDDIR" | wc -l)" -lt 2 ]; do sleep 0.05; done
kill -9 $$'
mkdir "$WORKDIR/pids.d"
PIDDIR="$WORKDIR/pids.d" "$OSHRUN" -n 2 sh -c "$crash" 2>/dev/null
expect_eq "status of the crashed job" 137 $?
npids=0
for pid in $(cat "$WORKDIR"/pids.d/*); do
  npids=$((npids + 1))
  for f in /dev/shm/tandem-"$pid"-* /dev/shm/"$pid":*; do
    [ -e "$f" ] && fail "left behind after a crash: $f"
  done
done
expect_eq "PE pids recorded" 2 "$npids"

"$OSHRUN" -n 2 sh -c 'echo $$; touch /dev/shm/tandem-$$-x' >"$WORKDIR/pids"
expect_eq "status of the clean job" 0 $?
for pid in $(cat "$WORKDIR/pids"); do
  [ -e "/dev/shm/tandem-$pid-x" ] && fail "left behind after a clean exit: /dev/shm/tandem-$pid-x"
done

[ -e "$keep" ] || fail "removed a file that belongs to no PE: $keep"
[ -e "$keep_provider" ] || fail "removed a file that belongs to no PE: $keep_provider"
rm -f "$keep" "$keep_provider"

finish
