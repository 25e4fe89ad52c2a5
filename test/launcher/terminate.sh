#!/bin/bash
# Signals to oshrun: SIGTERM, SIGINT and SIGHUP are forwarded to every PE, the job is torn
# down (status 128+signal), and no PE or process started by a PE is left running.
. "$(dirname "$0")/lib.sh"

# Background jobs of a shell without job control ignore SIGINT; with it, they do not.
set -m

for sig in TERM INT HUP; do
  num=$(kill -l "$sig")
  # Each PE also starts a child of its own, which must not survive either.
  TMPDIR="$JOBTMP" "$OSHRUN" -n 2 sh -c "$SLEEPER 30 & exec $SLEEPER 31" >"$WORKDIR/out" 2>"$WORKDIR/err" &
  pid=$!
  if ! wait_for_sleepers 4 5; then
    fail "SIG$sig: the PEs did not start ($(count_sleepers) sleepers)"
  fi
  start=$(now)
  kill -"$sig" "$pid"
  wait "$pid"
  status=$?
  took=$(elapsed "$start")
  expect_eq "status after SIG$sig" $((128 + num)) "$status"
  expect_faster "ending after SIG$sig" "$took" 5
  expect_grep "report of SIG$sig" "$WORKDIR/err" "^oshrun: received signal $num"
  expect_eq "processes left after SIG$sig" 0 "$(count_sleepers)"
  expect_eq "PMIx directory left after SIG$sig" "" "$(ls -A "$JOBTMP")"
done

# PEs that ignore the forwarded signal are killed after the grace period.
"$OSHRUN" -n 2 sh -c "trap '' TERM; exec $SLEEPER 30" 2>/dev/null &
pid=$!
wait_for_sleepers 2 5 || fail "stubborn PEs did not start"
start=$(now)
kill -TERM "$pid"
wait "$pid"
status=$?
expect_eq "status after SIGTERM (ignored by the PEs)" 143 "$status"
expect_faster "ending PEs that ignore SIGTERM" "$(elapsed "$start")" 5
expect_eq "processes left (PEs ignoring SIGTERM)" 0 "$(count_sleepers)"

# oshrun killed outright (no chance to forward anything): the PEs die with it, and the
# next oshrun removes the directory the killed one could not.
TMPDIR="$JOBTMP" "$OSHRUN" -n 2 "$SLEEPER" 30 &
pid=$!
wait_for_sleepers 2 5 || fail "PEs did not start before SIGKILL"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 0.3
expect_eq "PEs left after oshrun was killed" 0 "$(count_sleepers)"
expect_eq "directories left by the killed oshrun" 1 "$(ls -A "$JOBTMP" | wc -l)"
mkdir "$JOBTMP/oshrun.1.unrelated"  # no lock file: not provably stale, so kept
TMPDIR="$JOBTMP" "$OSHRUN" -n 1 true
expect_eq "directories after the next oshrun" "oshrun.1.unrelated" "$(ls -A "$JOBTMP")"

finish
