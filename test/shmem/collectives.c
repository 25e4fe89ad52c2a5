/* The collectives on teams: broadcast, collect, fcollect, alltoall, alltoalls, every
 * reduction operation, the scans; on SHMEM_TEAM_WORLD and on the team of the even PEs,
 * with sizes from 0 to beyond the library's 1 MiB reduction pieces, and back to back on
 * the same buffers with no barrier in between. */
#include <complex.h>
#include <string.h>

#include "common.h"

#define BIG (300 * 1000) /* longs: 2.4 MB, more than one piece of a reduction */

static long *src, *dst;

/* value(r, i): what rank r contributes at index i. */
static long value(int r, size_t i) { return (long)r * 1000003L + (long)i * 7 + 1; }

static void run(shmem_team_t team, const char *name) {
  const int rank = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
  /* 20000 and 100000 longs: across nodes written straight into the dests (past the banks
   * and boxes), a broadcast of 100000 in pieces */
  const size_t sizes[] = {0, 1, 17, 4096, 20000, 100000, BIG};

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const size_t count = sizes[s];
    /* broadcast from every root; the root's own dest is written too */
    for (int root = 0; root < n; ++root) {
      for (size_t i = 0; i < count; ++i) src[i] = value(rank, i), dst[i] = -1;
      CHECK(shmem_long_broadcast(team, dst, src, count, root) == 0, "broadcast returned non-zero");
      int bad = 0;
      for (size_t i = 0; i < count; ++i) bad += dst[i] != value(root, i);
      CHECK(bad == 0, "%s: broadcast of %zu from rank %d: %d wrong", name, count, root, bad);
    }
    /* reductions: sum over ranks of value(r, i), and in place */
    for (size_t i = 0; i < count; ++i) src[i] = value(rank, i);
    shmem_long_sum_reduce(team, dst, src, count);
    int bad = 0;
    for (size_t i = 0; i < count; ++i) {
      long expected = 0;
      for (int r = 0; r < n; ++r) expected += value(r, i);
      bad += dst[i] != expected;
    }
    CHECK(bad == 0, "%s: sum_reduce of %zu: %d wrong", name, count, bad);
    shmem_long_max_reduce(team, src, src, count); /* in place */
    bad = 0;
    for (size_t i = 0; i < count; ++i) bad += src[i] != value(n - 1, i);
    CHECK(bad == 0, "%s: in-place max_reduce of %zu: %d wrong", name, count, bad);
  }

  /* Nothing to move: a count of 0 returns 0 and leaves dest alone, in every routine. */
  dst[0] = -7;
  CHECK(shmem_long_broadcast(team, dst, src, 0, n - 1) == 0 && shmem_long_fcollect(team, dst, src, 0) == 0 &&
            shmem_long_collect(team, dst, src, 0) == 0 && shmem_long_alltoall(team, dst, src, 0) == 0 &&
            shmem_long_alltoalls(team, dst, src, 2, 3, 0) == 0 && shmem_long_sum_reduce(team, dst, src, 0) == 0 &&
            shmem_long_sum_inscan(team, dst, src, 0) == 0 && shmem_long_sum_exscan(team, dst, src, 0) == 0,
        "%s: a collective of nothing returned non-zero", name);
  CHECK(dst[0] == -7, "%s: a collective of nothing wrote %ld into dest", name, dst[0]);

  /* Large reductions of every operation (values 1..1000, 1..2 for the product, which must
   * not overflow), with counts that do not split evenly into the PEs' slices, and a double sum whose rounding shows the order of the fold: the result
   * must be the sum in rank order, bit for bit, on every PE. */
  {
    const size_t counts[] = {255, 1001, 4099, 30001, 140001};
    int *isrc = (int *)src, *idst = (int *)dst;
    for (size_t s = 0; s < sizeof counts / sizeof counts[0]; ++s) {
      const size_t count = counts[s];
      int bad = 0;
#define INT_OP(TYPE, OP, RANGE, EXPECT_INIT, EXPECT_STEP)                                           \
  for (size_t i = 0; i < count; ++i) isrc[i] = (int)((value(rank, i) % RANGE) + 1);    \
  shmem_##TYPE##_##OP##_reduce(team, idst, isrc, count);                               \
  bad = 0;                                                                             \
  for (size_t i = 0; i < count; ++i) {                                                 \
    int e = EXPECT_INIT;                                                               \
    for (int r = 0; r < n; ++r) {                                                      \
      const int v = (int)((value(r, i) % RANGE) + 1);                                  \
      e = EXPECT_STEP;                                                                 \
    }                                                                                  \
    bad += idst[i] != e;                                                               \
  }                                                                                    \
  CHECK(bad == 0, "%s: " #TYPE "_" #OP "_reduce of %zu: %d wrong", name, count, bad);
      INT_OP(int, sum, 1000, 0, e + v)
      INT_OP(int, prod, 2, 1, e * v)
      INT_OP(int, max, 1000, 0, v > e ? v : e)
      INT_OP(int, min, 1000, 1 << 30, v < e ? v : e)
      INT_OP(int32, and, 1000, -1, e & v)
      INT_OP(int32, or, 1000, 0, e | v)
      INT_OP(int32, xor, 1000, 0, e ^ v)
#undef INT_OP
      double *dsrc = (double *)src, *ddst = (double *)dst;
      for (size_t i = 0; i < count; ++i) dsrc[i] = 1.0 / (double)(value(rank, i) % 977 + 3) + (double)(rank << 20);
      shmem_double_sum_reduce(team, ddst, dsrc, count);
      bad = 0;
      for (size_t i = 0; i < count; ++i) {
        double e = 1.0 / (double)(value(0, i) % 977 + 3);
        for (int r = 1; r < n; ++r) e += 1.0 / (double)(value(r, i) % 977 + 3) + (double)(r << 20);
        bad += memcmp(&ddst[i], &e, sizeof e) != 0;
      }
      CHECK(bad == 0, "%s: double_sum_reduce of %zu: %d not the sum in rank order", name, count, bad);
      float *fsrc = (float *)src;
      for (size_t i = 0; i < count; ++i) fsrc[i] = (float)(value(rank, i) % 4099) - 2000.0f;
      shmem_float_min_reduce(team, fsrc, fsrc, count); /* in place */
      bad = 0;
      for (size_t i = 0; i < count; ++i) {
        float e = (float)(value(0, i) % 4099) - 2000.0f;
        for (int r = 1; r < n; ++r) {
          const float v = (float)(value(r, i) % 4099) - 2000.0f;
          e = v < e ? v : e;
        }
        bad += fsrc[i] != e;
      }
      CHECK(bad == 0, "%s: in-place float_min_reduce of %zu: %d wrong", name, count, bad);
    }
  }

  /* Every operation on a few types (sources are symmetric: statics). */
  {
    static int mine, out;
    static unsigned int bits, all;
    static double d, dsum;
    static double _Complex z, zsum;
    static long double ld, ldmax;
    static long one[3], in[3], ex[3];
    mine = rank + 1;
    shmem_int_prod_reduce(team, &out, &mine, 1);
    int expected = 1;
    for (int r = 0; r < n; ++r) expected *= r + 1;
    CHECK(out == expected, "%s: int prod %d, expected %d", name, out, expected);
    shmem_int_min_reduce(team, &out, &mine, 1);
    CHECK(out == 1, "%s: int min %d", name, out);
    bits = 1u << rank;
    shmem_uint_or_reduce(team, &all, &bits, 1);
    CHECK(all == (n >= 32 ? ~0u : (1u << n) - 1), "%s: or %#x", name, all);
    shmem_uint_and_reduce(team, &all, &bits, 1);
    CHECK(all == (n == 1 ? 1u : 0u), "%s: and %#x", name, all);
    shmem_uint_xor_reduce(team, &all, &bits, 1);
    CHECK(all == (n >= 32 ? ~0u : (1u << n) - 1), "%s: xor %#x", name, all);
    d = 0.5 * rank;
    shmem_double_sum_reduce(team, &dsum, &d, 1);
    CHECK(dsum == 0.25 * n * (n - 1), "%s: double sum %g", name, dsum);
    z = rank + 1.0 * I;
    shmem_complexd_sum_reduce(team, &zsum, &z, 1);
    CHECK(creal(zsum) == 0.5 * n * (n - 1) && cimag(zsum) == n, "%s: complex sum %g%+gi", name, creal(zsum), cimag(zsum));
    ld = rank;
    shmem_longdouble_max_reduce(team, &ldmax, &ld, 1);
    CHECK(ldmax == n - 1, "%s: long double max %Lg", name, ldmax);
    /* scans; the exclusive scan gives rank 0 zeros */
    one[0] = rank + 1, one[1] = 1, one[2] = 2;
    ex[0] = ex[1] = ex[2] = -5;
    shmem_long_sum_inscan(team, in, one, 3);
    shmem_long_sum_exscan(team, ex, one, 3);
    const long before = (long)rank * (rank + 1) / 2;
    CHECK(in[0] == before + rank + 1 && in[1] == rank + 1 && in[2] == 2L * (rank + 1), "%s: inscan %ld %ld %ld",
          name, in[0], in[1], in[2]);
    CHECK(ex[0] == before && ex[1] == rank && ex[2] == 2L * rank, "%s: exscan %ld %ld %ld", name, ex[0], ex[1], ex[2]);
  }

  /* fcollect and collect (rank r brings r + 1 elements). */
  {
    for (int i = 0; i < 3; ++i) src[i] = value(rank, (size_t)i);
    shmem_long_fcollect(team, dst, src, 3);
    int bad = 0;
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < 3; ++i) bad += dst[r * 3 + i] != value(r, (size_t)i);
    CHECK(bad == 0, "%s: fcollect: %d wrong", name, bad);
    for (int i = 0; i <= rank; ++i) src[i] = value(rank, (size_t)i);
    shmem_long_collect(team, dst, src, (size_t)rank + 1);
    bad = 0;
    size_t at = 0;
    for (int r = 0; r < n; ++r)
      for (int i = 0; i <= r; ++i) bad += dst[at++] != value(r, (size_t)i);
    CHECK(bad == 0, "%s: collect: %d wrong", name, bad);
    static char bytes[4], gathered[4 * 64];
    bytes[0] = (char)('a' + rank);
    shmem_fcollectmem(team, gathered, bytes, 1);
    for (int r = 0; r < n; ++r) CHECK(gathered[r] == 'a' + r, "%s: fcollectmem byte %d is %c", name, r, gathered[r]);
  }

  /* alltoall: block j of my dest is block `rank` of rank j's source. */
  {
    const int block = 5;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < block; ++i) src[j * block + i] = value(rank, (size_t)(j * block + i));
    shmem_long_alltoall(team, dst, src, block);
    int bad = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < block; ++i) bad += dst[j * block + i] != value(j, (size_t)(rank * block + i));
    CHECK(bad == 0, "%s: alltoall: %d wrong", name, bad);
    /* alltoalls: dest stride 2, source stride 3, 4 elements a block */
    const int per = 4;
    for (int k = 0; k < n * per * 3; ++k) src[k] = value(rank, (size_t)k);
    for (int k = 0; k < n * per * 2; ++k) dst[k] = -1;
    shmem_long_alltoalls(team, dst, src, 2, 3, per);
    bad = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < per; ++i) bad += dst[(j * per + i) * 2] != value(j, (size_t)((rank * per + i) * 3));
    for (int k = 1; k < n * per * 2; k += 2) bad += dst[k] != -1;
    CHECK(bad == 0, "%s: alltoalls: %d wrong", name, bad);
  }

  /* Back to back on the same buffers, no barrier: every result must be this round's. */
  for (long round = 0; round < 200; ++round) {
    src[0] = round * 10 + rank;
    shmem_long_sum_reduce(team, &dst[0], &src[0], 1);
    const long expected = round * 10 * n + (long)n * (n - 1) / 2;
    CHECK(dst[0] == expected, "%s: round %ld: sum %ld, expected %ld", name, round, dst[0], expected);
    src[1] = round;
    shmem_long_broadcast(team, &dst[1], &src[1], 1, (int)(round % n));
    CHECK(dst[1] == round, "%s: round %ld: broadcast %ld", name, round, dst[1]);
  }

  /* Broadcasts back to back with nothing in between, the same root for 100 rounds running,
   * sizes on both sides of the library's 1 KiB boxes and of the 16 KiB that it sends through
   * several of them across nodes (so the broadcasts take different numbers of boxes of its
   * ring of 32), and now and then 24-500 KiB (across nodes, written down a tree straight into
   * each dest once its owner has entered): the root runs ahead of a PE that sleeps (further
   * than the ring), and spoils its source as soon as the call returns. */
  for (long round = 0; round < 400; ++round) {
    const size_t count = round % 100 == 99 ? 200
                         : round % 7 == 5  ? 3000 + (size_t)(round * 997 % 60000)
                         : round % 3 == 2  ? 1 + (size_t)(round * 37 % 2300)
                                           : 1 + (size_t)(round % 128);
    const int root = (int)((round / 100) % n);
    for (size_t i = 0; i < count; ++i) src[i] = round * 1000 + (long)i + rank, dst[i] = -1;
    if (rank == (root + 1) % n && round % 100 == 10) usleep(20000);
    shmem_long_broadcast(team, dst, src, count, root);
    for (size_t i = 0; i < count; ++i) src[i] = -7;
    int bad = 0;
    for (size_t i = 0; i < count; ++i) bad += dst[i] != round * 1000 + (long)i + root;
    CHECK(bad == 0, "%s: back-to-back broadcast %ld of %zu from rank %d: %d wrong", name, round, count, root, bad);
  }
  /* The other collectives back to back beyond the library's banks within a node (so they
   * wait for their peers through its stamps), in its larger banks across nodes (pushed, the
   * two banks in turn) and every fourth round beyond them (written straight into the dests
   * across nodes), one PE sleeping now and then, every PE spoiling its source as soon as a
   * call returns: no PE may still be reading it. */
  for (long round = 0; round < 60; ++round) {
    const size_t block = round % 4 == 1 ? 2100 + (size_t)round * 13 : 64 + (size_t)(round % 3) * 100; /* longs to each PE */
    const int sleeper = (int)(round % n);
    for (size_t k = 0; k < block * (size_t)n; ++k) src[k] = round * 100000 + (long)k * 10 + rank, dst[k] = -1;
    if (rank == sleeper && round % 10 == 3) usleep(20000);
    shmem_long_alltoall(team, dst, src, block);
    for (size_t k = 0; k < block * (size_t)n; ++k) src[k] = -7;
    int bad = 0;
    for (int j = 0; j < n; ++j)
      for (size_t i = 0; i < block; ++i) bad += dst[(size_t)j * block + i] != round * 100000 + (long)((size_t)rank * block + i) * 10 + j;
    CHECK(bad == 0, "%s: back-to-back alltoall %ld of %zu: %d wrong", name, round, block, bad);

    for (size_t i = 0; i < block; ++i) src[i] = round * 100000 + (long)i * 10 + rank;
    for (size_t k = 0; k < block * (size_t)n; ++k) dst[k] = -1;
    if (rank == sleeper && round % 10 == 5) usleep(20000);
    shmem_long_fcollect(team, dst, src, block);
    for (size_t i = 0; i < block; ++i) src[i] = -7;
    bad = 0;
    for (int j = 0; j < n; ++j)
      for (size_t i = 0; i < block; ++i) bad += dst[(size_t)j * block + i] != round * 100000 + (long)i * 10 + j;
    CHECK(bad == 0, "%s: back-to-back fcollect %ld of %zu: %d wrong", name, round, block, bad);

    /* longs: below a sliced reduction, and every fourth round a sliced one */
    const size_t count = round % 4 == 2 ? 9000 + (size_t)round * 37 : 300 + (size_t)(round % 5) * 50;
    for (size_t i = 0; i < count; ++i) src[i] = round + (long)i + rank;
    if (rank == sleeper && round % 10 == 6) usleep(20000);
    if (round % 2 == 0)
      shmem_long_sum_reduce(team, dst, src, count);
    else
      shmem_long_sum_inscan(team, dst, src, count);
    for (size_t i = 0; i < count; ++i) src[i] = -7;
    const long ranks = round % 2 == 0 ? n : rank + 1;
    bad = 0;
    for (size_t i = 0; i < count; ++i) bad += dst[i] != ranks * (round + (long)i) + ranks * (ranks - 1) / 2;
    CHECK(bad == 0, "%s: back-to-back %s %ld of %zu: %d wrong", name, round % 2 == 0 ? "sum_reduce" : "sum_inscan",
          round, count, bad);

    /* collect: rank r brings 40 * (r + 1) + round elements */
    const size_t mine = 40 * (size_t)(rank + 1) + (size_t)round;
    for (size_t i = 0; i < mine; ++i) src[i] = round * 1000 + (long)i + rank;
    if (rank == sleeper && round % 10 == 8) usleep(20000);
    shmem_long_collect(team, dst, src, mine);
    for (size_t i = 0; i < mine; ++i) src[i] = -7;
    bad = 0;
    size_t at = 0;
    for (int r = 0; r < n; ++r)
      for (size_t i = 0; i < 40 * (size_t)(r + 1) + (size_t)round; ++i) bad += dst[at++] != round * 1000 + (long)i + r;
    CHECK(bad == 0, "%s: back-to-back collect %ld: %d wrong", name, round, bad);
  }
  /* In place on the root. */
  for (int root = 0; root < n; ++root) {
    dst[0] = rank == root ? 4242 + root : -1;
    shmem_long_broadcast(team, dst, dst, 1, root);
    CHECK(dst[0] == 4242 + root, "%s: in-place broadcast from rank %d: %ld", name, root, dst[0]);
  }
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  src = shmem_malloc(BIG * sizeof(long));
  dst = shmem_malloc(BIG * sizeof(long));
  run(SHMEM_TEAM_WORLD, "world");
  shmem_team_t evens;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
  if (me % 2 == 0) run(evens, "evens");
  shmem_team_destroy(evens);
  /* Teams made and destroyed in turn take the same slot of the team area: each new team's
   * broadcasts start from a clean state, whatever the last one left there. */
  for (long k = 0; k < 6; ++k) {
    shmem_team_t all;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all);
    for (long b = 0; b < 3 + k; ++b) {
      src[0] = k * 100 + b + me;
      dst[0] = -1;
      const int root = (int)((k + b) % npes);
      shmem_long_broadcast(all, dst, src, 1, root);
      CHECK(dst[0] == k * 100 + b + root, "team %ld, broadcast %ld: %ld", k, b, dst[0]);
    }
    shmem_team_destroy(all);
  }
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
  return test_finish("collectives");
}
