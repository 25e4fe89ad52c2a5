/* Get latency: PE 0 gets `size` bytes from PE 1, `iterations` times under one timer.  A get
 * returns with the data in place, so no quiet is needed.  PE 1 sleeps meanwhile
 * (perf_solo_done).
 *
 * CSV metrics: get_latency_us (per size); get_first_us, the program's first get (8 bytes, one
 * sample): a network may set up buffers on a PE's first read, which a job pays once. */
#include "perf_shmem.h"

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("get_latency", &o);
  char* source = (char*)shmem_malloc(o.max_size);
  char* dest = (char*)perf_alloc(o.max_size);
  if (source == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed\n", o.max_size);
    shmem_global_exit(1);
  }
  memset(source, 2, o.max_size);
  shmem_barrier_all();
  double t[PERF_MAX_REPS];
  if (me == 0) {
    const double t0 = perf_now_us();
    shmem_getmem(dest, source, o.max_size < 8 ? o.max_size : 8, 1);
    t[0] = perf_now_us() - t0;
    perf_emit(8, 1, "get_first_us", t, 1, 1);
  }

  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1) {
    const long n = perf_iterations(&o, size, 64.0 * PERF_MIB, 20, 100000);
    if (me == 0)
      for (long i = 0; i < n / 10 + 1; ++i) shmem_getmem(dest, source, size, 1);
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      if (me == 0) {
        const double t0 = perf_now_us();
        for (long i = 0; i < n; ++i) shmem_getmem(dest, source, size, 1);
        t[r] = (perf_now_us() - t0) / (double)n;
      }
      perf_solo_done(me);
    }
    if (me == 0) perf_emit(size, n, "get_latency_us", t, o.reps, 1);
  }

  shmem_barrier_all();
  shmem_free(source);
  free(dest);
  shmem_finalize();
  return 0;
}
