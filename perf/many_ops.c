/* Many small puts in one epoch: PE 0 issues N consecutive 8-byte shmem_putmem_nbi to one
 * target PE, then one shmem_quiet, for N = 1, 2, 4, ... up to -N MAXOPS (default 16384).
 * The targets, found with shmem_ptr, are the first PE of another node (inter: shmem_ptr
 * returns NULL) and the first PE of PE 0's node (intra); a placement with no such PE is
 * skipped with a note on stderr.  Run it on 2 nodes, e.g.
 * `build/tools/oshrun/oshrun --nodes 2 -n 4 build/perf/many_ops` (on one node, `-n 2`, only
 * intra is measured); the targets only wait (perf_solo_done), sleeping between polls unless
 * PERF_SOLO_POLL=1.
 *
 * Per N, one epoch is:
 *  inter          N puts to dest + 8*i (i = 0 .. N-1) of the inter target, then quiet
 *  intra          the same to the intra target
 *  inter_strided  N puts to dest + 16*i of the inter target, then quiet: puts to
 *                 non-contiguous addresses, which no run of consecutive puts merges
 *  inter_spread   the same, put i going to the PEs of other nodes in turn (i modulo their
 *                 number; with 2 PEs, the inter target alone)
 * Each put reads its own 8 bytes, source + 8*i.  After the timed loops of each N, every
 * series is checked once, outside the timing: the targets clear their words, PE 0 runs one
 * epoch whose word i carries (N << 20) + i + series, and after a barrier each target checks
 * the words, the gaps between the strided ones and the word after the contiguous ones; a
 * mismatch ends the job (shmem_global_exit(1)) with a message naming N, the series and the
 * index.
 *
 * CSV metrics, per N (the size column holds N, the number of puts per epoch, not bytes):
 * many_ops_<series>_us, the epoch's time (one timer around the iterations, divided by them),
 * and many_ops_<series>_per_op_ns, the same divided by N, in nanoseconds.  -N MAXOPS sets the
 * largest N (the sizes -m and -M play no part); the other common options (-r, -i, -x, -P)
 * keep their meaning.  The comparison script runs it with TANDEM_AGGREGATE=off and with
 * TANDEM_AGGREGATE=on and compares the two settings series by series. */
#include "perf_shmem.h"

enum { INTER, INTRA, INTER_STRIDED, INTER_SPREAD, SERIES };
static const char* const names[SERIES] = {"inter", "intra", "inter_strided", "inter_spread"};
static const long strides[SERIES] = {1, 1, 2, 2}; /* in 8-byte words */

/* PE 0's targets (-1: none), as PE 0's shmem_ptr sees them; inter_spread's first. */
static int target[SERIES];
/* inter_spread's: the PEs of other nodes. */
static int* spread;
static int n_spread;

/* The PE that put i of `series` goes to. */
static int target_of(int series, long i) { return series == INTER_SPREAD ? spread[i % n_spread] : target[series]; }

static void epoch(int64_t* dest, const int64_t* source, long n, int series) {
  const long stride = strides[series];
  for (long i = 0; i < n; ++i) shmem_putmem_nbi(dest + i * stride, source + i, sizeof(int64_t), target_of(series, i));
  shmem_quiet();
}

static int64_t pattern(long n, long i, int series) { return ((int64_t)n << 20) + i + series; }

/* One checked epoch of `series` with `n` puts (every PE calls it). */
static void verify(int me, int series, int64_t* dest, int64_t* source, long n) {
  const long stride = strides[series];
  const long words = stride == 1 ? n + 1 : stride * n; /* the last word stays 0 */
  int mine = me == target[series];
  for (int k = 0; series == INTER_SPREAD && k < n_spread; ++k) mine |= me == spread[k];
  if (mine) memset(dest, 0, (size_t)words * sizeof(int64_t));
  shmem_barrier_all();
  if (me == 0) {
    for (long i = 0; i < n; ++i) source[i] = pattern(n, i, series);
    epoch(dest, source, n, series);
  }
  shmem_barrier_all();
  if (!mine) return;
  for (long w = 0; w < words; ++w) {
    const long put = w / stride;
    const int64_t want =
        w % stride == 0 && put < n && target_of(series, put) == me ? pattern(n, put, series) : 0;
    if (dest[w] != want) {
      fprintf(stderr, "# many_ops: verification failed on PE %d: N %ld, %s, word %ld (put %ld): %lld, expected %lld\n",
              me, n, names[series], w, w % stride == 0 ? w / stride : -1L, (long long)dest[w], (long long)want);
      shmem_global_exit(1);
    }
  }
}

