/* Tandem's nonblocking collectives (man 7 tandem_nbc), included by <shmemx.h>: every team
 * collective of <shmem.h> with _nbi and a request handle last, the same arguments and
 * return value otherwise, completed by shmemx_req_test, shmemx_req_wait or
 * shmemx_req_waitall; the type-generic forms pick the typed routine by the pointed-to type
 * of dest, as the blocking ones do.  The manual pages' synopses are written from this
 * file (man/mkman.awk). */
#ifndef TANDEM_NBC_H
#define TANDEM_NBC_H

#include <shmem.h>

/* A nonblocking collective in flight (opaque); SHMEMX_REQ_NULL once complete. */
typedef struct tandem_req *shmemx_req_h;
#define SHMEMX_REQ_NULL ((shmemx_req_h)0)

#ifdef __cplusplus
extern "C" {
#endif

int shmemx_req_test(shmemx_req_h *req);
void shmemx_req_wait(shmemx_req_h *req);
void shmemx_req_waitall(size_t count, shmemx_req_h *reqs);
int shmemx_team_sync_nbi(shmem_team_t team, shmemx_req_h *req);
#define TANDEM_DECLARE_COLL_NBI(T, N) \
  int shmemx_##N##_broadcast_nbi(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root, shmemx_req_h *req); \
  int shmemx_##N##_collect_nbi(shmem_team_t team, T *dest, const T *source, size_t nelems, shmemx_req_h *req); \
  int shmemx_##N##_fcollect_nbi(shmem_team_t team, T *dest, const T *source, size_t nelems, shmemx_req_h *req); \
  int shmemx_##N##_alltoall_nbi(shmem_team_t team, T *dest, const T *source, size_t nelems, shmemx_req_h *req); \
  int shmemx_##N##_alltoalls_nbi(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, shmemx_req_h *req);
TANDEM_COLL_TYPES(TANDEM_DECLARE_COLL_NBI)
#undef TANDEM_DECLARE_COLL_NBI
int shmemx_broadcastmem_nbi(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root, shmemx_req_h *req);
int shmemx_collectmem_nbi(shmem_team_t team, void *dest, const void *source, size_t nelems, shmemx_req_h *req);
int shmemx_fcollectmem_nbi(shmem_team_t team, void *dest, const void *source, size_t nelems, shmemx_req_h *req);
int shmemx_alltoallmem_nbi(shmem_team_t team, void *dest, const void *source, size_t nelems, shmemx_req_h *req);
int shmemx_alltoallsmem_nbi(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, shmemx_req_h *req);
#define TANDEM_DECLARE_REDUCE_NBI(T, FN) \
  int shmemx_##FN##_nbi(shmem_team_t team, T *dest, const T *source, size_t nreduce, shmemx_req_h *req);
#define TANDEM_DECLARE_REDUCE_NBI_BITWISE(T, N) \
  TANDEM_DECLARE_REDUCE_NBI(T, N##_and_reduce) TANDEM_DECLARE_REDUCE_NBI(T, N##_or_reduce) TANDEM_DECLARE_REDUCE_NBI(T, N##_xor_reduce)
#define TANDEM_DECLARE_REDUCE_NBI_MINMAX(T, N) TANDEM_DECLARE_REDUCE_NBI(T, N##_max_reduce) TANDEM_DECLARE_REDUCE_NBI(T, N##_min_reduce)
#define TANDEM_DECLARE_REDUCE_NBI_ARITH(T, N) \
  TANDEM_DECLARE_REDUCE_NBI(T, N##_sum_reduce) TANDEM_DECLARE_REDUCE_NBI(T, N##_prod_reduce) \
  TANDEM_DECLARE_REDUCE_NBI(T, N##_sum_inscan) TANDEM_DECLARE_REDUCE_NBI(T, N##_sum_exscan)
TANDEM_REDUCE_BITWISE_TYPES(TANDEM_DECLARE_REDUCE_NBI_BITWISE)
TANDEM_REDUCE_MINMAX_TYPES(TANDEM_DECLARE_REDUCE_NBI_MINMAX)
TANDEM_REDUCE_ARITH_TYPES(TANDEM_DECLARE_REDUCE_NBI_ARITH)
#undef TANDEM_DECLARE_REDUCE_NBI_BITWISE
#undef TANDEM_DECLARE_REDUCE_NBI_MINMAX
#undef TANDEM_DECLARE_REDUCE_NBI_ARITH
#undef TANDEM_DECLARE_REDUCE_NBI


#ifdef __cplusplus
}
#endif

#if defined(__cplusplus)
extern "C++" { /* C++ linkage inside extern "C" too, as in tandem/generic.h */
#define TANDEM_OVERLOAD_COLL_NBI(T, N) \
  inline int shmemx_broadcast_nbi(shmem_team_t t, T *d, const T *s, size_t n, int root, shmemx_req_h *r) { return shmemx_##N##_broadcast_nbi(t, d, s, n, root, r); } \
  inline int shmemx_collect_nbi(shmem_team_t t, T *d, const T *s, size_t n, shmemx_req_h *r) { return shmemx_##N##_collect_nbi(t, d, s, n, r); } \
  inline int shmemx_fcollect_nbi(shmem_team_t t, T *d, const T *s, size_t n, shmemx_req_h *r) { return shmemx_##N##_fcollect_nbi(t, d, s, n, r); } \
  inline int shmemx_alltoall_nbi(shmem_team_t t, T *d, const T *s, size_t n, shmemx_req_h *r) { return shmemx_##N##_alltoall_nbi(t, d, s, n, r); } \
  inline int shmemx_alltoalls_nbi(shmem_team_t t, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, shmemx_req_h *r) { return shmemx_##N##_alltoalls_nbi(t, d, s, dst, sst, n, r); }
TANDEM_GENERIC_COLL_TYPES(TANDEM_OVERLOAD_COLL_NBI)
#undef TANDEM_OVERLOAD_COLL_NBI
#define TANDEM_OVERLOAD_REDUCE_NBI(T, N, OP) \
  inline int shmemx_##OP##_nbi(shmem_team_t t, T *d, const T *s, size_t n, shmemx_req_h *r) { return shmemx_##N##_##OP##_nbi(t, d, s, n, r); }
#define TANDEM_OVERLOAD_REDUCE_NBI_BITWISE(T, N) \
  TANDEM_OVERLOAD_REDUCE_NBI(T, N, and_reduce) TANDEM_OVERLOAD_REDUCE_NBI(T, N, or_reduce) TANDEM_OVERLOAD_REDUCE_NBI(T, N, xor_reduce)
#define TANDEM_OVERLOAD_REDUCE_NBI_MINMAX(T, N) TANDEM_OVERLOAD_REDUCE_NBI(T, N, max_reduce) TANDEM_OVERLOAD_REDUCE_NBI(T, N, min_reduce)
#define TANDEM_OVERLOAD_REDUCE_NBI_ARITH(T, N) \
  TANDEM_OVERLOAD_REDUCE_NBI(T, N, sum_reduce) TANDEM_OVERLOAD_REDUCE_NBI(T, N, prod_reduce) \
  TANDEM_OVERLOAD_REDUCE_NBI(T, N, sum_inscan) TANDEM_OVERLOAD_REDUCE_NBI(T, N, sum_exscan)
TANDEM_GENERIC_REDUCE_BITWISE_TYPES(TANDEM_OVERLOAD_REDUCE_NBI_BITWISE)
TANDEM_GENERIC_REDUCE_MINMAX_TYPES(TANDEM_OVERLOAD_REDUCE_NBI_MINMAX)
TANDEM_GENERIC_REDUCE_ARITH_TYPES(TANDEM_OVERLOAD_REDUCE_NBI_ARITH)
#undef TANDEM_OVERLOAD_REDUCE_NBI_BITWISE
#undef TANDEM_OVERLOAD_REDUCE_NBI_MINMAX
#undef TANDEM_OVERLOAD_REDUCE_NBI_ARITH
#undef TANDEM_OVERLOAD_REDUCE_NBI
}
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define TANDEM_C_broadcast_nbi(T, N) T: shmemx_##N##_broadcast_nbi,
#define TANDEM_C_collect_nbi(T, N) T: shmemx_##N##_collect_nbi,
#define TANDEM_C_fcollect_nbi(T, N) T: shmemx_##N##_fcollect_nbi,
#define TANDEM_C_alltoall_nbi(T, N) T: shmemx_##N##_alltoall_nbi,
#define TANDEM_C_alltoalls_nbi(T, N) T: shmemx_##N##_alltoalls_nbi,
#define TANDEM_C_and_reduce_nbi(T, N) T: shmemx_##N##_and_reduce_nbi,
#define TANDEM_C_or_reduce_nbi(T, N) T: shmemx_##N##_or_reduce_nbi,
#define TANDEM_C_xor_reduce_nbi(T, N) T: shmemx_##N##_xor_reduce_nbi,
#define TANDEM_C_max_reduce_nbi(T, N) T: shmemx_##N##_max_reduce_nbi,
#define TANDEM_C_min_reduce_nbi(T, N) T: shmemx_##N##_min_reduce_nbi,
#define TANDEM_C_sum_reduce_nbi(T, N) T: shmemx_##N##_sum_reduce_nbi,
#define TANDEM_C_prod_reduce_nbi(T, N) T: shmemx_##N##_prod_reduce_nbi,
#define TANDEM_C_sum_inscan_nbi(T, N) T: shmemx_##N##_sum_inscan_nbi,
#define TANDEM_C_sum_exscan_nbi(T, N) T: shmemx_##N##_sum_exscan_nbi,
#define shmemx_broadcast_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_broadcast_nbi, __VA_ARGS__)
#define shmemx_collect_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_collect_nbi, __VA_ARGS__)
#define shmemx_fcollect_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_fcollect_nbi, __VA_ARGS__)
#define shmemx_alltoall_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_alltoall_nbi, __VA_ARGS__)
#define shmemx_alltoalls_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_COLL_TYPES, TANDEM_C_alltoalls_nbi, __VA_ARGS__)
#define shmemx_and_reduce_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_BITWISE_TYPES, TANDEM_C_and_reduce_nbi, __VA_ARGS__)
#define shmemx_or_reduce_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_BITWISE_TYPES, TANDEM_C_or_reduce_nbi, __VA_ARGS__)
#define shmemx_xor_reduce_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_BITWISE_TYPES, TANDEM_C_xor_reduce_nbi, __VA_ARGS__)
#define shmemx_max_reduce_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_MINMAX_TYPES, TANDEM_C_max_reduce_nbi, __VA_ARGS__)
#define shmemx_min_reduce_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_MINMAX_TYPES, TANDEM_C_min_reduce_nbi, __VA_ARGS__)
#define shmemx_sum_reduce_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_sum_reduce_nbi, __VA_ARGS__)
#define shmemx_prod_reduce_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_prod_reduce_nbi, __VA_ARGS__)
#define shmemx_sum_inscan_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_sum_inscan_nbi, __VA_ARGS__)
#define shmemx_sum_exscan_nbi(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_REDUCE_ARITH_TYPES, TANDEM_C_sum_exscan_nbi, __VA_ARGS__)
#endif

#endif
