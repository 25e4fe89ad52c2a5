/* Two producer-consumer kernels, each with four ways to tell a PE its input arrived:
 *   notify      shmemx_*_put_notify; the consumer waits on a request
 *   signal      shmem_*_put_signal (SHMEM_SIGNAL_SET) of a signal word per sender
 *   fence_flag  put, shmem_fence, then a put of the flag word (shmem_uint64_p)
 *   quiet_flag  put, shmem_quiet, then an atomic set of the flag word
 * The signal and flag words count: message k from a sender sets its word to k.
 *
 * stencil: the PRK Synch_p2p pattern.  A grid of ROWS rows, whose columns are split between
 *   the PEs; A[i][j] = A[i-1][j] + A[i][j-1] - A[i-1][j-1], so row i of PE p needs the last
 *   value of row i on PE p-1: an 8-byte message per row and PE, pipelined along the PEs.
 *   The result is checked against the closed form (A[i][j] = i + j with the usual borders).
 *   Metric: notify_stencil_<method>_us (one sweep of the grid by the slowest PE: the last
 *   one, whose sweep includes the pipeline's fill).
 * tree: an allreduce of one 8-byte value over a 16-ary tree rooted at PE 0: each PE waits
 *   for its children's partial sums, adds its own, sends the sum to its parent; the root
 *   sends the total back down the same tree.  Checked every round.
 *   Metric: notify_tree_<method>_us (one allreduce, the slowest PE's time).
 * The size column is the number of PEs. */
/* perf_shmem.h first: it defines _GNU_SOURCE before any system header. */
#include "perf_shmem.h"

#include <shmemx.h>

enum method { NOTIFY, SIGNAL, FENCE_FLAG, QUIET_FLAG, METHODS };
static const char* const method_names[METHODS] = {"notify", "signal", "fence_flag", "quiet_flag"};

#define ROWS 1024
#define COLS_PER_PE 64
#define ARITY 16

static double edge[ROWS];      /* row i's last value from the left neighbour */
static uint64_t edge_sig[ROWS]; /* per row: 1 once edge[i] arrived (signal, quiet_flag) */
static long long partial[ARITY + 1];  /* children's sums ([0..ARITY-1]) and the total from the parent ([ARITY]) */
static uint64_t up_sig[ARITY];  /* per child: the rounds whose sum arrived (all but notify) */
static uint64_t down_sig;       /* the rounds whose total arrived from the parent */
static int me, npes;
static double my_time, slowest_time; /* symmetric: for the max reduction of the timings */

/* The slowest PE's time: a kernel is done when its last PE is.  Every PE calls it. */
static double slowest(double t) {
  my_time = t;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, &slowest_time, &my_time, 1);
  return slowest_time;
}

/* Sends `bytes` at `src` into `dest` on `pe`, with tag `tag` (notify) or then sets `sig`
 * to `count` (signal, fence_flag, quiet_flag). */
static void deliver(enum method m, void* dest, const void* src, size_t bytes, int pe, int tag, uint64_t* sig,
                    uint64_t count) {
  switch (m) {
    case NOTIFY: shmemx_putmem_notify(dest, src, bytes, pe, tag); break;
    case SIGNAL: shmem_putmem_signal(dest, src, bytes, sig, count, SHMEM_SIGNAL_SET, pe); break;
    case FENCE_FLAG:
      shmem_putmem(dest, src, bytes, pe);
      shmem_fence();
      shmem_uint64_p(sig, count, pe);
      break;
    case QUIET_FLAG:
      shmem_putmem(dest, src, bytes, pe);
      shmem_quiet();
      shmem_uint64_atomic_set(sig, count, pe);
      break;
    case METHODS: break;
  }
}

static double stencil(enum method m, shmemx_notify_t* row_req, double* a) {
  /* a: (ROWS) x (COLS_PER_PE + 1), column 0 holds the left neighbour's last column. */
  const int w = COLS_PER_PE + 1;
  const long j0 = (long)me * COLS_PER_PE;
  for (int j = 0; j < w; ++j) a[j] = (double)(j0 + j - 1);  /* row 0: A[0][j] = j */
  for (int i = 0; i < ROWS; ++i) a[(size_t)i * w] = (double)(i + j0 - 1); /* column j0-1 */
  if (m == NOTIFY && me > 0)
    for (int i = 1; i < ROWS; ++i) shmemx_notify_start(row_req[i]);
  shmem_barrier_all();
  const double t0 = perf_now_us();
  for (int i = 1; i < ROWS; ++i) {
    double* row = a + (size_t)i * w;
    const double* above = row - w;
    if (me > 0) {
      if (m == NOTIFY) shmemx_notify_wait(row_req[i], NULL);
      else shmem_uint64_wait_until(&edge_sig[i], SHMEM_CMP_EQ, 1);
      row[0] = edge[i];
    }
    for (int j = 1; j < w; ++j) row[j] = above[j] + row[j - 1] - above[j - 1];
    if (me + 1 < npes) deliver(m, &edge[i], &row[w - 1], sizeof(double), me + 1, i, &edge_sig[i], 1);
  }
  shmem_quiet();
  const double t = slowest(perf_now_us() - t0);
  /* A[i][j] = i + j: check the last row. */
  long bad = 0;
  for (int j = 1; j < w; ++j) bad += a[(size_t)(ROWS - 1) * w + j] != (double)(ROWS - 1 + j0 + j - 1);
  if (bad) {
    fprintf(stderr, "# stencil (%s): PE %d: %ld wrong values\n", method_names[m], me, bad);
    shmem_global_exit(1);
  }
  for (int i = 0; i < ROWS; ++i) edge_sig[i] = 0;
  shmem_barrier_all();
  return t;
}

