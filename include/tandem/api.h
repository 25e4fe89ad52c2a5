/* The OpenSHMEM 1.6 routines Tandem provides, declared once for two prefixes.  shmem.h
 * includes this file with TANDEM_PREFIX defined as shmem_, pshmem.h with pshmem_ (the
 * profiling names).  There is deliberately no include guard. */
#ifndef TANDEM_PREFIX
#error "include <shmem.h> or <pshmem.h>, not <tandem/api.h>"
#endif

#define TANDEM_CAT_(a, b) a##b
#define TANDEM_CAT(a, b) TANDEM_CAT_(a, b)
#define TANDEM_NAME(suffix) TANDEM_CAT(TANDEM_PREFIX, suffix)

#ifdef __cplusplus
extern "C" {
#endif

/* Setup, exit and query. */
void TANDEM_NAME(init)(void);
int TANDEM_NAME(init_thread)(int requested, int *provided);
void TANDEM_NAME(query_thread)(int *provided);
void TANDEM_NAME(query_initialized)(int *initialized);
void TANDEM_NAME(finalize)(void);
void TANDEM_NAME(global_exit)(int status);
int TANDEM_NAME(my_pe)(void);
int TANDEM_NAME(n_pes)(void);
int TANDEM_NAME(pe_accessible)(int pe);
int TANDEM_NAME(addr_accessible)(const void *addr, int pe);
void *TANDEM_NAME(ptr)(const void *dest, int pe);
void TANDEM_NAME(info_get_version)(int *major, int *minor);
void TANDEM_NAME(info_get_name)(char *name);

/* Memory management. */
void *TANDEM_NAME(malloc)(size_t size);
void *TANDEM_NAME(calloc)(size_t count, size_t size);
void *TANDEM_NAME(align)(size_t alignment, size_t size);
void *TANDEM_NAME(realloc)(void *ptr, size_t size);
void *TANDEM_NAME(malloc_with_hints)(size_t size, long hints);
void TANDEM_NAME(free)(void *ptr);

/* Contexts. */
int TANDEM_NAME(ctx_create)(long options, shmem_ctx_t *ctx);
void TANDEM_NAME(ctx_destroy)(shmem_ctx_t ctx);

/* Typed RMA, for every standard RMA type; each has a shmem_ctx_ twin. */
#define TANDEM_DECLARE_RMA(T, N) \
  void TANDEM_NAME(N##_put)(T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_##N##_put)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(N##_get)(T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_##N##_get)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(N##_put_nbi)(T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_##N##_put_nbi)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(N##_get_nbi)(T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_##N##_get_nbi)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void TANDEM_NAME(N##_p)(T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_p)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  T TANDEM_NAME(N##_g)(const T *source, int pe); \
  T TANDEM_NAME(ctx_##N##_g)(shmem_ctx_t ctx, const T *source, int pe); \
  void TANDEM_NAME(N##_iput)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_##N##_iput)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(N##_iget)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_##N##_iget)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(N##_ibput)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(ctx_##N##_ibput)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(N##_ibget)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(ctx_##N##_ibget)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(N##_put_signal)(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void TANDEM_NAME(ctx_##N##_put_signal)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void TANDEM_NAME(N##_put_signal_nbi)(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void TANDEM_NAME(ctx_##N##_put_signal_nbi)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
TANDEM_RMA_TYPES(TANDEM_DECLARE_RMA)
#undef TANDEM_DECLARE_RMA

/* Sized RMA: put8 ... put128 (BITS is the element width; void pointers). */
#define TANDEM_DECLARE_SIZED(BITS, E) \
  void TANDEM_NAME(put##BITS)(void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_put##BITS)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(get##BITS)(void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_get##BITS)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(put##BITS##_nbi)(void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_put##BITS##_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(get##BITS##_nbi)(void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_get##BITS##_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void TANDEM_NAME(iput##BITS)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_iput##BITS)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(iget##BITS)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(ctx_iget##BITS)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void TANDEM_NAME(ibput##BITS)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(ctx_ibput##BITS)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(ibget##BITS)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(ctx_ibget##BITS)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void TANDEM_NAME(put##BITS##_signal)(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void TANDEM_NAME(ctx_put##BITS##_signal)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void TANDEM_NAME(put##BITS##_signal_nbi)(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void TANDEM_NAME(ctx_put##BITS##_signal_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
TANDEM_RMA_SIZES(TANDEM_DECLARE_SIZED)
#undef TANDEM_DECLARE_SIZED

/* Byte-granular RMA. */
void TANDEM_NAME(putmem)(void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(ctx_putmem)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(getmem)(void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(ctx_getmem)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(putmem_nbi)(void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(ctx_putmem_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(getmem_nbi)(void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(ctx_getmem_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void TANDEM_NAME(putmem_signal)(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void TANDEM_NAME(ctx_putmem_signal)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void TANDEM_NAME(putmem_signal_nbi)(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void TANDEM_NAME(ctx_putmem_signal_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);

/* Signals. */
uint64_t TANDEM_NAME(signal_fetch)(const uint64_t *sig_addr);
void TANDEM_NAME(signal_add)(uint64_t *sig_addr, uint64_t signal, int pe);
void TANDEM_NAME(ctx_signal_add)(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void TANDEM_NAME(signal_set)(uint64_t *sig_addr, uint64_t signal, int pe);
void TANDEM_NAME(ctx_signal_set)(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
uint64_t TANDEM_NAME(signal_wait_until)(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* Atomic memory operations. */
#define TANDEM_DECLARE_AMO_EXTENDED(T, N) \
  T TANDEM_NAME(N##_atomic_fetch)(const T *source, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_fetch)(shmem_ctx_t ctx, const T *source, int pe); \
  void TANDEM_NAME(N##_atomic_set)(T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_set)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  T TANDEM_NAME(N##_atomic_swap)(T *dest, T value, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_swap)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_fetch_nbi)(T *fetch, const T *source, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_fetch_nbi)(shmem_ctx_t ctx, T *fetch, const T *source, int pe); \
  void TANDEM_NAME(N##_atomic_swap_nbi)(T *fetch, T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_swap_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
TANDEM_AMO_EXTENDED_TYPES(TANDEM_DECLARE_AMO_EXTENDED)
#undef TANDEM_DECLARE_AMO_EXTENDED

#define TANDEM_DECLARE_AMO_STANDARD(T, N) \
  T TANDEM_NAME(N##_atomic_compare_swap)(T *dest, T cond, T value, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_compare_swap)(shmem_ctx_t ctx, T *dest, T cond, T value, int pe); \
  T TANDEM_NAME(N##_atomic_fetch_inc)(T *dest, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_fetch_inc)(shmem_ctx_t ctx, T *dest, int pe); \
  void TANDEM_NAME(N##_atomic_inc)(T *dest, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_inc)(shmem_ctx_t ctx, T *dest, int pe); \
  T TANDEM_NAME(N##_atomic_fetch_add)(T *dest, T value, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_fetch_add)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_add)(T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_add)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_compare_swap_nbi)(T *fetch, T *dest, T cond, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_compare_swap_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe); \
  void TANDEM_NAME(N##_atomic_fetch_inc_nbi)(T *fetch, T *dest, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_fetch_inc_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, int pe); \
  void TANDEM_NAME(N##_atomic_fetch_add_nbi)(T *fetch, T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_fetch_add_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
TANDEM_AMO_STANDARD_TYPES(TANDEM_DECLARE_AMO_STANDARD)
#undef TANDEM_DECLARE_AMO_STANDARD

#define TANDEM_DECLARE_AMO_BITWISE(T, N) \
  T TANDEM_NAME(N##_atomic_fetch_and)(T *dest, T value, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_fetch_and)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  T TANDEM_NAME(N##_atomic_fetch_or)(T *dest, T value, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_fetch_or)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  T TANDEM_NAME(N##_atomic_fetch_xor)(T *dest, T value, int pe); \
  T TANDEM_NAME(ctx_##N##_atomic_fetch_xor)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_and)(T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_and)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_or)(T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_or)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_xor)(T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_xor)(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_fetch_and_nbi)(T *fetch, T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_fetch_and_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_fetch_or_nbi)(T *fetch, T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_fetch_or_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe); \
  void TANDEM_NAME(N##_atomic_fetch_xor_nbi)(T *fetch, T *dest, T value, int pe); \
  void TANDEM_NAME(ctx_##N##_atomic_fetch_xor_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
TANDEM_AMO_BITWISE_TYPES(TANDEM_DECLARE_AMO_BITWISE)
#undef TANDEM_DECLARE_AMO_BITWISE

/* The pre-1.4 atomic names (shmem_int_fadd, shmem_uint64_finc, ...), deprecated. */
#define TANDEM_DECLARE_AMO_DEPRECATED_EXTENDED(T, N) \
  TANDEM_DEPRECATED T TANDEM_NAME(N##_fetch)(const T *source, int pe); \
  TANDEM_DEPRECATED void TANDEM_NAME(N##_set)(T *dest, T value, int pe); \
  TANDEM_DEPRECATED T TANDEM_NAME(N##_swap)(T *dest, T value, int pe);
TANDEM_AMO_DEPRECATED_EXTENDED_TYPES(TANDEM_DECLARE_AMO_DEPRECATED_EXTENDED)
#undef TANDEM_DECLARE_AMO_DEPRECATED_EXTENDED
#define TANDEM_DECLARE_AMO_DEPRECATED(T, N) \
  TANDEM_DEPRECATED T TANDEM_NAME(N##_cswap)(T *dest, T cond, T value, int pe); \
  TANDEM_DEPRECATED T TANDEM_NAME(N##_finc)(T *dest, int pe); \
  TANDEM_DEPRECATED void TANDEM_NAME(N##_inc)(T *dest, int pe); \
  TANDEM_DEPRECATED T TANDEM_NAME(N##_fadd)(T *dest, T value, int pe); \
  TANDEM_DEPRECATED void TANDEM_NAME(N##_add)(T *dest, T value, int pe);
TANDEM_AMO_DEPRECATED_TYPES(TANDEM_DECLARE_AMO_DEPRECATED)
#undef TANDEM_DECLARE_AMO_DEPRECATED

/* Ordering and completion. */
void TANDEM_NAME(fence)(void);
void TANDEM_NAME(ctx_fence)(shmem_ctx_t ctx);
void TANDEM_NAME(quiet)(void);
void TANDEM_NAME(ctx_quiet)(shmem_ctx_t ctx);
void TANDEM_NAME(pe_quiet)(const int *target_pes, size_t npes);
void TANDEM_NAME(ctx_pe_quiet)(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* Barriers. */
void TANDEM_NAME(barrier_all)(void);
void TANDEM_NAME(sync_all)(void);
void TANDEM_NAME(barrier)(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* Parenthesised so that the type-generic shmem_sync macro does not expand here. */
void (TANDEM_NAME(sync))(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* Sessions: hints that a context issues a batch of operations. */
void TANDEM_NAME(ctx_session_start)(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
                                    long config_mask);
void TANDEM_NAME(ctx_session_stop)(shmem_ctx_t ctx);

/* Profiling control: no effect unless a profiling library intercepts it. */
void TANDEM_NAME(pcontrol)(const int level, ...);

/* Teams. */
int TANDEM_NAME(team_my_pe)(shmem_team_t team);
int TANDEM_NAME(team_n_pes)(shmem_team_t team);
int TANDEM_NAME(team_get_config)(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int TANDEM_NAME(team_translate_pe)(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int TANDEM_NAME(team_split_strided)(shmem_team_t parent_team, int start, int stride, int size,
                                    const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team);
int TANDEM_NAME(team_split_2d)(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                               long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                               long yaxis_mask, shmem_team_t *yaxis_team);
void TANDEM_NAME(team_destroy)(shmem_team_t team);
int TANDEM_NAME(team_sync)(shmem_team_t team);
void *TANDEM_NAME(team_ptr)(shmem_team_t team, const void *dest, int pe);
int TANDEM_NAME(team_create_ctx)(shmem_team_t team, long options, shmem_ctx_t *ctx);
int TANDEM_NAME(ctx_get_team)(shmem_ctx_t ctx, shmem_team_t *team);

/* Collectives on teams, for every standard RMA type and bytes. */
#define TANDEM_DECLARE_COLL(T, N) \
  int TANDEM_NAME(N##_broadcast)(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root); \
  int TANDEM_NAME(N##_collect)(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int TANDEM_NAME(N##_fcollect)(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int TANDEM_NAME(N##_alltoall)(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int TANDEM_NAME(N##_alltoalls)(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems);
TANDEM_COLL_TYPES(TANDEM_DECLARE_COLL)
#undef TANDEM_DECLARE_COLL
int TANDEM_NAME(broadcastmem)(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int TANDEM_NAME(collectmem)(shmem_team_t team, void *dest, const void *source, size_t nelems);
int TANDEM_NAME(fcollectmem)(shmem_team_t team, void *dest, const void *source, size_t nelems);
int TANDEM_NAME(alltoallmem)(shmem_team_t team, void *dest, const void *source, size_t nelems);
int TANDEM_NAME(alltoallsmem)(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems);

/* Reductions and scans on teams. */
/* FN is the routine's name without the prefix (int_and_reduce); the operation is pasted as
 * part of one identifier because and, or and xor are operator names in C++. */
#define TANDEM_DECLARE_REDUCE(T, FN) \
  int TANDEM_NAME(FN)(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define TANDEM_DECLARE_REDUCE_BITWISE(T, N) \
  TANDEM_DECLARE_REDUCE(T, N##_and_reduce) TANDEM_DECLARE_REDUCE(T, N##_or_reduce) TANDEM_DECLARE_REDUCE(T, N##_xor_reduce)
#define TANDEM_DECLARE_REDUCE_MINMAX(T, N) TANDEM_DECLARE_REDUCE(T, N##_max_reduce) TANDEM_DECLARE_REDUCE(T, N##_min_reduce)
#define TANDEM_DECLARE_REDUCE_ARITH(T, N) \
  TANDEM_DECLARE_REDUCE(T, N##_sum_reduce) TANDEM_DECLARE_REDUCE(T, N##_prod_reduce) \
  int TANDEM_NAME(N##_sum_inscan)(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int TANDEM_NAME(N##_sum_exscan)(shmem_team_t team, T *dest, const T *source, size_t nelems);
TANDEM_REDUCE_BITWISE_TYPES(TANDEM_DECLARE_REDUCE_BITWISE)
TANDEM_REDUCE_MINMAX_TYPES(TANDEM_DECLARE_REDUCE_MINMAX)
TANDEM_REDUCE_ARITH_TYPES(TANDEM_DECLARE_REDUCE_ARITH)
#undef TANDEM_DECLARE_REDUCE_BITWISE
#undef TANDEM_DECLARE_REDUCE_MINMAX
#undef TANDEM_DECLARE_REDUCE_ARITH
#undef TANDEM_DECLARE_REDUCE

/* Deprecated active-set collectives. */
#define TANDEM_DECLARE_COLL_SIZED(BITS) \
  void TANDEM_NAME(broadcast##BITS)(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync); \
  void TANDEM_NAME(collect##BITS)(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync); \
  void TANDEM_NAME(fcollect##BITS)(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync); \
  void TANDEM_NAME(alltoall##BITS)(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync); \
  void TANDEM_NAME(alltoalls##BITS)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
TANDEM_DECLARE_COLL_SIZED(32)
TANDEM_DECLARE_COLL_SIZED(64)
#undef TANDEM_DECLARE_COLL_SIZED
#define TANDEM_DECLARE_TO_ALL(T, FN) \
  void TANDEM_NAME(FN)(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define TANDEM_DECLARE_TO_ALL_BITWISE(T, N) \
  TANDEM_DECLARE_TO_ALL(T, N##_and_to_all) TANDEM_DECLARE_TO_ALL(T, N##_or_to_all) TANDEM_DECLARE_TO_ALL(T, N##_xor_to_all)
#define TANDEM_DECLARE_TO_ALL_MINMAX(T, N) TANDEM_DECLARE_TO_ALL(T, N##_max_to_all) TANDEM_DECLARE_TO_ALL(T, N##_min_to_all)
#define TANDEM_DECLARE_TO_ALL_ARITH(T, N) TANDEM_DECLARE_TO_ALL(T, N##_sum_to_all) TANDEM_DECLARE_TO_ALL(T, N##_prod_to_all)
TANDEM_TO_ALL_BITWISE_TYPES(TANDEM_DECLARE_TO_ALL_BITWISE)
TANDEM_TO_ALL_MINMAX_TYPES(TANDEM_DECLARE_TO_ALL_MINMAX)
TANDEM_TO_ALL_ARITH_TYPES(TANDEM_DECLARE_TO_ALL_ARITH)
#undef TANDEM_DECLARE_TO_ALL_BITWISE
#undef TANDEM_DECLARE_TO_ALL_MINMAX
#undef TANDEM_DECLARE_TO_ALL_ARITH
#undef TANDEM_DECLARE_TO_ALL

/* Point-to-point synchronisation. */
#define TANDEM_DECLARE_P2P(T, N) \
  void TANDEM_NAME(N##_wait_until)(T *ivar, int cmp, T cmp_value); \
  void TANDEM_NAME(N##_wait_until_all)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t TANDEM_NAME(N##_wait_until_any)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t TANDEM_NAME(N##_wait_until_some)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value); \
  void TANDEM_NAME(N##_wait_until_all_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
  size_t TANDEM_NAME(N##_wait_until_any_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
  size_t TANDEM_NAME(N##_wait_until_some_vector)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values); \
  int TANDEM_NAME(N##_test)(T *ivar, int cmp, T cmp_value); \
  int TANDEM_NAME(N##_test_all)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t TANDEM_NAME(N##_test_any)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t TANDEM_NAME(N##_test_some)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value); \
  int TANDEM_NAME(N##_test_all_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
  size_t TANDEM_NAME(N##_test_any_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
  size_t TANDEM_NAME(N##_test_some_vector)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values);
TANDEM_P2P_TYPES(TANDEM_DECLARE_P2P)
#undef TANDEM_DECLARE_P2P

/* Deprecated point-to-point forms. */
#define TANDEM_DECLARE_WAIT_DEPRECATED(T, N) void TANDEM_NAME(N##_wait)(T *ivar, T cmp_value);
TANDEM_WAIT_DEPRECATED_TYPES(TANDEM_DECLARE_WAIT_DEPRECATED)
#undef TANDEM_DECLARE_WAIT_DEPRECATED
void TANDEM_NAME(wait)(long *ivar, long cmp_value);
/* Parenthesised so that the type-generic shmem_wait_until macro does not expand here. */
void (TANDEM_NAME(wait_until))(long *ivar, int cmp, long cmp_value);

/* Distributed locks. */
void TANDEM_NAME(set_lock)(long *lock);
void TANDEM_NAME(clear_lock)(long *lock);
int TANDEM_NAME(test_lock)(long *lock);

#ifdef __cplusplus
}
#endif

#undef TANDEM_NAME
