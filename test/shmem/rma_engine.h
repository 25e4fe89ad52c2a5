/* The RMA checks shared by rma_types.c (every standard RMA type) and rma_sized.c (put8 ...
 * put128 and putmem): one body that moves elements of any size through a table of routines.
 * Each routine pointer takes a context; a NULL context means the plain (non-ctx) routine.
 *
 * Every PE writes to its right neighbour and reads from it, so with 1 PE everything goes to
 * the PE itself.  Element values depend on the writing PE, the index and the step, and are
 * never 0, so that an element that was not written (0) or written by the wrong step shows. */
#ifndef TANDEM_TEST_RMA_ENGINE_H
#define TANDEM_TEST_RMA_ENGINE_H

#include "common.h"

typedef void (*rma_contiguous_fn)(shmem_ctx_t, void *, const void *, size_t, int);
typedef void (*rma_strided_fn)(shmem_ctx_t, void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
typedef void (*rma_blocked_fn)(shmem_ctx_t, void *, const void *, ptrdiff_t, ptrdiff_t, size_t,
                               size_t, int);

struct rma_ops {
  const char *name;
  size_t size; /* bytes per element */
  rma_contiguous_fn put, get, put_nbi, get_nbi;
  void (*p)(shmem_ctx_t, void *dest, const void *value, int pe);   /* NULL if none */
  void (*g)(shmem_ctx_t, void *out, const void *source, int pe);   /* NULL if none */
  rma_strided_fn iput, iget;                                       /* NULL if none */
  rma_blocked_fn ibput, ibget;                                     /* NULL if none */
  void (*make)(void *out, long value);        /* the element for `value` */
  int (*equal)(const void *a, const void *b); /* element equality */
  long double (*show)(const void *a);         /* for messages */
};

enum { RMA_LEN = 60, RMA_BIG_BYTES = 128 * 1024 };

static long rma_flag; /* bumped by the left neighbour once its nbi puts are quiet */
static long rma_flag_expected;

static inline long rma_value(int pe, size_t i, int step) {
  return (long)((pe * 37 + i * 11 + (size_t)step * 5) % 101) + 1;
}

static inline void *rma_at(void *base, const struct rma_ops *ops, size_t i) {
  return (char *)base + i * ops->size;
}

/* Checks element i of `buf` against rma_value(pe, src_index, step), or against 0 when
 * src_index is (size_t)-1; counts and reports the first mismatch per call. */
static inline int rma_expect(const struct rma_ops *ops, const char *what, const char *ctxname,
                             void *buf, size_t i, int pe, size_t src_index, int step) {
  unsigned char want[64];
  ops->make(want, src_index == (size_t)-1 ? 0 : rma_value(pe, src_index, step));
  if (ops->equal(rma_at(buf, ops, i), want)) return 1;
  CHECK(0, "%s %s (%s): element %zu is %Lg, expected %Lg", ops->name, what, ctxname, i,
        ops->show(rma_at(buf, ops, i)), ops->show(want));
  return 0;
}

static inline void rma_fill(const struct rma_ops *ops, void *buf, size_t n, int pe, int step) {
  for (size_t i = 0; i < n; ++i) ops->make(rma_at(buf, ops, i), rma_value(pe, i, step));
}

/* Zeroes my `dst` and waits until every PE did the same, so that the next writes land in
 * a clean buffer. */
static inline void rma_reset(void *dst, size_t bytes) {
  memset(dst, 0, bytes);
  shmem_barrier_all();
}

/* Completes this PE's puts on `ctx` (shmem_barrier_all completes only the default context's)
 * and waits for every PE to have done so. */
static inline void rma_complete(shmem_ctx_t ctx) {
  if (ctx) shmem_ctx_quiet(ctx);
  shmem_barrier_all();
}

static inline void rma_check_all(const struct rma_ops *ops, const char *ctxname, shmem_ctx_t ctx) {
  const int me = shmem_my_pe(), right = test_right(), left = test_left();
  const size_t region = RMA_LEN * 6 * ops->size;
  void *dst = shmem_malloc(region);
  void *src = shmem_malloc(region);
  void *local = malloc(region);
  void *staged = malloc(region);
  const size_t big_n = RMA_BIG_BYTES / ops->size;
  void *big = shmem_malloc(big_n * ops->size);
  void *big_local = malloc(big_n * ops->size);
  CHECK(dst && src && big, "%s: shmem_malloc failed", ops->name);
  if (!dst || !src || !big) return;
  rma_fill(ops, src, RMA_LEN * 6, me, 2); /* what gets read by peers */

  /* put */
  rma_reset(dst, region);
  rma_fill(ops, staged, RMA_LEN, me, 1);
  ops->put(ctx, dst, staged, RMA_LEN, right);
  ops->put(ctx, rma_at(dst, ops, RMA_LEN), staged, 0, right); /* nothing */
  rma_complete(ctx);
  for (size_t i = 0; i < RMA_LEN; ++i)
    if (!rma_expect(ops, "put", ctxname, dst, i, left, i, 1)) break;
  rma_expect(ops, "put of 0 elements", ctxname, dst, RMA_LEN, 0, (size_t)-1, 0);

  /* get */
  memset(local, 0, region);
  ops->get(ctx, local, src, RMA_LEN, right);
  for (size_t i = 0; i < RMA_LEN; ++i)
    if (!rma_expect(ops, "get", ctxname, local, i, right, i, 2)) break;
  /* get into a symmetric destination too */
  ops->get(ctx, rma_at(dst, ops, RMA_LEN), src, RMA_LEN, right);
  for (size_t i = 0; i < RMA_LEN; ++i)
    if (!rma_expect(ops, "get into the heap", ctxname, dst, RMA_LEN + i, right, i, 2)) break;

  /* p and g */
  if (ops->p) {
    rma_reset(dst, region);
    for (size_t i = 0; i < RMA_LEN; ++i) {
      unsigned char v[64];
      ops->make(v, rma_value(me, i, 3));
      ops->p(ctx, rma_at(dst, ops, i), v, right);
    }
    rma_complete(ctx);
    for (size_t i = 0; i < RMA_LEN; ++i)
      if (!rma_expect(ops, "p", ctxname, dst, i, left, i, 3)) break;
  }
  if (ops->g) {
    memset(local, 0, region);
    for (size_t i = 0; i < RMA_LEN; ++i) ops->g(ctx, rma_at(local, ops, i), rma_at(src, ops, i), right);
    for (size_t i = 0; i < RMA_LEN; ++i)
      if (!rma_expect(ops, "g", ctxname, local, i, right, i, 2)) break;
  }

  /* iput: destination stride 3, source stride 2 */
  if (ops->iput) {
    const size_t n = RMA_LEN / 2;
    rma_reset(dst, region);
    rma_fill(ops, staged, RMA_LEN, me, 4);
    ops->iput(ctx, dst, staged, 3, 2, n, right);
    rma_complete(ctx);
    for (size_t k = 0; k < n; ++k) {
      if (!rma_expect(ops, "iput", ctxname, dst, 3 * k, left, 2 * k, 4)) break;
      if (!rma_expect(ops, "iput (between strides)", ctxname, dst, 3 * k + 1, 0, (size_t)-1, 0)) break;
    }
    rma_expect(ops, "iput (past the end)", ctxname, dst, 3 * n, 0, (size_t)-1, 0);
  }
  /* iget: destination stride 2, source stride 3 */
  if (ops->iget) {
    const size_t n = RMA_LEN / 2;
    memset(local, 0, region);
    ops->iget(ctx, local, src, 2, 3, n, right);
    for (size_t k = 0; k < n; ++k) {
      if (!rma_expect(ops, "iget", ctxname, local, 2 * k, right, 3 * k, 2)) break;
      if (!rma_expect(ops, "iget (between strides)", ctxname, local, 2 * k + 1, 0, (size_t)-1, 0)) break;
    }
  }
  /* ibput: blocks of 2, destination stride 5, source stride 3 */
  if (ops->ibput) {
    const size_t blocks = RMA_LEN / 3;
    rma_reset(dst, region);
    rma_fill(ops, staged, RMA_LEN + 3, me, 5);
    ops->ibput(ctx, dst, staged, 5, 3, 2, blocks, right);
    rma_complete(ctx);
    for (size_t b = 0; b < blocks; ++b) {
      if (!rma_expect(ops, "ibput", ctxname, dst, 5 * b, left, 3 * b, 5)) break;
      if (!rma_expect(ops, "ibput", ctxname, dst, 5 * b + 1, left, 3 * b + 1, 5)) break;
      if (!rma_expect(ops, "ibput (between blocks)", ctxname, dst, 5 * b + 2, 0, (size_t)-1, 0)) break;
      if (!rma_expect(ops, "ibput (between blocks)", ctxname, dst, 5 * b + 4, 0, (size_t)-1, 0)) break;
    }
  }
  /* ibget: blocks of 3, destination stride 4, source stride 6 */
  if (ops->ibget) {
    const size_t blocks = RMA_LEN / 6;
    memset(local, 0, region);
    ops->ibget(ctx, local, src, 4, 6, 3, blocks, right);
    for (size_t b = 0; b < blocks; ++b) {
      int ok = 1;
      for (size_t j = 0; j < 3 && ok; ++j)
        ok = rma_expect(ops, "ibget", ctxname, local, 4 * b + j, right, 6 * b + j, 2);
      if (!ok || !rma_expect(ops, "ibget (between blocks)", ctxname, local, 4 * b + 3, 0, (size_t)-1, 0))
        break;
    }
  }

  /* put_nbi, element by element and as one large transfer; completed by quiet, after which
   * an atomic tells the neighbour that it may look (no barrier in between). */
  rma_reset(dst, region);
  memset(big, 0, big_n * ops->size);
  shmem_barrier_all();
  rma_fill(ops, staged, RMA_LEN, me, 6);
  rma_fill(ops, big_local, big_n, me, 7);
  for (size_t i = 0; i < RMA_LEN; ++i)
    ops->put_nbi(ctx, rma_at(dst, ops, i), rma_at(staged, ops, i), 1, right);
  ops->put_nbi(ctx, big, big_local, big_n, right);
  if (ctx) shmem_ctx_quiet(ctx);
  else shmem_quiet();
  shmem_long_atomic_inc(&rma_flag, right);
  ++rma_flag_expected;
  shmem_long_wait_until(&rma_flag, SHMEM_CMP_GE, rma_flag_expected);
  for (size_t i = 0; i < RMA_LEN; ++i)
    if (!rma_expect(ops, "put_nbi", ctxname, dst, i, left, i, 6)) break;
  for (size_t i = 0; i < big_n; ++i)
    if (!rma_expect(ops, "large put_nbi", ctxname, big, i, left, i, 7)) break;
  shmem_barrier_all();

  /* get_nbi, small and large: the data is there after quiet. */
  memset(local, 0, region);
  memset(big_local, 0, big_n * ops->size);
  rma_fill(ops, big, big_n, me, 8);
  shmem_barrier_all();
  for (size_t i = 0; i < RMA_LEN; ++i)
    ops->get_nbi(ctx, rma_at(local, ops, i), rma_at(src, ops, i), 1, right);
  ops->get_nbi(ctx, big_local, big, big_n, right);
  if (ctx) shmem_ctx_quiet(ctx);
  else shmem_quiet();
  for (size_t i = 0; i < RMA_LEN; ++i)
    if (!rma_expect(ops, "get_nbi", ctxname, local, i, right, i, 2)) break;
  for (size_t i = 0; i < big_n; ++i)
    if (!rma_expect(ops, "large get_nbi", ctxname, big_local, i, right, i, 8)) break;

  /* A large blocking put and get. */
  rma_fill(ops, big_local, big_n, me, 9);
  shmem_barrier_all();
  ops->put(ctx, big, big_local, big_n, right);
  rma_complete(ctx);
  for (size_t i = 0; i < big_n; ++i)
    if (!rma_expect(ops, "large put", ctxname, big, i, left, i, 9)) break;
  memset(big_local, 0, big_n * ops->size);
  ops->get(ctx, big_local, big, big_n, right);
  for (size_t i = 0; i < big_n; ++i)
    if (!rma_expect(ops, "large get", ctxname, big_local, i, me, i, 9)) break;

  shmem_barrier_all();
  free(big_local);
  shmem_free(big);
  free(staged);
  free(local);
  shmem_free(src);
  shmem_free(dst);
}

/* Runs the checks for every table entry with the plain routines, a created context, a
 * private context and the ctx_ routines given SHMEM_CTX_DEFAULT. */
static inline void rma_check_table(const struct rma_ops *table, size_t entries) {
  shmem_ctx_t created = SHMEM_CTX_INVALID, private_ctx = SHMEM_CTX_INVALID;
  int rc = shmem_ctx_create(0, &created);
  CHECK(rc == 0 && created != SHMEM_CTX_INVALID, "shmem_ctx_create(0) returned %d", rc);
  rc = shmem_ctx_create(SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED, &private_ctx);
  CHECK(rc == 0 && private_ctx != SHMEM_CTX_INVALID, "shmem_ctx_create(PRIVATE) returned %d", rc);
  for (size_t t = 0; t < entries; ++t) {
    rma_check_all(&table[t], "plain", NULL);
    if (created != SHMEM_CTX_INVALID) rma_check_all(&table[t], "created ctx", created);
    if (private_ctx != SHMEM_CTX_INVALID) rma_check_all(&table[t], "private ctx", private_ctx);
    rma_check_all(&table[t], "SHMEM_CTX_DEFAULT", SHMEM_CTX_DEFAULT);
  }
  if (created != SHMEM_CTX_INVALID) shmem_ctx_destroy(created);
  if (private_ctx != SHMEM_CTX_INVALID) shmem_ctx_destroy(private_ctx);
}

#endif
