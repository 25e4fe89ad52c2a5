/* Barrier latency: every PE calls shmem_barrier_all `iterations` times under one timer; the
 * figure is PE 0's loop time over the iterations.
 *
 * CSV metric (size 0): barrier_latency_us. */
#include "perf_shmem.h"

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("barrier", &o);
  double t[PERF_MAX_REPS];
  const long n = perf_iterations(&o, 1, 10000, 1, 10000);
  perf_barrier_loops(&o, n, t);
  if (me == 0) perf_emit(0, n, "barrier_latency_us", t, o.reps, 1);
  shmem_finalize();
  return 0;
}
