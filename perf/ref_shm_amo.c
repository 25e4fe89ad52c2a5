/* Reference for fetch_add: two plain processes (fork), no OpenSHMEM, and a 64-bit counter in
 * an anonymous MAP_SHARED page.  The parent is pinned to core 0, the child to core 1.  The
 * patterns are those of the fetch_add benchmark; the parent times `iterations` atomic
 * fetch-and-adds on the counter under one timer while the child
 *
 *  raw_fetch_add_us            sleeps (polls a flag every 50 us), as PE 1 does in fetch_add
 *  raw_fetch_add_watched_us    polls it (loads and the CPU's pause hint) until it reaches its
 *                              final value
 *  raw_fetch_add_contended_us  runs the same fetch-and-adds at the same time
 * and
 *  raw_fetch_add_pingpong_half_rtt_us
 *                              a ping-pong signalled by fetch-and-adds: the parent adds 1 to
 *                              the child's flag and polls its own until the child, polling
 *                              its flag, adds 1 to the parent's; half a round trip */
#include "perf_common.h" /* first: it defines _GNU_SOURCE */

#include <sys/mman.h>
#include <sys/wait.h>


/* Every flag and counter on a page of its own, as when they live in different PEs' heaps:
 * two flags on neighbouring cache lines would disturb each other through the adjacent-line
 * prefetcher. */
#define PAGE 4096

struct shared {
  _Alignas(PAGE) long long counter;
  _Alignas(PAGE) long long go;    /* the parent's round number: the child starts that round */
  long long mode;               /* what the child does in this round */
  long long target;             /* the counter's value at the end of this round (ping-pong: rounds) */
  long long base;               /* ping-pong: both flags' value when the round starts */
  _Alignas(PAGE) long long ready;   /* the child's round: it has seen `go` and starts */
  _Alignas(PAGE) long long finish;  /* the parent's round: the parent's timed part is over */
  _Alignas(PAGE) long long done;    /* the child's last finished round */
  _Alignas(PAGE) long long flag[2][PAGE / 8];  /* flag[p][0]: process p's ping-pong flag */
};

enum { ALONE, WATCHED, CONTENDED, PINGPONG };
static const char* const names[] = {"raw_fetch_add_us", "raw_fetch_add_watched_us", "raw_fetch_add_contended_us"};

static volatile long long sink_out;  /* keeps the fetched values alive */

static long long run(long long* counter, long n) {
  long long sink = 0;
  for (long i = 0; i < n; ++i) sink += __atomic_fetch_add(counter, 1, __ATOMIC_ACQ_REL);
  return sink;
}

/* `count` rounds of the fetch-and-add ping-pong from process `me`'s side. */
static long long amo_pingpong(struct shared* sh, int me, long long base, long long count) {
  long long sink = 0;
  long long* mine = &sh->flag[me][0];
  long long* theirs = &sh->flag[1 - me][0];
  long long seq = base;
  for (long long i = 0; i < count; ++i) {
    ++seq;
    if (me == 0) {
      sink += __atomic_fetch_add(theirs, 1, __ATOMIC_ACQ_REL);
      while (__atomic_load_n(mine, __ATOMIC_ACQUIRE) < seq) perf_cpu_relax();
    } else {
      while (__atomic_load_n(mine, __ATOMIC_ACQUIRE) < seq) perf_cpu_relax();
      sink += __atomic_fetch_add(theirs, 1, __ATOMIC_ACQ_REL);
    }
  }
  return sink;
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  struct shared* sh = (struct shared*)perf_map_shared(sizeof(struct shared));
  const long n = perf_iterations(&o, 1, 100000, 1, 100000);
  const int me = perf_fork_pair("ref_shm_amo", o.pin);
  long long sink = 0;

  if (me == 1) {
    /* Round k: the parent sets sh->mode and sh->target, then go = k; the child answers
     * ready = k, does its part (in ALONE mode: sleeps until finish = k) and sets done = k.
     * go = -1 ends. */
    for (long long round = 1;; ++round) {
      long long go;
      while ((go = __atomic_load_n(&sh->go, __ATOMIC_ACQUIRE)) != round && go >= 0) perf_cpu_relax();
      if (go < 0) break;
      __atomic_store_n(&sh->ready, round, __ATOMIC_RELEASE);
      if (sh->mode == ALONE) {
        const struct timespec nap = {0, 50000};
        while (__atomic_load_n(&sh->finish, __ATOMIC_ACQUIRE) < round) nanosleep(&nap, NULL);
      } else if (sh->mode == CONTENDED) {
        sink += run(&sh->counter, n);
      } else if (sh->mode == WATCHED) {
        while (__atomic_load_n(&sh->counter, __ATOMIC_ACQUIRE) < sh->target) perf_cpu_relax();
      } else if (sh->mode == PINGPONG) {
        sink += amo_pingpong(sh, 1, sh->base, sh->target);
      }
      __atomic_store_n(&sh->done, round, __ATOMIC_RELEASE);
    }
    sink_out = sink;
    _exit(0);
  }

  perf_header("ref_shm_amo", &o);
  double t[PERF_MAX_REPS];
  long long round = 0;
  for (int mode = ALONE; mode <= CONTENDED; ++mode) {
    for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
      const long long before = __atomic_load_n(&sh->counter, __ATOMIC_ACQUIRE);
      const long long expect = before + (mode == CONTENDED ? 2 : 1) * n;
      sh->mode = mode;
      sh->target = expect;
      __atomic_store_n(&sh->go, ++round, __ATOMIC_RELEASE);
      while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) != round) perf_cpu_relax();
      const double t0 = perf_now_us();
      sink += run(&sh->counter, n);
      const double elapsed = perf_now_us() - t0;
      __atomic_store_n(&sh->finish, round, __ATOMIC_RELEASE);
      while (__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE) != round) perf_cpu_relax();
      if (__atomic_load_n(&sh->counter, __ATOMIC_ACQUIRE) != expect)
        fprintf(stderr, "# ref_shm_amo: counter mismatch\n");
      if (r >= 0) t[r] = elapsed / (double)n;
    }
    perf_emit(8, n, names[mode], t, o.reps, 1);
  }

  const long rounds = perf_iterations(&o, 1, 10000, 1, 10000);
  for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
    const long long count = r < 0 ? rounds / 10 + 1 : rounds;
    sh->mode = PINGPONG;
    sh->target = count;
    sh->base = __atomic_load_n(&sh->flag[0][0], __ATOMIC_ACQUIRE);
    __atomic_store_n(&sh->go, ++round, __ATOMIC_RELEASE);
    while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) != round) perf_cpu_relax();
    const double t0 = perf_now_us();
    sink += amo_pingpong(sh, 0, sh->base, count);
    const double elapsed = perf_now_us() - t0;
    while (__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE) != round) perf_cpu_relax();
    if (r >= 0) t[r] = elapsed / (2.0 * (double)rounds);
  }
  perf_emit(8, rounds, "raw_fetch_add_pingpong_half_rtt_us", t, o.reps, 1);
  __atomic_store_n(&sh->go, -1, __ATOMIC_RELEASE);

  int status = 0;
  wait(&status);
  sink_out = sink;
  munmap(sh, sizeof(struct shared));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
