/* Point-to-point synchronisation for every type of TANDEM_P2P_TYPES: wait_until, test and
 * their _all, _any, _some and _vector variants, with and without status masks, with every
 * comparison; first on local values (exact results), then with the values written by the
 * left neighbour while the PE waits (written with shmem_p: short and unsigned short have no
 * atomics).  Then the deprecated forms (short and unsigned short,
 * shmem_X_wait, shmem_wait, the long shmem_wait_until). */
#include "common.h"

#define NV 8

static int me, npes, right, left;
static short deprecated_short;
static unsigned short deprecated_ushort;
static int deprecated_int;
static long deprecated_long;
static long long deprecated_longlong;

/* True when the `count` indices are distinct and each is one of `allowed`. */
static int indices_within(const size_t *idx, size_t count, const size_t *allowed, size_t n_allowed) {
  for (size_t i = 0; i < count; ++i) {
    int found = 0;
    for (size_t j = 0; j < n_allowed; ++j) found |= idx[i] == allowed[j];
    for (size_t k = 0; k < i; ++k) found &= idx[k] != idx[i];
    if (!found) return 0;
  }
  return 1;
}

/* The left neighbour pauses now and then before writing, so that waits really wait. */
static void maybe_pause(int phase) {
  if ((phase + me) % 3 == 0) usleep(1000);
}

/* Fairness: when every element satisfies the condition, NV calls of each _any form hand out
 * NV different indices (a program that serves whichever index comes back must reach all). */
#define ANY_IS_FAIR(T, N)                                                                           \
  static void any_is_fair_##N(T *iv) {                                                             \
    T saved[NV], cmpv[NV];                                                                         \
    memcpy(saved, iv, sizeof saved);                                                               \
    for (int i = 0; i < NV; ++i) iv[i] = cmpv[i] = (T)(i + 1);                                     \
    for (int f = 0; f < 4; ++f) {                                                                  \
      int seen[NV] = {0};                                                                          \
      for (int k = 0; k < NV; ++k) {                                                               \
        const size_t got =                                                                         \
            f == 0 ? shmem_##N##_test_any(iv, NV, NULL, SHMEM_CMP_GT, (T)0)                        \
          : f == 1 ? shmem_##N##_wait_until_any(iv, NV, NULL, SHMEM_CMP_GT, (T)0)                  \
          : f == 2 ? shmem_##N##_test_any_vector(iv, NV, NULL, SHMEM_CMP_EQ, cmpv)                 \
                   : shmem_##N##_wait_until_any_vector(iv, NV, NULL, SHMEM_CMP_EQ, cmpv);          \
        CHECK(got < NV && !seen[got], "%s: _any form %d handed out index %zu twice in %d calls",   \
              #N, f, got, NV);                                                                     \
        if (got < NV) seen[got] = 1;                                                               \
      }                                                                                            \
    }                                                                                              \
    memcpy(iv, saved, sizeof saved);                                                               \
  }
TANDEM_P2P_TYPES(ANY_IS_FAIR)

