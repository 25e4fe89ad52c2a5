/* Collectives, per size: every PE calls the routine `iterations` times under one timer;
 * the figure is the slowest PE's loop time over the iterations (a root that may return
 * before the others have their data, as a broadcast's may, does not set the figure).  The references of the same run are
 * shmem_barrier_all (the synchronisation every collective contains) and a memcpy of the size
 * (the copy every PE of a broadcast makes).
 *
 * By default the routines of OpenSHMEM 1.5 on SHMEM_TEAM_WORLD are timed.  With -A, and
 * always when built against a library older than OpenSHMEM 1.5 (which has no teams), the
 * deprecated active-set routines on all PEs are timed instead (shmem_broadcast64,
 * shmem_long_sum_to_all, shmem_fcollect64, shmem_alltoall64, shmem_alltoalls64, each call with the other of
 * two pSync arrays, as a program that has no barrier between its collectives must): every
 * OpenSHMEM has them, so perf/peer.sh compares two implementations on the same routines.
 *
 * CSV metrics: coll_barrier_us (size 0), coll_memcpy_us, broadcast_us (root 0, all of
 * `size`), sum_reduce_us (longs, `size` bytes of them), fcollect_us (`size` bytes from each
 * PE), alltoall_us (`size` bytes to each PE), alltoalls_us (`size` bytes of 64-bit elements to
 * each PE, read contiguous and placed every second element: dst 2, sst 1). */
#include "perf_shmem.h"

#include <string.h>

#if defined(SHMEM_MAJOR_VERSION) && SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION >= 105
#define HAVE_TEAMS 1
#else
#define HAVE_TEAMS 0
#endif

typedef void (*collective_fn)(void* dest, const void* source, size_t bytes);

static void copy(void* d, const void* s, size_t bytes) { memcpy(d, s, bytes); }

#if HAVE_TEAMS
static void broadcast(void* d, const void* s, size_t bytes) { shmem_broadcastmem(SHMEM_TEAM_WORLD, d, s, bytes, 0); }
static void reduce(void* d, const void* s, size_t bytes) {
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, s, bytes / sizeof(long));
}
static void fcollect(void* d, const void* s, size_t bytes) { shmem_fcollectmem(SHMEM_TEAM_WORLD, d, s, bytes); }
static void alltoall(void* d, const void* s, size_t bytes) { shmem_alltoallmem(SHMEM_TEAM_WORLD, d, s, bytes); }
static void alltoalls(void* d, const void* s, size_t bytes) {
  shmem_int64_alltoalls(SHMEM_TEAM_WORLD, d, s, 2, 1, bytes / 8);
}
#endif

/* The active-set forms, on every PE; sizes are whole 64-bit elements. */
#define PERF_MAX2(a, b) ((a) > (b) ? (a) : (b))
static long psync[2][PERF_MAX2(SHMEM_REDUCE_SYNC_SIZE, PERF_MAX2(SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_ALLTOALLS_SYNC_SIZE))];
static long* pwrk; /* symmetric, max(count / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) longs */
static unsigned calls;
static long* next_psync(void) { return psync[calls++ % 2]; }
static void broadcast_as(void* d, const void* s, size_t bytes) {
  shmem_broadcast64(d, s, bytes / 8, 0, 0, 0, shmem_n_pes(), next_psync());
}
static void reduce_as(void* d, const void* s, size_t bytes) {
  shmem_long_sum_to_all(d, s, (int)(bytes / sizeof(long)), 0, 0, shmem_n_pes(), pwrk, next_psync());
}
static void fcollect_as(void* d, const void* s, size_t bytes) {
  shmem_fcollect64(d, s, bytes / 8, 0, 0, shmem_n_pes(), next_psync());
}
static void alltoall_as(void* d, const void* s, size_t bytes) {
  shmem_alltoall64(d, s, bytes / 8, 0, 0, shmem_n_pes(), next_psync());
}
static void alltoalls_as(void* d, const void* s, size_t bytes) {
  shmem_alltoalls64(d, s, 2, 1, bytes / 8, 0, 0, shmem_n_pes(), next_psync());
}

/* Takes every -A out of argv (perf/peer.sh gives one, and its user may give another);
 * returns whether there was one. */
static int take_flag(int* argc, char** argv, const char* flag) {
  int found = 0;
  for (int i = 1; i < *argc;) {
    if (strcmp(argv[i], flag) != 0) {
      ++i;
      continue;
    }
    for (int j = i; j + 1 < *argc; ++j) argv[j] = argv[j + 1];
    --*argc;
    found = 1;
  }
  return found;
}

