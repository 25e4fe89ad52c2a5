/* Window epochs (shmemx_win_*): what each synchronisation mode costs under the issue strategy
 * in force (TANDEM_EPOCH_STRATEGY), and how much of an epoch's transfers overlap work.
 * Compare strategies in one run with perf/compare.sh, e.g.
 *   perf/compare.sh -e TANDEM_EPOCH_STRATEGY=lazy,hybrid -p 4 -S loopback epochs
 *
 * Many operations.  PE 0 opens an epoch towards one target, puts N consecutive 8-byte words
 * there (each from its own source word) and closes the epoch, for N = 1, 2, 4, ... up to
 * -N MAXOPS (default 4096); N = 1 is the single-operation latency.  The modes:
 *   fence  every PE calls shmemx_win_fence; only PE 0 puts
 *   pscw   the target posts to PE 0 and waits; PE 0 starts, puts and completes
 *   lock   PE 0 locks the target (exclusive), puts and unlocks; the target only waits
 *   put1   as lock, with one put of the N words instead of N puts
 *   acc    as lock, with one accumulate (SHMEMX_WIN_SUM on int64_t) of the N words: against
 *          put1, what updating each element atomically costs
 * The targets are the first PE of another node (inter) and of PE 0's node (intra), as PE 0's
 * shmem_ptr sees them; a placement without one skips it.  After each N's timed loops every
 * series is checked once: the target clears its words, one epoch writes (N << 20) + i + series
 * into word i (acc: adds it to 0), and the target checks the N words and the one after them.
 * Metrics (the size column holds N): epochs_<mode>_<inter|intra>_us, one epoch's time (one
 * timer around the iterations).
 *
 * Overlap (lock mode, inter target).  For each size S from -m to -M (default 4K to 1M),
 * an epoch of 16 puts of S bytes is timed alone (comm), then with busy work of comm / 16
 * after each put (total).  Metrics (the size column holds S): epochs_lock_comm_us and
 * epochs_lock_overlap_pct = 100 * (comm + work - total) / min(comm, work), the share of the
 * shorter side hidden by the other: about 0 when the transfers wait for the closing call. */
#include "perf_shmem.h"

#include <shmemx.h>

enum { FENCE, PSCW, LOCK, PUT1, ACC, MODES };
static const char* const modes[MODES] = {"fence", "pscw", "lock", "put1", "acc"};
enum { INTER, INTRA, PLACES };
static const char* const places[PLACES] = {"inter", "intra"};
enum { OVERLAP_PUTS = 16 };

static shmemx_win_t win;
static int me;

/* One epoch of `mode`: PE 0 puts `n` words of `bytes` to `pe`, with `work` spin turns after
 * each put.  Every PE calls it. */
static void epoch(int mode, char* dest, const char* source, long n, size_t bytes, int pe, uint64_t work) {
  const int zero = 0;
  if (mode == PSCW && me == pe) {
    shmemx_win_post(win, &zero, 1);
    shmemx_win_wait(win);
    return;
  }
  if (me == 0) {
    if (mode == PSCW) shmemx_win_start(win, &pe, 1);
    const int locked = mode == LOCK || mode == PUT1 || mode == ACC;
    if (locked) shmemx_win_lock(win, SHMEMX_WIN_LOCK_EXCLUSIVE, pe);
    if (mode == PUT1) {
      shmemx_win_putmem(win, dest, source, (size_t)n * bytes, pe);
    } else if (mode == ACC) {
      shmemx_win_int64_accumulate(win, (int64_t*)dest, (const int64_t*)source, (size_t)n, SHMEMX_WIN_SUM, pe);
    } else {
      for (long i = 0; i < n; ++i) {
        shmemx_win_putmem(win, dest + (size_t)i * bytes, source + (size_t)i * bytes, bytes, pe);
        perf_spin(work);
      }
    }
    if (mode == PSCW) shmemx_win_complete(win);
    if (locked) shmemx_win_unlock(win, pe);
  }
  if (mode == FENCE) shmemx_win_fence(win);
}

/* Whether `mode` involves PE `pe` (the others wait in perf_solo_done meanwhile). */
static int takes_part(int mode, int pe, int target) { return mode == FENCE || pe == 0 || (mode == PSCW && pe == target); }

static int64_t pattern(long n, long i, int series) { return ((int64_t)n << 20) + i + series; }

static void verify(int mode, int place, int pe, int64_t* dest, int64_t* source, long n) {
  const int series = mode * PLACES + place;
  if (me == pe) memset(dest, 0, (size_t)(n + 1) * sizeof(int64_t));
  shmem_barrier_all();
  if (me == 0)
    for (long i = 0; i < n; ++i) source[i] = pattern(n, i, series);
  epoch(mode, (char*)dest, (const char*)source, n, sizeof(int64_t), pe, 0);
  shmem_barrier_all();
  if (me != pe) return;
  for (long w = 0; w <= n; ++w) {
    const int64_t want = w < n ? pattern(n, w, series) : 0;
    if (dest[w] != want) {
      fprintf(stderr, "# epochs: verification failed on PE %d: N %ld, %s %s, word %ld: %lld, expected %lld\n", me, n,
              modes[mode], places[place], w, (long long)dest[w], (long long)want);
      shmem_global_exit(1);
    }
  }
}

