/* Conjugate gradients for the 2-D Poisson equation, pipelined so that each iteration's dot
 * products travel while the matrix-vector product runs (the pipelined CG of Ghysels and
 * Vanroose: one reduction of two values per iteration, posted before the product and
 * waited after it).  The solver runs twice per round, once with shmem_double_sum_reduce and
 * once with shmemx_double_sum_reduce_nbi; both must give the same solution bit for bit,
 * and PE 0 prints the time of each and what the nonblocking reduction saved.
 *
 * The grid has N x N unknowns in rows dealt out to the PEs; the product exchanges each
 * PE's first and last rows with its neighbours by put-with-signal into halo rows (two
 * sets, taken by turns), computes the rows that need no halo, then waits for the halos.
 *
 * Usage: cg [N [iterations [rounds]]]   (defaults 128 200 5; the residual must fall below
 * 1e-3, which a grid of side N needs about 1.5 N iterations for) */
#include <math.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int N, me, npes, rows;  /* this PE's rows of the grid */
static double *halo;            /* symmetric: [turn][0: row above, 1: row below][N] */
static uint64_t *arrived;       /* symmetric: [turn][0 or 1], the product that filled it */
static long products;           /* products so far, the same count on every PE */
static const double *zeros;

static double *halo_row(int turn, int side) { return halo + ((size_t)turn * 2 + side) * N; }

