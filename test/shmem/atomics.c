/* Atomic memory operations for every type of their tables: standard (fetch_inc, inc,
 * fetch_add, add, compare_swap), extended (fetch, set, swap) and bitwise (and, or, xor and
 * their fetching forms), the nbi fetching forms, each plain and with contexts, then the
 * deprecated unprefixed names.  Each PE runs a fixed sequence on its own slot on its right
 * neighbour (every fetched value is known), then contended operations on PE 0 check
 * atomicity (swaps form a permutation, bits set by everyone are all there). */
#include "common.h"

/* The deprecated names are called on purpose here. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int me, npes, right, left;

/* The plain routine for a NULL context, else the ctx_ one. */
#define AMO(c, N, OP, ...) \
  ((c) ? shmem_ctx_##N##_atomic_##OP((c), __VA_ARGS__) : shmem_##N##_atomic_##OP(__VA_ARGS__))
#define QUIET(c) ((c) ? shmem_ctx_quiet(c) : shmem_quiet())
#define FENCE(c) ((c) ? shmem_ctx_fence(c) : shmem_fence())
/* A non-fetching AMO, ordered before whatever this PE does next to the same PE. */
#define AMO_NF(c, N, OP, ...) (AMO(c, N, OP, __VA_ARGS__), FENCE(c))

#define EXTENDED_TEST(T, N)                                                                       \
  static void extended_##N(shmem_ctx_t c, const char *cn) {                                      \
    T *w = shmem_calloc((size_t)npes + 1, sizeof(T));                                            \
    T *slot = &w[me];                                                                            \
    AMO_NF(c, N, set, slot, (T)5, right);                                                           \
    T v = AMO(c, N, fetch, slot, right);                                                         \
    CHECK(v == (T)5, "%s_atomic_fetch (%s) after set(5) gave %Lg", #N, cn, (long double)v);      \
    v = AMO(c, N, swap, slot, (T)7, right);                                                      \
    CHECK(v == (T)5, "%s_atomic_swap (%s) gave %Lg, expected 5", #N, cn, (long double)v);        \
    T f1 = (T)0, f2 = (T)0;                                                                      \
    AMO(c, N, fetch_nbi, &f1, slot, right);                                                      \
    QUIET(c);                                                                                    \
    AMO(c, N, swap_nbi, &f2, slot, (T)9, right);                                                 \
    QUIET(c);                                                                                    \
    CHECK(f1 == (T)7, "%s_atomic_fetch_nbi (%s) gave %Lg, expected 7", #N, cn, (long double)f1); \
    CHECK(f2 == (T)7, "%s_atomic_swap_nbi (%s) gave %Lg, expected 7", #N, cn, (long double)f2);  \
    shmem_barrier_all();                                                                         \
    CHECK(w[left] == (T)9, "%s extended sequence (%s) left %Lg, expected 9", #N, cn,             \
          (long double)w[left]);                                                                 \
    /* Contended swaps into one word of PE 0: the values fetched and the final value are a   \
     * permutation of the initial value and every PE's value. */                                \
    T *word = &w[npes];                                                                          \
    if (me == 0) *word = (T)-1;                                                                  \
    shmem_barrier_all();                                                                         \
    T got = AMO(c, N, swap, word, (T)me, 0);                                                     \
    shmem_barrier_all();                                                                         \
    T *all = shmem_calloc((size_t)npes + 1, sizeof(T));                                          \
    AMO_NF(c, N, set, &all[me], got, 0);                                                            \
    QUIET(c);                                                                                    \
    shmem_barrier_all();                                                                         \
    if (me == 0) {                                                                               \
      all[npes] = *word;                                                                         \
      int *count = calloc((size_t)npes + 1, sizeof(int));                                        \
      for (int i = 0; i <= npes; ++i)                                                            \
        for (int pe = -1; pe < npes; ++pe)                                                       \
          if (all[i] == (T)pe) ++count[pe + 1];                                                  \
      for (int pe = -1; pe < npes; ++pe)                                                         \
        CHECK(count[pe + 1] == 1, "%s contended swap (%s): value %d seen %d times", #N, cn, pe,  \
              count[pe + 1]);                                                                    \
      free(count);                                                                               \
    }                                                                                            \
    shmem_barrier_all();                                                                         \
    shmem_free(all);                                                                             \
    shmem_free(w);                                                                               \
  }
TANDEM_AMO_EXTENDED_TYPES(EXTENDED_TEST)

#define STANDARD_TEST(T, N)                                                                         \
  static void standard_##N(shmem_ctx_t c, const char *cn) {                                        \
    T *w = shmem_calloc((size_t)npes, sizeof(T));                                                  \
    T *slot = &w[me];                                                                              \
    T v = AMO(c, N, fetch_inc, slot, right);                                                       \
    CHECK(v == (T)0, "%s_atomic_fetch_inc (%s) gave %lld, expected 0", #N, cn, (long long)v);      \
    AMO_NF(c, N, inc, slot, right);                                                                   \
    v = AMO(c, N, fetch_add, slot, (T)10, right);                                                  \
    CHECK(v == (T)2, "%s_atomic_fetch_add (%s) gave %lld, expected 2", #N, cn, (long long)v);      \
    AMO_NF(c, N, add, slot, (T)3, right);                                                             \
    v = AMO(c, N, compare_swap, slot, (T)14, (T)100, right);                                       \
    CHECK(v == (T)15, "failing %s_atomic_compare_swap (%s) gave %lld, expected 15", #N, cn,       \
          (long long)v);                                                                           \
    v = AMO(c, N, compare_swap, slot, (T)15, (T)30, right);                                        \
    CHECK(v == (T)15, "%s_atomic_compare_swap (%s) gave %lld, expected 15", #N, cn, (long long)v); \
    v = AMO(c, N, fetch_add, slot, (T)-5, right);                                                  \
    CHECK(v == (T)30, "%s_atomic_fetch_add(-5) (%s) gave %lld, expected 30", #N, cn, (long long)v);\
    AMO_NF(c, N, add, slot, (T)5, right);                                                             \
    T f[4] = {0, 0, 0, 0};                                                                         \
    AMO(c, N, fetch_inc_nbi, &f[0], slot, right);                                                  \
    QUIET(c);                                                                                      \
    AMO(c, N, fetch_add_nbi, &f[1], slot, (T)4, right);                                            \
    QUIET(c);                                                                                      \
    AMO(c, N, compare_swap_nbi, &f[2], slot, (T)35, (T)40, right);                                 \
    QUIET(c);                                                                                      \
    AMO(c, N, compare_swap_nbi, &f[3], slot, (T)1, (T)2, right);                                   \
    QUIET(c);                                                                                      \
    CHECK(f[0] == (T)30, "%s_atomic_fetch_inc_nbi (%s) gave %lld, expected 30", #N, cn,           \
          (long long)f[0]);                                                                        \
    CHECK(f[1] == (T)31, "%s_atomic_fetch_add_nbi (%s) gave %lld, expected 31", #N, cn,           \
          (long long)f[1]);                                                                        \
    CHECK(f[2] == (T)35, "%s_atomic_compare_swap_nbi (%s) gave %lld, expected 35", #N, cn,        \
          (long long)f[2]);                                                                        \
    CHECK(f[3] == (T)40, "failing %s_atomic_compare_swap_nbi (%s) gave %lld, expected 40", #N, cn,\
          (long long)f[3]);                                                                        \
    shmem_barrier_all();                                                                           \
    CHECK(w[left] == (T)40, "%s standard sequence (%s) left %lld, expected 40", #N, cn,            \
          (long long)w[left]);                                                                     \
    /* Contended: everyone adds on PE 0, 50 times each of inc, add(2) and fetch_add(3). */        \
    shmem_barrier_all();                                                                           \
    for (int i = 0; i < 50; ++i) {                                                                 \
      AMO_NF(c, N, inc, &w[0], 0);                                                                    \
      AMO_NF(c, N, add, &w[0], (T)2, 0);                                                              \
      (void)AMO(c, N, fetch_add, &w[0], (T)3, 0);                                                  \
    }                                                                                              \
    QUIET(c);                                                                                      \
    shmem_barrier_all();                                                                           \
    if (me == 0) {                                                                                 \
      /* w[0] of PE 0 is PE 0's own slot only when it is alone (it ended the sequence at 40). */  \
      const T expect = (T)((npes == 1 ? 40 : 0) + 300 * npes);                                     \
      CHECK(w[0] == expect, "%s contended adds (%s): %lld, expected %lld", #N, cn,                 \
            (long long)w[0], (long long)expect);                                                   \
    }                                                                                              \
    shmem_barrier_all();                                                                           \
    shmem_free(w);                                                                                 \
  }
TANDEM_AMO_STANDARD_TYPES(STANDARD_TEST)

#define BITWISE_TEST(T, N)                                                                          \
  static void bitwise_##N(shmem_ctx_t c, const char *cn) {                                         \
    T *w = shmem_calloc((size_t)npes + 1, sizeof(T));                                              \
    T *slot = &w[me];                                                                              \
    AMO_NF(c, N, set, slot, (T)0xF0, right);                                                          \
    T v = AMO(c, N, fetch_and, slot, (T)0x3C, right);                                              \
    CHECK(v == (T)0xF0, "%s_atomic_fetch_and (%s) gave %#llx", #N, cn, (unsigned long long)v);    \
    v = AMO(c, N, fetch_or, slot, (T)0x0F, right);                                                 \
    CHECK(v == (T)0x30, "%s_atomic_fetch_or (%s) gave %#llx", #N, cn, (unsigned long long)v);     \
    v = AMO(c, N, fetch_xor, slot, (T)0xFF, right);                                                \
    CHECK(v == (T)0x3F, "%s_atomic_fetch_xor (%s) gave %#llx", #N, cn, (unsigned long long)v);    \
    AMO_NF(c, N, and, slot, (T)0x80, right);                                                          \
    AMO_NF(c, N, or, slot, (T)0x01, right);                                                           \
    v = AMO(c, N, fetch, slot, right);                                                             \
    CHECK(v == (T)0x81, "%s and/or (%s) left %#llx, expected 0x81", #N, cn, (unsigned long long)v);\
    AMO_NF(c, N, xor, slot, (T)0x80, right);                                                          \
    const T high = (T)(1ULL << (sizeof(T) * 8 - 1));                                               \
    AMO_NF(c, N, or, slot, high, right);                                                              \
    T f[3] = {0, 0, 0};                                                                            \
    AMO(c, N, fetch_and_nbi, &f[0], slot, (T)(high | (T)0x0F), right);                             \
    QUIET(c);                                                                                      \
    AMO(c, N, fetch_or_nbi, &f[1], slot, (T)0xF0, right);                                          \
    QUIET(c);                                                                                      \
    AMO(c, N, fetch_xor_nbi, &f[2], slot, (T)(high | (T)0x0F), right);                             \
    QUIET(c);                                                                                      \
    CHECK(f[0] == (T)(high | (T)0x01), "%s_atomic_fetch_and_nbi (%s) gave %#llx", #N, cn,        \
          (unsigned long long)f[0]);                                                               \
    CHECK(f[1] == (T)(high | (T)0x01), "%s_atomic_fetch_or_nbi (%s) gave %#llx", #N, cn,         \
          (unsigned long long)f[1]);                                                               \
    CHECK(f[2] == (T)(high | (T)0xF1), "%s_atomic_fetch_xor_nbi (%s) gave %#llx", #N, cn,        \
          (unsigned long long)f[2]);                                                               \
    shmem_barrier_all();                                                                           \
    CHECK(w[left] == (T)0xFE, "%s bitwise sequence (%s) left %#llx, expected 0xfe", #N, cn,        \
          (unsigned long long)w[left]);                                                            \
    /* Contended: every PE sets, flips and clears its own bit of one word on PE 0. */            \
    T *word = &w[npes];                                                                            \
    const T bit = (T)(1ULL << (me % (int)(sizeof(T) * 8)));                                        \
    T all_bits = 0;                                                                                \
    for (int pe = 0; pe < npes; ++pe) all_bits |= (T)(1ULL << (pe % (int)(sizeof(T) * 8)));       \
    shmem_barrier_all();                                                                           \
    AMO_NF(c, N, or, word, bit, 0);                                                                   \
    QUIET(c);                                                                                      \
    shmem_barrier_all();                                                                           \
    if (me == 0) CHECK(*word == all_bits, "%s contended or (%s): %#llx", #N, cn,                   \
                       (unsigned long long)*word);                                                 \
    shmem_barrier_all();                                                                           \
    (void)AMO(c, N, fetch_xor, word, bit, 0);                                                      \
    shmem_barrier_all();                                                                           \
    if (me == 0) CHECK(*word == 0, "%s contended xor (%s): %#llx", #N, cn,                         \
                       (unsigned long long)*word);                                                 \
    shmem_barrier_all();                                                                           \
    if (me == 0) *word = (T)~(T)0;                                                                 \
    shmem_barrier_all();                                                                           \
    AMO_NF(c, N, and, word, (T)~bit, 0);                                                              \
    QUIET(c);                                                                                      \
    shmem_barrier_all();                                                                           \
    if (me == 0) CHECK(*word == (T)~all_bits, "%s contended and (%s): %#llx", #N, cn,              \
                       (unsigned long long)*word);                                                 \
    shmem_barrier_all();                                                                           \
    shmem_free(w);                                                                                 \
  }
TANDEM_AMO_BITWISE_TYPES(BITWISE_TEST)

#define RUN_EXTENDED(T, N) extended_##N(c, cn);
#define RUN_STANDARD(T, N) standard_##N(c, cn);
#define RUN_BITWISE(T, N) bitwise_##N(c, cn);
static void run_all(shmem_ctx_t c, const char *cn) {
  TANDEM_AMO_EXTENDED_TYPES(RUN_EXTENDED)
  TANDEM_AMO_STANDARD_TYPES(RUN_STANDARD)
  TANDEM_AMO_BITWISE_TYPES(RUN_BITWISE)
}

/* The deprecated names: shmem_int_fadd and friends, for every row of the specification's
 * standard AMO table (other implementations export them all, and programs call them). */
#define SPEC_STANDARD_AMO_ROWS(X)                                                                  \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)  \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)       \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define DEPRECATED_VAR(T, N) static T dep_##N;
SPEC_STANDARD_AMO_ROWS(DEPRECATED_VAR)
static float dep_float;
static double dep_double;
#define DEPRECATED_STANDARD(T, N, VAR)                                                             \
  {                                                                                                \
    shmem_barrier_all();                                                                           \
    T v = shmem_##N##_finc(&VAR, right);                                                           \
    CHECK(v == 0, "shmem_%s_finc gave %lld", #N, (long long)v);                                    \
    shmem_##N##_inc(&VAR, right);                                                                  \
    shmem_fence();                                                                                 \
    v = shmem_##N##_fadd(&VAR, 10, right);                                                         \
    CHECK(v == 2, "shmem_%s_fadd gave %lld", #N, (long long)v);                                    \
    shmem_##N##_add(&VAR, 3, right);                                                               \
    shmem_fence();                                                                                 \
    v = shmem_##N##_cswap(&VAR, 15, 20, right);                                                    \
    CHECK(v == 15, "shmem_%s_cswap gave %lld", #N, (long long)v);                                  \
    v = shmem_##N##_cswap(&VAR, 15, 99, right);                                                    \
    CHECK(v == 20, "failing shmem_%s_cswap gave %lld", #N, (long long)v);                          \
    v = shmem_##N##_swap(&VAR, 21, right);                                                         \
    CHECK(v == 20, "shmem_%s_swap gave %lld", #N, (long long)v);                                   \
    shmem_##N##_set(&VAR, 22, right);                                                              \
    shmem_fence();                                                                                 \
    v = shmem_##N##_fetch(&VAR, right);                                                            \
    CHECK(v == 22, "shmem_%s_fetch gave %lld", #N, (long long)v);                                  \
    shmem_barrier_all();                                                                           \
    CHECK(VAR == 22, "deprecated %s sequence left %lld", #N, (long long)VAR);                      \
  }
#define DEPRECATED_ROW(T, N) DEPRECATED_STANDARD(T, N, dep_##N)
static void deprecated_names(void) {
  SPEC_STANDARD_AMO_ROWS(DEPRECATED_ROW)
  shmem_barrier_all();
  shmem_float_set(&dep_float, 1.5f, right);
  shmem_double_set(&dep_double, 2.5, right);
  shmem_fence();
  float fv = shmem_float_swap(&dep_float, 3.5f, right);
  double dv = shmem_double_swap(&dep_double, 4.5, right);
  CHECK(fv == 1.5f && dv == 2.5, "shmem_float_swap/shmem_double_swap gave %g %g", fv, dv);
  CHECK(shmem_float_fetch(&dep_float, right) == 3.5f, "shmem_float_fetch");
  CHECK(shmem_double_fetch(&dep_double, right) == 4.5, "shmem_double_fetch");
  shmem_barrier_all();
  CHECK(dep_float == 3.5f && dep_double == 4.5, "deprecated float/double left %g %g", dep_float,
        dep_double);
}

/* PE 0 polls a word of its own with atomic fetches, and nothing else, until every other PE
 * has added 1 to it: PE 0's polling must also let the others' atomics in (across nodes
 * they may need PE 0's own progress); if it does not, the job hangs. */
static unsigned long long arrivals;

static void poll_own_word(void) {
  shmem_barrier_all();
  if (me == 0) {
    while (shmem_ulonglong_atomic_fetch(&arrivals, 0) != (unsigned long long)(npes - 1)) {
    }
  } else {
    shmem_ulonglong_atomic_add(&arrivals, 1, 0);
    shmem_quiet();
  }
  shmem_barrier_all();
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right = test_right();
  left = test_left();
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "shmem_ctx_create failed");
  run_all(NULL, "plain");
  run_all(ctx, "created ctx");
  run_all(SHMEM_CTX_DEFAULT, "SHMEM_CTX_DEFAULT");
  shmem_ctx_destroy(ctx);
  deprecated_names();
  poll_own_word();
  return test_finish("atomics");
}
