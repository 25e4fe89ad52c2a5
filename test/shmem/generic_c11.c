/* The C11 type-generic interface (_Generic): shmem_put, get, p, g, iput, iget, ibput, ibget,
 * put_nbi, get_nbi and put_signal with and without a context, the atomics, wait_until, test
 * and their set variants, and shmem_signal_add/set with a context, over several types.
 * Non-integral values for the floating types catch a selection of the wrong routine. */
#include "common.h"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "this test needs C11"
#endif

static int me, npes, right, left;
static uint64_t sig;
static uint64_t sig_expected;

/* value for element i written by `pe` */
#define VAL(T, pe, i) ((T)((pe) * 10 + (i)) + (T)1 / (T)4 * (T)((T)1 / (T)4 != 0))

#define GENERIC_RMA(T, NAME)                                                                        \
  {                                                                                                 \
    shmem_ctx_t ctx;                                                                                \
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");                                      \
    T *d = shmem_calloc(32, sizeof(T));                                                             \
    T *s = shmem_calloc(32, sizeof(T));                                                             \
    T local[32];                                                                                    \
    for (int i = 0; i < 32; ++i) s[i] = VAL(T, me, i);                                              \
    shmem_barrier_all();                                                                            \
    shmem_put(d, s, 8, right);                                                                      \
    shmem_put(ctx, d + 8, s + 8, 8, right);                                                         \
    shmem_p(&d[16], VAL(T, me, 16), right);                                                         \
    shmem_p(ctx, &d[17], VAL(T, me, 17), right);                                                    \
    shmem_put_nbi(d + 18, s + 18, 2, right);                                                        \
    shmem_put_nbi(ctx, d + 20, s + 20, 2, right);                                                   \
    shmem_ctx_quiet(ctx);                                                                           \
    shmem_barrier_all();                                                                            \
    for (int i = 0; i < 22; ++i)                                                                    \
      CHECK(d[i] == VAL(T, left, i), "%s: generic put/p/put_nbi element %d is %Lg, expected %Lg",  \
            NAME, i, (long double)d[i], (long double)VAL(T, left, i));                              \
    memset(local, 0, sizeof local);                                                                 \
    shmem_get(local, s, 4, right);                                                                  \
    shmem_get(ctx, local + 4, s + 4, 4, right);                                                     \
    shmem_get_nbi(local + 8, s + 8, 4, right);                                                      \
    shmem_get_nbi(ctx, local + 12, s + 12, 4, right);                                               \
    shmem_quiet();                                                                                  \
    shmem_ctx_quiet(ctx);                                                                           \
    local[16] = shmem_g(&s[16], right);                                                             \
    local[17] = shmem_g(ctx, &s[17], right);                                                        \
    for (int i = 0; i < 18; ++i)                                                                    \
      CHECK(local[i] == VAL(T, right, i), "%s: generic get/g/get_nbi element %d is %Lg, expected %Lg", \
            NAME, i, (long double)local[i], (long double)VAL(T, right, i));                         \
    /* strided: iput stride 2 from contiguous, iget back, ibput blocks of 2 */                     \
    shmem_barrier_all();                                                                            \
    memset(d, 0, 32 * sizeof(T));                                                                   \
    shmem_barrier_all();                                                                            \
    shmem_iput(d, s, 2, 1, 4, right);                                                               \
    shmem_iput(ctx, d + 1, s + 4, 2, 1, 4, right);                                                  \
    shmem_ibput(d + 8, s + 8, 4, 2, 2, 2, right);                                                   \
    shmem_ibput(ctx, d + 10, s + 20, 4, 2, 2, 2, right);                                            \
    shmem_ctx_quiet(ctx);                                                                           \
    shmem_barrier_all();                                                                            \
    for (int k = 0; k < 4; ++k) {                                                                   \
      CHECK(d[2 * k] == VAL(T, left, k), "%s: generic iput element %d", NAME, 2 * k);               \
      CHECK(d[2 * k + 1] == VAL(T, left, 4 + k), "%s: generic ctx iput element %d", NAME, 2 * k + 1); \
    }                                                                                               \
    CHECK(d[8] == VAL(T, left, 8) && d[9] == VAL(T, left, 9) && d[12] == VAL(T, left, 10) &&        \
              d[13] == VAL(T, left, 11),                                                            \
          "%s: generic ibput", NAME);                                                               \
    CHECK(d[10] == VAL(T, left, 20) && d[11] == VAL(T, left, 21) && d[14] == VAL(T, left, 22) &&    \
              d[15] == VAL(T, left, 23),                                                            \
          "%s: generic ctx ibput", NAME);                                                           \
    memset(local, 0, sizeof local);                                                                 \
    shmem_iget(local, s, 1, 3, 4, right);                                                           \
    shmem_iget(ctx, local + 4, s + 1, 1, 3, 4, right);                                              \
    shmem_ibget(local + 8, s, 2, 4, 2, 2, right);                                                   \
    shmem_ibget(ctx, local + 12, s + 2, 2, 4, 2, 2, right);                                         \
    for (int k = 0; k < 4; ++k) {                                                                   \
      CHECK(local[k] == VAL(T, right, 3 * k), "%s: generic iget element %d", NAME, k);              \
      CHECK(local[4 + k] == VAL(T, right, 3 * k + 1), "%s: generic ctx iget element %d", NAME, k);  \
    }                                                                                               \
    CHECK(local[8] == VAL(T, right, 0) && local[9] == VAL(T, right, 1) &&                           \
              local[10] == VAL(T, right, 4) && local[11] == VAL(T, right, 5),                       \
          "%s: generic ibget", NAME);                                                               \
    CHECK(local[12] == VAL(T, right, 2) && local[13] == VAL(T, right, 3) &&                         \
              local[14] == VAL(T, right, 6) && local[15] == VAL(T, right, 7),                       \
          "%s: generic ctx ibget", NAME);                                                           \
    /* put_signal, plain and ctx */                                                                 \
    shmem_barrier_all();                                                                            \
    shmem_put_signal(d + 24, s + 24, 4, &sig, 1, SHMEM_SIGNAL_ADD, right);                          \
    shmem_put_signal_nbi(ctx, d + 28, s + 28, 4, &sig, 1, SHMEM_SIGNAL_ADD, right);                 \
    shmem_ctx_quiet(ctx);                                                                           \
    sig_expected += 2;                                                                              \
    shmem_signal_wait_until(&sig, SHMEM_CMP_GE, sig_expected);                                      \
    for (int i = 24; i < 32; ++i)                                                                   \
      CHECK(d[i] == VAL(T, left, i), "%s: generic put_signal element %d", NAME, i);                 \
    shmem_barrier_all();                                                                            \
    shmem_free(s);                                                                                  \
    shmem_free(d);                                                                                  \
    shmem_ctx_destroy(ctx);                                                                         \
  }

/* Standard atomics, waits and tests through the generic names. */
#define GENERIC_AMO(T, NAME)                                                                        \
  {                                                                                                 \
    T *w = shmem_calloc(4, sizeof(T));                                                              \
    shmem_barrier_all();                                                                            \
    T v = shmem_atomic_fetch_add(&w[0], (T)5, right);                                               \
    CHECK(v == 0, "%s: shmem_atomic_fetch_add gave %lld", NAME, (long long)v);                      \
    shmem_atomic_add(&w[0], (T)2, right);                                                           \
    shmem_fence();                                                                                  \
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, &w[0], right);                                              \
    shmem_fence();                                                                                  \
    v = shmem_atomic_fetch_inc(&w[0], right);                                                       \
    CHECK(v == 8, "%s: shmem_atomic_fetch_inc gave %lld", NAME, (long long)v);                      \
    v = shmem_atomic_compare_swap(&w[0], (T)9, (T)20, right);                                       \
    CHECK(v == 9, "%s: shmem_atomic_compare_swap gave %lld", NAME, (long long)v);                   \
    v = shmem_atomic_swap(&w[0], (T)21, right);                                                     \
    CHECK(v == 20, "%s: shmem_atomic_swap gave %lld", NAME, (long long)v);                          \
    v = shmem_atomic_fetch(&w[0], right);                                                           \
    CHECK(v == 21, "%s: shmem_atomic_fetch gave %lld", NAME, (long long)v);                         \
    T f = 0;                                                                                        \
    shmem_atomic_fetch_add_nbi(&f, &w[0], (T)1, right);                                             \
    shmem_quiet();                                                                                  \
    CHECK(f == 21, "%s: shmem_atomic_fetch_add_nbi gave %lld", NAME, (long long)f);                 \
    shmem_atomic_set(&w[1], (T)1, right);                                                           \
    shmem_wait_until(&w[1], SHMEM_CMP_EQ, (T)1);                                                    \
    CHECK(shmem_test(&w[0], SHMEM_CMP_EQ, (T)22), "%s: shmem_test after the sequence", NAME);      \
    shmem_atomic_set(&w[2], (T)3, right);                                                           \
    shmem_wait_until_all(&w[1], 2, NULL, SHMEM_CMP_GT, (T)0);                                       \
    CHECK(shmem_wait_until_any(w, 4, NULL, SHMEM_CMP_EQ, (T)3) == 2, "%s: wait_until_any", NAME);   \
    size_t idx[4];                                                                                  \
    CHECK(shmem_test_some(w, 4, idx, NULL, SHMEM_CMP_NE, (T)0) == 3, "%s: test_some", NAME);        \
    CHECK(shmem_test_any(w, 4, NULL, SHMEM_CMP_EQ, (T)1) == 1, "%s: test_any", NAME);               \
    CHECK(shmem_test_all(w, 3, NULL, SHMEM_CMP_GT, (T)0), "%s: test_all", NAME);                    \
    T cmpv[4] = {(T)22, (T)1, (T)3, (T)0};                                                          \
    shmem_wait_until_all_vector(w, 4, NULL, SHMEM_CMP_EQ, cmpv);                                    \
    CHECK(shmem_test_all_vector(w, 4, NULL, SHMEM_CMP_EQ, cmpv), "%s: test_all_vector", NAME);      \
    CHECK(shmem_wait_until_some_vector(w, 4, idx, NULL, SHMEM_CMP_EQ, cmpv) == 4,                   \
          "%s: wait_until_some_vector", NAME);                                                      \
    CHECK(shmem_wait_until_any_vector(w, 4, NULL, SHMEM_CMP_EQ, cmpv) < 4,                          \
          "%s: wait_until_any_vector", NAME);                                                       \
    CHECK(shmem_test_any_vector(w, 4, NULL, SHMEM_CMP_NE, cmpv) == SIZE_MAX,                        \
          "%s: test_any_vector", NAME);                                                             \
    CHECK(shmem_test_some_vector(w, 4, idx, NULL, SHMEM_CMP_GE, cmpv) == 4,                         \
          "%s: test_some_vector", NAME);                                                            \
    CHECK(shmem_wait_until_some(w, 4, idx, NULL, SHMEM_CMP_EQ, (T)3) == 1 && idx[0] == 2,           \
          "%s: wait_until_some", NAME);                                                             \
    shmem_barrier_all();                                                                            \
    shmem_free(w);                                                                                  \
  }

