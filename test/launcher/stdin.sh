#!/bin/bash
# oshrun's stdin goes to PE 0 only; the other PEs read end of file at once.
. "$(dirname "$0")/lib.sh"

echo "input-line" | "$OSHRUN" -n 3 sh -c 'read -r x; echo "PE $PMIX_RANK read [$x]"' \
  >"$WORKDIR/out"
expect_eq "run" 0 $?
expect_line "PE 0 reads stdin" "$WORKDIR/out" "PE 0 read [input-line]"
expect_line "PE 1 reads nothing" "$WORKDIR/out" "PE 1 read []"
expect_line "PE 2 reads nothing" "$WORKDIR/out" "PE 2 read []"

# More than a pipe holds, all of it, in order, then end of file.
seq 1 50000 >"$WORKDIR/in"
"$OSHRUN" -n 2 sh -c '[ "$PMIX_RANK" = 0 ] && cksum || true' <"$WORKDIR/in" >"$WORKDIR/out"
expect_eq "large input run" 0 $?
expect_eq "large input checksum" "$(cksum <"$WORKDIR/in")" "$(cat "$WORKDIR/out")"

# A PE 0 that never reads stdin does not hold up the job.
start=$(now)
yes | head -c 1000000 | "$OSHRUN" -n 2 true
expect_eq "unread stdin" 0 $?
expect_faster "unread stdin" "$(elapsed "$start")" 5

finish