#define P2P_TEST(T, N)                                                                              \
  static void p2p_##N(void) {                                                                      \
    const char *t = #N;                                                                            \
    T *iv = shmem_calloc(NV, sizeof(T));                                                           \
    T cmpv[NV];                                                                                    \
    int status[NV] = {0};                                                                          \
    int masked[NV];                                                                                \
    size_t idx[NV];                                                                                \
    for (int i = 0; i < NV; ++i) masked[i] = 1;                                                    \
    /* Local values: 0 everywhere but iv[3] = 5, iv[6] = 9. */                                     \
    iv[3] = (T)5;                                                                                  \
    iv[6] = (T)9;                                                                                  \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_EQ, (T)5) == 1, "%s_test EQ", t);                    \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_EQ, (T)4) == 0, "%s_test EQ false", t);              \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_NE, (T)5) == 0, "%s_test NE false", t);              \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_NE, (T)4) == 1, "%s_test NE", t);                    \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_GT, (T)4) == 1, "%s_test GT", t);                    \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_GT, (T)5) == 0, "%s_test GT false", t);              \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_GE, (T)5) == 1, "%s_test GE", t);                    \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_GE, (T)6) == 0, "%s_test GE false", t);              \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_LT, (T)6) == 1, "%s_test LT", t);                    \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_LT, (T)5) == 0, "%s_test LT false", t);              \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_LE, (T)5) == 1, "%s_test LE", t);                    \
    CHECK(shmem_##N##_test(&iv[3], SHMEM_CMP_LE, (T)4) == 0, "%s_test LE false", t);              \
    /* _all */                                                                                     \
    CHECK(shmem_##N##_test_all(iv, NV, NULL, SHMEM_CMP_EQ, (T)0) == 0, "%s_test_all", t);         \
    status[3] = status[6] = 1;                                                                     \
    CHECK(shmem_##N##_test_all(iv, NV, status, SHMEM_CMP_EQ, (T)0) == 1, "%s_test_all masked", t);\
    CHECK(shmem_##N##_test_all(iv, NV, masked, SHMEM_CMP_EQ, (T)1) == 1, "%s_test_all all masked", t); \
    CHECK(shmem_##N##_test_all(iv, 0, NULL, SHMEM_CMP_EQ, (T)1) == 1, "%s_test_all empty", t);    \
    CHECK(shmem_##N##_test_all(iv, NV, NULL, SHMEM_CMP_LE, (T)9) == 1, "%s_test_all LE", t);      \
    shmem_##N##_wait_until_all(iv, NV, status, SHMEM_CMP_EQ, (T)0);                                \
    shmem_##N##_wait_until_all(iv, NV, masked, SHMEM_CMP_EQ, (T)1);                                \
    /* _any */                                                                                     \
    status[3] = 0;                                                                                 \
    {                                                                                              \
      /* Either satisfied index, and both within two calls: a search starts after the last. */    \
      const size_t a = shmem_##N##_test_any(iv, NV, NULL, SHMEM_CMP_NE, (T)0);                     \
      const size_t b = shmem_##N##_test_any(iv, NV, NULL, SHMEM_CMP_NE, (T)0);                     \
      CHECK((a == 3 && b == 6) || (a == 6 && b == 3), "%s_test_any gave %zu then %zu", t, a, b);   \
    }                                                                                              \
    any_is_fair_##N(iv);                                                                           \
    status[3] = 1;                                                                                 \
    status[6] = 0;                                                                                 \
    CHECK(shmem_##N##_test_any(iv, NV, status, SHMEM_CMP_NE, (T)0) == 6, "%s_test_any masked", t);\
    CHECK(shmem_##N##_test_any(iv, NV, NULL, SHMEM_CMP_GT, (T)10) == SIZE_MAX,                     \
          "%s_test_any with nothing satisfied", t);                                                \
    CHECK(shmem_##N##_test_any(iv, NV, masked, SHMEM_CMP_EQ, (T)0) == SIZE_MAX,                    \
          "%s_test_any all masked", t);                                                            \
    CHECK(shmem_##N##_wait_until_any(iv, NV, NULL, SHMEM_CMP_EQ, (T)9) == 6, "%s_wait_until_any", t); \
    CHECK(shmem_##N##_wait_until_any(iv, NV, masked, SHMEM_CMP_EQ, (T)9) == SIZE_MAX,              \
          "%s_wait_until_any all masked", t);                                                      \
    /* _some */                                                                                    \
    {                                                                                              \
      const size_t both[2] = {3, 6};                                                               \
      size_t n = shmem_##N##_test_some(iv, NV, idx, NULL, SHMEM_CMP_GE, (T)5);                     \
      CHECK(n == 2 && indices_within(idx, n, both, 2), "%s_test_some gave %zu", t, n);             \
      status[3] = 1;                                                                               \
      status[6] = 0;                                                                               \
      n = shmem_##N##_test_some(iv, NV, idx, status, SHMEM_CMP_GE, (T)5);                          \
      CHECK(n == 1 && idx[0] == 6, "%s_test_some masked gave %zu", t, n);                          \
      CHECK(shmem_##N##_test_some(iv, NV, idx, masked, SHMEM_CMP_GE, (T)0) == 0,                   \
            "%s_test_some all masked", t);                                                         \
      CHECK(shmem_##N##_test_some(iv, NV, idx, NULL, SHMEM_CMP_GT, (T)100) == 0,                   \
            "%s_test_some with nothing satisfied", t);                                             \
      n = shmem_##N##_wait_until_some(iv, NV, idx, NULL, SHMEM_CMP_NE, (T)0);                      \
      CHECK(n == 2 && indices_within(idx, n, both, 2), "%s_wait_until_some gave %zu", t, n);       \
      CHECK(shmem_##N##_wait_until_some(iv, NV, idx, masked, SHMEM_CMP_NE, (T)0) == 0,             \
            "%s_wait_until_some all masked", t);                                                   \
    }                                                                                              \
    /* _vector: every element compared with its own value */                                      \
    for (int i = 0; i < NV; ++i) cmpv[i] = iv[i];                                                  \
    cmpv[5] = (T)1;                                                                                \
    memset(status, 0, sizeof status);                                                              \
    CHECK(shmem_##N##_test_all_vector(iv, NV, NULL, SHMEM_CMP_EQ, cmpv) == 0,                      \
          "%s_test_all_vector", t);                                                                \
    status[5] = 1;                                                                                 \
    CHECK(shmem_##N##_test_all_vector(iv, NV, status, SHMEM_CMP_EQ, cmpv) == 1,                    \
          "%s_test_all_vector masked", t);                                                         \
    shmem_##N##_wait_until_all_vector(iv, NV, status, SHMEM_CMP_EQ, cmpv);                         \
    status[5] = 0;                                                                                 \
    CHECK(shmem_##N##_test_any_vector(iv, NV, NULL, SHMEM_CMP_NE, cmpv) == 5,                      \
          "%s_test_any_vector", t);                                                                \
    CHECK(shmem_##N##_wait_until_any_vector(iv, NV, NULL, SHMEM_CMP_LT, cmpv) == 5,                \
          "%s_wait_until_any_vector", t);                                                          \
    status[5] = 1;                                                                                 \
    CHECK(shmem_##N##_test_any_vector(iv, NV, status, SHMEM_CMP_NE, cmpv) == SIZE_MAX,             \
          "%s_test_any_vector masked", t);                                                         \
    {                                                                                              \
      size_t n = shmem_##N##_test_some_vector(iv, NV, idx, NULL, SHMEM_CMP_NE, cmpv);              \
      CHECK(n == 1 && idx[0] == 5, "%s_test_some_vector gave %zu", t, n);                          \
      n = shmem_##N##_test_some_vector(iv, NV, idx, status, SHMEM_CMP_NE, cmpv);                   \
      CHECK(n == 0, "%s_test_some_vector masked gave %zu", t, n);                                  \
      n = shmem_##N##_wait_until_some_vector(iv, NV, idx, NULL, SHMEM_CMP_GE, cmpv);               \
      CHECK(n == NV - 1, "%s_wait_until_some_vector gave %zu, expected %d", t, n, NV - 1);         \
      CHECK(shmem_##N##_test_all_vector(iv, NV, masked, SHMEM_CMP_EQ, cmpv) == 1,                  \
            "%s_test_all_vector all masked", t);                                                   \
      CHECK(shmem_##N##_wait_until_some_vector(iv, NV, idx, masked, SHMEM_CMP_EQ, cmpv) == 0,      \
            "%s_wait_until_some_vector all masked", t);                                            \
      CHECK(shmem_##N##_wait_until_any_vector(iv, NV, masked, SHMEM_CMP_EQ, cmpv) == SIZE_MAX,     \
            "%s_wait_until_any_vector all masked", t);                                             \
    }                                                                                              \
    /* Remote: the left neighbour writes while this PE waits. */                                   \
    T values[NV];                                                                                  \
    int phase = 0;                                                                                 \
    memset(iv, 0, NV * sizeof(T));                                                                 \
    memset(status, 0, sizeof status);                                                              \
    shmem_barrier_all();                                                                           \
    maybe_pause(phase++);                                                                          \
    shmem_##N##_p(&iv[2], (T)7, right);                                                   \
    shmem_##N##_wait_until(&iv[2], SHMEM_CMP_EQ, (T)7);                                            \
    shmem_barrier_all();                                                                           \
    maybe_pause(phase++);                                                                          \
    for (int i = 1; i < NV; ++i) shmem_##N##_p(&iv[i], (T)(i + 1), right);               \
    status[0] = 1;                                                                                 \
    shmem_##N##_wait_until_all(iv, NV, status, SHMEM_CMP_GT, (T)0);                                \
    CHECK(iv[NV - 1] == (T)NV, "%s_wait_until_all returned before the last element was set", t);\
    shmem_barrier_all();                                                                           \
    memset(iv, 0, NV * sizeof(T));                                                                 \
    shmem_barrier_all();                                                                           \
    maybe_pause(phase++);                                                                          \
    shmem_##N##_p(&iv[5], (T)9, right);                                                   \
    CHECK(shmem_##N##_wait_until_any(iv, NV, NULL, SHMEM_CMP_EQ, (T)9) == 5,                       \
          "remote %s_wait_until_any", t);                                                          \
    shmem_barrier_all();                                                                           \
    memset(iv, 0, NV * sizeof(T));                                                                 \
    shmem_barrier_all();                                                                           \
    maybe_pause(phase++);                                                                          \
    shmem_##N##_p(&iv[1], (T)20, right);                                                  \
    shmem_##N##_p(&iv[4], (T)20, right);                                                  \
    {                                                                                              \
      const size_t pair[2] = {1, 4};                                                               \
      size_t n = shmem_##N##_wait_until_some(iv, NV, idx, NULL, SHMEM_CMP_EQ, (T)20);              \
      CHECK(n >= 1 && n <= 2 && indices_within(idx, n, pair, 2),                                   \
            "remote %s_wait_until_some gave %zu", t, n);                                           \
      shmem_barrier_all();                                                                         \
      n = shmem_##N##_test_some(iv, NV, idx, NULL, SHMEM_CMP_EQ, (T)20);                           \
      CHECK(n == 2 && indices_within(idx, n, pair, 2), "%s_test_some after both gave %zu", t, n);  \
    }                                                                                              \
    memset(iv, 0, NV * sizeof(T));                                                                 \
    shmem_barrier_all();                                                                           \
    /* vector forms: values i + 100 put in one go */                                               \
    for (int i = 0; i < NV; ++i) values[i] = cmpv[i] = (T)(i + 100);                               \
    maybe_pause(phase++);                                                                          \
    shmem_##N##_put(iv, values, NV, right);                                                        \
    shmem_##N##_wait_until_all_vector(iv, NV, NULL, SHMEM_CMP_EQ, cmpv);                           \
    shmem_barrier_all();                                                                           \
    memset(iv, 0, NV * sizeof(T));                                                                 \
    shmem_barrier_all();                                                                           \
    maybe_pause(phase++);                                                                          \
    shmem_##N##_p(&iv[7], (T)107, right);                                                 \
    CHECK(shmem_##N##_wait_until_any_vector(iv, NV, NULL, SHMEM_CMP_EQ, cmpv) == 7,                \
          "remote %s_wait_until_any_vector", t);                                                   \
    shmem_barrier_all();                                                                           \
    maybe_pause(phase++);                                                                          \
    shmem_##N##_p(&iv[0], (T)100, right);                                                 \
    {                                                                                              \
      size_t n = shmem_##N##_wait_until_some_vector(iv, NV, idx, NULL, SHMEM_CMP_EQ, cmpv);        \
      const size_t pair[2] = {0, 7};                                                               \
      CHECK(n >= 1 && n <= 2 && indices_within(idx, n, pair, 2),                                   \
            "remote %s_wait_until_some_vector gave %zu", t, n);                                    \
    }                                                                                              \
    shmem_##N##_wait_until(&iv[0], SHMEM_CMP_EQ, (T)100);                                          \
    shmem_barrier_all();                                                                           \
    shmem_free(iv);                                                                                \
  }
TANDEM_P2P_TYPES(P2P_TEST)

#define P2P_CALL(T, N) p2p_##N();

static void deprecated_forms(void) {
  shmem_barrier_all();
  CHECK(shmem_short_test(&deprecated_short, SHMEM_CMP_EQ, 0) == 1, "shmem_short_test");
  CHECK(shmem_ushort_test(&deprecated_ushort, SHMEM_CMP_LT, 1) == 1, "shmem_ushort_test");
  shmem_barrier_all();
  maybe_pause(1);
  short s = 12;
  unsigned short us = 13;
  shmem_short_put(&deprecated_short, &s, 1, right);
  shmem_ushort_put(&deprecated_ushort, &us, 1, right);
  shmem_int_p(&deprecated_int, 14, right);
  shmem_long_p(&deprecated_long, 15, right);
  shmem_longlong_p(&deprecated_longlong, 16, right);
  shmem_short_wait_until(&deprecated_short, SHMEM_CMP_EQ, 12);
  shmem_ushort_wait_until(&deprecated_ushort, SHMEM_CMP_GE, 13);
  shmem_short_wait(&deprecated_short, 0); /* waits while equal to 0 */
  shmem_int_wait(&deprecated_int, 0);
  shmem_long_wait(&deprecated_long, 0);
  shmem_longlong_wait(&deprecated_longlong, 0);
  shmem_wait(&deprecated_long, 0);
  (shmem_wait_until)(&deprecated_long, SHMEM_CMP_EQ, 15); /* the deprecated long routine */
  shmem_wait_until(&deprecated_long, SHMEM_CMP_EQ, 15);   /* the type-generic form */
  CHECK(deprecated_short == 12 && deprecated_ushort == 13 && deprecated_int == 14 &&
            deprecated_long == 15 && deprecated_longlong == 16,
        "deprecated waits returned with %d %u %d %ld %lld", deprecated_short, deprecated_ushort,
        deprecated_int, deprecated_long, deprecated_longlong);
  CHECK(shmem_short_test(&deprecated_short, SHMEM_CMP_GT, 11) == 1, "shmem_short_test GT");
  CHECK(shmem_ushort_test(&deprecated_ushort, SHMEM_CMP_NE, 13) == 0, "shmem_ushort_test NE");
  shmem_barrier_all();
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right = test_right();
  left = test_left();
  TANDEM_P2P_TYPES(P2P_CALL)
  deprecated_forms();
  (void)left;
  return test_finish("p2p");
}
