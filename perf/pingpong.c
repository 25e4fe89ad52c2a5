/* 8-byte ping-pong: PE 0 puts an 8-byte sequence number into a flag on PE 1 and waits with
 * shmem_longlong_wait_until until PE 1 puts the same number back into PE 0's flag; PE 1 waits
 * for each number and answers it.  One timer around `iterations` round trips; the figure is
 * half a round trip.
 *
 * CSV metrics (size 8): pingpong_half_rtt_us (the flag written with shmem_putmem),
 * pingpong_p_half_rtt_us (written with shmem_longlong_p). */
#include "perf_shmem.h"

static long long seq;

static void rounds(long long* flag, int me, long n, int use_p) {
  for (long i = 0; i < n; ++i) {
    ++seq;
    if (me == 0) {
      if (use_p) shmem_longlong_p(flag, seq, 1);
      else shmem_putmem(flag, &seq, sizeof seq, 1);
      shmem_longlong_wait_until(flag, SHMEM_CMP_EQ, seq);
    } else if (me == 1) {
      shmem_longlong_wait_until(flag, SHMEM_CMP_EQ, seq);
      if (use_p) shmem_longlong_p(flag, seq, 0);
      else shmem_putmem(flag, &seq, sizeof seq, 0);
    }
  }
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("pingpong", &o);
  long long* flag = (long long*)shmem_malloc(sizeof(long long));
  *flag = 0;
  shmem_barrier_all();
  double t[PERF_MAX_REPS];
  const long n = perf_iterations(&o, 1, 10000, 1, 10000);

  for (int use_p = 0; use_p <= 1; ++use_p) {
    rounds(flag, me, n / 10 + 1, use_p);
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      const double t0 = perf_now_us();
      rounds(flag, me, n, use_p);
      t[r] = (perf_now_us() - t0) / (2.0 * (double)n);
    }
    if (me == 0) perf_emit(8, n, use_p ? "pingpong_p_half_rtt_us" : "pingpong_half_rtt_us", t, o.reps, 1);
  }

  shmem_barrier_all();
  shmem_free(flag);
  shmem_finalize();
  return 0;
}
