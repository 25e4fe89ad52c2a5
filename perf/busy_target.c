/* Operations on a PE that computes without calling the library: PE 1 busy-waits for the
 * compute time (-c MS, default 2000) with no library call, while PE 0, once PE 1 has begun,
 * times single operations on PE 1's memory one by one: an 8-byte get, an 8-byte put +
 * quiet, a fetch-and-add.  With a manual-progress network each completes only when
 * something progresses PE 1's side (its progress thread, or PE 1 itself once its compute
 * phase ends).  PE 0 stops after 20 of each or when PE 1 has finished computing, and
 * reports whether every one completed during the compute phase.
 * Then the moment a PE stops driving progress: 20 rounds in which both PEs call 50 barriers
 * (PE 1 waits in the library, driving progress itself), then PE 1 computes for 5 ms while PE
 * 0 times one 8-byte put + quiet on it right after the last barrier (as in SKaMPI, whose
 * target goes from its bookkeeping in the library straight to a busy wait for the next
 * start).
 *
 * With -s 1, PE 0 also prints every sample of each kind on stderr, in order (a line per kind:
 * get, put_quiet, fetch_add, just_begun), so that the first operation and the worst of the
 * rest can be told apart.
 *
 * CSV metrics (per operation, best and median of the samples, and the worst):
 * busy_get_us, busy_put_quiet_us, busy_fetch_add_us, each also _max; busy_during (1: every
 * operation completed while PE 1 computed); busy_put_quiet_just_begun_us, also _max. */
#include "perf_shmem.h"

static long computing = 1;
static long word;

enum { kSamples = 20 };

static void print_samples(const char* what, const double* t, int n) {
  fprintf(stderr, "# samples %s:", what);
  for (int i = 0; i < n; ++i) fprintf(stderr, " %.0f", t[i]);
  fprintf(stderr, "\n");
}

static void emit_max(const char* metric, const double* t, int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i)
    if (t[i] > worst) worst = t[i];
  printf("8,%d,%s_max,%.6g\n", n, metric, worst);
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  const long compute_ms = perf_take_count(&argc, argv, "-c", 2000, "compute time of PE 1 in ms");
  const long samples = perf_take_count(&argc, argv, "-s", 0, "1: print every sample on stderr");
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("busy_target", &o);
  if (shmem_n_pes() < 2) {
    shmem_finalize();
    return 0;
  }
  shmem_barrier_all();
  if (me == 1) {
    const double start = perf_now_us();
    while (perf_now_us() - start < compute_ms * 1000.0) perf_cpu_relax();
    computing = 0;
  } else if (me == 0) {
    /* Let PE 1 begin its compute phase. */
    const double begin = perf_now_us();
    while (perf_now_us() - begin < 50000.0) perf_cpu_relax();
    double get[kSamples], put[kSamples], amo[kSamples];
    long value = 0;
    int n = 0;
    for (; n < kSamples; ++n) {
      double t0 = perf_now_us();
      shmem_getmem(&value, &word, sizeof value, 1);
      get[n] = perf_now_us() - t0;
      t0 = perf_now_us();
      shmem_long_p(&word, n, 1);
      shmem_quiet();
      put[n] = perf_now_us() - t0;
      t0 = perf_now_us();
      shmem_long_atomic_fetch_add(&word, 1, 1);
      amo[n] = perf_now_us() - t0;
      if (shmem_long_g(&computing, 1) == 0) {
        ++n;
        break;
      }
    }
    const long during = shmem_long_g(&computing, 1);
    if (samples) {
      print_samples("get", get, n);
      print_samples("put_quiet", put, n);
      print_samples("fetch_add", amo, n);
    }
    perf_emit(8, n, "busy_get_us", get, n, 1);
    emit_max("busy_get_us", get, n);
    perf_emit(8, n, "busy_put_quiet_us", put, n, 1);
    emit_max("busy_put_quiet_us", put, n);
    perf_emit(8, n, "busy_fetch_add_us", amo, n, 1);
    emit_max("busy_fetch_add_us", amo, n);
    printf("8,%d,busy_during,%ld\n", n, during);
    (void)value;
  }
  shmem_barrier_all();
  enum { kJustBegunRounds = 20, kDrivingBarriers = 50 };
  double begun[kJustBegunRounds];
  for (int r = 0; r < kJustBegunRounds; ++r) {
    for (int k = 0; k < kDrivingBarriers; ++k) shmem_barrier_all();
    if (me == 1) {
      const double start = perf_now_us();
      while (perf_now_us() - start < 5000.0) perf_cpu_relax();
    } else if (me == 0) {
      const double t0 = perf_now_us();
      shmem_long_p(&word, r, 1);
      shmem_quiet();
      begun[r] = perf_now_us() - t0;
    }
    shmem_barrier_all();
  }
  if (me == 0) {
    if (samples) print_samples("just_begun", begun, kJustBegunRounds);
    perf_emit(8, kJustBegunRounds, "busy_put_quiet_just_begun_us", begun, kJustBegunRounds, 1);
    emit_max("busy_put_quiet_just_begun_us", begun, kJustBegunRounds);
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