static double* times; /* symmetric: PERF_MAX_REPS loop times of every PE, gathered on PE 0 */

static void measure(int me, const struct perf_opts* o, size_t size, const char* metric, collective_fn fn, void* dest,
                    const void* source) {
  double t[PERF_MAX_REPS];
  const long n = perf_iterations(o, size, 256.0 * PERF_MIB, 5, 2000);
  for (long i = 0; i < n / 10 + 1; ++i) fn(dest, source, size);
  for (int r = 0; r < o->reps; ++r) {
    shmem_barrier_all();
    const double t0 = perf_now_us();
    for (long i = 0; i < n; ++i) fn(dest, source, size);
    t[r] = (perf_now_us() - t0) / (double)n;
  }
  shmem_double_put(times + (size_t)me * PERF_MAX_REPS, t, (size_t)o->reps, 0);
  shmem_barrier_all();
  if (me != 0) return;
  for (int pe = 1; pe < shmem_n_pes(); ++pe)
    for (int r = 0; r < o->reps; ++r)
      if (times[(size_t)pe * PERF_MAX_REPS + r] > t[r]) t[r] = times[(size_t)pe * PERF_MAX_REPS + r];
  perf_emit(size, n, metric, t, o->reps, 1);
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  o.max_size = 1 * PERF_MIB;
  const int active_sets = take_flag(&argc, argv, "-A") || !HAVE_TEAMS;
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("collectives", &o);
  const size_t npes = (size_t)shmem_n_pes();
  /* Page-aligned, so that every implementation copies between buffers placed alike (a
   * heap's allocation headers would otherwise decide how fast memcpy runs between them). */
  char* source = shmem_align(4096, o.max_size * npes);
  char* dest = shmem_align(4096, o.max_size * npes * 2); /* alltoalls: every second element */
  memset(source, me + 1, o.max_size * npes);
  memset(dest, 0, o.max_size * npes * 2);
  for (int k = 0; k < 2; ++k)
    for (size_t i = 0; i < sizeof psync[k] / sizeof psync[k][0]; ++i) psync[k][i] = SHMEM_SYNC_VALUE;
  const size_t wrk = o.max_size / sizeof(long) / 2 + 1;
  pwrk = shmem_malloc(sizeof(long) * (wrk > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? wrk : SHMEM_REDUCE_MIN_WRKDATA_SIZE));
  times = shmem_malloc(sizeof(double) * PERF_MAX_REPS * npes);
  if (me == 0)
    printf("# routines: %s\n", active_sets ? "active sets (broadcast64, long_sum_to_all, fcollect64, alltoall64, alltoalls64)"
                                            : "teams (broadcastmem, long_sum_reduce, fcollectmem, alltoallmem, int64_alltoalls)");
  shmem_barrier_all();

  double t[PERF_MAX_REPS];
  const long n = perf_iterations(&o, 1, 10000, 1, 10000);
  perf_barrier_loops(&o, n, t);
  if (me == 0) perf_emit(0, n, "coll_barrier_us", t, o.reps, 1);

  collective_fn fns[5] = {broadcast_as, reduce_as, fcollect_as, alltoall_as, alltoalls_as};
#if HAVE_TEAMS
  if (!active_sets) fns[0] = broadcast, fns[1] = reduce, fns[2] = fcollect, fns[3] = alltoall, fns[4] = alltoalls;
#endif
  for (size_t size = perf_first_size(&o); size <= o.max_size; size *= 2) {
    measure(me, &o, size, "coll_memcpy_us", copy, dest, source);
    if (active_sets && size < 8) continue; /* the active-set forms move 64-bit elements */
    measure(me, &o, size, "broadcast_us", fns[0], dest, source);
    if (size >= sizeof(long)) measure(me, &o, size, "sum_reduce_us", fns[1], dest, source);
    measure(me, &o, size, "fcollect_us", fns[2], dest, source);
    measure(me, &o, size, "alltoall_us", fns[3], dest, source);
    if (size >= 8) measure(me, &o, size, "alltoalls_us", fns[4], dest, source);
  }
  shmem_barrier_all();
  shmem_free(times);
  shmem_free(pwrk);
  shmem_free(dest);
  shmem_free(source);
  shmem_finalize();
  return 0;
}
