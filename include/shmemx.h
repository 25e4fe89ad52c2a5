/* Tandem's extensions to OpenSHMEM (the shmemx_ prefix).
 *
 * Notified access (man 7 tandem_notify): a put or get that also notifies the PE whose memory
 * it touches.  The target matches notifications by source PE, tag and count with persistent
 * requests, so producer-consumer code needs no flag and no extra round trip.
 *
 * MPI-style epochs (man 7 tandem_epochs): windows on a symmetric object and a team, whose
 * puts, gets and accumulates happen in fence, post-start-complete-wait and lock-unlock
 * epochs, issued lazily, eagerly or both (TANDEM_EPOCH_STRATEGY).
 *
 * Nonblocking collectives (man 7 tandem_nbc): every collective on a team with _nbi and a
 * request handle last, completed by shmemx_req_test, shmemx_req_wait or shmemx_req_waitall,
 * and progressed meanwhile by the library's own calls and its progress thread. */
#ifndef TANDEM_SHMEMX_H
#define TANDEM_SHMEMX_H

#include <shmem.h>

#define SHMEMX_ANY_PE (-1)
#define SHMEMX_ANY_TAG (-1)
/* shmemx_notify_waitany: no request was active. */
#define SHMEMX_NOTIFY_UNDEFINED (-1)

/* What the shmemx_notify_* routines return. */
#define SHMEMX_NOTIFY_SUCCESS 0
#define SHMEMX_NOTIFY_ERR_PE 1       /* source_pe is neither a PE of SHMEM_TEAM_WORLD nor SHMEMX_ANY_PE */
#define SHMEMX_NOTIFY_ERR_TAG 2      /* tag is neither >= 0 nor SHMEMX_ANY_TAG */
#define SHMEMX_NOTIFY_ERR_COUNT 3    /* expected_count < 1, or n < 0 */
#define SHMEMX_NOTIFY_ERR_REQUEST 4  /* a NULL or freed request, or a NULL argument */
#define SHMEMX_NOTIFY_ERR_ACTIVE 5   /* starting or freeing a request that is active */
#define SHMEMX_NOTIFY_ERR_INACTIVE 6 /* waiting on or testing a request that was not started */

typedef struct shmemx_notify_req *shmemx_notify_t; /* opaque */
/* A window (shmemx_win_create): a symmetric object and the team whose PEs reach it. */
typedef struct tandem_win *shmemx_win_t; /* opaque */
#define SHMEMX_WIN_INVALID ((shmemx_win_t)0)
#define SHMEMX_WIN_LOCK_EXCLUSIVE 1
#define SHMEMX_WIN_LOCK_SHARED 2
/* The operations of shmemx_win_<T>_accumulate: dest[i] = dest[i] OP source[i]. */
#define SHMEMX_WIN_REPLACE 0 /* dest[i] = source[i]; every type */
#define SHMEMX_WIN_SUM 1     /* every type */
#define SHMEMX_WIN_BAND 2    /* integer types */
#define SHMEMX_WIN_BOR 3     /* integer types */
#define SHMEMX_WIN_BXOR 4    /* integer types */
#define SHMEMX_WIN_MIN 5     /* every type */
#define SHMEMX_WIN_MAX 6     /* every type */

typedef struct {
  int source; /* the PE of the last notification counted */
  int tag;    /* its tag */
  int count;  /* notifications counted: the request's expected_count */
} shmemx_notify_status_t;

