/* Collectives on SHMEM_TEAM_WORLD, per size: every PE calls the routine `iterations` times
 * under one timer; the figure is PE 0's loop time over the iterations.  The references of
 * the same run are shmem_barrier_all (the synchronisation every collective contains) and a
 * memcpy of the size (the copy every PE of a broadcast makes).
 *
 * CSV metrics: coll_barrier_us (size 0), coll_memcpy_us, broadcast_us (root 0, all of
 * `size`), sum_reduce_us (longs, `size` bytes of them), fcollect_us (`size` bytes from each
 * PE), alltoall_us (`size` bytes to each PE). */
#include "perf_shmem.h"

#include <string.h>

typedef void (*collective_fn)(void* dest, const void* source, size_t bytes);

static void broadcast(void* d, const void* s, size_t bytes) { shmem_broadcastmem(SHMEM_TEAM_WORLD, d, s, bytes, 0); }
static void reduce(void* d, const void* s, size_t bytes) {
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, s, bytes / sizeof(long));
}
static void fcollect(void* d, const void* s, size_t bytes) { shmem_fcollectmem(SHMEM_TEAM_WORLD, d, s, bytes); }
static void alltoall(void* d, const void* s, size_t bytes) { shmem_alltoallmem(SHMEM_TEAM_WORLD, d, s, bytes); }
static void copy(void* d, const void* s, size_t bytes) { memcpy(d, s, bytes); }

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
  if (me == 0) perf_emit(size, n, metric, t, o->reps, 1);
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  o.max_size = 1 * PERF_MIB;
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("collectives", &o);
  const size_t npes = (size_t)shmem_n_pes();
  char* source = shmem_malloc(o.max_size * npes);
  char* dest = shmem_malloc(o.max_size * npes);
  memset(source, me + 1, o.max_size * npes);
  memset(dest, 0, o.max_size * npes);
  shmem_barrier_all();

  double t[PERF_MAX_REPS];
  const long n = perf_iterations(&o, 1, 10000, 1, 10000);
  perf_barrier_loops(&o, n, t);
  if (me == 0) perf_emit(0, n, "coll_barrier_us", t, o.reps, 1);

  for (size_t size = perf_first_size(&o); size <= o.max_size; size *= 2) {
    measure(me, &o, size, "coll_memcpy_us", copy, dest, source);
    measure(me, &o, size, "broadcast_us", broadcast, dest, source);
    if (size >= sizeof(long)) measure(me, &o, size, "sum_reduce_us", reduce, dest, source);
    measure(me, &o, size, "fcollect_us", fcollect, dest, source);
    measure(me, &o, size, "alltoall_us", alltoall, dest, source);
  }
  shmem_barrier_all();
  shmem_free(dest);
  shmem_free(source);
  shmem_finalize();
  return 0;
}
