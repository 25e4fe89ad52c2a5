// The C++ type-generic interface: the overloaded shmem_put, shmem_get, shmem_p, shmem_g,
// shmem_iput, shmem_iget, shmem_put_nbi, shmem_get_nbi, shmem_put_signal (plain and with a
// context), shmemx_put_notify and shmemx_get_notify (Tandem's notified access, plain and
// nbi, with and without a context), the atomics, shmem_wait_until, shmem_test and the set
// variants, and the collectives on teams (broadcast, collect, fcollect, alltoall(s), the
// reductions, the scans, shmem_sync(team)) and shmemx_win_put, shmemx_win_get and
// shmemx_win_accumulate (Tandem's window epochs), called from templates over several types.  Non-integral values for the
// floating types catch an overload that converts to the wrong type.  Built a second time
// with GENERIC_CXX_EXTERN_C (generic_cxx_extern_c), which includes the headers inside
// extern "C" { }, as C++ code that wraps C headers does: the overloads keep C++ linkage.
#ifdef GENERIC_CXX_EXTERN_C
extern "C" {
#endif
#include <shmem.h>
#include <shmemx.h>
#ifdef GENERIC_CXX_EXTERN_C
}
#endif

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

namespace {

int failures = 0;
int me, npes, right_pe, left_pe;
uint64_t* sig;  // on the heap
uint64_t sig_expected = 0;

#define EXPECT(cond, ...)                                                 \
  do {                                                                    \
    if (!(cond)) {                                                        \
      ++failures;                                                         \
      std::fprintf(stderr, "FAIL on PE %d: %s:%d: ", me, __FILE__, __LINE__); \
      std::fprintf(stderr, __VA_ARGS__);                                  \
      std::fprintf(stderr, "\n");                                         \
    }                                                                     \
  } while (0)

template <typename T>
T value(int pe, int i) {
  T v = static_cast<T>(pe * 10 + i);
  if constexpr (std::is_floating_point_v<T>) v += static_cast<T>(0.25);
  return v;
}

template <typename T>
void rma(const char* name) {
  shmem_ctx_t ctx;
  EXPECT(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
  T* d = static_cast<T*>(shmem_calloc(32, sizeof(T)));
  T* s = static_cast<T*>(shmem_calloc(32, sizeof(T)));
  T local[32];
  for (int i = 0; i < 32; ++i) s[i] = value<T>(me, i);
  shmem_barrier_all();
  shmem_put(d, s, 8, right_pe);
  shmem_put(ctx, d + 8, s + 8, 8, right_pe);
  shmem_p(&d[16], value<T>(me, 16), right_pe);
  shmem_p(ctx, &d[17], value<T>(me, 17), right_pe);
  shmem_put_nbi(d + 18, s + 18, 2, right_pe);
  shmem_put_nbi(ctx, d + 20, s + 20, 2, right_pe);
  shmem_iput(d + 22, s + 22, 2, 1, 2, right_pe);      // d[22], d[24]
  shmem_iput(ctx, d + 23, s + 24, 2, 1, 2, right_pe); // d[23], d[25]
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  for (int i = 0; i < 22; ++i)
    EXPECT(d[i] == value<T>(left_pe, i), "%s: overloaded put/p/put_nbi element %d", name, i);
  EXPECT(d[22] == value<T>(left_pe, 22) && d[24] == value<T>(left_pe, 23), "%s: overloaded iput", name);
  EXPECT(d[23] == value<T>(left_pe, 24) && d[25] == value<T>(left_pe, 25), "%s: overloaded ctx iput", name);

  std::memset(static_cast<void*>(local), 0, sizeof local);
  shmem_get(local, s, 4, right_pe);
  shmem_get(ctx, local + 4, s + 4, 4, right_pe);
  shmem_get_nbi(local + 8, s + 8, 4, right_pe);
  shmem_get_nbi(ctx, local + 12, s + 12, 4, right_pe);
  shmem_quiet();
  shmem_ctx_quiet(ctx);
  local[16] = shmem_g(&s[16], right_pe);
  local[17] = shmem_g(ctx, &s[17], right_pe);
  shmem_iget(local + 18, s + 18, 1, 2, 3, right_pe);       // s[18], s[20], s[22]
  shmem_ibget(ctx, local + 21, s + 24, 2, 4, 2, 2, right_pe); // s[24..25] -> 21..22, s[28..29] -> 23..24
  for (int i = 0; i < 18; ++i)
    EXPECT(local[i] == value<T>(right_pe, i), "%s: overloaded get/g/get_nbi element %d", name, i);
  EXPECT(local[18] == value<T>(right_pe, 18) && local[19] == value<T>(right_pe, 20) &&
             local[20] == value<T>(right_pe, 22),
         "%s: overloaded iget", name);
  EXPECT(local[21] == value<T>(right_pe, 24) && local[22] == value<T>(right_pe, 25) &&
             local[23] == value<T>(right_pe, 28) && local[24] == value<T>(right_pe, 29),
         "%s: overloaded ctx ibget", name);

  shmem_barrier_all();
  shmem_put_signal(d + 26, s + 26, 3, sig, 1, SHMEM_SIGNAL_ADD, right_pe);
  shmem_put_signal_nbi(ctx, d + 29, s + 29, 3, sig, 1, SHMEM_SIGNAL_ADD, right_pe);
  shmem_ctx_quiet(ctx);
  sig_expected += 2;
  shmem_signal_wait_until(sig, SHMEM_CMP_GE, sig_expected);
  for (int i = 26; i < 32; ++i)
    EXPECT(d[i] == value<T>(left_pe, i), "%s: overloaded put_signal element %d", name, i);
  shmem_barrier_all();

  // Notified access: 4 puts to the right neighbour, then 4 gets from it, each notifying it.
  for (int i = 0; i < 8; ++i) d[i] = T();
  shmem_barrier_all();
  shmemx_put_notify(d, s, 2, right_pe, 5);
  shmemx_put_notify(ctx, d + 2, s + 2, 2, right_pe, 5);
  shmemx_put_notify_nbi(d + 4, s + 4, 2, right_pe, 5);
  shmemx_put_notify_nbi(ctx, d + 6, s + 6, 2, right_pe, 5);
  shmem_ctx_quiet(ctx);
  shmem_quiet();
  shmemx_notify_t req;
  shmemx_notify_status_t st{};
  shmemx_notify_init(left_pe, 5, 4, &req);
  shmemx_notify_start(req);
  EXPECT(shmemx_notify_wait(req, &st) == 0 && st.count == 4, "%s: overloaded put_notify", name);
  for (int i = 0; i < 8; ++i)
    EXPECT(d[i] == value<T>(left_pe, i), "%s: overloaded put_notify element %d", name, i);
  std::memset(static_cast<void*>(local), 0, sizeof local);
  shmemx_get_notify(local, s, 2, right_pe, 6);
  shmemx_get_notify(ctx, local + 2, s + 2, 2, right_pe, 6);
  shmemx_get_notify_nbi(local + 4, s + 4, 2, right_pe, 6);
  shmemx_get_notify_nbi(ctx, local + 6, s + 6, 2, right_pe, 6);
  shmem_ctx_quiet(ctx);
  shmem_quiet();
  for (int i = 0; i < 8; ++i)
    EXPECT(local[i] == value<T>(right_pe, i), "%s: overloaded get_notify element %d", name, i);
  shmemx_notify_free(&req);
  shmemx_notify_init(left_pe, 6, 4, &req);
  shmemx_notify_start(req);
  EXPECT(shmemx_notify_wait(req, &st) == 0 && st.count == 4, "%s: overloaded get_notify", name);
  shmemx_notify_free(&req);
  shmem_barrier_all();
  shmem_free(s);
  shmem_free(d);
  shmem_ctx_destroy(ctx);
}

template <typename T>
void atomics(const char* name) {
  T* w = static_cast<T*>(shmem_calloc(4, sizeof(T)));
  shmem_barrier_all();
  T v = shmem_atomic_fetch_add(&w[0], T(5), right_pe);
  EXPECT(v == T(0), "%s: shmem_atomic_fetch_add", name);
  shmem_atomic_add(&w[0], T(2), right_pe);
  shmem_fence();
  shmem_atomic_inc(SHMEM_CTX_DEFAULT, &w[0], right_pe);
  shmem_fence();
  v = shmem_atomic_fetch_inc(&w[0], right_pe);
  EXPECT(v == T(8), "%s: shmem_atomic_fetch_inc gave %lld", name, static_cast<long long>(v));
  v = shmem_atomic_compare_swap(&w[0], T(9), T(20), right_pe);
  EXPECT(v == T(9), "%s: shmem_atomic_compare_swap", name);
  v = shmem_atomic_swap(&w[0], T(21), right_pe);
  EXPECT(v == T(20), "%s: shmem_atomic_swap", name);
  v = shmem_atomic_fetch(SHMEM_CTX_DEFAULT, &w[0], right_pe);
  EXPECT(v == T(21), "%s: shmem_atomic_fetch", name);
  T f = 0;
  shmem_atomic_fetch_add_nbi(&f, &w[0], T(1), right_pe);
  shmem_quiet();
  EXPECT(f == T(21), "%s: shmem_atomic_fetch_add_nbi", name);
  shmem_atomic_set(&w[1], T(1), right_pe);
  shmem_wait_until(&w[1], SHMEM_CMP_EQ, T(1));
  EXPECT(shmem_test(&w[0], SHMEM_CMP_EQ, T(22)), "%s: shmem_test after the sequence", name);
  shmem_atomic_set(&w[2], T(3), right_pe);
  shmem_wait_until_all(&w[1], 2, nullptr, SHMEM_CMP_GT, T(0));
  EXPECT(shmem_wait_until_any(w, 4, nullptr, SHMEM_CMP_EQ, T(3)) == 2, "%s: wait_until_any", name);
  size_t idx[4];
  EXPECT(shmem_test_some(w, 4, idx, nullptr, SHMEM_CMP_NE, T(0)) == 3, "%s: test_some", name);
  EXPECT(shmem_wait_until_some(w, 4, idx, nullptr, SHMEM_CMP_EQ, T(3)) == 1 && idx[0] == 2,
         "%s: wait_until_some", name);
  EXPECT(shmem_test_any(w, 4, nullptr, SHMEM_CMP_EQ, T(1)) == 1, "%s: test_any", name);
  EXPECT(shmem_test_all(w, 3, nullptr, SHMEM_CMP_GT, T(0)), "%s: test_all", name);
  T cmpv[4] = {T(22), T(1), T(3), T(0)};
  shmem_wait_until_all_vector(w, 4, nullptr, SHMEM_CMP_EQ, cmpv);
  EXPECT(shmem_test_all_vector(w, 4, nullptr, SHMEM_CMP_EQ, cmpv), "%s: test_all_vector", name);
  EXPECT(shmem_wait_until_any_vector(w, 4, nullptr, SHMEM_CMP_EQ, cmpv) < 4, "%s: wait_until_any_vector", name);
  EXPECT(shmem_wait_until_some_vector(w, 4, idx, nullptr, SHMEM_CMP_EQ, cmpv) == 4,
         "%s: wait_until_some_vector", name);
  EXPECT(shmem_test_any_vector(w, 4, nullptr, SHMEM_CMP_NE, cmpv) == SIZE_MAX, "%s: test_any_vector", name);
  EXPECT(shmem_test_some_vector(w, 4, idx, nullptr, SHMEM_CMP_GE, cmpv) == 4, "%s: test_some_vector", name);
  shmem_barrier_all();
  shmem_free(w);
}

template <typename T>
void bitwise(const char* name) {
  T* w = static_cast<T*>(shmem_calloc(1, sizeof(T)));
  shmem_barrier_all();
  shmem_atomic_set(w, T(0xF0), right_pe);
  shmem_fence();
  EXPECT(shmem_atomic_fetch_and(w, T(0x30), right_pe) == T(0xF0), "%s: shmem_atomic_fetch_and", name);
  shmem_atomic_or(w, T(0x01), right_pe);
  shmem_fence();
  EXPECT(shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, w, T(0x11), right_pe) == T(0x31), "%s: fetch_xor", name);
  shmem_atomic_and(w, T(0xFF), right_pe);
  shmem_fence();
  shmem_atomic_xor(w, T(0x01), right_pe);
  shmem_fence();
  EXPECT(shmem_atomic_fetch_or(w, T(0), right_pe) == T(0x21), "%s: bitwise sequence", name);
  T f = 0;
  shmem_atomic_fetch_xor_nbi(&f, w, T(0x100), right_pe);
  shmem_quiet();
  EXPECT(f == T(0x21), "%s: shmem_atomic_fetch_xor_nbi", name);
  shmem_barrier_all();
  EXPECT(*w == T(0x121), "%s: bitwise result", name);
  shmem_free(w);
}

template <typename T>
void extended_floating(const char* name) {
  T* w = static_cast<T*>(shmem_calloc(1, sizeof(T)));
  shmem_barrier_all();
  shmem_atomic_set(w, T(1.25), right_pe);
  shmem_fence();
  EXPECT(shmem_atomic_swap(w, T(2.75), right_pe) == T(1.25), "%s: shmem_atomic_swap", name);
  EXPECT(shmem_atomic_fetch(w, right_pe) == T(2.75), "%s: shmem_atomic_fetch", name);
  T f = 0, g = 0;
  shmem_atomic_swap_nbi(&f, w, T(-3.5), right_pe);
  shmem_quiet();
  shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &g, w, right_pe);
  shmem_quiet();
  EXPECT(f == T(2.75) && g == T(-3.5), "%s: nbi swap/fetch", name);
  shmem_barrier_all();
  shmem_free(w);
}