#ifdef __cplusplus
extern "C" {
#endif

/* Put and get with notification, for every standard RMA type, every size and bytes, each
 * with a shmemx_ctx_ twin. */
#define TANDEM_DECLARE_NOTIFY(T, N) \
  void shmemx_##N##_put_notify(T *dest, const T *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_##N##_put_notify(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe, int tag); \
  void shmemx_##N##_put_notify_nbi(T *dest, const T *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_##N##_put_notify_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe, int tag); \
  void shmemx_##N##_get_notify(T *dest, const T *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_##N##_get_notify(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe, int tag); \
  void shmemx_##N##_get_notify_nbi(T *dest, const T *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_##N##_get_notify_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe, int tag);
TANDEM_RMA_TYPES(TANDEM_DECLARE_NOTIFY)
#undef TANDEM_DECLARE_NOTIFY

#define TANDEM_DECLARE_NOTIFY_SIZED(BITS, E) \
  void shmemx_put##BITS##_notify(void *dest, const void *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_put##BITS##_notify(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe, int tag); \
  void shmemx_put##BITS##_notify_nbi(void *dest, const void *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_put##BITS##_notify_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe, int tag); \
  void shmemx_get##BITS##_notify(void *dest, const void *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_get##BITS##_notify(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe, int tag); \
  void shmemx_get##BITS##_notify_nbi(void *dest, const void *source, size_t nelems, int pe, int tag); \
  void shmemx_ctx_get##BITS##_notify_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe, int tag);
TANDEM_RMA_SIZES(TANDEM_DECLARE_NOTIFY_SIZED)
TANDEM_DECLARE_NOTIFY_SIZED(mem, char)
#undef TANDEM_DECLARE_NOTIFY_SIZED

/* Persistent notification requests. */
int shmemx_notify_init(int source_pe, int tag, int expected_count, shmemx_notify_t *req);
int shmemx_notify_start(shmemx_notify_t req);
int shmemx_notify_wait(shmemx_notify_t req, shmemx_notify_status_t *status);
int shmemx_notify_test(shmemx_notify_t req, int *flag, shmemx_notify_status_t *status);
int shmemx_notify_waitany(int n, shmemx_notify_t reqs[], int *index, shmemx_notify_status_t *status);
int shmemx_notify_free(shmemx_notify_t *req);

/* Windows and their epochs.  PE numbers are ranks in the window's team. */
int shmemx_win_create(shmem_team_t team, void *base, size_t size, shmemx_win_t *win);
void shmemx_win_free(shmemx_win_t *win);
#define TANDEM_DECLARE_WIN_RMA(T, N) \
  void shmemx_win_##N##_put(shmemx_win_t win, T *dest, const T *source, size_t nelems, int pe); \
  void shmemx_win_##N##_get(shmemx_win_t win, T *dest, const T *source, size_t nelems, int pe);
TANDEM_RMA_TYPES(TANDEM_DECLARE_WIN_RMA)
#undef TANDEM_DECLARE_WIN_RMA
#define TANDEM_DECLARE_WIN_RMA_SIZED(BITS, E) \
  void shmemx_win_put##BITS(shmemx_win_t win, void *dest, const void *source, size_t nelems, int pe); \
  void shmemx_win_get##BITS(shmemx_win_t win, void *dest, const void *source, size_t nelems, int pe);
TANDEM_RMA_SIZES(TANDEM_DECLARE_WIN_RMA_SIZED)
TANDEM_DECLARE_WIN_RMA_SIZED(mem, char)
#undef TANDEM_DECLARE_WIN_RMA_SIZED
/* Accumulates: each element updated atomically, for the extended AMO types. */
#define TANDEM_DECLARE_WIN_ACCUMULATE(T, N) \
  void shmemx_win_##N##_accumulate(shmemx_win_t win, T *dest, const T *source, size_t nelems, int op, int pe);
TANDEM_AMO_EXTENDED_TYPES(TANDEM_DECLARE_WIN_ACCUMULATE)
#undef TANDEM_DECLARE_WIN_ACCUMULATE
void shmemx_win_fence(shmemx_win_t win);
void shmemx_win_post(shmemx_win_t win, const int *pes, int npes);
void shmemx_win_start(shmemx_win_t win, const int *pes, int npes);
void shmemx_win_complete(shmemx_win_t win);
void shmemx_win_wait(shmemx_win_t win);
int shmemx_win_test(shmemx_win_t win);
void shmemx_win_lock(shmemx_win_t win, int lock_type, int pe);
void shmemx_win_unlock(shmemx_win_t win, int pe);

#ifdef __cplusplus
}
#endif

/* The type-generic forms: shmemx_put_notify, shmemx_get_notify and their _nbi twins, with
 * or without a context first; shmemx_win_put, shmemx_win_get and shmemx_win_accumulate. */
