/* 8-byte ping-pong: PE 0 puts an 8-byte sequence number into a flag on PE 1 and waits with
 * shmem_longlong_wait_until until PE 1 puts the same number back into PE 0's flag; PE 1 waits
 * for each number and answers it.  One timer around `iterations` round trips; the figure is
 * half a round trip.
 *
 * Then the same ping-pong for every message size: PE 0 sends `size` bytes with
 * shmem_putmem_signal (the signal set to the sequence number), PE 1 waits for the signal with
 * shmem_signal_wait_until and sends the same back.  This is the put latency that the raw
 * ping-pong references (ref_tcp_pingpong, ref_ofi_pingpong) measure for the network.
 *
 * CSV metrics: pingpong_half_rtt_us (size 8: the flag written with shmem_putmem),
 * pingpong_p_half_rtt_us (size 8: written with shmem_longlong_p), pingpong_fence_half_rtt_us
 * (size 8: an 8-byte put beside the flag, shmem_fence, then the flag with shmem_longlong_p:
 * the put-fence-flag idiom), pingpong_signal_half_rtt_us (per size, from 0: the signal
 * alone; OpenSHMEM 1.5 and later, so that the 8-byte figures can be taken against an older
 * implementation too, as perf/peer.sh does). */
#include "perf_shmem.h"

#if defined(SHMEM_MAJOR_VERSION) && SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION >= 105
#define HAVE_SIGNALS 1
#else
#define HAVE_SIGNALS 0
#endif

static long long seq;

/* How the flag travels: put, p, or a put of the 8-byte payload beside it, a fence, then p. */
enum { PUT, P, FENCED, MODES };
static const char* const metrics[MODES] = {"pingpong_half_rtt_us", "pingpong_p_half_rtt_us",
                                           "pingpong_fence_half_rtt_us"};

static void send_flag(long long* flag, int mode, int pe) {
  if (mode == PUT) {
    shmem_putmem(flag, &seq, sizeof seq, pe);
    return;
  }
  if (mode == FENCED) {
    shmem_putmem(flag + 1, &seq, sizeof seq, pe);
    shmem_fence();
  }
  shmem_longlong_p(flag, seq, pe);
}

static void rounds(long long* flag, int me, long n, int mode) {
  for (long i = 0; i < n; ++i) {
    ++seq;
    if (me == 0) {
      send_flag(flag, mode, 1);
      shmem_longlong_wait_until(flag, SHMEM_CMP_EQ, seq);
    } else if (me == 1) {
      shmem_longlong_wait_until(flag, SHMEM_CMP_EQ, seq);
      send_flag(flag, mode, 0);
    }
  }
}

#if HAVE_SIGNALS
static void signal_rounds(char* buffer, const char* source, size_t size, uint64_t* signal, int me, long n) {
  for (long i = 0; i < n; ++i) {
    ++seq;
    if (me == 0) {
      shmem_putmem_signal(buffer, source, size, signal, (uint64_t)seq, SHMEM_SIGNAL_SET, 1);
      shmem_signal_wait_until(signal, SHMEM_CMP_EQ, (uint64_t)seq);
    } else if (me == 1) {
      shmem_signal_wait_until(signal, SHMEM_CMP_EQ, (uint64_t)seq);
      shmem_putmem_signal(buffer, source, size, signal, (uint64_t)seq, SHMEM_SIGNAL_SET, 0);
    }
  }
}
#endif

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("pingpong", &o);
  long long* flag = (long long*)shmem_calloc(2, sizeof(long long)); /* the flag, the fenced payload */
  shmem_barrier_all();
  double t[PERF_MAX_REPS];
  const long n = perf_iterations(&o, 1, 10000, 1, 10000);

  for (int mode = 0; mode < MODES; ++mode) {
    rounds(flag, me, n / 10 + 1, mode);
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      const double t0 = perf_now_us();
      rounds(flag, me, n, mode);
      t[r] = (perf_now_us() - t0) / (2.0 * (double)n);
    }
    if (me == 0) perf_emit(8, n, metrics[mode], t, o.reps, 1);
  }

#if HAVE_SIGNALS
  char* buffer = (char*)shmem_malloc(o.max_size);
  uint64_t* signal = (uint64_t*)shmem_calloc(1, sizeof(uint64_t));
  if (buffer == NULL || signal == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed\n", o.max_size);
    shmem_global_exit(1);
  }
  char* source = (char*)perf_alloc(o.max_size);
  shmem_barrier_all();
  /* Size 0 first: the signal alone, as a put-with-signal of no data sends it. */
  for (size_t size = 0; size <= o.max_size; size = size ? size << 1 : perf_first_size(&o)) {
    const long m = perf_iterations(&o, size ? size : 1, 16.0 * PERF_MIB, 10, 10000);
    signal_rounds(buffer, source, size, signal, me, m / 10 + 1);
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      const double t0 = perf_now_us();
      signal_rounds(buffer, source, size, signal, me, m);
      t[r] = (perf_now_us() - t0) / (2.0 * (double)m);
    }
    if (me == 0) perf_emit(size, m, "pingpong_signal_half_rtt_us", t, o.reps, 1);
  }

  shmem_barrier_all();
  free(source);
  shmem_free(signal);
  shmem_free(buffer);
#endif
  shmem_free(flag);
  shmem_finalize();
  return 0;
}
