#!/bin/bash
# oshrun's exit status: 0 when every PE exits 0, else the first failure's status; a failed
# PE ends the whole job promptly.
. "$(dirname "$0")/lib.sh"

"$OSHRUN" -n 3 true
expect_eq "all PEs exit 0" 0 $?

"$OSHRUN" -n 2 sh -c 'exit 3' 2>"$WORKDIR/err"
expect_eq "sh -c 'exit 3' on 2 PEs" 3 $?
expect_grep "failure report" "$WORKDIR/err" '^oshrun: PE [01] \(pid [0-9]+\) exited with status 3'

# A PE that ends early with status 0 is normal: the others finish their work.
"$OSHRUN" -n 3 sh -c '[ "$PMIX_RANK" = 0 ] && exit 0; sleep 0.5; echo "done $PMIX_RANK"' \
  >"$WORKDIR/out"
expect_eq "early exit 0 of PE 0" 0 $?
expect_line "PE 1 finished after PE 0 left" "$WORKDIR/out" "done 1"
expect_line "PE 2 finished after PE 0 left" "$WORKDIR/out" "done 2"

# The first failure decides the status, and the sleeping PEs are terminated at once.
start=$(now)
"$OSHRUN" -n 3 sh -c "if [ \"\$PMIX_RANK\" = 1 ]; then exit 5; fi; exec $SLEEPER 30" \
  2>"$WORKDIR/err"
status=$?
took=$(elapsed "$start")
expect_eq "PE 1 exits 5 while the others sleep" 5 "$status"
expect_faster "ending the job after PE 1 failed" "$took" 5
expect_eq "sleepers left behind" 0 "$(count_sleepers)"
expect_eq "one report line" 1 "$(grep -c '^oshrun: PE' "$WORKDIR/err")"

finish
