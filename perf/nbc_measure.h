/* The measurement of nonblocking collectives that perf/nbc.c (Tandem's shmemx_*_nbi) and
 * perf/nbc_mpi.c (MPI's MPI_I*) share, so that both are timed alike: seeds/004's Full, Post,
 * Wait and Overlap with a busy-wait compute phase of twice the worst PE's Full, beside the
 * blocking routine, and Late, the others' wait for a PE that computes between its post and
 * its wait; every figure the worst PE's (see either program's opening comment for the
 * metrics).  A program gives its library's calls in a struct nbc_lib. */
#ifndef TANDEM_PERF_NBC_MEASURE_H
#define TANDEM_PERF_NBC_MEASURE_H

#include "perf_common.h"

enum { BROADCAST, FCOLLECT, ALLTOALL, SUM_REDUCE, COLLECTIVES };
/* The late PE's compute (nbc_measure, NAME_late_us). */
#define NBC_LATE_US 1000.0
static const char* const nbc_names[COLLECTIVES] = {"broadcast", "fcollect", "alltoall", "sum_reduce"};

struct nbc_lib {
  int npes, me;
  void (*blocking)(int c, size_t size);  /* the blocking collective c of `size` bytes */
  void (*post)(int c, size_t size);      /* its nonblocking form, one request in flight */
  void (*wait)(void);                    /* completes that request */
  void (*barrier)(void);
  void (*max)(double* t, int n);         /* t[i] becomes the largest over the PEs of t[i] */
  void (*min)(double* t, int n);         /* ... the smallest */
};

/* -c NAME: the collective to measure alone (taken out of argv), -1 for all; -2 for a name
 * that is none. */
static int nbc_only(int* argc, char** argv, const char* program) {
  for (int i = 1; i + 1 < *argc; ++i) {
    if (strcmp(argv[i], "-c") != 0) continue;
    int only = -2;
    for (int c = 0; c < COLLECTIVES; ++c)
      if (strcmp(argv[i + 1], nbc_names[c]) == 0) only = c;
    if (only < 0)
      fprintf(stderr, "# %s: -c takes broadcast, fcollect, alltoall or sum_reduce, not '%s'\n", program, argv[i + 1]);
    for (int j = i; j + 2 < *argc; ++j) argv[j] = argv[j + 2];
    *argc -= 2;
    return only;
  }
  return -1;
}

