/* An operation after the program computed: PE 0 computes for a gap of G microseconds (a
 * busy-wait loop, no library call), then times one 8-byte shmem_getmem on PE 1, computes
 * again, then times one shmem_longlong_atomic_fetch_add on PE 1; PE 1 waits for PE 0's end
 * meanwhile (perf_solo_done).  A program that computes between its communications pays
 * whatever the library's waiting parts (a progress thread asleep on the network, the
 * target's) add once the caller has been away: back to back (G = 0) it is get_latency's
 * figure.  Run across nodes, and compare TANDEM_PROGRESS_THREAD=auto|off (perf/compare.sh)
 * and another OpenSHMEM (perf/peer.sh).
 *
 * Gaps: 0, 20, 100, 500, 2000 and 5000 us.  Each repetition times a number of operations
 * per gap that takes about 50 ms (-x scales it), one timer per operation (the gap must not
 * be timed); the value is the mean of a repetition.
 *
 * CSV metrics (the size column holds G in us): gap_get_us, gap_fetch_add_us. */
#include "perf_shmem.h"

static long long word;
static long long counter;

static void compute_us(double us) {
  const double start = perf_now_us();
  while (perf_now_us() - start < us) perf_cpu_relax();
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("gap_latency", &o);
  if (shmem_n_pes() < 2) {
    shmem_finalize();
    return 0;
  }
  static const double gaps[] = {0, 20, 100, 500, 2000, 5000};
  double* get = malloc(sizeof(double) * (size_t)o.reps);
  double* amo = malloc(sizeof(double) * (size_t)o.reps);
  for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; ++g) {
    long n = (long)(o.scale * 50000.0 / (gaps[g] + 20.0));
    if (n < 5) n = 5;
    if (n > 2000) n = 2000;
    shmem_barrier_all();
    if (me == 0) {
      long long value = 0;
      for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
        double get_sum = 0, amo_sum = 0;
        for (long i = 0; i < n; ++i) {
          compute_us(gaps[g]);
          double t0 = perf_now_us();
          shmem_getmem(&value, &word, sizeof value, 1);
          get_sum += perf_now_us() - t0;
          compute_us(gaps[g]);
          t0 = perf_now_us();
          value += shmem_longlong_atomic_fetch_add(&counter, 1, 1);
          amo_sum += perf_now_us() - t0;
        }
        if (r >= 0) {
          get[r] = get_sum / (double)n;
          amo[r] = amo_sum / (double)n;
        }
      }
      perf_emit((size_t)gaps[g], n, "gap_get_us", get, o.reps, 1);
      perf_emit((size_t)gaps[g], n, "gap_fetch_add_us", amo, o.reps, 1);
      if (value == -1) fprintf(stderr, "# unreachable\n"); /* keeps the reads */
    }
    perf_solo_done(me);
  }
  free(get);
  free(amo);
  shmem_finalize();
  return 0;
}
