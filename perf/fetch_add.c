/* Fetch-and-add latency on a 64-bit counter that lives on PE 1.  One timer around
 * `iterations` calls of shmem_longlong_atomic_fetch_add on PE 0.
 *
 * CSV metrics (size 8):
 *  fetch_add_latency_us    PE 0 alone touches the counter (PE 1 sleeps, perf_solo_done), so
 *                          the counter's cache line stays with PE 0's core
 *  fetch_add_watched_us    PE 1 watches the counter with shmem_longlong_wait_until until it
 *                          reaches its final value, as a PE waiting for a count of arrivals
 *                          does: the line moves between the cores
 *  fetch_add_contended_us  PE 0 and PE 1 both add to it at the same time; PE 0's time
 *  fetch_add_pingpong_half_rtt_us
 *                          a ping-pong signalled by fetch-and-adds: PE 0 adds 1 to a flag on
 *                          PE 1 and waits with shmem_longlong_wait_until until PE 1, which waits
 *                          for that addition, adds 1 to PE 0's flag; half a round trip.  Each
 *                          addition finds the flag's line in the other core's cache, so this is
 *                          a fetch-and-add's latency when its data has to travel
 *  fetch_add_first_us      the program's first fetch-and-add (one sample): a network may set
 *                          up buffers on a PE's first atomic, which a job pays once
 *  add_stream_us           PE 0 streams non-fetching shmem_longlong_atomic_add to the counter,
 *                          then one shmem_quiet; the time per add (PE 1 as for
 *                          fetch_add_latency_us): the rate of a histogram or a count of
 *                          arrivals, where nothing waits for each answer
 *  add_stream_in_us        with 3 or more PEs: every PE but PE 1 streams non-fetching adds to
 *                          PE 1's counter, then quiets; PE 1 waits until all have landed
 *                          (shmem_longlong_wait_until on the counter); the time from the
 *                          start to the last arrival per add, all adders together: the rate
 *                          one target takes, many-to-one as a shared histogram sees it */
#include "perf_shmem.h"

static volatile long long sink_out;  /* keeps the fetched values alive */
static double stream_in_us;         /* PE 1's time for STREAM_IN, put to PE 0 */

enum { ALONE, WATCHED, CONTENDED, STREAM, STREAM_IN };
static const char* const names[] = {"fetch_add_latency_us", "fetch_add_watched_us", "fetch_add_contended_us",
                                    "add_stream_us", "add_stream_in_us"};

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("fetch_add", &o);
  long long* counter = (long long*)shmem_malloc(sizeof(long long));
  *counter = 0;
  shmem_barrier_all();
  double t[PERF_MAX_REPS];
  const long n = perf_iterations(&o, 1, 100000, 1, 100000);
  long long sink = 0;
  if (me == 0) {
    const double t0 = perf_now_us();
    sink += shmem_longlong_atomic_fetch_add(counter, 0, 1);
    t[0] = perf_now_us() - t0;
    perf_emit(8, 1, "fetch_add_first_us", t, 1, 1);
  }

  for (int mode = ALONE; mode <= STREAM_IN; ++mode) {
    if (mode == STREAM_IN && shmem_n_pes() < 3) break;
    const int adders = mode == CONTENDED ? 2 : mode == STREAM_IN ? shmem_n_pes() - 1 : 1;
    for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
      shmem_barrier_all();
      const long long before = shmem_longlong_atomic_fetch(counter, 1);
      const long long expect = before + adders * (long long)n;
      shmem_barrier_all();
      const double t0 = perf_now_us();
      if (mode == STREAM_IN) {
        if (me != 1) {
          for (long i = 0; i < n; ++i) shmem_longlong_atomic_add(counter, 1, 1);
          shmem_quiet();
        } else {
          shmem_longlong_wait_until(counter, SHMEM_CMP_GE, expect);
          shmem_double_p(&stream_in_us, perf_now_us() - t0, 0);
          shmem_quiet();
        }
      } else if (me == 0 && mode == STREAM) {
        for (long i = 0; i < n; ++i) shmem_longlong_atomic_add(counter, 1, 1);
        shmem_quiet();
      } else if (me == 0 || (me == 1 && mode == CONTENDED)) {
        for (long i = 0; i < n; ++i) sink += shmem_longlong_atomic_fetch_add(counter, 1, 1);
      } else if (me == 1 && mode == WATCHED) {
        shmem_longlong_wait_until(counter, SHMEM_CMP_GE, expect);
      }
      const double elapsed = perf_now_us() - t0;
      if (mode == ALONE || mode == STREAM) perf_solo_done(me);
      shmem_barrier_all();
      if (me == 0) {
        const long long after = shmem_longlong_atomic_fetch(counter, 1);
        if (after != expect) fprintf(stderr, "# fetch_add: counter is %lld, expected %lld\n", after, expect);
        if (r >= 0) t[r] = mode == STREAM_IN ? stream_in_us / ((double)adders * (double)n) : elapsed / (double)n;
      }
    }
    if (me == 0) perf_emit(8, n, names[mode], t, o.reps, 1);
  }

  long long* flag = (long long*)shmem_malloc(sizeof(long long));
  *flag = 0;
  shmem_barrier_all();
  const long rounds = perf_iterations(&o, 1, 10000, 1, 10000);
  long long seq = 0;
  for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
    shmem_barrier_all();
    const long count = r < 0 ? rounds / 10 + 1 : rounds;
    const double t0 = perf_now_us();
    for (long i = 0; i < count; ++i) {
      ++seq;
      if (me == 0) {
        sink += shmem_longlong_atomic_fetch_add(flag, 1, 1);
        shmem_longlong_wait_until(flag, SHMEM_CMP_GE, seq);
      } else if (me == 1) {
        shmem_longlong_wait_until(flag, SHMEM_CMP_GE, seq);
        sink += shmem_longlong_atomic_fetch_add(flag, 1, 0);
      }
    }
    if (r >= 0) t[r] = (perf_now_us() - t0) / (2.0 * (double)rounds);
  }
  if (me == 0) perf_emit(8, rounds, "fetch_add_pingpong_half_rtt_us", t, o.reps, 1);
  sink_out = sink;

  shmem_barrier_all();
  shmem_free(flag);
  shmem_free(counter);
  shmem_finalize();
  return 0;
}