int main(int argc, char** argv) {
  /* -N MAXOPS (or -NMAXOPS) is ours; the rest are the common options. */
  const long max_ops = perf_take_count(&argc, argv, "-N", 16384,
                                       "  -N MAXOPS: the largest number of puts per epoch (default 16384); -m and -M are ignored");
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  /* The header's sizes: the bytes of the smallest and the largest epoch. */
  o.min_size = sizeof(int64_t);
  o.max_size = (size_t)max_ops * sizeof(int64_t);
  const int me = perf_shmem_start("many_ops", &o);
  const size_t words = 2 * (size_t)max_ops; /* the strided series reaches word 2 * max_ops - 2 */
  int64_t* dest = (int64_t*)shmem_malloc(words * sizeof(int64_t));
  if (dest == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed: raise SHMEM_SYMMETRIC_SIZE or lower -N\n", words * sizeof(int64_t));
    shmem_global_exit(1);
  }
  memset(dest, 0, words * sizeof(int64_t));
  perf_find_partners(dest, &target[INTER], &target[INTRA]);
  target[INTER_STRIDED] = target[INTER];
  /* inter_spread's targets, as PE 0's shmem_ptr sees them, for every PE. */
  const int n_pes = shmem_n_pes();
  int* off_node = (int*)shmem_calloc((size_t)n_pes, sizeof(int));
  spread = (int*)malloc((size_t)n_pes * sizeof(int));
  if (me == 0)
    for (int pe = 0; pe < n_pes; ++pe) off_node[pe] = shmem_ptr(dest, pe) == NULL;
  shmem_barrier_all();
  if (me != 0) shmem_int_get(off_node, off_node, (size_t)n_pes, 0);
  for (int pe = 0; pe < n_pes; ++pe)
    if (off_node[pe]) spread[n_spread++] = pe;
  target[INTER_SPREAD] = n_spread > 0 ? spread[0] : -1;
  shmem_barrier_all();
  shmem_free(off_node);
  if (me == 0) {
    printf("# many_ops: the size column is N, the 8-byte puts per epoch (1, 2, 4, ... up to %ld)\n", max_ops);
    fflush(stdout);
    if (target[INTER] < 0)
      fprintf(stderr, "# many_ops: no PE on another node: inter and inter_strided skipped (run on 2 nodes, "
                      "e.g. oshrun --nodes 2 -n 4)\n");
    if (target[INTRA] < 0) fprintf(stderr, "# many_ops: no other PE on PE 0's node: intra skipped\n");
    fprintf(stderr, "# many_ops: inter target PE %d, intra target PE %d (-1: none)\n", target[INTER], target[INTRA]);
  }
  shmem_barrier_all();
  int64_t* source = me == 0 ? (int64_t*)perf_alloc((size_t)max_ops * sizeof(int64_t)) : NULL;
  double t[SERIES][PERF_MAX_REPS], per_op[PERF_MAX_REPS];

  for (long ops = 1; ops <= max_ops; ops <<= 1) {
    const size_t bytes = (size_t)ops * sizeof(int64_t);
    const long n = perf_iterations(&o, bytes, 128.0 * PERF_KIB, 5, 2000);
    for (int r = 0; r < o.reps; ++r) {
      for (int series = 0; series < SERIES; ++series) {
        if (target[series] < 0) continue;
        shmem_barrier_all();
        if (me == 0) {
          epoch(dest, source, ops, series); /* warm-up */
          const double t0 = perf_now_us();
          for (long i = 0; i < n; ++i) epoch(dest, source, ops, series);
          t[series][r] = (perf_now_us() - t0) / (double)n;
        }
        perf_solo_done(me);
      }
    }
    for (int series = 0; series < SERIES; ++series)
      if (target[series] >= 0) verify(me, series, dest, source, ops);
    shmem_barrier_all(); /* a failed check ends the job before the figures are written */
    if (me == 0) {
      char metric[64];
      for (int series = 0; series < SERIES; ++series) {
        if (target[series] < 0) continue;
        snprintf(metric, sizeof metric, "many_ops_%s_us", names[series]);
        perf_emit((size_t)ops, n, metric, t[series], o.reps, 1);
        for (int r = 0; r < o.reps; ++r) per_op[r] = t[series][r] * 1e3 / (double)ops;
        snprintf(metric, sizeof metric, "many_ops_%s_per_op_ns", names[series]);
        perf_emit((size_t)ops, n, metric, per_op, o.reps, 1);
      }
    }
  }
  shmem_barrier_all();
  free(source);
  free(spread);
  shmem_free(dest);
  shmem_finalize();
  return 0;
}
