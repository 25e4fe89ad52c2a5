/* Put latency: PE 0 puts `size` bytes to PE 1 and calls shmem_quiet, `iterations` times under
 * one timer; the latency is the loop time over the iterations, i.e. a put timed up to the
 * return of the quiet that completes it.  Also the cost of a quiet with nothing outstanding.
 * PE 1 sleeps meanwhile (perf_solo_done).
 *
 * CSV metrics: put_latency_us (per size), quiet_empty_us (size 0). */
#include "perf_shmem.h"

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("put_latency", &o);
  char* dest = (char*)shmem_malloc(o.max_size);
  char* source = (char*)perf_alloc(o.max_size);
  if (dest == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed\n", o.max_size);
    shmem_global_exit(1);
  }
  memset(dest, 0, o.max_size);
  shmem_barrier_all();
  double t[PERF_MAX_REPS];

  {
    const long n = perf_iterations(&o, 1, 1e5, 1, 100000);
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      if (me == 0) {
        const double t0 = perf_now_us();
        for (long i = 0; i < n; ++i) shmem_quiet();
        t[r] = (perf_now_us() - t0) / (double)n;
      }
      perf_solo_done(me);
    }
    if (me == 0) perf_emit(0, n, "quiet_empty_us", t, o.reps, 1);
  }

  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1) {
    const long n = perf_iterations(&o, size, 64.0 * PERF_MIB, 20, 100000);
    if (me == 0) {
      for (long i = 0; i < n / 10 + 1; ++i) {
        shmem_putmem(dest, source, size, 1);
        shmem_quiet();
      }
    }
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      if (me == 0) {
        const double t0 = perf_now_us();
        for (long i = 0; i < n; ++i) {
          shmem_putmem(dest, source, size, 1);
          shmem_quiet();
        }
        t[r] = (perf_now_us() - t0) / (double)n;
      }
      perf_solo_done(me);
    }
    if (me == 0) perf_emit(size, n, "put_latency_us", t, o.reps, 1);
  }

  shmem_barrier_all();
  shmem_free(dest);
  free(source);
  shmem_finalize();
  return 0;
}
