#!/usr/bin/env bash
# The rooms of src/ include only the rooms below them (README.md, Layout): a file of src/ROOM
# (its subfolders too, such as src/transport/ofi) may include "OTHER/..." only where OTHER
# is listed for ROOM here.  An include that runs
# back up makes a lower floor depend on a higher one, and a change upstairs recompile it.
# Usage: floors.sh SOURCE_DIR
set -euo pipefail
src=$1/src
declare -A below=(
  [core]=""
  [boot]="core"
  [mem]="core"
  [transport]="core"
  [notify]="core mem"
  [nbi]="core mem transport"
  [coll]="core mem nbi"
  [epoch]="coll core mem nbi transport"
  [api]="boot coll core epoch mem nbi notify transport"
)
bad=0
rooms=0
for dir in "$src"/*/; do
  room=$(basename "$dir")
  if [ -z "${below[$room]+set}" ]; then
    echo "floors: src/$room is a room that floors.sh and README.md's Layout do not place" >&2
    bad=1
    continue
  fi
  rooms=$((rooms + 1))
  while IFS=: read -r file line text; do
    other=$(sed -E 's|^#include "([a-z_]+)/.*|\1|' <<<"$text")
    [ "$other" = "$room" ] && continue
    if ! grep -qw -- "$other" <<<"${below[$room]}"; then
      echo "floors: ${file#"$1"/}:$line includes src/$other, which is not below src/$room" >&2
      bad=1
    fi
  done < <(find "$dir" \( -name '*.h' -o -name '*.cc' \) -exec grep -HnE '^#include "[a-z_]+/' {} + || true)
done
[ "$rooms" -ge 9 ] || { echo "floors: found only $rooms rooms under $src" >&2; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "floors: the $rooms rooms of src/ include only the rooms below them"
