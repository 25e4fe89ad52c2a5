#!/usr/bin/env bash
# The data objects that libtandem exports under C names are the three handles of shmem.h
# (SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED are their addresses), each of the
# size it has always had.  A program that takes such an address holds its own copy of the
# object, as large as at its link: an object that grew would be cut short there (the
# dynamic linker says "Symbol ... has different size") and the library would write past
# the copy.  The library keeps the records behind the handles elsewhere.
# Usage: abi_objects.sh LIBRARY
set -euo pipefail
library=$1
expected=$'tandem_ctx_default 8\ntandem_team_shared 8\ntandem_team_world 8'
# Defined objects (bss, data, read-only data), but for C++ names and those reserved to the
# compiler (a sanitizer adds its own beside each object).
found=$(nm -D --defined-only -S "$library" | awk 'NF == 4 && $3 ~ /^[BDRG]$/ && $4 !~ /^_/ { print $4, $2 }' |
  while read -r name size; do echo "$name $((16#$size))"; done | sort)
if [ "$found" != "$expected" ]; then
  echo "abi_objects: $library exports these C data objects (name, bytes):" >&2
  echo "$found" >&2
  echo "expected:" >&2
  echo "$expected" >&2
  exit 1
fi
echo "abi_objects: the three handles, 8 bytes each"
