/* The type-generic OpenSHMEM interface: C11 _Generic selections in C, overloads in C++.
 * Both are expanded from the TANDEM_GENERIC_* type tables.  Included by shmem.h. */
#ifndef TANDEM_GENERIC_H
#define TANDEM_GENERIC_H

#if defined(__cplusplus)
/* C++ linkage even where a program includes shmem.h inside extern "C" { }. */
extern "C++" {

/* One overload per distinct C type, each a one-line call of the typed C routine. */
#define TANDEM_OVERLOAD_RMA(T, N) \
  inline void shmem_put(T *d, const T *s, size_t n, int pe) { shmem_##N##_put(d, s, n, pe); } \
  inline void shmem_put(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_put(c, d, s, n, pe); } \
  inline void shmem_get(T *d, const T *s, size_t n, int pe) { shmem_##N##_get(d, s, n, pe); } \
  inline void shmem_get(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_get(c, d, s, n, pe); } \
  inline void shmem_put_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_put_nbi(d, s, n, pe); } \
  inline void shmem_put_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_put_nbi(c, d, s, n, pe); } \
  inline void shmem_get_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_get_nbi(d, s, n, pe); } \
  inline void shmem_get_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_get_nbi(c, d, s, n, pe); } \
  inline void shmem_p(T *d, T v, int pe) { shmem_##N##_p(d, v, pe); } \
  inline void shmem_p(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_p(c, d, v, pe); } \
  inline T shmem_g(const T *s, int pe) { return shmem_##N##_g(s, pe); } \
  inline T shmem_g(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_g(c, s, pe); } \
  inline void shmem_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmem_##N##_iput(d, s, dst, sst, n, pe); } \
  inline void shmem_iput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmem_ctx_##N##_iput(c, d, s, dst, sst, n, pe); } \
  inline void shmem_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmem_##N##_iget(d, s, dst, sst, n, pe); } \
  inline void shmem_iget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmem_ctx_##N##_iget(c, d, s, dst, sst, n, pe); } \
  inline void shmem_ibput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe) { shmem_##N##_ibput(d, s, dst, sst, b, nb, pe); } \
  inline void shmem_ibput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe) { shmem_ctx_##N##_ibput(c, d, s, dst, sst, b, nb, pe); } \
  inline void shmem_ibget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe) { shmem_##N##_ibget(d, s, dst, sst, b, nb, pe); } \
  inline void shmem_ibget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe) { shmem_ctx_##N##_ibget(c, d, s, dst, sst, b, nb, pe); } \
  inline void shmem_put_signal(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { shmem_##N##_put_signal(d, s, n, sig, v, op, pe); } \
  inline void shmem_put_signal(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { shmem_ctx_##N##_put_signal(c, d, s, n, sig, v, op, pe); } \
  inline void shmem_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { shmem_##N##_put_signal_nbi(d, s, n, sig, v, op, pe); } \
  inline void shmem_put_signal_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { shmem_ctx_##N##_put_signal_nbi(c, d, s, n, sig, v, op, pe); }
TANDEM_GENERIC_RMA_TYPES(TANDEM_OVERLOAD_RMA)
#undef TANDEM_OVERLOAD_RMA

#define TANDEM_OVERLOAD_AMO_EXTENDED(T, N) \
  inline T shmem_atomic_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); } \
  inline T shmem_atomic_fetch(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_atomic_fetch(c, s, pe); } \
  inline void shmem_atomic_set(T *d, T v, int pe) { shmem_##N##_atomic_set(d, v, pe); } \
  inline void shmem_atomic_set(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_set(c, d, v, pe); } \
  inline T shmem_atomic_swap(T *d, T v, int pe) { return shmem_##N##_atomic_swap(d, v, pe); } \
  inline T shmem_atomic_swap(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_swap(c, d, v, pe); } \
  inline void shmem_atomic_fetch_nbi(T *f, const T *s, int pe) { shmem_##N##_atomic_fetch_nbi(f, s, pe); } \
  inline void shmem_atomic_fetch_nbi(shmem_ctx_t c, T *f, const T *s, int pe) { shmem_ctx_##N##_atomic_fetch_nbi(c, f, s, pe); } \
  inline void shmem_atomic_swap_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_swap_nbi(f, d, v, pe); } \
  inline void shmem_atomic_swap_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) { shmem_ctx_##N##_atomic_swap_nbi(c, f, d, v, pe); } \
  inline T shmem_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); } \
  inline void shmem_set(T *d, T v, int pe) { shmem_##N##_atomic_set(d, v, pe); } \
  inline T shmem_swap(T *d, T v, int pe) { return shmem_##N##_atomic_swap(d, v, pe); }
TANDEM_GENERIC_AMO_EXTENDED_TYPES(TANDEM_OVERLOAD_AMO_EXTENDED)
#undef TANDEM_OVERLOAD_AMO_EXTENDED

#define TANDEM_OVERLOAD_AMO_STANDARD(T, N) \
  inline T shmem_atomic_compare_swap(T *d, T cond, T v, int pe) { return shmem_##N##_atomic_compare_swap(d, cond, v, pe); } \
  inline T shmem_atomic_compare_swap(shmem_ctx_t c, T *d, T cond, T v, int pe) { return shmem_ctx_##N##_atomic_compare_swap(c, d, cond, v, pe); } \
  inline T shmem_atomic_fetch_inc(T *d, int pe) { return shmem_##N##_atomic_fetch_inc(d, pe); } \
  inline T shmem_atomic_fetch_inc(shmem_ctx_t c, T *d, int pe) { return shmem_ctx_##N##_atomic_fetch_inc(c, d, pe); } \
  inline void shmem_atomic_inc(T *d, int pe) { shmem_##N##_atomic_inc(d, pe); } \
  inline void shmem_atomic_inc(shmem_ctx_t c, T *d, int pe) { shmem_ctx_##N##_atomic_inc(c, d, pe); } \
  inline T shmem_atomic_fetch_add(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_add(d, v, pe); } \
  inline T shmem_atomic_fetch_add(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_fetch_add(c, d, v, pe); } \
  inline void shmem_atomic_add(T *d, T v, int pe) { shmem_##N##_atomic_add(d, v, pe); } \
  inline void shmem_atomic_add(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_add(c, d, v, pe); } \
  inline void shmem_atomic_compare_swap_nbi(T *f, T *d, T cond, T v, int pe) { shmem_##N##_atomic_compare_swap_nbi(f, d, cond, v, pe); } \
  inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t c, T *f, T *d, T cond, T v, int pe) { shmem_ctx_##N##_atomic_compare_swap_nbi(c, f, d, cond, v, pe); } \
  inline void shmem_atomic_fetch_inc_nbi(T *f, T *d, int pe) { shmem_##N##_atomic_fetch_inc_nbi(f, d, pe); } \
  inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t c, T *f, T *d, int pe) { shmem_ctx_##N##_atomic_fetch_inc_nbi(c, f, d, pe); } \
  inline void shmem_atomic_fetch_add_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_fetch_add_nbi(f, d, v, pe); } \
  inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) { shmem_ctx_##N##_atomic_fetch_add_nbi(c, f, d, v, pe); } \
  inline T shmem_cswap(T *d, T cond, T v, int pe) { return shmem_##N##_atomic_compare_swap(d, cond, v, pe); } \
  inline T shmem_finc(T *d, int pe) { return shmem_##N##_atomic_fetch_inc(d, pe); } \
  inline void shmem_inc(T *d, int pe) { shmem_##N##_atomic_inc(d, pe); } \
  inline T shmem_fadd(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_add(d, v, pe); } \
  inline void shmem_add(T *d, T v, int pe) { shmem_##N##_atomic_add(d, v, pe); }
TANDEM_GENERIC_AMO_STANDARD_TYPES(TANDEM_OVERLOAD_AMO_STANDARD)
#undef TANDEM_OVERLOAD_AMO_STANDARD

#define TANDEM_OVERLOAD_AMO_BITWISE_OP(T, N, OP) \
  inline T shmem_atomic_fetch_##OP(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_##OP(d, v, pe); } \
  inline T shmem_atomic_fetch_##OP(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_fetch_##OP(c, d, v, pe); } \
  inline void shmem_atomic_##OP(T *d, T v, int pe) { shmem_##N##_atomic_##OP(d, v, pe); } \
  inline void shmem_atomic_##OP(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_##OP(c, d, v, pe); } \
  inline void shmem_atomic_fetch_##OP##_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_fetch_##OP##_nbi(f, d, v, pe); } \
  inline void shmem_atomic_fetch_##OP##_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) { shmem_ctx_##N##_atomic_fetch_##OP##_nbi(c, f, d, v, pe); }
#define TANDEM_OVERLOAD_AMO_BITWISE(T, N) \
  TANDEM_OVERLOAD_AMO_BITWISE_OP(T, N, and) TANDEM_OVERLOAD_AMO_BITWISE_OP(T, N, or) \
  TANDEM_OVERLOAD_AMO_BITWISE_OP(T, N, xor)
TANDEM_GENERIC_AMO_BITWISE_TYPES(TANDEM_OVERLOAD_AMO_BITWISE)
#undef TANDEM_OVERLOAD_AMO_BITWISE
#undef TANDEM_OVERLOAD_AMO_BITWISE_OP

/* shmem_wait_until(long *, int, long) is also a deprecated C routine; it stays the long
 * overload, so the table row for long is skipped for that one name. */
#define TANDEM_OVERLOAD_P2P(T, N) \
  inline void shmem_wait_until_all(T *v, size_t n, const int *st, int cmp, T x) { shmem_##N##_wait_until_all(v, n, st, cmp, x); } \
  inline size_t shmem_wait_until_any(T *v, size_t n, const int *st, int cmp, T x) { return shmem_##N##_wait_until_any(v, n, st, cmp, x); } \
  inline size_t shmem_wait_until_some(T *v, size_t n, size_t *idx, const int *st, int cmp, T x) { return shmem_##N##_wait_until_some(v, n, idx, st, cmp, x); } \
  inline void shmem_wait_until_all_vector(T *v, size_t n, const int *st, int cmp, T *x) { shmem_##N##_wait_until_all_vector(v, n, st, cmp, x); } \
  inline size_t shmem_wait_until_any_vector(T *v, size_t n, const int *st, int cmp, T *x) { return shmem_##N##_wait_until_any_vector(v, n, st, cmp, x); } \
  inline size_t shmem_wait_until_some_vector(T *v, size_t n, size_t *idx, const int *st, int cmp, T *x) { return shmem_##N##_wait_until_some_vector(v, n, idx, st, cmp, x); } \
  inline int shmem_test(T *v, int cmp, T x) { return shmem_##N##_test(v, cmp, x); } \
  inline int shmem_test_all(T *v, size_t n, const int *st, int cmp, T x) { return shmem_##N##_test_all(v, n, st, cmp, x); } \
  inline size_t shmem_test_any(T *v, size_t n, const int *st, int cmp, T x) { return shmem_##N##_test_any(v, n, st, cmp, x); } \
  inline size_t shmem_test_some(T *v, size_t n, size_t *idx, const int *st, int cmp, T x) { return shmem_##N##_test_some(v, n, idx, st, cmp, x); } \
  inline int shmem_test_all_vector(T *v, size_t n, const int *st, int cmp, T *x) { return shmem_##N##_test_all_vector(v, n, st, cmp, x); } \
  inline size_t shmem_test_any_vector(T *v, size_t n, const int *st, int cmp, T *x) { return shmem_##N##_test_any_vector(v, n, st, cmp, x); } \
  inline size_t shmem_test_some_vector(T *v, size_t n, size_t *idx, const int *st, int cmp, T *x) { return shmem_##N##_test_some_vector(v, n, idx, st, cmp, x); }
TANDEM_GENERIC_P2P_TYPES(TANDEM_OVERLOAD_P2P)
#undef TANDEM_OVERLOAD_P2P
#define TANDEM_OVERLOAD_WAIT_UNTIL(T, N) \
  inline void shmem_wait_until(T *v, int cmp, T x) { shmem_##N##_wait_until(v, cmp, x); }
TANDEM_OVERLOAD_WAIT_UNTIL(int, int)
TANDEM_OVERLOAD_WAIT_UNTIL(long long, longlong)
TANDEM_OVERLOAD_WAIT_UNTIL(unsigned int, uint)
TANDEM_OVERLOAD_WAIT_UNTIL(unsigned long, ulong)
TANDEM_OVERLOAD_WAIT_UNTIL(unsigned long long, ulonglong)
TANDEM_OVERLOAD_WAIT_UNTIL(short, short)
TANDEM_OVERLOAD_WAIT_UNTIL(unsigned short, ushort)
#undef TANDEM_OVERLOAD_WAIT_UNTIL

inline void shmem_signal_add(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) { shmem_ctx_signal_add(c, sig, v, pe); }
inline void shmem_signal_set(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) { shmem_ctx_signal_set(c, sig, v, pe); }

/* Collectives on teams. */
#define TANDEM_OVERLOAD_COLL(T, N) \
  inline int shmem_broadcast(shmem_team_t t, T *d, const T *s, size_t n, int root) { return shmem_##N##_broadcast(t, d, s, n, root); } \
  inline int shmem_collect(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_collect(t, d, s, n); } \
  inline int shmem_fcollect(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_fcollect(t, d, s, n); } \
  inline int shmem_alltoall(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_alltoall(t, d, s, n); } \
  inline int shmem_alltoalls(shmem_team_t t, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n) { return shmem_##N##_alltoalls(t, d, s, dst, sst, n); }
TANDEM_GENERIC_COLL_TYPES(TANDEM_OVERLOAD_COLL)
#undef TANDEM_OVERLOAD_COLL
#define TANDEM_OVERLOAD_REDUCE_BITWISE(T, N) \
  inline int shmem_and_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_and_reduce(t, d, s, n); } \
  inline int shmem_or_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_or_reduce(t, d, s, n); } \
  inline int shmem_xor_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_xor_reduce(t, d, s, n); }
TANDEM_GENERIC_REDUCE_BITWISE_TYPES(TANDEM_OVERLOAD_REDUCE_BITWISE)
#undef TANDEM_OVERLOAD_REDUCE_BITWISE
#define TANDEM_OVERLOAD_REDUCE_MINMAX(T, N) \
  inline int shmem_max_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_max_reduce(t, d, s, n); } \
  inline int shmem_min_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_min_reduce(t, d, s, n); }
TANDEM_GENERIC_REDUCE_MINMAX_TYPES(TANDEM_OVERLOAD_REDUCE_MINMAX)
#undef TANDEM_OVERLOAD_REDUCE_MINMAX
#define TANDEM_OVERLOAD_REDUCE_ARITH(T, N) \
  inline int shmem_sum_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_sum_reduce(t, d, s, n); } \
  inline int shmem_prod_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_prod_reduce(t, d, s, n); } \
  inline int shmem_sum_inscan(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_sum_inscan(t, d, s, n); } \
  inline int shmem_sum_exscan(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_sum_exscan(t, d, s, n); }
TANDEM_GENERIC_REDUCE_ARITH_TYPES(TANDEM_OVERLOAD_REDUCE_ARITH)
#undef TANDEM_OVERLOAD_REDUCE_ARITH

/* shmem_sync(team) beside the deprecated shmem_sync(PE_start, logPE_stride, PE_size, pSync). */
inline int shmem_sync(shmem_team_t t) { return shmem_team_sync(t); }
}

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

#define TANDEM_FIRST_(a, ...) a
#define TANDEM_FIRST(...) TANDEM_FIRST_(__VA_ARGS__, 0)
#define TANDEM_SECOND_(a, b, ...) b
#define TANDEM_SECOND(...) TANDEM_SECOND_(__VA_ARGS__, 0, 0)
/* The pointer that selects the typed routine: the second argument after a context, else
 * the first.  The branch not taken still has to type-check, hence the (long *)0. */
#define TANDEM_SELECTOR_CTX(...) \
  _Generic((TANDEM_FIRST(__VA_ARGS__)), shmem_ctx_t: TANDEM_SECOND(__VA_ARGS__), default: (long *)0)
#define TANDEM_SELECTOR_PLAIN(...) \
  _Generic((TANDEM_FIRST(__VA_ARGS__)), shmem_ctx_t: (long *)0, default: TANDEM_FIRST(__VA_ARGS__))

/* shmem_OP(...) and shmem_OP(ctx, ...) picked by the pointed-to type of the selector.
 * CASE and CTX_CASE are X-macros giving `TYPE: routine,` for one table row. */
#define TANDEM_SELECT(TABLE, CASE, CTX_CASE, ...) \
  _Generic((TANDEM_FIRST(__VA_ARGS__)), \
    shmem_ctx_t: _Generic(*TANDEM_SELECTOR_CTX(__VA_ARGS__), TABLE(CTX_CASE) default: tandem_generic_no_match), \
    default: _Generic(*TANDEM_SELECTOR_PLAIN(__VA_ARGS__), TABLE(CASE) default: tandem_generic_no_match))(__VA_ARGS__)
#define TANDEM_SELECT_NOCTX(TABLE, CASE, ...) \
  _Generic(*(TANDEM_FIRST(__VA_ARGS__)), TABLE(CASE) default: tandem_generic_no_match)(__VA_ARGS__)

#define TANDEM_C_put(T, N) T: shmem_##N##_put,
#define TANDEM_C_ctx_put(T, N) T: shmem_ctx_##N##_put,
#define TANDEM_C_get(T, N) T: shmem_##N##_get,
#define TANDEM_C_ctx_get(T, N) T: shmem_ctx_##N##_get,
#define TANDEM_C_put_nbi(T, N) T: shmem_##N##_put_nbi,
#define TANDEM_C_ctx_put_nbi(T, N) T: shmem_ctx_##N##_put_nbi,
#define TANDEM_C_get_nbi(T, N) T: shmem_##N##_get_nbi,
#define TANDEM_C_ctx_get_nbi(T, N) T: shmem_ctx_##N##_get_nbi,
#define TANDEM_C_p(T, N) T: shmem_##N##_p,
#define TANDEM_C_ctx_p(T, N) T: shmem_ctx_##N##_p,
#define TANDEM_C_g(T, N) T: shmem_##N##_g,
#define TANDEM_C_ctx_g(T, N) T: shmem_ctx_##N##_g,
#define TANDEM_C_iput(T, N) T: shmem_##N##_iput,
#define TANDEM_C_ctx_iput(T, N) T: shmem_ctx_##N##_iput,
#define TANDEM_C_iget(T, N) T: shmem_##N##_iget,
#define TANDEM_C_ctx_iget(T, N) T: shmem_ctx_##N##_iget,
#define TANDEM_C_ibput(T, N) T: shmem_##N##_ibput,
#define TANDEM_C_ctx_ibput(T, N) T: shmem_ctx_##N##_ibput,
#define TANDEM_C_ibget(T, N) T: shmem_##N##_ibget,
#define TANDEM_C_ctx_ibget(T, N) T: shmem_ctx_##N##_ibget,
#define TANDEM_C_put_signal(T, N) T: shmem_##N##_put_signal,
#define TANDEM_C_ctx_put_signal(T, N) T: shmem_ctx_##N##_put_signal,
#define TANDEM_C_put_signal_nbi(T, N) T: shmem_##N##_put_signal_nbi,
#define TANDEM_C_ctx_put_signal_nbi(T, N) T: shmem_ctx_##N##_put_signal_nbi,
#define shmem_put(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_put, TANDEM_C_ctx_put, __VA_ARGS__)
#define shmem_get(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_get, TANDEM_C_ctx_get, __VA_ARGS__)
#define shmem_put_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_put_nbi, TANDEM_C_ctx_put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_get_nbi, TANDEM_C_ctx_get_nbi, __VA_ARGS__)
#define shmem_p(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_p, TANDEM_C_ctx_p, __VA_ARGS__)
#define shmem_g(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_g, TANDEM_C_ctx_g, __VA_ARGS__)
#define shmem_iput(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_iput, TANDEM_C_ctx_iput, __VA_ARGS__)
#define shmem_iget(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_iget, TANDEM_C_ctx_iget, __VA_ARGS__)
#define shmem_ibput(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_ibput, TANDEM_C_ctx_ibput, __VA_ARGS__)
#define shmem_ibget(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_ibget, TANDEM_C_ctx_ibget, __VA_ARGS__)
#define shmem_put_signal(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_put_signal, TANDEM_C_ctx_put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_put_signal_nbi, TANDEM_C_ctx_put_signal_nbi, __VA_ARGS__)

#define TANDEM_C_atomic_fetch(T, N) T: shmem_##N##_atomic_fetch,
#define TANDEM_C_ctx_atomic_fetch(T, N) T: shmem_ctx_##N##_atomic_fetch,
#define TANDEM_C_atomic_set(T, N) T: shmem_##N##_atomic_set,
#define TANDEM_C_ctx_atomic_set(T, N) T: shmem_ctx_##N##_atomic_set,
#define TANDEM_C_atomic_swap(T, N) T: shmem_##N##_atomic_swap,
#define TANDEM_C_ctx_atomic_swap(T, N) T: shmem_ctx_##N##_atomic_swap,
#define TANDEM_C_atomic_fetch_nbi(T, N) T: shmem_##N##_atomic_fetch_nbi,
#define TANDEM_C_ctx_atomic_fetch_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_nbi,
#define TANDEM_C_atomic_swap_nbi(T, N) T: shmem_##N##_atomic_swap_nbi,
#define TANDEM_C_ctx_atomic_swap_nbi(T, N) T: shmem_ctx_##N##_atomic_swap_nbi,
#define shmem_atomic_fetch(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_fetch, TANDEM_C_ctx_atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_set, TANDEM_C_ctx_atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_swap, TANDEM_C_ctx_atomic_swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_fetch_nbi, TANDEM_C_ctx_atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_swap_nbi, TANDEM_C_ctx_atomic_swap_nbi, __VA_ARGS__)
#define shmem_fetch(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_fetch, __VA_ARGS__)
#define shmem_set(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_set, __VA_ARGS__)
#define shmem_swap(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_atomic_swap, __VA_ARGS__)

#define TANDEM_C_atomic_compare_swap(T, N) T: shmem_##N##_atomic_compare_swap,
#define TANDEM_C_ctx_atomic_compare_swap(T, N) T: shmem_ctx_##N##_atomic_compare_swap,
#define TANDEM_C_atomic_fetch_inc(T, N) T: shmem_##N##_atomic_fetch_inc,
#define TANDEM_C_ctx_atomic_fetch_inc(T, N) T: shmem_ctx_##N##_atomic_fetch_inc,
#define TANDEM_C_atomic_inc(T, N) T: shmem_##N##_atomic_inc,
#define TANDEM_C_ctx_atomic_inc(T, N) T: shmem_ctx_##N##_atomic_inc,
#define TANDEM_C_atomic_fetch_add(T, N) T: shmem_##N##_atomic_fetch_add,
#define TANDEM_C_ctx_atomic_fetch_add(T, N) T: shmem_ctx_##N##_atomic_fetch_add,
#define TANDEM_C_atomic_add(T, N) T: shmem_##N##_atomic_add,
#define TANDEM_C_ctx_atomic_add(T, N) T: shmem_ctx_##N##_atomic_add,
#define TANDEM_C_atomic_compare_swap_nbi(T, N) T: shmem_##N##_atomic_compare_swap_nbi,
#define TANDEM_C_ctx_atomic_compare_swap_nbi(T, N) T: shmem_ctx_##N##_atomic_compare_swap_nbi,
#define TANDEM_C_atomic_fetch_inc_nbi(T, N) T: shmem_##N##_atomic_fetch_inc_nbi,
#define TANDEM_C_ctx_atomic_fetch_inc_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_inc_nbi,
#define TANDEM_C_atomic_fetch_add_nbi(T, N) T: shmem_##N##_atomic_fetch_add_nbi,
#define TANDEM_C_ctx_atomic_fetch_add_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_add_nbi,
#define shmem_atomic_compare_swap(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_compare_swap, TANDEM_C_ctx_atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_fetch_inc, TANDEM_C_ctx_atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_inc, TANDEM_C_ctx_atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_fetch_add, TANDEM_C_ctx_atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_add, TANDEM_C_ctx_atomic_add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_compare_swap_nbi, TANDEM_C_ctx_atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_fetch_inc_nbi, TANDEM_C_ctx_atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_fetch_add_nbi, TANDEM_C_ctx_atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_cswap(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_compare_swap, __VA_ARGS__)
#define shmem_finc(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_fetch_inc, __VA_ARGS__)
#define shmem_inc(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_inc, __VA_ARGS__)
#define shmem_fadd(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_fetch_add, __VA_ARGS__)
#define shmem_add(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_AMO_STANDARD_TYPES, TANDEM_C_atomic_add, __VA_ARGS__)

#define TANDEM_C_atomic_fetch_and(T, N) T: shmem_##N##_atomic_fetch_and,
#define TANDEM_C_ctx_atomic_fetch_and(T, N) T: shmem_ctx_##N##_atomic_fetch_and,
#define TANDEM_C_atomic_fetch_or(T, N) T: shmem_##N##_atomic_fetch_or,
#define TANDEM_C_ctx_atomic_fetch_or(T, N) T: shmem_ctx_##N##_atomic_fetch_or,
#define TANDEM_C_atomic_fetch_xor(T, N) T: shmem_##N##_atomic_fetch_xor,
#define TANDEM_C_ctx_atomic_fetch_xor(T, N) T: shmem_ctx_##N##_atomic_fetch_xor,
#define TANDEM_C_atomic_and(T, N) T: shmem_##N##_atomic_and,
#define TANDEM_C_ctx_atomic_and(T, N) T: shmem_ctx_##N##_atomic_and,
#define TANDEM_C_atomic_or(T, N) T: shmem_##N##_atomic_or,
#define TANDEM_C_ctx_atomic_or(T, N) T: shmem_ctx_##N##_atomic_or,
#define TANDEM_C_atomic_xor(T, N) T: shmem_##N##_atomic_xor,
#define TANDEM_C_ctx_atomic_xor(T, N) T: shmem_ctx_##N##_atomic_xor,
#define TANDEM_C_atomic_fetch_and_nbi(T, N) T: shmem_##N##_atomic_fetch_and_nbi,
#define TANDEM_C_ctx_atomic_fetch_and_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_and_nbi,
#define TANDEM_C_atomic_fetch_or_nbi(T, N) T: shmem_##N##_atomic_fetch_or_nbi,
#define TANDEM_C_ctx_atomic_fetch_or_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_or_nbi,
#define TANDEM_C_atomic_fetch_xor_nbi(T, N) T: shmem_##N##_atomic_fetch_xor_nbi,
#define TANDEM_C_ctx_atomic_fetch_xor_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_xor_nbi,
#define shmem_atomic_fetch_and(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_fetch_and, TANDEM_C_ctx_atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_fetch_or, TANDEM_C_ctx_atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_fetch_xor, TANDEM_C_ctx_atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_and(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_and, TANDEM_C_ctx_atomic_and, __VA_ARGS__)
#define shmem_atomic_or(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_or, TANDEM_C_ctx_atomic_or, __VA_ARGS__)
#define shmem_atomic_xor(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_xor, TANDEM_C_ctx_atomic_xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_fetch_and_nbi, TANDEM_C_ctx_atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_fetch_or_nbi, TANDEM_C_ctx_atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_AMO_BITWISE_TYPES, TANDEM_C_atomic_fetch_xor_nbi, TANDEM_C_ctx_atomic_fetch_xor_nbi, __VA_ARGS__)

#define TANDEM_C_wait_until(T, N) T: shmem_##N##_wait_until,
#define TANDEM_C_wait_until_all(T, N) T: shmem_##N##_wait_until_all,
#define TANDEM_C_wait_until_any(T, N) T: shmem_##N##_wait_until_any,
#define TANDEM_C_wait_until_some(T, N) T: shmem_##N##_wait_until_some,
#define TANDEM_C_wait_until_all_vector(T, N) T: shmem_##N##_wait_until_all_vector,
#define TANDEM_C_wait_until_any_vector(T, N) T: shmem_##N##_wait_until_any_vector,
#define TANDEM_C_wait_until_some_vector(T, N) T: shmem_##N##_wait_until_some_vector,
#define TANDEM_C_test(T, N) T: shmem_##N##_test,
#define TANDEM_C_test_all(T, N) T: shmem_##N##_test_all,
#define TANDEM_C_test_any(T, N) T: shmem_##N##_test_any,
#define TANDEM_C_test_some(T, N) T: shmem_##N##_test_some,
#define TANDEM_C_test_all_vector(T, N) T: shmem_##N##_test_all_vector,
#define TANDEM_C_test_any_vector(T, N) T: shmem_##N##_test_any_vector,
#define TANDEM_C_test_some_vector(T, N) T: shmem_##N##_test_some_vector,
#define shmem_wait_until(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_test, __VA_ARGS__)
#define shmem_test_all(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_test_all, __VA_ARGS__)
#define shmem_test_any(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_test_any, __VA_ARGS__)
#define shmem_test_some(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) TANDEM_SELECT_NOCTX(TANDEM_GENERIC_P2P_TYPES, TANDEM_C_test_some_vector, __VA_ARGS__)

/* shmem_signal_add(sig, v, pe) or shmem_signal_add(ctx, sig, v, pe). */
#define TANDEM_SIGNAL_SELECT(PLAIN, CTX, ...) \
  _Generic((TANDEM_FIRST(__VA_ARGS__)), shmem_ctx_t: CTX, default: PLAIN)(__VA_ARGS__)
#define shmem_signal_add(...) TANDEM_SIGNAL_SELECT(shmem_signal_add, shmem_ctx_signal_add, __VA_ARGS__)
#define shmem_signal_set(...) TANDEM_SIGNAL_SELECT(shmem_signal_set, shmem_ctx_signal_set, __VA_ARGS__)

/* Collectives on teams (and Tandem's window puts and gets): picked by the pointed-to type
 * of dest, the second argument. */
#define TANDEM_SELECT_BY_DEST(TABLE, CASE, ...) \
  _Generic(*(TANDEM_SECOND(__VA_ARGS__)), TABLE(CASE) default: tandem_generic_no_match)(__VA_ARGS__)
#define TANDEM_C_broadcast(T, N) T: shmem_##N##_broadcast,
#define TANDEM_C_collect(T, N) T: shmem_##N##_collect,
#define TANDEM_C_fcollect(T, N) T: shmem_##N##_fcollect,
#define TANDEM_C_alltoall(T, N) T: shmem_##N##_alltoall,
#define TANDEM_C_alltoalls(T, N) T: shmem_##N##_alltoalls,
#define TANDEM_C_and_reduce(T, N) T: shmem_##N##_and_reduce,
#define TANDEM_C_or_reduce(T, N) T: shmem_##N##_or_reduce,
#define TANDEM_C_xor_reduce(T, N) T: shmem_##N##_xor_reduce,
#define TANDEM_C_max_reduce(T, N) T: shmem_##N##_max_reduce,
#define TANDEM_C_min_reduce(T, N) T: shmem_##N##_min_reduce,
#define TANDEM_C_sum_reduce(T, N) T: shmem_##N##_sum_reduce,
#define TANDEM_C_prod_reduce(T, N) T: shmem_##N##_prod_reduce,
#define TANDEM_C_sum_inscan(T, N) T: shmem_##N##_sum_inscan,
#define TANDEM_C_sum_exscan(T, N) T: shmem_##N##_sum_exscan,
#define shmem_broadcast(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_broadcast, __VA_ARGS__)
#define shmem_collect(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_collect, __VA_ARGS__)
#define shmem_fcollect(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_fcollect, __VA_ARGS__)
#define shmem_alltoall(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_alltoalls, __VA_ARGS__)
#define shmem_and_reduce(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_BITWISE_TYPES, TANDEM_C_and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_BITWISE_TYPES, TANDEM_C_or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_BITWISE_TYPES, TANDEM_C_xor_reduce, __VA_ARGS__)
#define shmem_max_reduce(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_MINMAX_TYPES, TANDEM_C_max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_MINMAX_TYPES, TANDEM_C_min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_prod_reduce, __VA_ARGS__)
#define shmem_sum_inscan(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_sum_inscan, __VA_ARGS__)
#define shmem_sum_exscan(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_sum_exscan, __VA_ARGS__)

/* shmem_sync(team), or the deprecated shmem_sync(PE_start, logPE_stride, PE_size, pSync):
 * picked by the number of arguments. */
#define TANDEM_FIFTH_(a, b, c, d, e, ...) e
#define shmem_sync(...) \
  TANDEM_FIFTH_(__VA_ARGS__, shmem_sync, tandem_generic_no_match, tandem_generic_no_match, shmem_team_sync, 0)(__VA_ARGS__)

#endif /* C11 */

#endif
