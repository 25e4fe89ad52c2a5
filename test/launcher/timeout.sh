#!/bin/bash
# --timeout S: a job still running after S seconds is ended with status 124, promptly.
. "$(dirname "$0")/lib.sh"

start=$(now)
"$OSHRUN" --timeout 1 -n 2 "$SLEEPER" 30 2>"$WORKDIR/err"
status=$?
took=$(elapsed "$start")
expect_eq "status after the timeout" 124 "$status"
expect_faster "ending at the timeout" "$took" 4
expect_line "timeout report" "$WORKDIR/err" "oshrun: job exceeded --timeout 1; terminating"
expect_eq "sleepers left behind" 0 "$(count_sleepers)"
if awk -v t="$took" 'BEGIN { exit !(t < 0.9) }'; then fail "ended after ${took}s, before the 1 s timeout"; fi

# PEs that ignore SIGTERM are killed too, and fractions of a second are accepted.
start=$(now)
"$OSHRUN" --timeout=0.5 -n 2 sh -c "trap '' TERM; $SLEEPER 30" 2>"$WORKDIR/err"
status=$?
took=$(elapsed "$start")
expect_eq "status after the timeout (SIGTERM ignored)" 124 "$status"
expect_faster "ending at the timeout (SIGTERM ignored)" "$took" 4
expect_eq "sleepers left behind" 0 "$(count_sleepers)"

# A job that finishes in time is not affected.
"$OSHRUN" --timeout 20 -n 2 true
expect_eq "job within its timeout" 0 $?

finish
