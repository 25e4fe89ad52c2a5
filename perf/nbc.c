/* Tandem's nonblocking collectives (shmemx_*_nbi, man 7 tandem_nbc), measured as
 * perf/nbc_mpi measures MPI's (the same code, perf/nbc_measure.h): Full, Post, Wait and
 * Overlap with a busy-wait compute phase that calls no library routine, beside the blocking
 * routine.  For example
 *
 *   oshrun -n 2 build/perf/nbc -m 8 -M 4M             # one node
 *   oshrun -n 2 --nodes 2 build/perf/nbc -m 8 -M 4M   # 2 virtual nodes, through libfabric
 *
 * For each collective NAME (broadcast: shmemx_broadcastmem_nbi from PE 0 of SIZE bytes;
 * fcollect: shmemx_fcollectmem_nbi of SIZE bytes from each PE; alltoall:
 * shmemx_alltoallmem_nbi of SIZE bytes a pair; sum_reduce: shmemx_long_sum_reduce_nbi of SIZE
 * bytes), all on SHMEM_TEAM_WORLD, on every PE at once,
 * each figure the worst PE's:
 *  NAME_blocking_us   the blocking routine (shmem_broadcastmem, ...), per call
 *  NAME_full_us       the nonblocking routine immediately followed by shmemx_req_wait, per call
 *  NAME_post_us       the nonblocking call alone (its return), per call
 *  NAME_compute_us    the compute phase placed between post and wait (about twice the
 *                     worst PE's NAME_full_us, the same on every PE)
 *  NAME_wait_us       the shmemx_req_wait after the compute phase, per call
 *  NAME_overlap_us    post + compute + wait, minus the compute alone: communication time
 *                     the compute did not hide
 *  NAME_overlap_pct   100 * (1 - NAME_overlap_us / NAME_full_us), each PE its own, the
 *                     lowest over the PEs (0: nothing hidden, 100: all)
 *  NAME_late_us       post to the end of the wait on the PEs other than the last, which
 *                     posts, computes 1 ms without calling the library, then waits (per
 *                     call, the worst of those PEs): about NAME_full_us where the last PE's
 *                     part moves while it computes, over 1000 where nothing moves it
 *  NAME_late_asleep_us  the same with the last PE asleep for 1 ms instead of computing
 *                     (blocked elsewhere: its core free for its progress thread)
 * Post and wait are timed call by call (one collective in flight at a time); the others
 * with one timer around each loop.  Options as the other benchmarks (-m, -M, -r, -i, -x,
 * -P); -c NAME measures that collective only. */
#include "nbc_measure.h"
#include "perf_shmem.h"

#include <shmemx.h>

static char *source, *dest;
static shmemx_req_h req;
static double* reduced; /* symmetric: max() and min() */

static void blocking(int c, size_t size) {
  switch (c) {
    case BROADCAST: shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, source, size, 0); break;
    case FCOLLECT: shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, source, size); break;
    case ALLTOALL: shmem_alltoallmem(SHMEM_TEAM_WORLD, dest, source, size); break;
    default: shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long*)dest, (const long*)source, size / sizeof(long)); break;
  }
}

static void post(int c, size_t size) {
  switch (c) {
    case BROADCAST: shmemx_broadcastmem_nbi(SHMEM_TEAM_WORLD, dest, source, size, 0, &req); break;
    case FCOLLECT: shmemx_fcollectmem_nbi(SHMEM_TEAM_WORLD, dest, source, size, &req); break;
    case ALLTOALL: shmemx_alltoallmem_nbi(SHMEM_TEAM_WORLD, dest, source, size, &req); break;
    default:
      shmemx_long_sum_reduce_nbi(SHMEM_TEAM_WORLD, (long*)dest, (const long*)source, size / sizeof(long), &req);
      break;
  }
}

static void wait_req(void) { shmemx_req_wait(&req); }
static void barrier(void) { shmem_barrier_all(); }
static void max(double* t, int n) {
  memcpy(reduced, t, sizeof(double) * (size_t)n);
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, reduced + PERF_MAX_REPS, reduced, (size_t)n);
  memcpy(t, reduced + PERF_MAX_REPS, sizeof(double) * (size_t)n);
}
static void min(double* t, int n) {
  memcpy(reduced, t, sizeof(double) * (size_t)n);
  shmem_double_min_reduce(SHMEM_TEAM_WORLD, reduced + PERF_MAX_REPS, reduced, (size_t)n);
  memcpy(t, reduced + PERF_MAX_REPS, sizeof(double) * (size_t)n);
}

int main(int argc, char** argv) {
  const int only = nbc_only(&argc, argv, "nbc");
  if (only == -2) return 2;
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("nbc", &o);
  const int npes = shmem_n_pes();
  const double turns_per_us = perf_spin_calibrate();
  source = shmem_align(4096, o.max_size * (size_t)npes);
  dest = shmem_align(4096, o.max_size * (size_t)npes);
  reduced = shmem_malloc(2 * PERF_MAX_REPS * sizeof(double));
  memset(source, me + 1, o.max_size * (size_t)npes);
  memset(dest, 0, o.max_size * (size_t)npes);
  const struct nbc_lib lib = {npes, me, blocking, post, wait_req, barrier, max, min};
  nbc_measure_all(&lib, only, &o, turns_per_us);
  shmem_free(reduced);
  shmem_free(dest);
  shmem_free(source);
  shmem_finalize();
  return 0;
}
