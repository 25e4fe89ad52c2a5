#!/usr/bin/env bash
# The man pages: every page renders without a warning (groff -ww, as man -l renders them),
# the pages in the source tree and those the build writes; `man -w` finds a page for every
# routine name of OpenSHMEM 1.6 (api_names.txt and api_generic_names.txt: the C names and the
# type-generic names, as listed from the specification) among the pages the build writes; every family page has the usual
# sections, every link page leads to a page, every page it refers to exists, man 7 tandem
# names every family page; and every family page's EXAMPLES program compiles and links
# against the build's headers and library, and runs (exit status 0: each example checks its
# own results) on 1, 2 and 4 PEs under the build's oshrun.
#   usage: man_pages.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
command -v groff >/dev/null || { echo "man_pages.sh: groff is not installed (Debian: groff-base)" >&2; exit 1; }
command -v man >/dev/null || { echo "man_pages.sh: man is not installed (Debian: man-db)" >&2; exit 1; }
api=$build/doc/man
[ -f "$api/pages.list" ] || { echo "FAIL: $api/pages.list is missing: run make in $build first"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() {
  echo "FAIL: $*"
  status=1
}

# The family pages the build wrote, and the link pages (".so man3/FAMILY.3").
cd "$api/man3"
mapfile -t listed < "$api/pages.list"
mapfile -t linked < <(grep -l '^\.so ' "${listed[@]}" || true)
mapfile -t families < <(grep -L '^\.so ' "${listed[@]}" | sed "s|^|$api/man3/|" || true)
cd - > /dev/null
[ "${#families[@]}" -gt 0 ] || fail "no family pages in $api/man3"
if [ "${#linked[@]}" -gt 0 ]; then
  while read -r file target; do
    [ -f "$api/$target" ] || fail "$file leads to $target, which does not exist"
  done < <(cd "$api/man3" && awk '{ print FILENAME, $2 }' "${linked[@]}")
fi

# Rendering.
count=0
for page in "$src"/man/man1/*.1 "$src"/man/man3/*.3 "$src"/man/man7/*.7 "$build"/man/man7/*.7 "${families[@]}"; do
  [ -f "$page" ] || continue
  count=$((count + 1))
  # From the section's parent, as man does, so that .so requests find their pages.
  warnings=$(cd "$(dirname "$(dirname "$page")")" && LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
  [ -z "$warnings" ] || fail "$page:"$'\n'"$warnings"
done
echo "$count pages rendered, ${#linked[@]} link pages checked"

# Every name of the specification finds a page.
grep -hv '^#' "$src/test/shmem/api_names.txt" "$src/test/shmem/api_generic_names.txt" | sort -u > "$work/names"
names=$(wc -l < "$work/names")
# shellcheck disable=SC2046
LC_ALL=C MANPATH=$api man -w $(cat "$work/names") > /dev/null 2> "$work/missing" || true
missing=$(grep -c '^No manual entry' "$work/missing" || true)
if [ "$missing" -ne 0 ]; then
  fail "$missing of the $names names have no page:"
  sed 's/^/  /' "$work/missing"
else
  echo "all $names names of OpenSHMEM 1.6 have a page"
fi

# The sections of a family page, and what it refers to.
sections='NAME|SYNOPSIS|DESCRIPTION|ARGUMENTS|RETURN VALUES|NOTES|EXAMPLES|SEE ALSO|'
for page in "${families[@]}"; do
  got=$(sed -n 's/^\.SH "*\([^"]*\)"*$/\1/p' "$page" | tr '\n' '|')
  [ "$got" = "$sections" ] || fail "$page has the sections $got, not $sections"
  sed -n 's/^\.BR \([A-Za-z0-9_]*\) (\([1-9]\)).*/\2 \1/p' "$page" | sort -u | while read -r section name; do
    [ -f "$api/man$section/$name.$section" ] || [ -f "$src/man/man$section/$name.$section" ] ||
      [ -f "$build/man/man$section/$name.$section" ] || echo "FAIL: $page refers to $name($section), which does not exist"
  done > "$work/refs"
  [ ! -s "$work/refs" ] || { cat "$work/refs"; status=1; }
  name=$(basename "$page" .3)
  grep -q "^\.BR $name (3)" "$build/man/man7/tandem.7" || fail "man 7 tandem (THE ROUTINES) does not name $name(3)"
done

# The examples, between the example-begin and example-end comments (roff's \e, \- and \&
# become \, - and nothing), compiled and linked with the build's oshcc.
mkdir "$work/examples"
for page in "${families[@]}"; do
  name=$(basename "$page" .3)
  sed -n '/^\.\\" example-begin/,/^\.\\" example-end/{//!p;}' "$page" |
    sed -e 's/\\e/\\/g' -e 's/\\-/-/g' -e 's/\\&//g' > "$work/examples/$name.c"
  [ -s "$work/examples/$name.c" ] || fail "$page has no example between example-begin and example-end"
done
# Sixteen files to a compiler, two compilers or linkers at a time: the run stays short on a
# small machine.
cd "$work/examples"
if ! printf '%s\n' ./*.c | xargs -P 2 -n 16 "$build/tools/oshcc" -std=c11 -Wall -Wextra -Werror -c > "$work/compile" 2>&1; then
  fail "the examples do not compile:"
  cat "$work/compile"
fi
# shellcheck disable=SC2016
if ! printf '%s\n' ./*.o | xargs -P 2 -I '{}' sh -c '"$1" -o "${2%.o}" "$2" || { echo "(the example of $2)"; exit 1; }' link "$build/tools/oshcc" '{}' > "$work/link" 2>&1; then
  fail "the examples do not link:"
  cat "$work/link"
fi
programs=$(find . -type f ! -name '*.*' | wc -l)
echo "$programs of ${#families[@]} examples compiled and linked"
runs=0
for program in $(find . -type f ! -name '*.*' | sort); do
  for np in 1 2 4; do
    if timeout -k 5 60 "$build/tools/oshrun/oshrun" -n $np "$program" > "$work/run" 2>&1; then
      runs=$((runs + 1))
    else
      fail "the example of ${program#./}(3) fails on $np PE(s) (status $?):"
      sed 's/^/    | /' "$work/run"
    fi
  done
done
echo "$runs runs of the examples on 1, 2 and 4 PEs passed"
exit $status