// The collectives through their overloads on SHMEM_TEAM_WORLD; the reductions on small
// values so that every type holds the results.
template <typename T>
void collectives(const char* name) {
  T* src = static_cast<T*>(shmem_calloc(static_cast<size_t>(npes) * 2, sizeof(T)));
  T* dst = static_cast<T*>(shmem_calloc(static_cast<size_t>(npes) * 4, sizeof(T)));
  for (int j = 0; j < 2 * npes; ++j) src[j] = value<T>(me, j % 8);
  shmem_barrier_all();
  shmem_broadcast(SHMEM_TEAM_WORLD, dst, src, 2, npes - 1);
  EXPECT(dst[1] == value<T>(npes - 1, 1), "%s: broadcast", name);
  shmem_fcollect(SHMEM_TEAM_WORLD, dst, src, 1);
  shmem_collect(SHMEM_TEAM_WORLD, dst + npes, src, 1);
  for (int r = 0; r < npes; ++r)
    EXPECT(dst[r] == value<T>(r, 0) && dst[npes + r] == value<T>(r, 0), "%s: (f)collect [%d]", name, r);
  shmem_alltoall(SHMEM_TEAM_WORLD, dst, src, 1);
  shmem_alltoalls(SHMEM_TEAM_WORLD, dst + npes, src, 1, 1, 1);
  for (int j = 0; j < npes; ++j)
    EXPECT(dst[j] == value<T>(j, me % 8) && dst[npes + j] == value<T>(j, me % 8), "%s: alltoall(s) [%d]", name, j);
  src[0] = static_cast<T>(me % 2 + 1);
  shmem_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1);
  shmem_prod_reduce(SHMEM_TEAM_WORLD, dst + 1, src, 1);
  shmem_max_reduce(SHMEM_TEAM_WORLD, dst + 2, src, 1);
  shmem_min_reduce(SHMEM_TEAM_WORLD, dst + 3, src, 1);
  const int twos = npes / 2;
  EXPECT(dst[0] == static_cast<T>(npes + twos) && dst[1] == static_cast<T>(1 << twos) &&
             dst[2] == static_cast<T>(npes > 1 ? 2 : 1) && dst[3] == static_cast<T>(1),
         "%s: sum, prod, max, min", name);
  shmem_sum_inscan(SHMEM_TEAM_WORLD, dst, src, 1);
  shmem_sum_exscan(SHMEM_TEAM_WORLD, dst + 1, src, 1);
  EXPECT(dst[0] == static_cast<T>(dst[1] + src[0]), "%s: inscan - exscan is my own value", name);
  if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    src[0] = static_cast<T>(1u << (me % 8));
    shmem_or_reduce(SHMEM_TEAM_WORLD, dst, src, 1);
    shmem_and_reduce(SHMEM_TEAM_WORLD, dst + 1, src, 1);
    shmem_xor_reduce(SHMEM_TEAM_WORLD, dst + 2, src, 1);
    const T all = static_cast<T>((1u << (npes < 8 ? npes : 8)) - 1);
    EXPECT(dst[0] == all && dst[1] == static_cast<T>(npes == 1 ? 1 : 0), "%s: or, and", name);
    EXPECT(npes > 8 || dst[2] == all, "%s: xor", name);
  }
  EXPECT(shmem_sync(SHMEM_TEAM_WORLD) == 0, "%s: shmem_sync(team)", name);
  shmem_free(dst);
  shmem_free(src);
}

}  // namespace

