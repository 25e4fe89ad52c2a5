#!/bin/bash
# What a PMIx client learns from oshrun: distinct ranks 0..N-1, the job size, every rank
# local; and PMIx_Abort ends the job with the status it gives.
. "$(dirname "$0")/lib.sh"

if [ ! -x "$PMIX_CLIENT" ]; then
  fail "the PMIx test client is not built ($PMIX_CLIENT)"
  finish
fi

"$OSHRUN" -n 4 "$PMIX_CLIENT" -v >"$WORKDIR/out"
expect_eq "run" 0 $?
for r in 0 1 2 3; do
  expect_eq "lines of rank $r" 1 "$(grep -cx "rank $r of 4" "$WORKDIR/out")"
  expect_line "local peers of rank $r" "$WORKDIR/out" "rank $r local peers 0,1,2,3"
  expect_line "local rank of rank $r" "$WORKDIR/out" "rank $r local rank $r"
done
expect_eq "rank lines" 4 "$(grep -c ' of ' "$WORKDIR/out")"

"$OSHRUN" -n 1 "$PMIX_CLIENT" >"$WORKDIR/out"
expect_eq "single PE" "rank 0 of 1" "$(cat "$WORKDIR/out")"

start=$(now)
"$OSHRUN" -n 3 "$PMIX_CLIENT" abort 7 >/dev/null 2>"$WORKDIR/err"
expect_eq "status after PMIx_Abort(7)" 7 $?
expect_faster "ending after PMIx_Abort" "$(elapsed "$start")" 5
expect_grep "abort report" "$WORKDIR/err" '^oshrun: PE 0 called abort with status 7'

finish
