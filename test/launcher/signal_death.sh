#!/bin/bash
# A PE killed by a signal: status 128+signal, one report line, and the rest of the job
# (sleeping for 30 s) is torn down within 5 s.
. "$(dirname "$0")/lib.sh"

start=$(now)
"$OSHRUN" -n 4 sh -c "if [ \"\$PMIX_RANK\" = 2 ]; then sleep 0.3; kill -9 \$\$; fi; exec $SLEEPER 30" \
  2>"$WORKDIR/err"
status=$?
took=$(elapsed "$start")
expect_eq "PE 2 killed by signal 9" 137 "$status"
expect_faster "tearing down after the kill" "$took" 5
expect_grep "report of the death" "$WORKDIR/err" \
  '^oshrun: PE 2 \(pid [0-9]+\) was killed by signal 9; terminating the job$'
expect_eq "sleepers left behind" 0 "$(count_sleepers)"

# PEs that ignore SIGTERM get SIGKILL after the grace period, still within 5 s.
start=$(now)
"$OSHRUN" -n 3 sh -c "if [ \"\$PMIX_RANK\" = 0 ]; then sleep 0.3; kill -USR1 \$\$; fi; trap '' TERM; $SLEEPER 30" \
  2>"$WORKDIR/err"
status=$?
took=$(elapsed "$start")
expect_eq "PE 0 killed by SIGUSR1" 138 "$status"
expect_faster "tearing down PEs that ignore SIGTERM" "$took" 5
expect_eq "sleepers left behind" 0 "$(count_sleepers)"

finish
