#!/bin/bash
# libraries.sh TANDEM_INFO LIBTANDEM FABRIC_LIBDIR PMIX_LIBDIR HWLOC_LIBDIR: Tandem loads the
# libfabric, PMIx and hwloc that configure found (through pkg-config, or in the prefixes of
# --with-ofi, --with-pmix and --with-hwloc), not others the loader might find first:
# tandem_info's Libraries lines (libfabric as the PEs load it, src/transport/ofi/library.cc;
# PMIx and hwloc as the process linked them) name files in those directories, and so does
# the loader for libtandem.so's own dependencies (its run path into the --with-* prefixes).
set -u
[ $# -eq 5 ] || { echo "usage: $0 TANDEM_INFO LIBTANDEM FABRIC_LIBDIR PMIX_LIBDIR HWLOC_LIBDIR" >&2; exit 2; }
info=$1 libtandem=$2
failed=0
# expect_in WHAT FILE DIR: FILE lies in DIR (both with their links resolved).
expect_in() {
  local dir
  dir=$(dirname "$(realpath -e "$2" 2>/dev/null || echo "/nonexistent/$2")")
  if [ "$dir" != "$(realpath -e "$3")" ]; then
    echo "FAIL: $1 is $2, not in $3" >&2
    failed=1
  else
    echo "$1: $2"
  fi
}
out=$("$info") || { echo "FAIL: tandem_info exited with status $?" >&2; exit 1; }
# line NAME: the file of tandem_info's line "  NAME <version>: FILE".
line() { sed -n "s/^  $1 .*: //p" <<<"$out"; }
expect_in "tandem_info: libfabric" "$(line libfabric)" "$3"
expect_in "tandem_info: PMIx" "$(line PMIx)" "$4"
expect_in "tandem_info: hwloc" "$(line hwloc)" "$5"
deps=$(ldd "$libtandem") || { echo "FAIL: ldd $libtandem" >&2; exit 1; }
expect_in "libtandem's libpmix" "$(awk '/libpmix\.so/ { print $3 }' <<<"$deps")" "$4"
expect_in "libtandem's libhwloc" "$(awk '/libhwloc\.so/ { print $3 }' <<<"$deps")" "$5"
exit $failed