#define GENERIC_BITWISE(T, NAME)                                                                    \
  {                                                                                                 \
    T *w = shmem_calloc(1, sizeof(T));                                                              \
    shmem_barrier_all();                                                                            \
    shmem_atomic_set(w, (T)0xF0, right);                                                            \
    shmem_fence();                                                                                  \
    T v = shmem_atomic_fetch_and(w, (T)0x30, right);                                                \
    CHECK(v == (T)0xF0, "%s: shmem_atomic_fetch_and", NAME);                                        \
    shmem_atomic_or(w, (T)0x01, right);                                                             \
    shmem_fence();                                                                                  \
    v = shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, w, (T)0x11, right);                               \
    CHECK(v == (T)0x31, "%s: shmem_atomic_fetch_xor gave %#llx", NAME, (unsigned long long)v);      \
    shmem_atomic_and(w, (T)0xFF, right);                                                            \
    shmem_fence();                                                                                  \
    shmem_atomic_xor(w, (T)0x01, right);                                                            \
    shmem_fence();                                                                                  \
    v = shmem_atomic_fetch_or(w, (T)0, right);                                                      \
    CHECK(v == (T)0x21, "%s: bitwise sequence gave %#llx", NAME, (unsigned long long)v);            \
    T f = 0;                                                                                        \
    shmem_atomic_fetch_or_nbi(&f, w, (T)0x100, right);                                              \
    shmem_quiet();                                                                                  \
    CHECK(f == (T)0x21, "%s: shmem_atomic_fetch_or_nbi", NAME);                                     \
    shmem_barrier_all();                                                                            \
    CHECK(*w == (T)0x121, "%s: bitwise result %#llx", NAME, (unsigned long long)*w);                \
    shmem_free(w);                                                                                  \
  }