static void many_ops(const struct perf_opts* o, long max_ops, int64_t* dest, int64_t* source, const int* target) {
  double t[PERF_MAX_REPS];
  for (long ops = 1; ops <= max_ops; ops <<= 1) {
    const long n = perf_iterations(o, (size_t)ops * sizeof(int64_t), 64.0 * PERF_KIB, 5, 1000);
    for (int mode = 0; mode < MODES; ++mode)
      for (int place = 0; place < PLACES; ++place) {
        const int pe = target[place];
        if (pe < 0) continue;
        for (int r = 0; r < o->reps; ++r) {
          shmem_barrier_all();
          if (takes_part(mode, me, pe)) {
            epoch(mode, (char*)dest, (const char*)source, ops, sizeof(int64_t), pe, 0); /* warm-up */
            const double t0 = perf_now_us();
            for (long i = 0; i < n; ++i) epoch(mode, (char*)dest, (const char*)source, ops, sizeof(int64_t), pe, 0);
            t[r] = (perf_now_us() - t0) / (double)n;
          }
          if (mode != FENCE) perf_solo_done(me);
        }
        verify(mode, place, pe, dest, source, ops);
        if (me == 0) {
          char metric[64];
          snprintf(metric, sizeof metric, "epochs_%s_%s_us", modes[mode], places[place]);
          perf_emit((size_t)ops, n, metric, t, o->reps, 1);
        }
      }
  }
}

static void overlap(const struct perf_opts* o, char* dest, const char* source, int pe) {
  const double turns_per_us = me == 0 ? perf_spin_calibrate() : 0;
  double comm[PERF_MAX_REPS], pct[PERF_MAX_REPS];
  for (size_t size = perf_first_size(o); size <= o->max_size; size <<= 1) {
    const long n = perf_iterations(o, size * OVERLAP_PUTS, 16.0 * PERF_MIB, 3, 200);
    for (int r = 0; r < o->reps; ++r) {
      shmem_barrier_all();
      if (me == 0) {
        epoch(LOCK, dest, source, OVERLAP_PUTS, size, pe, 0);
        double t0 = perf_now_us();
        for (long i = 0; i < n; ++i) epoch(LOCK, dest, source, OVERLAP_PUTS, size, pe, 0);
        comm[r] = (perf_now_us() - t0) / (double)n;
        const uint64_t work = (uint64_t)(comm[r] / OVERLAP_PUTS * turns_per_us);
        const double work_us = (double)work * OVERLAP_PUTS / turns_per_us;
        t0 = perf_now_us();
        for (long i = 0; i < n; ++i) epoch(LOCK, dest, source, OVERLAP_PUTS, size, pe, work);
        const double total = (perf_now_us() - t0) / (double)n;
        const double shorter = comm[r] < work_us ? comm[r] : work_us;
        pct[r] = shorter > 0 ? 100.0 * (comm[r] + work_us - total) / shorter : 0;
      }
      perf_solo_done(me);
    }
    if (me == 0) {
      perf_emit(size, n, "epochs_lock_comm_us", comm, o->reps, 1);
      perf_emit(size, n, "epochs_lock_overlap_pct", pct, o->reps, 0);
    }
  }
}

int main(int argc, char** argv) {
  const long max_ops = perf_take_count(&argc, argv, "-N", 4096,
                                       "  -N MAXOPS: the most puts per epoch of the many-operations series (default 4096)");
  struct perf_opts o = perf_defaults();
  o.min_size = 4 * PERF_KIB;
  o.max_size = PERF_MIB;
  perf_parse(argc, argv, &o);
  me = perf_shmem_start("epochs", &o);
  const size_t bytes = (size_t)OVERLAP_PUTS * o.max_size > (size_t)(max_ops + 1) * sizeof(int64_t)
                           ? (size_t)OVERLAP_PUTS * o.max_size
                           : (size_t)(max_ops + 1) * sizeof(int64_t);
  char* dest = shmem_calloc(1, bytes);
  char* source = perf_alloc(bytes);
  if (dest == NULL) {
    fprintf(stderr, "# shmem_calloc(%zu) failed: raise SHMEM_SYMMETRIC_SIZE or lower -N and -M\n", bytes);
    shmem_global_exit(1);
  }
  int target[PLACES];
  perf_find_partners(dest, &target[INTER], &target[INTRA]);
  if (me == 0) {
    const char* strategy = getenv("TANDEM_EPOCH_STRATEGY");
    printf("# epochs: strategy %s; many_ops series: the size column is N (1 ... %ld)\n", strategy ? strategy : "eager",
           max_ops);
    fprintf(stderr, "# epochs: inter target PE %d, intra target PE %d (-1: none)\n", target[INTER], target[INTRA]);
    fflush(stdout);
  }
  if (shmemx_win_create(SHMEM_TEAM_WORLD, dest, bytes, &win) != 0) {
    fprintf(stderr, "# epochs: no window\n");
    shmem_global_exit(1);
  }
  shmemx_win_fence(win);
  many_ops(&o, max_ops, (int64_t*)dest, (int64_t*)source, target);
  if (target[INTER] >= 0) overlap(&o, dest, source, target[INTER]);
  shmemx_win_free(&win);
  shmem_barrier_all();
  free(source);
  shmem_free(dest);
  shmem_finalize();
  return 0;
}