/* out = A in, A the 5-point Laplacian with zero boundary values. */
static void multiply(double *out, const double *in) {
  long k = ++products;
  int turn = (int)(k & 1), up = me > 0, down = me < npes - 1;
  if (up) shmem_double_put_signal(halo_row(turn, 1), in, N, &arrived[turn * 2 + 1], k, SHMEM_SIGNAL_SET, me - 1);
  if (down)
    shmem_double_put_signal(halo_row(turn, 0), in + (size_t)(rows - 1) * N, N, &arrived[turn * 2], k,
                            SHMEM_SIGNAL_SET, me + 1);
  for (int pass = 0; pass < 2; ++pass) {
    /* Pass 0: the rows whose neighbours are all this PE's; pass 1, after the halos came:
     * the first and the last row. */
    if (pass == 1) {
      if (up) shmem_uint64_wait_until(&arrived[turn * 2], SHMEM_CMP_GE, k);
      if (down) shmem_uint64_wait_until(&arrived[turn * 2 + 1], SHMEM_CMP_GE, k);
    }
    for (int i = 0; i < rows; ++i) {
      int edge = i == 0 || i == rows - 1;
      if (edge != pass) continue;
      const double *above = i > 0 ? in + (size_t)(i - 1) * N : up ? halo_row(turn, 0) : zeros;
      const double *below = i < rows - 1 ? in + (size_t)(i + 1) * N : down ? halo_row(turn, 1) : zeros;
      const double *row = in + (size_t)i * N;
      double *o = out + (size_t)i * N;
      for (int j = 0; j < N; ++j)
        o[j] = 4 * row[j] - (j > 0 ? row[j - 1] : 0) - (j < N - 1 ? row[j + 1] : 0) - above[j] - below[j];
    }
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double *vector(void) { return calloc((size_t)rows * N, sizeof(double)); }

/* Sums two partial dot products over the PEs into dots[2..3]: blocking, or posted before
 * q = A w and waited after it. */
static void reduce_around_product(double *dots, int nonblocking, double *q, const double *w) {
  if (nonblocking) {
    shmemx_req_h req;
    shmemx_double_sum_reduce_nbi(SHMEM_TEAM_WORLD, dots + 2, dots, 2, &req);
    multiply(q, w);
    shmemx_req_wait(&req);
  } else {
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, dots + 2, dots, 2);
    multiply(q, w);
  }
}

/* Solves A x = b (b all ones) from x = 0 in `iterations` steps; returns the true relative
 * residual |b - A x| / |b|. */
static double solve(double *x, int iterations, int nonblocking, double *dots) {
  size_t n = (size_t)rows * N;
  double *r = vector(), *w = vector(), *p = vector(), *s = vector(), *z = vector(), *q = vector();
  memset(x, 0, n * sizeof(double));
  for (size_t i = 0; i < n; ++i) r[i] = 1; /* r = b - A 0 */
  multiply(w, r);
  double gamma_old = 0, alpha_old = 0;
  for (int it = 0; it < iterations; ++it) {
    double gamma = 0, delta = 0;
    for (size_t i = 0; i < n; ++i) {
      gamma += r[i] * r[i];
      delta += w[i] * r[i];
    }
    dots[0] = gamma;
    dots[1] = delta;
    reduce_around_product(dots, nonblocking, q, w);
    gamma = dots[2];
    delta = dots[3];
    double beta = it > 0 ? gamma / gamma_old : 0;
    double alpha = it > 0 ? gamma / (delta - beta * gamma / alpha_old) : gamma / delta;
    for (size_t i = 0; i < n; ++i) {
      z[i] = q[i] + beta * z[i];
      s[i] = w[i] + beta * s[i];
      p[i] = r[i] + beta * p[i];
      x[i] += alpha * p[i];
      r[i] -= alpha * s[i];
      w[i] -= alpha * z[i];
    }
    gamma_old = gamma;
    alpha_old = alpha;
  }
  multiply(q, x);
  dots[0] = 0;
  for (size_t i = 0; i < n; ++i) dots[0] += (1 - q[i]) * (1 - q[i]);
  dots[1] = (double)n;
  shmem_double_sum_reduce(SHMEM_TEAM_WORLD, dots + 2, dots, 2);
  free(r), free(w), free(p), free(s), free(z), free(q);
  return sqrt(dots[2] / dots[3]);
}

int main(int argc, char **argv) {
  N = argc > 1 ? atoi(argv[1]) : 128;
  int iterations = argc > 2 ? atoi(argv[2]) : 200, rounds = argc > 3 ? atoi(argv[3]) : 5;
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  if (N < npes || iterations < 1 || rounds < 1) {
    if (me == 0) fprintf(stderr, "cg: N (%d) must be at least the PEs (%d), iterations and rounds at least 1\n", N, npes);
    shmem_global_exit(2);
  }
  rows = N / npes + (me < N % npes);
  halo = shmem_calloc(4 * (size_t)N, sizeof(double));
  arrived = shmem_calloc(4, sizeof(uint64_t));
  double *dots = shmem_calloc(4, sizeof(double));
  int *verdict = shmem_calloc(2, sizeof(int));
  zeros = calloc(N, sizeof(double));
  double *x[2] = {vector(), vector()}, best[2] = {INFINITY, INFINITY}, residual[2] = {0, 0};

  for (int round = -1; round < rounds; ++round) /* round -1 warms up, untimed */
    for (int nonblocking = 0; nonblocking < 2; ++nonblocking) {
      shmem_barrier_all();
      double start = now();
      residual[nonblocking] = solve(x[nonblocking], iterations, nonblocking, dots);
      shmem_barrier_all();
      double t = now() - start;
      if (round >= 0 && t < best[nonblocking]) best[nonblocking] = t;
    }

  verdict[0] = memcmp(x[0], x[1], (size_t)rows * N * sizeof(double)) != 0;
  shmem_int_max_reduce(SHMEM_TEAM_WORLD, verdict + 1, verdict, 1);
  int ok = !verdict[1] && residual[0] < 1e-3;
  if (me == 0) {
    printf("cg: %d x %d grid on %d PEs, %d iterations: residual %.3g\n", N, N, npes, iterations, residual[0]);
    printf("  blocking reduction     %9.3f ms\n", best[0] * 1e3);
    printf("  nonblocking reduction  %9.3f ms  (%.1f%% saved, best of %d)\n", best[1] * 1e3,
           100 * (1 - best[1] / best[0]), rounds);
    if (verdict[1]) printf("  WRONG: the two solutions differ\n");
    if (residual[0] >= 1e-3) printf("  WRONG: the residual did not fall below 1e-3 (a larger grid needs more iterations)\n");
  }
  free(x[0]), free(x[1]), free((void *)zeros);
  shmem_free(verdict), shmem_free(dots), shmem_free(arrived), shmem_free(halo);
  shmem_finalize();
  return ok ? 0 : 1;
}
