/* Every type-generic name of the specification against every row of its type table, as
 * the specification lists the rows (written out here, independently of Tandem's own tables):
 * each call must select a routine (a row that falls through to no routine does not
 * compile) and that routine must act on the type of its arguments.  The same source is
 * compiled as C11 with -pedantic-errors (generic_tables) and as C++ (generic_tables_cxx,
 * the overloads); complex rows are C only.  Each PE works on its own memory (pe = me) and
 * the collectives run on SHMEM_TEAM_WORLD. */
#include "common.h"

#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#error "this test needs C11 or C++"
#endif

/* The specification's tables. */
#define SPEC_RMA_ROWS(X)                                                                            \
  X(float, float) X(double, double) X(long double, longdouble) X(char, char)                       \
  X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)           \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                          \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)       \
  X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)    \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define SPEC_AMO_STANDARD_ROWS(X)                                                                   \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)  \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)       \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define SPEC_AMO_EXTENDED_ROWS(X) SPEC_AMO_STANDARD_ROWS(X) X(float, float) X(double, double)
#define SPEC_AMO_BITWISE_ROWS(X)                                                                    \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)                  \
  X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
/* Point-to-point synchronisation: the standard AMO rows, and short and unsigned short
 * (deprecated, still supported). */
#define SPEC_P2P_ROWS(X) SPEC_AMO_STANDARD_ROWS(X) X(short, short) X(unsigned short, ushort)
#define SPEC_REDUCE_BITWISE_ROWS(X)                                                                 \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                          \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)       \
  X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)    \
  X(uint64_t, uint64) X(size_t, size)
#define SPEC_REDUCE_MINMAX_ROWS(X)                                                                  \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)                    \
  X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar) X(unsigned short, ushort)  \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)                   \
  X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8)          \
  X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(float, float)      \
  X(double, double) X(long double, longdouble)
#ifdef __cplusplus
#define SPEC_REDUCE_ARITH_ROWS(X) SPEC_REDUCE_MINMAX_ROWS(X)
#else
#define SPEC_REDUCE_ARITH_ROWS(X) \
  SPEC_REDUCE_MINMAX_ROWS(X) X(double _Complex, complexd) X(float _Complex, complexf)
#endif

#define NE 8 /* elements per buffer */

static int me, npes;
static shmem_ctx_t ctx;
static uint64_t sig;

/* A symmetric buffer of n elements of T, zeroed. */
#define ALLOC(T, n) ((T *)shmem_calloc((size_t)(n), sizeof(T)))
#define SAME(a, b) ((a) == (b))