#if defined(__cplusplus)
extern "C++" { /* C++ linkage inside extern "C" too, as in tandem/generic.h */
#define TANDEM_OVERLOAD_WIN_RMA(T, N) \
  inline void shmemx_win_put(shmemx_win_t w, T *d, const T *s, size_t n, int pe) { shmemx_win_##N##_put(w, d, s, n, pe); } \
  inline void shmemx_win_get(shmemx_win_t w, T *d, const T *s, size_t n, int pe) { shmemx_win_##N##_get(w, d, s, n, pe); }
TANDEM_GENERIC_RMA_TYPES(TANDEM_OVERLOAD_WIN_RMA)
#undef TANDEM_OVERLOAD_WIN_RMA
#define TANDEM_OVERLOAD_WIN_ACCUMULATE(T, N) \
  inline void shmemx_win_accumulate(shmemx_win_t w, T *d, const T *s, size_t n, int op, int pe) { shmemx_win_##N##_accumulate(w, d, s, n, op, pe); }
TANDEM_GENERIC_AMO_EXTENDED_TYPES(TANDEM_OVERLOAD_WIN_ACCUMULATE)
#undef TANDEM_OVERLOAD_WIN_ACCUMULATE
#define TANDEM_OVERLOAD_NOTIFY(T, N) \
  inline void shmemx_put_notify(T *d, const T *s, size_t n, int pe, int tag) { shmemx_##N##_put_notify(d, s, n, pe, tag); } \
  inline void shmemx_put_notify(shmem_ctx_t c, T *d, const T *s, size_t n, int pe, int tag) { shmemx_ctx_##N##_put_notify(c, d, s, n, pe, tag); } \
  inline void shmemx_put_notify_nbi(T *d, const T *s, size_t n, int pe, int tag) { shmemx_##N##_put_notify_nbi(d, s, n, pe, tag); } \
  inline void shmemx_put_notify_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe, int tag) { shmemx_ctx_##N##_put_notify_nbi(c, d, s, n, pe, tag); } \
  inline void shmemx_get_notify(T *d, const T *s, size_t n, int pe, int tag) { shmemx_##N##_get_notify(d, s, n, pe, tag); } \
  inline void shmemx_get_notify(shmem_ctx_t c, T *d, const T *s, size_t n, int pe, int tag) { shmemx_ctx_##N##_get_notify(c, d, s, n, pe, tag); } \
  inline void shmemx_get_notify_nbi(T *d, const T *s, size_t n, int pe, int tag) { shmemx_##N##_get_notify_nbi(d, s, n, pe, tag); } \
  inline void shmemx_get_notify_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe, int tag) { shmemx_ctx_##N##_get_notify_nbi(c, d, s, n, pe, tag); }
TANDEM_GENERIC_RMA_TYPES(TANDEM_OVERLOAD_NOTIFY)
#undef TANDEM_OVERLOAD_NOTIFY
}
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define TANDEM_C_put_notify(T, N) T: shmemx_##N##_put_notify,
#define TANDEM_C_ctx_put_notify(T, N) T: shmemx_ctx_##N##_put_notify,
#define TANDEM_C_put_notify_nbi(T, N) T: shmemx_##N##_put_notify_nbi,
#define TANDEM_C_ctx_put_notify_nbi(T, N) T: shmemx_ctx_##N##_put_notify_nbi,
#define TANDEM_C_get_notify(T, N) T: shmemx_##N##_get_notify,
#define TANDEM_C_ctx_get_notify(T, N) T: shmemx_ctx_##N##_get_notify,
#define TANDEM_C_get_notify_nbi(T, N) T: shmemx_##N##_get_notify_nbi,
#define TANDEM_C_ctx_get_notify_nbi(T, N) T: shmemx_ctx_##N##_get_notify_nbi,
#define TANDEM_C_win_put(T, N) T: shmemx_win_##N##_put,
#define TANDEM_C_win_get(T, N) T: shmemx_win_##N##_get,
#define shmemx_win_put(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_win_put, __VA_ARGS__)
#define shmemx_win_get(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_win_get, __VA_ARGS__)
#define TANDEM_C_win_accumulate(T, N) T: shmemx_win_##N##_accumulate,
#define shmemx_win_accumulate(...) TANDEM_SELECT_BY_DEST(TANDEM_GENERIC_AMO_EXTENDED_TYPES, TANDEM_C_win_accumulate, __VA_ARGS__)
#define shmemx_put_notify(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_put_notify, TANDEM_C_ctx_put_notify, __VA_ARGS__)
#define shmemx_put_notify_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_put_notify_nbi, TANDEM_C_ctx_put_notify_nbi, __VA_ARGS__)
#define shmemx_get_notify(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_get_notify, TANDEM_C_ctx_get_notify, __VA_ARGS__)
#define shmemx_get_notify_nbi(...) TANDEM_SELECT(TANDEM_GENERIC_RMA_TYPES, TANDEM_C_get_notify_nbi, TANDEM_C_ctx_get_notify_nbi, __VA_ARGS__)
#endif

/* The nonblocking collectives. */
#include <tandem/nbc.h>

#endif