#define GENERIC_EXTENDED_FLOAT(T, NAME)                                                             \
  {                                                                                                 \
    T *w = shmem_calloc(1, sizeof(T));                                                              \
    shmem_barrier_all();                                                                            \
    shmem_atomic_set(w, (T)1.25, right);                                                            \
    shmem_fence();                                                                                  \
    T v = shmem_atomic_swap(w, (T)2.75, right);                                                     \
    CHECK(v == (T)1.25, "%s: shmem_atomic_swap gave %g", NAME, (double)v);                          \
    v = shmem_atomic_fetch(w, right);                                                               \
    CHECK(v == (T)2.75, "%s: shmem_atomic_fetch gave %g", NAME, (double)v);                         \
    T f = 0;                                                                                        \
    shmem_atomic_swap_nbi(&f, w, (T)-3.5, right);                                                   \
    shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &v, w, right);                                        \
    shmem_quiet();                                                                                  \
    CHECK(f == (T)2.75 && v == (T)-3.5, "%s: nbi swap/fetch gave %g %g", NAME, (double)f, (double)v); \
    shmem_barrier_all();                                                                            \
    shmem_free(w);                                                                                  \
  }

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right = test_right();
  left = test_left();

  GENERIC_RMA(float, "float")
  GENERIC_RMA(double, "double")
  GENERIC_RMA(long double, "long double")
  GENERIC_RMA(char, "char")
  GENERIC_RMA(signed char, "signed char")
  GENERIC_RMA(short, "short")
  GENERIC_RMA(int, "int")
  GENERIC_RMA(long, "long")
  GENERIC_RMA(long long, "long long")
  GENERIC_RMA(unsigned char, "unsigned char")
  GENERIC_RMA(unsigned short, "unsigned short")
  GENERIC_RMA(unsigned int, "unsigned int")
  GENERIC_RMA(unsigned long, "unsigned long")
  GENERIC_RMA(unsigned long long, "unsigned long long")
  GENERIC_RMA(int64_t, "int64_t")
  GENERIC_RMA(uint32_t, "uint32_t")

  GENERIC_AMO(int, "int")
  GENERIC_AMO(long, "long")
  GENERIC_AMO(long long, "long long")
  GENERIC_AMO(unsigned int, "unsigned int")
  GENERIC_AMO(unsigned long, "unsigned long")
  GENERIC_AMO(unsigned long long, "unsigned long long")
  GENERIC_AMO(uint64_t, "uint64_t")

  GENERIC_BITWISE(unsigned int, "unsigned int")
  GENERIC_BITWISE(unsigned long, "unsigned long")
  GENERIC_BITWISE(unsigned long long, "unsigned long long")

  GENERIC_EXTENDED_FLOAT(float, "float")
  GENERIC_EXTENDED_FLOAT(double, "double")

  /* shmem_signal_add/set with a context go through the generic selection too */
  shmem_ctx_t ctx;
  shmem_ctx_create(0, &ctx);
  shmem_barrier_all();
  shmem_signal_add(ctx, &sig, 5, right);
  shmem_signal_add(&sig, 5, right);
  shmem_ctx_quiet(ctx);
  sig_expected += 10;
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, sig_expected) == sig_expected, "signal_add");
  shmem_barrier_all();
  shmem_signal_set(ctx, &sig, 1, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  CHECK(shmem_signal_fetch(&sig) == 1, "generic ctx signal_set gave %llu",
        (unsigned long long)shmem_signal_fetch(&sig));
  shmem_barrier_all();
  shmem_signal_set(&sig, 2, right);
  shmem_barrier_all();
  CHECK(shmem_signal_fetch(&sig) == 2, "generic signal_set");
  shmem_ctx_destroy(ctx);

  /* The collectives' generic names pick the routine by the type of dest. */
  static int ci, cio[64], ca[64];
  static double cd, cdo;
  static unsigned long cu, cuo[3];
  static long psync[SHMEM_BARRIER_SYNC_SIZE];
  ci = me + 1, cd = me + 0.5, cu = 1ul << me;
  for (int j = 0; j < npes; ++j) ca[j] = me * 100 + j;
  shmem_barrier_all();
  shmem_sum_reduce(SHMEM_TEAM_WORLD, cio, &ci, 1);
  CHECK(cio[0] == npes * (npes + 1) / 2, "generic sum_reduce gave %d", cio[0]);
  shmem_prod_reduce(SHMEM_TEAM_WORLD, cio, &ci, 1);
  shmem_min_reduce(SHMEM_TEAM_WORLD, cio + 1, &ci, 1);
  CHECK(cio[0] >= 1 && cio[1] == 1, "generic prod/min_reduce gave %d %d", cio[0], cio[1]);
  shmem_max_reduce(SHMEM_TEAM_WORLD, &cdo, &cd, 1);
  CHECK(cdo == npes - 0.5, "generic max_reduce on double gave %g", cdo);
  shmem_or_reduce(SHMEM_TEAM_WORLD, &cuo[0], &cu, 1);
  shmem_and_reduce(SHMEM_TEAM_WORLD, &cuo[1], &cu, 1);
  shmem_xor_reduce(SHMEM_TEAM_WORLD, &cuo[2], &cu, 1);
  CHECK(cuo[0] == (1ul << npes) - 1 && cuo[1] == (npes == 1) && cuo[2] == cuo[0], "generic bitwise reduce");
  shmem_broadcast(SHMEM_TEAM_WORLD, cio, &ci, 1, 0);
  CHECK(cio[0] == 1, "generic broadcast gave %d", cio[0]);
  shmem_fcollect(SHMEM_TEAM_WORLD, cio, &ci, 1);
  for (int r = 0; r < npes; ++r) CHECK(cio[r] == r + 1, "generic fcollect [%d] = %d", r, cio[r]);
  shmem_collect(SHMEM_TEAM_WORLD, cio, &ci, 1);
  for (int r = 0; r < npes; ++r) CHECK(cio[r] == r + 1, "generic collect [%d] = %d", r, cio[r]);
  shmem_alltoall(SHMEM_TEAM_WORLD, cio, ca, 1);
  for (int j = 0; j < npes; ++j) CHECK(cio[j] == j * 100 + me, "generic alltoall [%d] = %d", j, cio[j]);
  shmem_alltoalls(SHMEM_TEAM_WORLD, cio, ca, 1, 1, 1);
  for (int j = 0; j < npes; ++j) CHECK(cio[j] == j * 100 + me, "generic alltoalls [%d] = %d", j, cio[j]);
  shmem_sum_inscan(SHMEM_TEAM_WORLD, cio, &ci, 1);
  shmem_sum_exscan(SHMEM_TEAM_WORLD, cio + 1, &ci, 1);
  CHECK(cio[0] == (me + 1) * (me + 2) / 2 && cio[1] == me * (me + 1) / 2, "generic scans gave %d %d", cio[0], cio[1]);
  /* shmem_sync: the team form (one argument) and the deprecated active-set form (four) */
  CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync(team)");
  shmem_sync(0, 0, npes, psync);
  return test_finish("generic_c11");
}