static double tree(enum method m, shmemx_notify_t up, shmemx_notify_t down, long rounds) {
  const int parent = me == 0 ? -1 : (me - 1) / ARITY;
  int children = 0;
  for (int c = me * ARITY + 1; c <= me * ARITY + ARITY && c < npes; ++c) ++children;
  const long long expected = (long long)npes * (npes - 1) / 2;
  shmem_barrier_all();
  const double t0 = perf_now_us();
  for (long r = 0; r < rounds; ++r) {
    long long sum = me;
    if (children > 0) {
      if (m == NOTIFY) {
        shmemx_notify_start(up);
        shmemx_notify_wait(up, NULL);
      } else {
        shmem_uint64_wait_until_all(up_sig, (size_t)children, NULL, SHMEM_CMP_GE, (uint64_t)(r + 1));
      }
      for (int k = 0; k < children; ++k) sum += partial[k];
    }
    if (parent >= 0) {
      deliver(m, &partial[(me - 1) % ARITY], &sum, sizeof sum, parent, 0, &up_sig[(me - 1) % ARITY],
              (uint64_t)(r + 1));
      if (m == NOTIFY) {
        shmemx_notify_start(down);
        shmemx_notify_wait(down, NULL);
      } else {
        shmem_uint64_wait_until(&down_sig, SHMEM_CMP_GE, (uint64_t)(r + 1));
      }
      sum = partial[ARITY];
    }
    if (sum != expected) {
      fprintf(stderr, "# tree (%s): PE %d round %ld: %lld, expected %lld\n", method_names[m], me, r, sum, expected);
      shmem_global_exit(1);
    }
    for (int c = me * ARITY + 1; c <= me * ARITY + ARITY && c < npes; ++c)
      deliver(m, &partial[ARITY], &sum, sizeof sum, c, 1, &down_sig, (uint64_t)(r + 1));
  }
  shmem_quiet();
  const double t = slowest((perf_now_us() - t0) / (double)rounds);
  for (int k = 0; k < ARITY; ++k) up_sig[k] = 0;
  down_sig = 0;
  shmem_barrier_all();
  return t;
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  me = perf_shmem_start("notify_apps", &o);
  npes = shmem_n_pes();
  double* a = (double*)perf_alloc(sizeof(double) * ROWS * (COLS_PER_PE + 1));
  shmemx_notify_t row_req[ROWS];
  for (int i = 0; i < ROWS; ++i) shmemx_notify_init(me > 0 ? me - 1 : 0, i, 1, &row_req[i]);
  int children = 0;
  for (int c = me * ARITY + 1; c <= me * ARITY + ARITY && c < npes; ++c) ++children;
  shmemx_notify_t up = NULL, down = NULL;
  if (children > 0) shmemx_notify_init(SHMEMX_ANY_PE, 0, children, &up);
  if (me > 0) shmemx_notify_init((me - 1) / ARITY, 1, 1, &down);
  const long rounds = o.scale * 2000 > 50 ? (long)(o.scale * 2000) : 50;
  double t[PERF_MAX_REPS];
  char metric[64];
  for (int m = 0; m < METHODS; ++m) {
    stencil((enum method)m, row_req, a);  /* warm-up */
    for (int r = 0; r < o.reps; ++r) t[r] = stencil((enum method)m, row_req, a);
    snprintf(metric, sizeof metric, "notify_stencil_%s_us", method_names[m]);
    if (me == 0) perf_emit((size_t)npes, ROWS, metric, t, o.reps, 1);
  }
  for (int m = 0; m < METHODS; ++m) {
    tree((enum method)m, up, down, rounds / 10);
    for (int r = 0; r < o.reps; ++r) t[r] = tree((enum method)m, up, down, rounds);
    snprintf(metric, sizeof metric, "notify_tree_%s_us", method_names[m]);
    if (me == 0) perf_emit((size_t)npes, rounds, metric, t, o.reps, 1);
  }
  for (int i = 0; i < ROWS; ++i) shmemx_notify_free(&row_req[i]);
  if (up) shmemx_notify_free(&up);
  if (down) shmemx_notify_free(&down);
  free(a);
  shmem_finalize();
  return 0;
}