static void nbc_measure(const struct nbc_lib* lib, int c, size_t size, const struct perf_opts* o, double turns_per_us) {
  const int npes = lib->npes;
  /* Each call moves about size * npes bytes through a rank (size for the broadcast). */
  const size_t moved = c == BROADCAST || c == SUM_REDUCE ? size : size * (size_t)npes;
  const long n = perf_iterations(o, moved, 64.0 * PERF_MIB, 10, 2000);
  double tb[PERF_MAX_REPS], tf[PERF_MAX_REPS], tp[PERF_MAX_REPS], tw[PERF_MAX_REPS], tt[PERF_MAX_REPS],
      tc[PERF_MAX_REPS];
  for (long i = 0; i < n / 10 + 1; ++i) lib->blocking(c, size);
  for (int r = 0; r < o->reps; ++r) {
    lib->barrier();
    double t0 = perf_now_us();
    for (long i = 0; i < n; ++i) lib->blocking(c, size);
    tb[r] = (perf_now_us() - t0) / (double)n;

    lib->barrier();
    t0 = perf_now_us();
    for (long i = 0; i < n; ++i) {
      lib->post(c, size);
      lib->wait();
    }
    tf[r] = (perf_now_us() - t0) / (double)n;

    lib->barrier();
    double posting = 0;
    for (long i = 0; i < n; ++i) {
      const double t1 = perf_now_us();
      lib->post(c, size);
      posting += perf_now_us() - t1;
      lib->wait();
    }
    tp[r] = posting / (double)n;
  }
  lib->max(tb, o->reps);
  lib->max(tf, o->reps);
  lib->max(tp, o->reps);
  const struct perf_stat full = perf_stats(tf, o->reps, 1);

  /* The compute phase: twice the worst rank's Full, checked against the clock on each rank. */
  const uint64_t turns = perf_compute_turns(2.0 * full.best, turns_per_us, n);
  for (int r = 0; r < o->reps; ++r) {
    lib->barrier();
    double waiting = 0;
    double t0 = perf_now_us();
    for (long i = 0; i < n; ++i) {
      lib->post(c, size);
      perf_spin(turns);
      const double t1 = perf_now_us();
      lib->wait();
      waiting += perf_now_us() - t1;
    }
    tt[r] = (perf_now_us() - t0) / (double)n;
    tw[r] = waiting / (double)n;
    t0 = perf_now_us();
    for (long i = 0; i < n; ++i) perf_spin(turns);
    tc[r] = (perf_now_us() - t0) / (double)n;
  }
  /* Each rank's own Overlap (the difference of its loops' best, and of their medians: noise
   * only adds time), then the worst over the ranks. */
  const struct perf_stat own_total = perf_stats(tt, o->reps, 1), own_compute = perf_stats(tc, o->reps, 1),
                         own_full = perf_stats(tf, o->reps, 1);
  double overlap[2] = {own_total.best - own_compute.best, own_total.median - own_compute.median};
  double pct[2] = {own_full.best > 0 ? 100.0 * (1.0 - overlap[0] / own_full.best) : 0,
                   own_full.median > 0 ? 100.0 * (1.0 - overlap[1] / own_full.median) : 0};
  lib->max(overlap, 2);
  lib->min(pct, 2);
  lib->max(tw, o->reps);
  lib->max(tc, o->reps);

  /* A late PE: the last one posts, computes NBC_LATE_US without calling the library, then
   * waits; the others post and wait at once.  Their waits, the worst: what one PE's compute
   * costs the peers that wait for its part (the whole compute where nothing moves the
   * collective meanwhile, its Full where something does).  Then the same with the last PE
   * asleep for NBC_LATE_US instead (blocked elsewhere, its core free). */
  const uint64_t late_turns = perf_compute_turns(NBC_LATE_US, turns_per_us, 5);
  const long late_n = n / 50 + 5;
  double tl[2][PERF_MAX_REPS];
  for (int asleep = 0; asleep < 2; ++asleep) {
    for (int r = 0; r < o->reps; ++r) {
      double waited = 0;
      for (long i = 0; i < late_n; ++i) {
        lib->barrier();
        const double t0 = perf_now_us();
        lib->post(c, size);
        if (lib->me == npes - 1) {
          if (asleep) usleep((useconds_t)NBC_LATE_US);
          else perf_spin(late_turns);
        }
        lib->wait();
        if (lib->me != npes - 1) waited += perf_now_us() - t0;
      }
      tl[asleep][r] = waited / (double)late_n;
    }
    lib->max(tl[asleep], o->reps);
  }
  if (lib->me != 0) return;
  char metric[64];
  const char* name = nbc_names[c];
  snprintf(metric, sizeof metric, "%s_blocking_us", name);
  perf_emit(size, n, metric, tb, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_full_us", name);
  perf_emit_stat(size, n, metric, full);
  snprintf(metric, sizeof metric, "%s_post_us", name);
  perf_emit(size, n, metric, tp, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_compute_us", name);
  perf_emit(size, n, metric, tc, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_wait_us", name);
  perf_emit(size, n, metric, tw, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_overlap_us", name);
  perf_emit_stat(size, n, metric, (struct perf_stat){overlap[0], overlap[1]});
  snprintf(metric, sizeof metric, "%s_overlap_pct", name);
  perf_emit_stat(size, n, metric, (struct perf_stat){pct[0], pct[1]});
  snprintf(metric, sizeof metric, "%s_late_us", name);
  perf_emit(size, late_n, metric, tl[0], o->reps, 1);
  snprintf(metric, sizeof metric, "%s_late_asleep_us", name);
  perf_emit(size, late_n, metric, tl[1], o->reps, 1);
}

/* Every collective (or `only`, nbc_only's answer) at every size of the options. */
static void nbc_measure_all(const struct nbc_lib* lib, int only, const struct perf_opts* o, double turns_per_us) {
  for (int c = 0; c < COLLECTIVES; ++c) {
    if (only >= 0 && c != only) continue;
    for (size_t size = perf_first_size(o); size <= o->max_size; size <<= 1)
      if (c != SUM_REDUCE || size >= sizeof(long)) nbc_measure(lib, c, size, o, turns_per_us);
  }
}

#endif