// A fence epoch of the overloaded window put, then one of the overloaded get.
template <typename T>
void window(const char* name) {
  T* d = static_cast<T*>(shmem_calloc(8, sizeof(T)));
  T s[8], g[8] = {};
  for (int i = 0; i < 8; ++i) s[i] = value<T>(me, i);
  shmemx_win_t win;
  EXPECT(shmemx_win_create(SHMEM_TEAM_WORLD, d, 8 * sizeof(T), &win) == 0, "%s: shmemx_win_create", name);
  shmemx_win_fence(win);
  shmemx_win_put(win, d, s, 8, right_pe);
  shmemx_win_fence(win);
  for (int i = 0; i < 8; ++i)
    EXPECT(d[i] == value<T>(left_pe, i), "%s: shmemx_win_put element %d is %Lg", name, i, static_cast<long double>(d[i]));
  shmemx_win_get(win, g, d, 8, right_pe);
  shmemx_win_fence(win);
  for (int i = 0; i < 8; ++i)
    EXPECT(g[i] == value<T>(me, i), "%s: shmemx_win_get element %d is %Lg", name, i, static_cast<long double>(g[i]));
  shmemx_win_free(&win);
  shmem_free(d);
}

// A fence epoch of the overloaded accumulate: REPLACE, then SUM from every PE.
template <typename T>
void window_accumulate(const char* name) {
  T* d = static_cast<T*>(shmem_calloc(8, sizeof(T)));
  T s[8];
  for (int i = 0; i < 8; ++i) s[i] = value<T>(me, i);
  shmemx_win_t win;
  EXPECT(shmemx_win_create(SHMEM_TEAM_WORLD, d, 8 * sizeof(T), &win) == 0, "%s: shmemx_win_create", name);
  shmemx_win_fence(win);
  shmemx_win_accumulate(win, d, s, 8, SHMEMX_WIN_REPLACE, right_pe);
  shmemx_win_fence(win);
  for (int i = 0; i < 8; ++i)
    EXPECT(d[i] == value<T>(left_pe, i), "%s: shmemx_win_accumulate REPLACE element %d is %Lg", name, i,
           static_cast<long double>(d[i]));
  shmemx_win_fence(win);  // every PE has checked before the sums change d
  const T one[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  for (int p = 0; p < npes; ++p) shmemx_win_accumulate(win, d, one, 8, SHMEMX_WIN_SUM, p);
  shmemx_win_fence(win);
  for (int i = 0; i < 8; ++i)
    EXPECT(d[i] == static_cast<T>(value<T>(left_pe, i) + npes), "%s: shmemx_win_accumulate SUM element %d is %Lg",
           name, i, static_cast<long double>(d[i]));
  shmemx_win_free(&win);
  shmem_free(d);
}

int main() {
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right_pe = (me + 1) % npes;
  left_pe = (me + npes - 1) % npes;
  sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));

  // Every distinct C type of the RMA and collective type tables.
