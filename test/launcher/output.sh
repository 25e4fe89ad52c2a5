#!/bin/bash
# Output forwarding: every PE's stdout and stderr reach oshrun's, lines from different PEs
# never mix, unterminated output is not lost, and --tag-output prefixes each line.
. "$(dirname "$0")/lib.sh"

"$OSHRUN" -n 4 --tag-output sh -c 'echo "hello from $PMIX_RANK"; echo "oops from $PMIX_RANK" >&2' \
  >"$WORKDIR/out" 2>"$WORKDIR/err"
expect_eq "tagged run" 0 $?
for r in 0 1 2 3; do
  expect_line "tagged stdout of PE $r" "$WORKDIR/out" "[1,$r]<stdout>: hello from $r"
  expect_line "tagged stderr of PE $r" "$WORKDIR/err" "[1,$r]<stderr>: oops from $r"
done
expect_eq "stdout line count" 4 "$(wc -l <"$WORKDIR/out")"
expect_eq "stderr line count" 4 "$(wc -l <"$WORKDIR/err")"

# Without tags, output passes unchanged, including a last line without a newline.
"$OSHRUN" -n 2 sh -c 'echo "plain $PMIX_RANK"; printf "tail-$PMIX_RANK"' >"$WORKDIR/out"
expect_eq "untagged run" 0 $?
expect_grep "untagged stdout of PE 0" "$WORKDIR/out" '^plain 0$'
expect_grep "untagged stdout of PE 1" "$WORKDIR/out" '^plain 1$'
expect_grep "unterminated output of PE 0" "$WORKDIR/out" 'tail-0'
expect_grep "unterminated output of PE 1" "$WORKDIR/out" 'tail-1'

# Each line is written in three pieces by four PEs at once; every line must arrive whole.
writer='i=0
while [ $i -lt 200 ]; do
  printf "PE%s-" "$PMIX_RANK"; printf "line%03d-" "$i"; printf "%s\n" "................................"
  i=$((i + 1))
done'
"$OSHRUN" -n 4 --tag-output sh -c "$writer" >"$WORKDIR/out"
expect_eq "piecewise writers" 0 $?
bad=$(grep -cvE '^\[1,([0-3])\]<stdout>: PE\1-line[0-9]{3}-\.{32}$' "$WORKDIR/out")
expect_eq "mixed or broken lines" 0 "$bad"
for r in 0 1 2 3; do
  expect_eq "lines of PE $r" 200 "$(grep -c "^\[1,$r\]<stdout>: PE$r-" "$WORKDIR/out")"
done

# A tagged last line without newline still gets its own tagged line.
"$OSHRUN" -n 1 --tag-output sh -c 'printf partial' >"$WORKDIR/out"
expect_line "tagged unterminated output" "$WORKDIR/out" "[1,0]<stdout>: partial"

# When oshrun's own stdout is closed, the PEs writing to it get SIGPIPE, and the job ends.
start=$(now)
( timeout 20 "$OSHRUN" -n 2 yes 2>/dev/null; echo "status $?" >"$WORKDIR/status" ) | head -n 1 >/dev/null
expect_eq "status with a closed stdout" "status 141" "$(cat "$WORKDIR/status")"
expect_faster "ending with a closed stdout" "$(elapsed "$start")" 5

finish
