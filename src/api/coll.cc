// Collectives: broadcast, collect, fcollect, alltoall(s), the reductions and scans on teams,
// and the deprecated active-set forms.  One template per routine; the typed routines are
// one-line calls expanded from the type tables.
#include "api/api.h"
#include "coll/collectives.h"

using namespace tandem;
using coll::Scan;

namespace {

struct And { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a & b); } };
struct Or { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a | b); } };
struct Xor { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a ^ b); } };
struct Max { template <typename T> T operator()(T a, T b) const { return b > a ? b : a; } };
struct Min { template <typename T> T operator()(T a, T b) const { return b < a ? b : a; } };
struct Sum { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a + b); } };
struct Prod { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a * b); } };

Group team_group(const char* call, shmem_team_t team) { return Group(call, team_of(call, "team", team)); }

int broadcast(const char* call, shmem_team_t team, void* dest, const void* source, size_t bytes, int root) {
  Group g = team_group(call, team);
  coll::broadcast(g, dest, source, bytes, g.rank_of_root(root, "PE_root"), true);
  return 0;
}

int collect(const char* call, shmem_team_t team, void* dest, const void* source, size_t bytes, bool same_size) {
  Group g = team_group(call, team);
  coll::collect(g, dest, source, bytes, same_size);
  return 0;
}

int alltoall(const char* call, shmem_team_t team, void* dest, const void* source, size_t count, size_t elem,
             ptrdiff_t dst, ptrdiff_t sst) {
  Group g = team_group(call, team);
  coll::alltoall(g, dest, source, count, elem, dst, sst);
  return 0;
}

template <typename Op, typename T>
int reduce(const char* call, shmem_team_t team, T* dest, const T* source, size_t count, Scan scan = Scan::None) {
  Group g = team_group(call, team);
  coll::reduce(g, dest, source, count, coll::fold_of<T, Op>, scan);
  return 0;
}

// The active-set forms' group, with the pSync length their routine documents.
Group active_set(const char* call, int start, int log_stride, int size, long* psync) {
  return Group(call, start, log_stride, size, psync, SHMEM_SYNC_SIZE);
}

template <typename Op, typename T>
void to_all(const char* call, T* dest, const T* source, int nreduce, int start, int log_stride, int size, long* psync) {
  if (nreduce < 0) fatal(call, "nreduce = %d is negative", nreduce);
  Group g = active_set(call, start, log_stride, size, psync);
  if (g.member()) coll::reduce(g, dest, source, static_cast<size_t>(nreduce), coll::fold_of<T, Op>);
}

}  // namespace

#define TANDEM_DEFINE_COLL(T, N)                                                                         \
  TANDEM_API(int, N##_broadcast, (shmem_team_t t, T * d, const T* s, size_t n, int root)) {             \
    return broadcast(TANDEM_CALL, t, d, s, n * sizeof(T), root);                                         \
  }                                                                                                      \
  TANDEM_API(int, N##_collect, (shmem_team_t t, T * d, const T* s, size_t n)) {                         \
    return collect(TANDEM_CALL, t, d, s, n * sizeof(T), false);                                          \
  }                                                                                                      \
  TANDEM_API(int, N##_fcollect, (shmem_team_t t, T * d, const T* s, size_t n)) {                        \
    return collect(TANDEM_CALL, t, d, s, n * sizeof(T), true);                                           \
  }                                                                                                      \
  TANDEM_API(int, N##_alltoall, (shmem_team_t t, T * d, const T* s, size_t n)) {                        \
    return alltoall(TANDEM_CALL, t, d, s, n, sizeof(T), 1, 1);                                           \
  }                                                                                                      \
  TANDEM_API(int, N##_alltoalls, (shmem_team_t t, T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n)) { \
    return alltoall(TANDEM_CALL, t, d, s, n, sizeof(T), dst, sst);                                       \
  }
TANDEM_COLL_TYPES(TANDEM_DEFINE_COLL)

TANDEM_API(int, broadcastmem, (shmem_team_t t, void* d, const void* s, size_t n, int root)) { return broadcast(TANDEM_CALL, t, d, s, n, root); }
TANDEM_API(int, collectmem, (shmem_team_t t, void* d, const void* s, size_t n)) { return collect(TANDEM_CALL, t, d, s, n, false); }
TANDEM_API(int, fcollectmem, (shmem_team_t t, void* d, const void* s, size_t n)) { return collect(TANDEM_CALL, t, d, s, n, true); }
TANDEM_API(int, alltoallmem, (shmem_team_t t, void* d, const void* s, size_t n)) { return alltoall(TANDEM_CALL, t, d, s, n, 1, 1, 1); }
TANDEM_API(int, alltoallsmem, (shmem_team_t t, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n)) {
  return alltoall(TANDEM_CALL, t, d, s, n, 1, dst, sst);
}

// FN is the routine's name (int_and_reduce), FOLD the operation.
#define TANDEM_DEFINE_REDUCE(T, FN, FOLD)                                                                \
  TANDEM_API(int, FN, (shmem_team_t t, T * d, const T* s, size_t n)) { return reduce<FOLD>(TANDEM_CALL, t, d, s, n); }
