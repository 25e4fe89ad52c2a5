#!/bin/bash
# skampi_build.sh DIR OSHCC: builds the coti/SKaMPI checkout in DIR in its OpenSHMEM mode
# (configure --enable-openshmem --disable-mpi) with the compiler wrapper OSHCC, after
# skampi.patch beside this script (applied once; run.sh says what it mends).  Used by
# test/public/run.sh skampi (Tandem's oshcc) and perf/peer.sh skampi (Tandem's and the
# peer's).  Its sources do not build against the OpenSHMEM 1.5+ API as they stand, so:
#  - the bitwise atomics are called on int (src/measurements/openshmem_atomic.c:806 and on),
#    which the standard defines only for unsigned and fixed-width types: int32 is named instead;
#  - the 1.5 prototypes in src/measurements/openshmem_coll.c:70 and on name a type `team`:
#    it is defined as shmem_team_t;
#  - globals are defined in several files (openshmem_coll.c:40-43, openshmem_ctx.c:47):
#    -fcommon;
#  - without MPI, src/misc.c:319 still calls MPI_Wtime: a clock_gettime one is given.
# The generated files are remade, and its parser needs yacc and lex (bison and flex).  The
# build's output goes to DIR/tandem-build.log; exits non-zero unless DIR/skampi was built.
set -u
[ $# -eq 2 ] || { echo "usage: $0 DIR OSHCC" >&2; exit 2; }
dir=$1 cc=$2
here=$(cd "$(dirname "$0")" && pwd)
log=$dir/tandem-build.log
command -v yacc >/dev/null && command -v lex >/dev/null ||
  { echo "skampi_build.sh: SKaMPI needs yacc and lex (bison and flex) to build" >&2; exit 2; }
shim=$dir/tandem-shim
mkdir -p "$shim"
printf '%s\n' '#include <time.h>' 'static inline double MPI_Wtime(void)' '{' \
  '  struct timespec t;' '  clock_gettime(CLOCK_MONOTONIC, &t);' \
  '  return t.tv_sec + t.tv_nsec * 1e-9;' '}' >"$shim/mpi-wtime.h"
if ! patch -d "$dir" -p1 -R --dry-run -s -f <"$here/skampi.patch" >/dev/null 2>&1; then
  patch -d "$dir" -p1 -N -s <"$here/skampi.patch" >>"$log" 2>&1 ||
    { echo "skampi_build.sh: skampi.patch does not apply to $dir (see $log)" >&2; exit 1; }
fi
defs="-Dteam=shmem_team_t -include $shim/mpi-wtime.h"
for op in fetch_and fetch_or fetch_xor and or xor; do
  defs+=" -Dshmem_int_atomic_$op=shmem_int32_atomic_$op"
  defs+=" -Dshmem_ctx_int_atomic_$op=shmem_ctx_int32_atomic_$op"
done
(cd "$dir" && autoreconf -fi && ./configure CC="$cc" OSHCC="$cc" --enable-openshmem --disable-mpi \
  CFLAGS='-g -O2 -fcommon' CPPFLAGS="$defs" && make -j2) >>"$log" 2>&1
[ -x "$dir/skampi" ] || { echo "skampi_build.sh: no $dir/skampi (see $log)" >&2; exit 1; }
