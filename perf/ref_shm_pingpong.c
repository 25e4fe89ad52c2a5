/* Reference for the ping-pong and the barrier: two plain processes (fork), no OpenSHMEM,
 * sharing one anonymous MAP_SHARED page.  The parent is pinned to core 0, the child to core 1.
 *
 *  raw_pingpong_half_rtt_us  the parent stores an 8-byte sequence number into the `ping` flag
 *                            and polls (with the CPU's pause hint) the `pong` flag until the
 *                            child, polling `ping`, stores the same number there; half of a
 *                            round trip, one timer around `iterations` round trips
 *  raw_barrier_us            a two-process barrier: each process adds 1 to its partner's
 *                            counter and polls its own until it reaches the barrier's number
 *                            (one round of a dissemination barrier)
 * The flags and counters sit on separate pages. */
#include "perf_common.h" /* first: it defines _GNU_SOURCE */

#include <sys/mman.h>
#include <sys/wait.h>


/* Every flag and counter on a page of its own, as when they live in different PEs' heaps:
 * two flags on neighbouring cache lines would disturb each other through the adjacent-line
 * prefetcher. */
#define PAGE 4096

struct shared {
  _Alignas(PAGE) volatile long long ping;
  _Alignas(PAGE) volatile long long pong;
  _Alignas(PAGE) long long counter[2][PAGE / 8];  /* counter[p][0]: process p's barrier counter */
};

static void wait_equal(volatile long long* flag, long long value) {
  while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != value) perf_cpu_relax();
}

static void pingpong(struct shared* sh, int me, long n, long long* seq) {
  for (long i = 0; i < n; ++i) {
    const long long s = ++*seq;
    if (me == 0) {
      __atomic_store_n(&sh->ping, s, __ATOMIC_RELEASE);
      wait_equal(&sh->pong, s);
    } else {
      wait_equal(&sh->ping, s);
      __atomic_store_n(&sh->pong, s, __ATOMIC_RELEASE);
    }
  }
}

static void barriers(struct shared* sh, int me, long n, long long* epoch) {
  for (long i = 0; i < n; ++i) {
    const long long e = ++*epoch;
    __atomic_fetch_add(&sh->counter[1 - me][0], 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&sh->counter[me][0], __ATOMIC_ACQUIRE) < e) perf_cpu_relax();
  }
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  struct shared* sh = (struct shared*)perf_map_shared(sizeof(struct shared));
  const long n_pp = perf_iterations(&o, 1, 10000, 1, 10000);
  const long n_bar = perf_iterations(&o, 1, 10000, 1, 10000);
  const int me = perf_fork_pair("ref_shm_pingpong", o.pin);
  if (me == 0) perf_header("ref_shm_pingpong", &o);

  long long seq = 0, epoch = 0;
  double t[PERF_MAX_REPS];
  /* Both processes run the same sequence; only the parent reads the clock. */
  pingpong(sh, me, n_pp / 10 + 1, &seq);
  for (int r = 0; r < o.reps; ++r) {
    barriers(sh, me, 1, &epoch);
    const double t0 = perf_now_us();
    pingpong(sh, me, n_pp, &seq);
    t[r] = (perf_now_us() - t0) / (2.0 * (double)n_pp);
  }
  if (me == 0) perf_emit(8, n_pp, "raw_pingpong_half_rtt_us", t, o.reps, 1);

  barriers(sh, me, n_bar / 10 + 1, &epoch);
  for (int r = 0; r < o.reps; ++r) {
    barriers(sh, me, 1, &epoch);
    const double t0 = perf_now_us();
    barriers(sh, me, n_bar, &epoch);
    t[r] = (perf_now_us() - t0) / (double)n_bar;
  }
  if (me == 0) perf_emit(0, n_bar, "raw_barrier_us", t, o.reps, 1);

  if (me == 1) _exit(0);
  int status = 0;
  wait(&status);
  munmap(sh, sizeof(struct shared));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