#define EACH_TYPE(X) \
  X(float) X(double) X(long double) X(char) X(signed char) X(short) X(int) X(long) X(long long) \
  X(unsigned char) X(unsigned short) X(unsigned int) X(unsigned long) X(unsigned long long)
#define RMA(T) rma<T>(#T);
  EACH_TYPE(RMA)
  rma<int32_t>("int32_t");
  rma<uint64_t>("uint64_t");
  rma<size_t>("size_t");

  atomics<int>("int");
  atomics<long>("long");
  atomics<long long>("long long");
  atomics<unsigned int>("unsigned int");
  atomics<unsigned long>("unsigned long");
  atomics<unsigned long long>("unsigned long long");
  atomics<int64_t>("int64_t");
  atomics<ptrdiff_t>("ptrdiff_t");

  bitwise<unsigned int>("unsigned int");
  bitwise<unsigned long>("unsigned long");
  bitwise<unsigned long long>("unsigned long long");

  extended_floating<float>("float");
  extended_floating<double>("double");

  // The context overloads of the signal routines.
  shmem_ctx_t ctx;
  shmem_ctx_create(0, &ctx);
  shmem_barrier_all();
  shmem_signal_add(ctx, sig, 5, right_pe);
  shmem_signal_add(sig, 5, right_pe);
  shmem_ctx_quiet(ctx);
  sig_expected += 10;
  EXPECT(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, sig_expected) == sig_expected, "signal_add");
  shmem_barrier_all();
  shmem_signal_set(ctx, sig, 7, right_pe);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  EXPECT(shmem_signal_fetch(sig) == 7, "overloaded ctx signal_set");
  shmem_ctx_destroy(ctx);
  shmem_free(sig);

#define COLLECTIVES(T) collectives<T>(#T);
  EACH_TYPE(COLLECTIVES)
#define WINDOW(T) window<T>(#T);
  EACH_TYPE(WINDOW)
#define WINDOW_ACCUMULATE(T) window_accumulate<T>(#T);
  WINDOW_ACCUMULATE(int) WINDOW_ACCUMULATE(long) WINDOW_ACCUMULATE(long long) WINDOW_ACCUMULATE(unsigned int)
  WINDOW_ACCUMULATE(unsigned long) WINDOW_ACCUMULATE(unsigned long long) WINDOW_ACCUMULATE(float)
  WINDOW_ACCUMULATE(double)

  shmem_barrier_all();
  if (failures) std::fprintf(stderr, "generic_cxx: PE %d: %d check(s) failed\n", me, failures);
  else if (me == 0) std::printf("generic_cxx: passed on %d PE(s)\n", npes);
  shmem_finalize();
  return failures ? 1 : 0;
}
