#!/usr/bin/env bash
# Every man page renders without a warning (groff -ww, as man -l renders them): the pages
# in the source tree and those the build writes.
#   usage: man_pages.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
command -v groff >/dev/null || { echo "man_pages.sh: groff is not installed (Debian: groff-base)" >&2; exit 1; }
status=0
count=0
for page in "$src"/man/man1/*.1 "$src"/man/man3/*.3 "$src"/man/man7/*.7 "$build"/man/man7/*.7; do
  [ -f "$page" ] || continue
  count=$((count + 1))
  # From the section's parent, as man does, so that .so requests find their pages.
  warnings=$(cd "$(dirname "$(dirname "$page")")" && LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
  if [ -n "$warnings" ]; then
    echo "FAIL: $page:"
    echo "$warnings"
    status=1
  fi
done
[ "$count" -gt 0 ] || { echo "FAIL: no man pages found under $src/man"; exit 1; }
echo "$count pages checked"
exit $status