#define TANDEM_DEFINE_REDUCE_BITWISE(T, N) \
  TANDEM_DEFINE_REDUCE(T, N##_and_reduce, And) TANDEM_DEFINE_REDUCE(T, N##_or_reduce, Or) TANDEM_DEFINE_REDUCE(T, N##_xor_reduce, Xor)
#define TANDEM_DEFINE_REDUCE_MINMAX(T, N) \
  TANDEM_DEFINE_REDUCE(T, N##_max_reduce, Max) TANDEM_DEFINE_REDUCE(T, N##_min_reduce, Min)
#define TANDEM_DEFINE_REDUCE_ARITH(T, N)                                                                 \
  TANDEM_DEFINE_REDUCE(T, N##_sum_reduce, Sum) TANDEM_DEFINE_REDUCE(T, N##_prod_reduce, Prod)             \
  TANDEM_API(int, N##_sum_inscan, (shmem_team_t t, T * d, const T* s, size_t n)) {                        \
    return reduce<Sum>(TANDEM_CALL, t, d, s, n, Scan::Inclusive);                                         \
  }                                                                                                       \
  TANDEM_API(int, N##_sum_exscan, (shmem_team_t t, T * d, const T* s, size_t n)) {                        \
    return reduce<Sum>(TANDEM_CALL, t, d, s, n, Scan::Exclusive);                                         \
  }
TANDEM_REDUCE_BITWISE_TYPES(TANDEM_DEFINE_REDUCE_BITWISE)
TANDEM_REDUCE_MINMAX_TYPES(TANDEM_DEFINE_REDUCE_MINMAX)
TANDEM_REDUCE_ARITH_TYPES(TANDEM_DEFINE_REDUCE_ARITH)

// The deprecated active-set collectives on 32- and 64-bit elements.
#define TANDEM_DEFINE_COLL_SIZED(BITS)                                                                    \
  TANDEM_API(void, broadcast##BITS, (void* d, const void* s, size_t n, int root, int start, int log_stride, int size, long* psync)) { \
    Group g = active_set(TANDEM_CALL, start, log_stride, size, psync);                                    \
    if (!g.member()) return;                                                                              \
    coll::broadcast(g, d, s, n * (BITS / 8), g.rank_of_root(root, "PE_root"), false);                     \
  }                                                                                                       \
  TANDEM_API(void, collect##BITS, (void* d, const void* s, size_t n, int start, int log_stride, int size, long* psync)) { \
    Group g = active_set(TANDEM_CALL, start, log_stride, size, psync);                                    \
    if (!g.member()) return;                                                                              \
    coll::collect(g, d, s, n * (BITS / 8), false);                                                        \
  }                                                                                                       \
  TANDEM_API(void, fcollect##BITS, (void* d, const void* s, size_t n, int start, int log_stride, int size, long* psync)) { \
    Group g = active_set(TANDEM_CALL, start, log_stride, size, psync);                                    \
    if (!g.member()) return;                                                                              \
    coll::collect(g, d, s, n * (BITS / 8), true);                                                         \
  }                                                                                                       \
  TANDEM_API(void, alltoall##BITS, (void* d, const void* s, size_t n, int start, int log_stride, int size, long* psync)) { \
    Group g = active_set(TANDEM_CALL, start, log_stride, size, psync);                                    \
    if (!g.member()) return;                                                                              \
    coll::alltoall(g, d, s, n, BITS / 8, 1, 1);                                                           \
  }                                                                                                       \
  TANDEM_API(void, alltoalls##BITS, (void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int start, int log_stride, int size, long* psync)) { \
    Group g = active_set(TANDEM_CALL, start, log_stride, size, psync);                                    \
    if (!g.member()) return;                                                                              \
    coll::alltoall(g, d, s, n, BITS / 8, dst, sst);                                                       \
  }
TANDEM_DEFINE_COLL_SIZED(32)
TANDEM_DEFINE_COLL_SIZED(64)

#define TANDEM_DEFINE_TO_ALL(T, FN, FOLD)                                                                 \
  TANDEM_API(void, FN, (T * d, const T* s, int n, int start, int log_stride, int size, T*, long* psync)) { \
    to_all<FOLD>(TANDEM_CALL, d, s, n, start, log_stride, size, psync);                                   \
  }
#define TANDEM_DEFINE_TO_ALL_BITWISE(T, N) \
  TANDEM_DEFINE_TO_ALL(T, N##_and_to_all, And) TANDEM_DEFINE_TO_ALL(T, N##_or_to_all, Or) TANDEM_DEFINE_TO_ALL(T, N##_xor_to_all, Xor)
#define TANDEM_DEFINE_TO_ALL_MINMAX(T, N) \
  TANDEM_DEFINE_TO_ALL(T, N##_max_to_all, Max) TANDEM_DEFINE_TO_ALL(T, N##_min_to_all, Min)
#define TANDEM_DEFINE_TO_ALL_ARITH(T, N) \
  TANDEM_DEFINE_TO_ALL(T, N##_sum_to_all, Sum) TANDEM_DEFINE_TO_ALL(T, N##_prod_to_all, Prod)
TANDEM_TO_ALL_BITWISE_TYPES(TANDEM_DEFINE_TO_ALL_BITWISE)
TANDEM_TO_ALL_MINMAX_TYPES(TANDEM_DEFINE_TO_ALL_MINMAX)
TANDEM_TO_ALL_ARITH_TYPES(TANDEM_DEFINE_TO_ALL_ARITH)
