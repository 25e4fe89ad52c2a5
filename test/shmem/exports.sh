#!/usr/bin/env bash
# libtandem exports the OpenSHMEM names alone (src/libtandem.map): shmem_*, shmemx_* and their
# pshmem forms, the deprecated names, and the tandem_* objects that shmem.h refers to.  A
# runtime symbol (a C++ name of Tandem's or of the C++ library's templates) that leaked out
# could meet a program's own or another library's.
# Usage: exports.sh LIBRARY
set -euo pipefail
library=$1
allowed='^(p?shmemx?_.+|tandem_[a-z_]+|start_pes|_my_pe|_num_pes|shmalloc|shfree|shrealloc|shmemalign)$'
symbols=$(nm -D --defined-only "$library" | awk 'NF == 3 { print $3 }')
others=$(grep -v -E "$allowed" <<<"$symbols" || true)
if [ -n "$others" ]; then
  echo "exports: $library exports $(wc -l <<<"$others") symbol(s) beyond the OpenSHMEM names, such as:" >&2
  head -5 <<<"$others" >&2
  exit 1
fi
count=$(grep -c -E '^p?shmem' <<<"$symbols")
[ "$count" -gt 1000 ] || { echo "exports: only $count OpenSHMEM names exported" >&2; exit 1; }
echo "exports: $count OpenSHMEM names and nothing else"
