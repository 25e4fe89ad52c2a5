/* Start-up shared by the OpenSHMEM benchmarks: standard OpenSHMEM calls only, so that they
 * build and run against any OpenSHMEM library. */
#ifndef TANDEM_PERF_SHMEM_H
#define TANDEM_PERF_SHMEM_H

/* perf_common.h first: it defines _GNU_SOURCE before any system header is read. */
#include "perf_common.h"

#include <shmem.h>

/* Initialises OpenSHMEM, checks that there are at least two PEs and pins this PE to the
 * core of its index (after shmem_init, so that the library sees at init the cores the launcher
 * gave it).  Returns this PE's index; exits (after shmem_finalize) when fewer than 2 PEs. */
static inline int perf_shmem_start(const char* what, const struct perf_opts* o) {
  const int cpus_at_start = perf_affinity_count();
  shmem_init();
  const int me = shmem_my_pe();
  const int npes = shmem_n_pes();
  if (npes < 2) {
    if (me == 0) fprintf(stderr, "# %s needs at least 2 PEs (got %d)\n", what, npes);
    shmem_finalize();
    exit(1);
  }
  int core = -1;
  if (o->pin) core = perf_pin(me);
  if (me < 2)
    fprintf(stderr, "# %s: PE %d of %d, %d usable cpu(s) at start, %s %d\n", what, me, npes, cpus_at_start,
            core >= 0 ? "pinned to core" : "not pinned, on cpu", core >= 0 ? core : sched_getcpu());
  if (me == 0) perf_header(what, o);
  shmem_barrier_all();
  return me;
}

/* The shmem_barrier_all latency: a warm-up, then `reps` timed loops of `n` barriers each;
 * t[r] is loop r's time per barrier.  Every PE calls it. */
static inline void perf_barrier_loops(const struct perf_opts* o, long n, double* t) {
  for (long i = 0; i < n / 10 + 1; ++i) shmem_barrier_all();
  for (int r = 0; r < o->reps; ++r) {
    shmem_barrier_all();
    const double t0 = perf_now_us();
    for (long i = 0; i < n; ++i) shmem_barrier_all();
    t[r] = (perf_now_us() - t0) / (double)n;
  }
}

/* PE 0's partners as PE 0's shmem_ptr sees them, on every PE: *inter, the first PE of
 * another node, and *intra, the first other PE of PE 0's node (-1: none).  `sym` is any
 * symmetric object.  Every PE calls it. */
static int perf_partners[2];
static inline void perf_find_partners(void* sym, int* inter, int* intra) {
  if (shmem_my_pe() == 0) {
    perf_partners[0] = perf_partners[1] = -1;
    for (int pe = 1; pe < shmem_n_pes(); ++pe) {
      const int i = shmem_ptr(sym, pe) == NULL ? 0 : 1;
      if (perf_partners[i] < 0) perf_partners[i] = pe;
    }
    for (int pe = 1; pe < shmem_n_pes(); ++pe) shmem_int_put(perf_partners, perf_partners, 2, pe);
    shmem_quiet();
  }
  shmem_barrier_all();
  *inter = perf_partners[0];
  *intra = perf_partners[1];
}

/* Sections where only PE 0 works.  Meanwhile the other PEs wait without using their cores
 * (they test a flag and sleep 50 us between tests), so that PE 0 runs as the single-process
 * references do: on these machines a busy process on the other core (a PE spinning in a
 * barrier, say) slows PE 0's copies down.  With PERF_SOLO_POLL=1 (perf/run.sh -I) they block
 * in shmem_wait_until instead, as the passive side of the network references polls its
 * completion queue: across nodes a manual-progress network moves PE 0's gets and quiets
 * only when the target calls into the library, and some implementations (Open MPI's OSHMEM
 * over UCX) drive progress in a wait but not in a test.  Usage, on every PE:
 *   shmem_barrier_all(); if (me == 0) { timed loop } perf_solo_done(me); */
static long long perf_solo_flag; /* symmetric: PE 0 releases the others through it */
static long long perf_solo_epoch;

static inline void perf_solo_done(int me) {
  ++perf_solo_epoch;
  if (me == 0) {
    for (int pe = 1; pe < shmem_n_pes(); ++pe) shmem_longlong_p(&perf_solo_flag, perf_solo_epoch, pe);
    shmem_quiet();
  } else {
    const char* poll = getenv("PERF_SOLO_POLL");
    if (poll && strcmp(poll, "1") == 0) {
      shmem_longlong_wait_until(&perf_solo_flag, SHMEM_CMP_GE, perf_solo_epoch);
      return;
    }
    const struct timespec nap = {0, 50000};
    while (!shmem_longlong_test(&perf_solo_flag, SHMEM_CMP_GE, perf_solo_epoch)) nanosleep(&nap, NULL);
  }
}

#endif /* TANDEM_PERF_SHMEM_H */
