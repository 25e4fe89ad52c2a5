#!/usr/bin/env bash
# Every test named NAME_..._nodesN with N >= 2 runs its PEs on virtual nodes that talk only
# through libfabric, and carries the label "internode": the sanitizer builds leave those
# out (.ci/run), and `ctest -L internode` is how the cross-node runs are picked.  A helper
# that passes a test's properties unquoted loses its labels without a word; this catches it.
# Usage: labels.sh BUILD_TEST_DIR
set -euo pipefail
cd "$1"
list() { ctest -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p' | sort; }
all=$(list)
across=$(grep -E '_nodes([2-9]|[1-9][0-9]+)($|_)' <<<"$all" || true)
labelled=$(list -L '^internode$')
[ -n "$across" ] || { echo "labels: no test named _nodesN (N >= 2) in the listing" >&2; exit 1; }
missing=$(comm -23 <(printf '%s\n' "$across") <(printf '%s\n' "$labelled"))
if [ -n "$missing" ]; then
  echo "labels: these tests run across virtual nodes but lack the label internode:" >&2
  printf '  %s\n' $missing >&2
  exit 1
fi
echo "labels: $(wc -l <<<"$across") tests across nodes, each labelled internode"
