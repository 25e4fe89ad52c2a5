#!/bin/bash
# --nodes K: every PE gets TANDEM_VIRTUAL_NODES=K; K must be between 1 and the PE count.
. "$(dirname "$0")/lib.sh"

env -u TANDEM_VIRTUAL_NODES "$OSHRUN" --nodes 2 -n 4 sh -c 'echo "$PMIX_RANK nodes=${TANDEM_VIRTUAL_NODES-unset}"' \
  >"$WORKDIR/out"
expect_eq "run with --nodes 2" 0 $?
for r in 0 1 2 3; do expect_line "PE $r" "$WORKDIR/out" "$r nodes=2"; done

env -u TANDEM_VIRTUAL_NODES "$OSHRUN" --nodes=4 -n 4 sh -c 'echo "nodes=$TANDEM_VIRTUAL_NODES"' \
  >"$WORKDIR/out"
expect_eq "--nodes=4 lines" 4 "$(grep -cx 'nodes=4' "$WORKDIR/out")"

env -u TANDEM_VIRTUAL_NODES "$OSHRUN" -n 2 sh -c 'echo "nodes=${TANDEM_VIRTUAL_NODES-unset}"' \
  >"$WORKDIR/out"
expect_eq "without --nodes" 2 "$(grep -cx 'nodes=unset' "$WORKDIR/out")"

for bad in 0 5 -1 two ""; do
  "$OSHRUN" --nodes "$bad" -n 4 true 2>"$WORKDIR/err"
  expect_eq "--nodes '$bad' with 4 PEs" 2 $?
  expect_grep "message for --nodes '$bad'" "$WORKDIR/err" '^oshrun: .*--nodes'
done

finish
