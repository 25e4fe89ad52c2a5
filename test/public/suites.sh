# The suites that test/public/run.sh knows, sourced by it: each suite_NAME function builds
# suite NAME, extracted in $dir, and lists its programs with prog (run.sh) for run.sh to run
# in every placement.
# shellcheck shell=bash

# --- per-suite knowledge --------------------------------------------------------------------

# A checkout of openshmem-org/tests-uh: the C feature tests, each prints Passed/Failed.
suite_tests-uh() {
  local d=$dir/feature_tests/C f
  [ -n "${SKIP_BUILD:-}" ] || build make -C "$d" -k CC=oshcc
  check_built "$d" x
  fail_pattern='Failed'
  prog_dir=$d
  for f in "$d"/*.x; do
    [ -e "$f" ] || continue
    f=$(basename "$f")
    case $f in
      test_shmem_global_exit.x) prog -s 99 "${f%.x}" "1 2 4" "./$f" ;;  # exits with 99 on purpose
      # They check against PE 1 (accessible.c:56) or against the OR of PEs 0 and 1
      # (reduction.c:637): 2 PEs at least.
      test_shmem_accessible.x | test_shmem_reduction.x) prog "${f%.x}" "2 4" "./$f" ;;
      *) prog "${f%.x}" "1 2 4" "./$f" ;;
    esac
  done
}

# A checkout of openshmem-org/tests-mellanox: the verifier (oshmem_test), one run per task
# group, 4 PEs.  configure looks for libraries by Open MPI's names, so it is told what Tandem
# has; nbi/osh_nbi_tc1.c and tc2.c include mpi.h without using it, so an empty one is given.
# Its -Werror (on by default) turns the warnings of shmem.h's deprecated routines, which the
# tests call on purpose, into errors: --disable-error, the suite's own switch, keeps them
# warnings.
suite_tests-mellanox() {
  local d=$dir/verifier g
  if [ -z "${SKIP_BUILD:-}" ]; then
    mkdir -p "$dir/tandem-shim" && : >"$dir/tandem-shim/mpi.h"
    (cd "$d" && build ./autogen.sh &&
      build ./configure CC=oshcc --disable-mpi --enable-quick-tests --disable-error \
        ac_cv_lib_oshmem_shmem_getmem_nbi=yes ac_cv_lib_open_pal_opal_progress=no &&
      build make -j2 CPPFLAGS="-I$dir/tandem-shim")
  fi
  [ -x "$d/oshmem_test" ] || unbuilt+=(oshmem_test)
  default_timeout=300
  fail_pattern='FAIL'
  prog_dir=$d
  for g in atomic basic coll data lock reduce sync stride nbi misc; do
    prog "verifier-$g" "4" ./oshmem_test exec --task="$g"
  done
}

# A checkout of openshmem-org/specification: the C programs in example_code.  Those without
# a main (a scan helper, the profiling-interface wrappers) are only compiled; the MPI hybrids
# are built with mpicc and oshcc's flags (MPICC, default mpicc: Open MPI's, Debian's
# libopenmpi-dev) and run under oshrun like the rest, or are counted unbuilt without one.
suite_spec-examples() {
  local d=$dir/example_code f n
  [ -d "$d" ] || d=$dir
  prog_dir=$d
  for f in "$d"/*.c; do
    n=$(basename "$f" .c)
    case $n in hybrid_mpi*)
      [ -n "${SKIP_BUILD:-}" ] || build "${MPICC:-mpicc}" $(oshcc --showme:compile) -o "$d/$n.cx" \
        "$f" $(oshcc --showme:link) || { unbuilt+=("$n"); continue; }
      prog "$n" "1 2 4" "./$n.cx"
      continue ;;
    esac
    if ! grep -q 'main *(' "$f"; then
      [ -n "${SKIP_BUILD:-}" ] || build oshcc -Wall -Wextra -c -o "$d/$n.o" "$f" || unbuilt+=("$n")
      continue
    fi
    [ -n "${SKIP_BUILD:-}" ] || build oshcc -Wall -Wextra -fopenmp -o "$d/$n.cx" "$f" -lm ||
      { unbuilt+=("$n"); continue; }
    case $n in
      shmem_global_exit_example) prog -s 1 "$n" "1 2 4" "./$n.cx" ;;  # exits with 1 on purpose
      # They address PE 1, or PE 0 waits for another PE: 2 PEs at least.
      shmem_atomic_fetch_inc_example | shmem_atomic_inc_example | shmem_iput_example | \
        shmem_p_example | shmem_put_example | shmem_test_example1)
        prog "$n" "2 4" "./$n.cx" ;;
      # They address PE 2: 3 PEs at least.
      shmem_fence_example | shmem_quiet_example) prog "$n" "4" "./$n.cx" ;;
      *) prog "$n" "1 2 4" "./$n.cx" ;;
    esac
  done
}

# A checkout of ParRes/Kernels: SHMEM/Synch_p2p, Stencil, Transpose (and transpose_a2a).
suite_prk() {
  local d=$dir/SHMEM
  if [ -z "${SKIP_BUILD:-}" ]; then
    [ -e "$dir/common/make.defs" ] || printf 'SHMEMCC=oshcc\nDEFAULT_OPT_FLAGS=-O2\n' >"$dir/common/make.defs"
    build make -C "$d/Synch_p2p" p2p
    build make -C "$d/Stencil" stencil
    build make -C "$d/Transpose" transpose
    build make -C "$d/Transpose" PROGRAM=transpose_a2a transpose_a2a
  fi
  fail_pattern='ERROR|[Ff]ail'
  prog_dir=$d/Synch_p2p; prog p2p "1 2 4" ./p2p 10 1000 100
  prog_dir=$d/Stencil; prog stencil "1 2 4" ./stencil 10 1000
  prog_dir=$d/Transpose; prog transpose "1 2 4" ./transpose 10 1024 32
  # A bug of the program: transpose_a2a.c:253-254 allocates the buffers it hands to
  # shmem_double_alltoall with prk_malloc, private memory, where the routine needs symmetric
  # objects; Tandem ends the job naming the call, the PE and dest (status 1).
  prog -s 1 transpose_a2a "1 2 4" ./transpose_a2a 10 1024
}

# A checkout of ParRes/ISx: SHMEM/ (strong, weak and weak-isobucket scaling).
suite_isx() {
  local d=$dir/SHMEM
  # timer.h defines _GNU_SOURCE after isx.c has included system headers, so under the
  # makefile's -std=c99 glibc hides struct timespec: build in gnu99 instead.
  [ -n "${SKIP_BUILD:-}" ] || build make -C "$d" CC=oshcc CFLAGS='-Wall -std=gnu99 -O2'
  fail_pattern='ERROR|FAIL|Failed'
  # Every PE allocates a 1 GiB receive buffer (isx.c:82) and does not check for NULL.
  export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-1536M}
  prog_dir=$d/bin
  prog isx.strong "1 2 4" ./isx.strong 1048576 /dev/null
  prog isx.weak "1 2 4" ./isx.weak 262144 /dev/null
  prog isx.weak_iso "1 2 4" ./isx.weak_iso 262144 /dev/null
}

# A copy of the OSU micro-benchmarks (7.x): c/openshmem, compiled directly with oshcc.
suite_osu() {
  local d=$dir/c/openshmem out=$dir/tandem-bin f n
  if [ -z "${SKIP_BUILD:-}" ]; then
    mkdir -p "$out"
    for f in "$d"/osu_oshm_*.c; do
      n=$(basename "$f" .c)
      build oshcc -O2 -I"$dir/c/util" -o "$out/$n" "$f" "$dir/c/util/osu_util.c" \
        "$dir/c/util/osu_util_pgas.c" -lm -lpthread
    done
  fi
  default_timeout=120
  prog_dir=$out
  for f in "$out"/osu_oshm_*; do
    [ -x "$f" ] || continue
    n=$(basename "$f")
    case $n in
      osu_oshm_put | osu_oshm_get | osu_oshm_put_nb | osu_oshm_get_nb | osu_oshm_put_overlap)
        prog "$n" "2" "./$n" heap ;;  # exactly two PEs
      osu_oshm_atomics | osu_oshm_*_mr*) prog "$n" "2 4" "./$n" heap ;;  # pairs of PEs
      *) prog "$n" "2 4" "./$n" ;;  # the collectives refuse to run on one PE
    esac
  done
}

# A checkout of openshmem-org/openshmem-examples: the C programs in c/, compiled one by one
# (the makefile does not link libm, which shmem_2dheat.c needs), each run with the PE counts
# it needs.  Left out: cache.c, which calls the cache routines that OpenSHMEM 1.4 removed.
suite_openshmem-examples() {
  local d=$dir/c f n
  fail_pattern='FAIL|Failed|WRONG|^error:'
  prog_dir=$d
  for f in "$d"/*.c; do
    n=$(basename "$f" .c)
    case $n in cache) continue ;; esac
    [ -n "${SKIP_BUILD:-}" ] || build oshcc -g -O2 -std=gnu11 -o "$d/$n.x" "$f" -lm ||
      { unbuilt+=("$n"); continue; }
    case $n in
      global_exit) prog -s 99 "$n" "1 2 4" "./$n.x" ;;  # exits with 99 on purpose
      # Puts to a NULL dest on purpose: the library must end the job with an error (status 1).
      nullput) prog -s 1 "$n" "2 4" "./$n.x" ;;
      # PE 0 puts to, gets from or updates PE 1, or PE 1 waits for PE 0: 2 PEs at least.
      # addr-accessible.c:90 reports FAIL when a stack variable is rightly not accessible;
      # finalize.c:72 calls shmem_finalize a second time with no shmem_init to match it.
      addr-accessible | finalize) ;;
      add | amo-fetch | amo-set | bar | dip | fadd | finc | fip | heapput | \
        iget | iip | inc | iput | lip | lock | stride | testwaituntil | shmem_twosided)
        prog "$n" "2 4" "./$n.x" ;;
      # Active sets of 4 PEs written out (bcast3.c:74, collect32.c:98, reduce-max.c:84,
      # reduce-sum.c:99), PEs 0 and 2 (bcast4.c:82), PEs 2 and 3 (bar_pair.c:85); ptp refuses
      # fewer than 4 PEs.
      bar_pair | bcast3 | bcast4 | collect32 | reduce-max | reduce-sum | ptp)
        prog "$n" "4" "./$n.x" ;;
      # Ping-pongs between PEs 2k and 2k+1 (it returns at once on 1 PE): 100 round trips of
      # 1 to 1024 words, doubling.
      sping) prog "$n" "2 4" "./$n.x" -n 100 1 1024 ;;
      *) prog "$n" "1 2 4" "./$n.x" ;;
    esac
  done
}

# A checkout of coti/SKaMPI, built by skampi_build.sh beside this script (which says how its
# sources are helped to build) after skampi.patch, also beside it, which mends seven of its
# bugs that stop it on any OpenSHMEM (the first three), on any OpenSHMEM 1.5 and later (the
# next three) or on one whose collectives write to each other's pSync:
#  - init_globals (src/misc.c:142) takes global_ranks from shmem_malloc(measurement_size)
#    while measurement_size is still 0, gets NULL (as the standard says for size 0; Sandia
#    OpenSHMEM returns NULL too) and writes through it, so every PE dies at start: the patch
#    asks for shmem_n_pes() ints;
#  - main.c defines the collectives' pSync as `long psync[]` and eight other files declare
#    it `extern long* psync`, so their collectives pass the array's first element, 0, as
#    the pSync pointer (Tandem stops the job there: "pSync is NULL"): the patch declares it
#    `extern long psync[]`;
#  - in Shmem_Lock_Test_Busy (src/measurements/openshmem_locks.c:93) PE 0's shmem_test_lock
#    takes the lock whenever PE 1 has already released it, and never gives it back, so PE 1
#    waits in its next shmem_set_lock forever (seen across nodes): the patch releases a lock
#    that the test took, after the timed call;
#  - with a header of version 1.5 or later, src/measurements/openshmem_coll.c calls the 1.4
#    active-set routines (shmem_short_and_to_all, shmem_collect32...) through pointers typed
#    as the 1.5 team routines, so they get a team where they expect dest (Tandem stops at
#    "nreduce = ... is negative"): the patch has that file take its 1.4 branches, which call
#    them as they are declared, on every OpenSHMEM;
#  - Shmem_Realloc (src/measurements/openshmem.c:96) frees the pointer it passed to
#    shmem_realloc instead of the one it got back (Tandem stops at "ptr = ... was not
#    returned by shmem_malloc" where the object moved): the patch frees the new one;
#  - Shmem_Iget_Round (src/measurements/openshmem_p2p.c:931) declares a local `sym` that
#    hides the symmetric buffer its init allocated, and reads from it uninitialised (Tandem
#    stops at "source is NULL"): the patch removes the local;
#  - its own collectives (the clocks' offsets, the start of each run, the gathering of
#    results, the decision to go on) follow one another with the one pSync, which the
#    standard lets a PE pass to a collective only once every PE has finished the last that
#    used it.  Sandia OpenSHMEM across nodes hangs in the first measurement (PE 0 gathers
#    results while PE 1 waits for a start time in the future): the patch has them go
#    through skampi_psync(), which waits at a barrier first.  The measured collectives
#    (src/measurements/openshmem_coll.c) are left as SKaMPI wrote them.
# Then tandem-short.ski (written here: a few puts, gets, strided gets, atomics, a barrier,
# broadcasts, fcollects, and-reductions, a lock, allocations and reallocations, one
# measurement through each mended path) runs at 2 and 4 PEs.  perf/peer.sh skampi runs SKaMPI's own
# measurement files against another OpenSHMEM.
suite_skampi() {
  [ -n "${SKIP_BUILD:-}" ] || "$here/skampi_build.sh" "$dir" "$oshcc" || die "SKaMPI did not build"
  [ -x "$dir/skampi" ] || unbuilt+=(skampi)
  cat >"$dir/tandem-short.ski" <<'SKI'
set_min_repetitions(4)
set_max_repetitions(8)
set_max_relative_standard_error(0.1)
comm_pt2pt = MPI_COMM_WORLD
MAXSIZE = 4096
set_skampi_buffer(MAXSIZE)
begin measurement "put"
  for count = 8 to MAXSIZE step *8 do
    measure comm_pt2pt : Shmem_Put_Simple(count, 5)
  od
end measurement
begin measurement "get"
  for count = 8 to MAXSIZE step *8 do
    measure comm_pt2pt : Shmem_Get_Round(count, 5)
  od
end measurement
begin measurement "iget"
  for count = 8 to MAXSIZE / 16 step *8 do
    measure comm_pt2pt : Shmem_Iget_Round(count, 16, 5)
  od
end measurement
begin measurement "p"
  measure comm_pt2pt : Shmem_P_Simple(5)
end measurement
begin measurement "fetch-add"
  measure comm_pt2pt : Shmem_Atomic_Fetch_Add(5)
end measurement
begin measurement "fetch-and"
  measure comm_pt2pt : Shmem_Atomic_Fetch_And(5)
end measurement
begin measurement "barrier"
  measure comm_pt2pt : Shmem_Barrier()
end measurement
begin measurement "broadcast"
  for count = 8 to MAXSIZE step *8 do
    measure comm_pt2pt : Shmem_Bcast_All(5, count, 0)
  od
end measurement
begin measurement "fcollect"
  for count = 8 to MAXSIZE step *8 do
    measure comm_pt2pt : Shmem_Fcollect_Consecutive(5, count)
  od
end measurement
begin measurement "and-reduce"
  for count = 8 to MAXSIZE step *8 do
    measure comm_pt2pt : Shmem_Reduce_And_Consecutive(5, count)
  od
end measurement
begin measurement "lock"
  measure comm_pt2pt : Shmem_Lock_Test_Busy()
end measurement
begin measurement "malloc"
  measure comm_pt2pt : Shmem_Malloc(10, 256)
end measurement
begin measurement "realloc"
  measure comm_pt2pt : Shmem_Realloc(10, 256)
end measurement
SKI
  default_timeout=300
  prog_dir=$dir
  fail_pattern='Error|error|failed'
  [ -x "$dir/skampi" ] && prog skampi-short "2 4" ./skampi -i tandem-short.ski
}

# A checkout of mpi4py/shmem4py, the Python binding of OpenSHMEM (Debian's python3-cffi,
# python3-numpy and python3-dev; PYTHON, default /usr/bin/python3), built in place with
# Tandem's configuration header, $prefix/share/tandem/shmem4py.h (README, "From Python"):
# its unittest suite on 1, 2 and 4 PEs, then each program of demo/ and demo/api/.  One of its
# tests cannot pass on 2 nodes of 2 PEs: test_ptr (testPtrMemory, testPtrArray) writes into
# the next PE through shmem_ptr when that returns an address, then expects its own object to
# hold what the previous PE wrote the same way.  The specification's shmem_ptr (Return Values):
# "A local pointer to the remotely accessible dest data object is returned when it can be
# accessed using memory loads and stores.  Otherwise, a null pointer is returned."  So it
# returns NULL for a PE on another node, and with PEs 0 and 1 on one node and 2 and 3
# on the other, PE 0 reaches PE 1 but PE 3 does not reach PE 0, and PE 0 finds its object
# unwritten.  The ring holds on one node and with a node per PE.
suite_shmem4py() {
  local py=${PYTHON:-/usr/bin/python3} cfg f rel
  cfg=$(cd "$bindir/.." && pwd)/share/tandem/shmem4py.h
  [ -f "$cfg" ] || die "no $cfg: run.sh shmem4py needs an installed Tandem"
  if [ -z "${SKIP_BUILD:-}" ]; then
    (cd "$dir" && build env CC="$oshcc" OSHCC="$oshcc" CFLAGS="-include $cfg" \
      "$py" setup.py build build_ext --inplace)
  fi
  compgen -G "$dir/src/shmem4py/api*.so" >/dev/null || unbuilt+=(shmem4py)
  export PYTHONPATH=$dir/src${PYTHONPATH:+:$PYTHONPATH}
  fail_pattern='FAILED|Traceback'
  prog_dir=$dir
  prog unittest "1 2 4" "$py" -m unittest discover -s test
  for f in "$dir"/demo/*.py "$dir"/demo/api/*.py; do
    prog_dir=$(dirname "$f")
    rel=${f#"$dir"/demo/}
    rel=${rel%.py}
    prog "demo-${rel//\//-}" "1 2 4" "$py" -u "$(basename "$f")"
  done
}