#define RMA_ROW(T, N)                                                                               \
  static void rma_##N(void) {                                                                      \
    T *s = ALLOC(T, NE), *d = ALLOC(T, NE);                                                        \
    T l[NE];                                                                                       \
    for (int i = 0; i < NE; ++i) s[i] = (T)(i + 1);                                                \
    shmem_put(d, s, 2, me);                                                                        \
    shmem_put(ctx, d + 2, s + 2, 2, me);                                                           \
    shmem_put_nbi(d + 4, s + 4, 1, me);                                                            \
    shmem_put_nbi(ctx, d + 5, s + 5, 1, me);                                                       \
    shmem_p(d + 6, s[6], me);                                                                      \
    shmem_p(ctx, d + 7, s[7], me);                                                                 \
    shmem_quiet();                                                                                 \
    shmem_ctx_quiet(ctx);                                                                          \
    for (int i = 0; i < NE; ++i) CHECK(SAME(d[i], s[i]), "%s: put/p element %d", #N, i);           \
    memset(l, 0, sizeof l);                                                                        \
    shmem_get(l, s, 2, me);                                                                        \
    shmem_get(ctx, l + 2, s + 2, 2, me);                                                           \
    shmem_get_nbi(l + 4, s + 4, 1, me);                                                            \
    shmem_get_nbi(ctx, l + 5, s + 5, 1, me);                                                       \
    shmem_quiet();                                                                                 \
    shmem_ctx_quiet(ctx);                                                                          \
    l[6] = shmem_g(s + 6, me);                                                                     \
    l[7] = shmem_g(ctx, s + 7, me);                                                                \
    for (int i = 0; i < NE; ++i) CHECK(SAME(l[i], s[i]), "%s: get/g element %d", #N, i);          \
    memset(d, 0, NE * sizeof(T));                                                                  \
    shmem_iput(d, s, 2, 2, 2, me);        /* d[0], d[2] */                                         \
    shmem_iput(ctx, d + 1, s + 1, 2, 2, 2, me); /* d[1], d[3] */                                   \
    shmem_ibput(d + 4, s + 4, 2, 2, 1, 1, me);                                                     \
    shmem_ibput(ctx, d + 5, s + 5, 2, 2, 1, 1, me);                                                \
    for (int i = 0; i < 6; ++i) CHECK(SAME(d[i], s[i]), "%s: iput/ibput element %d", #N, i);       \
    memset(l, 0, sizeof l);                                                                        \
    shmem_iget(l, s, 2, 2, 2, me);                                                                 \
    shmem_iget(ctx, l + 1, s + 1, 2, 2, 2, me);                                                    \
    shmem_ibget(l + 4, s + 4, 2, 2, 1, 1, me);                                                     \
    shmem_ibget(ctx, l + 5, s + 5, 2, 2, 1, 1, me);                                                \
    for (int i = 0; i < 6; ++i) CHECK(SAME(l[i], s[i]), "%s: iget/ibget element %d", #N, i);      \
    memset(d, 0, NE * sizeof(T));                                                                  \
    sig = 0;                                                                                       \
    shmem_put_signal(d, s, 2, &sig, 1, SHMEM_SIGNAL_ADD, me);                                      \
    shmem_put_signal(ctx, d + 2, s + 2, 2, &sig, 1, SHMEM_SIGNAL_ADD, me);                         \
    shmem_put_signal_nbi(d + 4, s + 4, 2, &sig, 1, SHMEM_SIGNAL_ADD, me);                          \
    shmem_put_signal_nbi(ctx, d + 6, s + 6, 2, &sig, 1, SHMEM_SIGNAL_ADD, me);                     \
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 4);                                                \
    for (int i = 0; i < NE; ++i) CHECK(SAME(d[i], s[i]), "%s: put_signal element %d", #N, i);      \
    shmem_barrier_all();                                                                           \
    shmem_free(d);                                                                                 \
    shmem_free(s);                                                                                 \
  }
SPEC_RMA_ROWS(RMA_ROW)

/* Broadcast, collect, fcollect, alltoall and alltoalls share the RMA table. */
#define COLL_ROW(T, N)                                                                              \
  static void coll_##N(void) {                                                                     \
    T *s = ALLOC(T, npes), *d = ALLOC(T, npes);                                                    \
    for (int i = 0; i < npes; ++i) s[i] = (T)(me + 1);                                             \
    shmem_barrier_all();                                                                           \
    CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, d, s, 1, 0) == 0, "%s: broadcast", #N);                \
    CHECK(SAME(d[0], (T)1), "%s: broadcast gave the wrong value", #N);                             \
    CHECK(shmem_fcollect(SHMEM_TEAM_WORLD, d, s, 1) == 0, "%s: fcollect", #N);                     \
    for (int i = 0; i < npes; ++i) CHECK(SAME(d[i], (T)(i + 1)), "%s: fcollect element %d", #N, i); \
    CHECK(shmem_collect(SHMEM_TEAM_WORLD, d, s, 1) == 0, "%s: collect", #N);                       \
    for (int i = 0; i < npes; ++i) CHECK(SAME(d[i], (T)(i + 1)), "%s: collect element %d", #N, i); \
    CHECK(shmem_alltoall(SHMEM_TEAM_WORLD, d, s, 1) == 0, "%s: alltoall", #N);                     \
    for (int i = 0; i < npes; ++i) CHECK(SAME(d[i], (T)(i + 1)), "%s: alltoall element %d", #N, i); \
    CHECK(shmem_alltoalls(SHMEM_TEAM_WORLD, d, s, 1, 1, 1) == 0, "%s: alltoalls", #N);             \
    for (int i = 0; i < npes; ++i) CHECK(SAME(d[i], (T)(i + 1)), "%s: alltoalls element %d", #N, i); \
    shmem_free(d);                                                                                 \
    shmem_free(s);                                                                                 \
  }
SPEC_RMA_ROWS(COLL_ROW)

#define AMO_STANDARD_ROW(T, N)                                                                      \
  static void amo_standard_##N(void) {                                                             \
    T *x = ALLOC(T, 1);                                                                            \
    T f = (T)0;                                                                                    \
    shmem_atomic_inc(x, me);                                                                       \
    shmem_atomic_inc(ctx, x, me);                                                                  \
    shmem_atomic_add(x, (T)2, me);                                                                 \
    shmem_atomic_add(ctx, x, (T)2, me);                                                            \
    shmem_quiet();                                                                                 \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(shmem_atomic_fetch_inc(x, me), (T)6), "%s: fetch_inc", #N);                         \
    CHECK(SAME(shmem_atomic_fetch_inc(ctx, x, me), (T)7), "%s: ctx fetch_inc", #N);                \
    CHECK(SAME(shmem_atomic_fetch_add(x, (T)2, me), (T)8), "%s: fetch_add", #N);                   \
    CHECK(SAME(shmem_atomic_fetch_add(ctx, x, (T)2, me), (T)10), "%s: ctx fetch_add", #N);         \
    CHECK(SAME(shmem_atomic_compare_swap(x, (T)12, (T)20, me), (T)12), "%s: compare_swap", #N);    \
    CHECK(SAME(shmem_atomic_compare_swap(ctx, x, (T)20, (T)21, me), (T)20), "%s: ctx compare_swap", #N); \
    shmem_atomic_fetch_inc_nbi(&f, x, me);                                                         \
    shmem_quiet();                                                                                 \
    CHECK(SAME(f, (T)21), "%s: fetch_inc_nbi", #N);                                                \
    shmem_atomic_fetch_inc_nbi(ctx, &f, x, me);                                                    \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)22), "%s: ctx fetch_inc_nbi", #N);                                            \
    shmem_atomic_fetch_add_nbi(&f, x, (T)1, me);                                                   \
    shmem_quiet();                                                                                 \
    CHECK(SAME(f, (T)23), "%s: fetch_add_nbi", #N);                                                \
    shmem_atomic_fetch_add_nbi(ctx, &f, x, (T)1, me);                                              \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)24), "%s: ctx fetch_add_nbi", #N);                                            \
    shmem_atomic_compare_swap_nbi(&f, x, (T)25, (T)30, me);                                        \
    shmem_quiet();                                                                                 \
    CHECK(SAME(f, (T)25), "%s: compare_swap_nbi", #N);                                             \
    shmem_atomic_compare_swap_nbi(ctx, &f, x, (T)30, (T)31, me);                                   \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)30), "%s: ctx compare_swap_nbi", #N);                                         \
    /* The deprecated generic names. */                                                            \
    CHECK(SAME(shmem_finc(x, me), (T)31), "%s: shmem_finc", #N);                                   \
    shmem_inc(x, me);                                                                              \
    shmem_add(x, (T)2, me);                                                                        \
    shmem_quiet();                                                                                 \
    CHECK(SAME(shmem_fadd(x, (T)1, me), (T)35), "%s: shmem_fadd", #N);                             \
    CHECK(SAME(shmem_cswap(x, (T)36, (T)40, me), (T)36), "%s: shmem_cswap", #N);                   \
    CHECK(SAME(*x, (T)40), "%s: left %lld", #N, (long long)*x);                                    \
    shmem_free(x);                                                                                 \
  }
SPEC_AMO_STANDARD_ROWS(AMO_STANDARD_ROW)

#define AMO_EXTENDED_ROW(T, N)                                                                      \
  static void amo_extended_##N(void) {                                                             \
    T *x = ALLOC(T, 1);                                                                            \
    T f = (T)0;                                                                                    \
    shmem_atomic_set(x, (T)1.5, me);                                                               \
    shmem_quiet();                                                                                 \
    CHECK(SAME(shmem_atomic_fetch(x, me), (T)1.5), "%s: set/fetch", #N);                           \
    shmem_atomic_set(ctx, x, (T)2.5, me);                                                          \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(shmem_atomic_fetch(ctx, x, me), (T)2.5), "%s: ctx set/fetch", #N);                  \
    CHECK(SAME(shmem_atomic_swap(x, (T)3.5, me), (T)2.5), "%s: swap", #N);                         \
    CHECK(SAME(shmem_atomic_swap(ctx, x, (T)4.5, me), (T)3.5), "%s: ctx swap", #N);                \
    shmem_atomic_fetch_nbi(&f, x, me);                                                             \
    shmem_quiet();                                                                                 \
    CHECK(SAME(f, (T)4.5), "%s: fetch_nbi", #N);                                                   \
    shmem_atomic_fetch_nbi(ctx, &f, x, me);                                                        \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)4.5), "%s: ctx fetch_nbi", #N);                                               \
    shmem_atomic_swap_nbi(&f, x, (T)5.5, me);                                                      \
    shmem_quiet();                                                                                 \
    CHECK(SAME(f, (T)4.5), "%s: swap_nbi", #N);                                                    \
    shmem_atomic_swap_nbi(ctx, &f, x, (T)6.5, me);                                                 \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)5.5), "%s: ctx swap_nbi", #N);                                                \
    /* The deprecated generic names. */                                                            \
    shmem_set(x, (T)7.5, me);                                                                      \
    shmem_quiet();                                                                                 \
    CHECK(SAME(shmem_fetch(x, me), (T)7.5), "%s: shmem_set/shmem_fetch", #N);                      \
    CHECK(SAME(shmem_swap(x, (T)8.5, me), (T)7.5), "%s: shmem_swap", #N);                          \
    shmem_free(x);                                                                                 \
  }
SPEC_AMO_EXTENDED_ROWS(AMO_EXTENDED_ROW)

#define AMO_BITWISE_ROW(T, N)                                                                       \
  static void amo_bitwise_##N(void) {                                                              \
    T *x = ALLOC(T, 1);                                                                            \
    T f = (T)0;                                                                                    \
    *x = (T)0xF0;                                                                                  \
    shmem_atomic_or(x, (T)0x01, me);                                                               \
    shmem_atomic_or(ctx, x, (T)0x02, me);                                                          \
    shmem_atomic_and(x, (T)0xF7, me);                                                              \
    shmem_atomic_and(ctx, x, (T)0x7F, me);                                                         \
    shmem_atomic_xor(x, (T)0x100, me);                                                             \
    shmem_atomic_xor(ctx, x, (T)0x200, me);                                                        \
    shmem_quiet();                                                                                 \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(*x, (T)0x373), "%s: and/or/xor left %#llx", #N, (unsigned long long)*x);            \
    CHECK(SAME(shmem_atomic_fetch_and(x, (T)0x0FF, me), (T)0x373), "%s: fetch_and", #N);           \
    CHECK(SAME(shmem_atomic_fetch_and(ctx, x, (T)0x0F, me), (T)0x73), "%s: ctx fetch_and", #N);    \
    CHECK(SAME(shmem_atomic_fetch_or(x, (T)0x10, me), (T)0x03), "%s: fetch_or", #N);               \
    CHECK(SAME(shmem_atomic_fetch_or(ctx, x, (T)0x20, me), (T)0x13), "%s: ctx fetch_or", #N);      \
    CHECK(SAME(shmem_atomic_fetch_xor(x, (T)0x01, me), (T)0x33), "%s: fetch_xor", #N);             \
    CHECK(SAME(shmem_atomic_fetch_xor(ctx, x, (T)0x02, me), (T)0x32), "%s: ctx fetch_xor", #N);    \
    shmem_atomic_fetch_and_nbi(&f, x, (T)0x0F, me);                                                \
    shmem_quiet();                                                                                 \
    CHECK(SAME(f, (T)0x30), "%s: fetch_and_nbi", #N);                                              \
    shmem_atomic_fetch_and_nbi(ctx, &f, x, (T)0x0F, me);                                           \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)0x00), "%s: ctx fetch_and_nbi", #N);                                          \
    shmem_atomic_fetch_or_nbi(&f, x, (T)0x04, me);                                                 \
    shmem_quiet();                                                                                 \
    shmem_atomic_fetch_or_nbi(ctx, &f, x, (T)0x08, me);                                            \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)0x04), "%s: fetch_or_nbi", #N);                                               \
    shmem_atomic_fetch_xor_nbi(&f, x, (T)0x01, me);                                                \
    shmem_quiet();                                                                                 \
    shmem_atomic_fetch_xor_nbi(ctx, &f, x, (T)0x01, me);                                           \
    shmem_ctx_quiet(ctx);                                                                          \
    CHECK(SAME(f, (T)0x0D) && SAME(*x, (T)0x0C), "%s: fetch_xor_nbi", #N);                         \
    shmem_free(x);                                                                                 \
  }
SPEC_AMO_BITWISE_ROWS(AMO_BITWISE_ROW)

#define P2P_ROW(T, N)                                                                               \
  static void p2p_##N(void) {                                                                      \
    T *v = ALLOC(T, 4);                                                                            \
    T cmpv[4] = {(T)1, (T)2, (T)3, (T)4};                                                          \
    size_t idx[4];                                                                                 \
    int status[4] = {0, 0, 0, 1};                                                                  \
    for (int i = 0; i < 4; ++i) v[i] = (T)(i + 1);                                                 \
    shmem_wait_until(v, SHMEM_CMP_EQ, (T)1);                                                       \
    shmem_wait_until_all(v, 4, NULL, SHMEM_CMP_GT, (T)0);                                          \
    CHECK(shmem_wait_until_any(v, 4, status, SHMEM_CMP_EQ, (T)3) == 2, "%s: wait_until_any", #N);  \
    CHECK(shmem_wait_until_some(v, 4, idx, NULL, SHMEM_CMP_GE, (T)4) == 1 && idx[0] == 3,          \
          "%s: wait_until_some", #N);                                                              \
    shmem_wait_until_all_vector(v, 4, NULL, SHMEM_CMP_EQ, cmpv);                                   \
    CHECK(shmem_wait_until_any_vector(v, 4, status, SHMEM_CMP_EQ, cmpv) < 3,                       \
          "%s: wait_until_any_vector", #N);                                                        \
    CHECK(shmem_wait_until_some_vector(v, 4, idx, status, SHMEM_CMP_EQ, cmpv) == 3,                \
          "%s: wait_until_some_vector", #N);                                                       \
    CHECK(shmem_test(v + 1, SHMEM_CMP_EQ, (T)2) == 1, "%s: test", #N);                             \
    CHECK(shmem_test(v + 1, SHMEM_CMP_EQ, (T)3) == 0, "%s: test false", #N);                       \
    CHECK(shmem_test_all(v, 4, NULL, SHMEM_CMP_LE, (T)4) == 1, "%s: test_all", #N);                \
    CHECK(shmem_test_any(v, 4, NULL, SHMEM_CMP_EQ, (T)4) == 3, "%s: test_any", #N);                \
    CHECK(shmem_test_some(v, 4, idx, NULL, SHMEM_CMP_LT, (T)2) == 1 && idx[0] == 0,                \
          "%s: test_some", #N);                                                                    \
    CHECK(shmem_test_all_vector(v, 4, NULL, SHMEM_CMP_EQ, cmpv) == 1, "%s: test_all_vector", #N);  \
    CHECK(shmem_test_any_vector(v, 4, NULL, SHMEM_CMP_NE, cmpv) == SIZE_MAX,                       \
          "%s: test_any_vector", #N);                                                              \
    CHECK(shmem_test_some_vector(v, 4, idx, status, SHMEM_CMP_GE, cmpv) == 3,                      \
          "%s: test_some_vector", #N);                                                             \
    shmem_free(v);                                                                                 \
  }
SPEC_P2P_ROWS(P2P_ROW)

/* Reductions: every PE contributes me + 1 (and bit me for the bitwise ones). */
#define REDUCE_BITWISE_ROW(T, N)                                                                    \
  static void reduce_bitwise_##N(void) {                                                           \
    T *s = ALLOC(T, 1), *d = ALLOC(T, 1);                                                          \
    *s = (T)(1u << (me % 8));                                                                      \
    T all = (T)0;                                                                                  \
    for (int p = 0; p < npes; ++p) all = (T)(all | (T)(1u << (p % 8)));                            \
    shmem_barrier_all();                                                                           \
    CHECK(shmem_or_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, all), "%s: or_reduce", #N);  \
    CHECK(shmem_and_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, npes == 1 ? *s : (T)0),     \
          "%s: and_reduce", #N);                                                                   \
    CHECK(shmem_xor_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, all), "%s: xor_reduce", #N); \
    shmem_free(d);                                                                                 \
    shmem_free(s);                                                                                 \
  }
SPEC_REDUCE_BITWISE_ROWS(REDUCE_BITWISE_ROW)

#define REDUCE_MINMAX_ROW(T, N)                                                                     \
  static void reduce_minmax_##N(void) {                                                            \
    T *s = ALLOC(T, 1), *d = ALLOC(T, 1);                                                          \
    *s = (T)(me + 1);                                                                              \
    shmem_barrier_all();                                                                           \
    CHECK(shmem_max_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, (T)npes), "%s: max_reduce", #N); \
    CHECK(shmem_min_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, (T)1), "%s: min_reduce", #N); \
    shmem_free(d);                                                                                 \
    shmem_free(s);                                                                                 \
  }
SPEC_REDUCE_MINMAX_ROWS(REDUCE_MINMAX_ROW)

#define REDUCE_ARITH_ROW(T, N)                                                                      \
  static void reduce_arith_##N(void) {                                                             \
    T *s = ALLOC(T, 1), *d = ALLOC(T, 1);                                                          \
    *s = (T)(me + 1);                                                                              \
    T sum = (T)0, prod = (T)1, below = (T)0;                                                       \
    for (int p = 0; p < npes; ++p) {                                                               \
      sum = (T)(sum + (T)(p + 1));                                                                 \
      prod = (T)(prod * (T)(p + 1));                                                               \
      if (p < me) below = (T)(below + (T)(p + 1));                                                 \
    }                                                                                              \
    shmem_barrier_all();                                                                           \
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, sum), "%s: sum_reduce", #N); \
    CHECK(shmem_prod_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, prod), "%s: prod_reduce", #N); \
    CHECK(shmem_sum_inscan(SHMEM_TEAM_WORLD, d, s, 1) == 0 && SAME(*d, (T)(below + *s)),           \
          "%s: sum_inscan", #N);                                                                   \
    CHECK(shmem_sum_exscan(SHMEM_TEAM_WORLD, d, s, 1) == 0 && (me == 0 || SAME(*d, below)),        \
          "%s: sum_exscan", #N);                                                                   \
    shmem_free(d);                                                                                 \
    shmem_free(s);                                                                                 \
  }
SPEC_REDUCE_ARITH_ROWS(REDUCE_ARITH_ROW)

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
#define RUN(T, N) rma_##N(); coll_##N();
  SPEC_RMA_ROWS(RUN)
#undef RUN
#define RUN(T, N) amo_standard_##N();
  SPEC_AMO_STANDARD_ROWS(RUN)
#undef RUN
#define RUN(T, N) amo_extended_##N();
  SPEC_AMO_EXTENDED_ROWS(RUN)
#undef RUN
#define RUN(T, N) amo_bitwise_##N();
  SPEC_AMO_BITWISE_ROWS(RUN)
#undef RUN
#define RUN(T, N) p2p_##N();
  SPEC_P2P_ROWS(RUN)
#undef RUN
#define RUN(T, N) reduce_bitwise_##N();
  SPEC_REDUCE_BITWISE_ROWS(RUN)
#undef RUN
#define RUN(T, N) reduce_minmax_##N();
  SPEC_REDUCE_MINMAX_ROWS(RUN)
#undef RUN
#define RUN(T, N) reduce_arith_##N();
  SPEC_REDUCE_ARITH_ROWS(RUN)
#undef RUN
  /* The remaining generic names: shmem_sync on a team, and the signal routines with a context. */
  CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync");
  sig = 0;
  shmem_barrier_all();
  shmem_signal_add(ctx, &sig, 2, me);
  shmem_signal_set(ctx, &sig, 5, me);
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_fetch(&sig) == 5, "shmem_signal_add/set with a context");
  shmem_ctx_destroy(ctx);
#ifdef __cplusplus
  return test_finish("generic_tables_cxx");
#else
  return test_finish("generic_tables");
#endif
}
