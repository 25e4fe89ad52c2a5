// Collectives: broadcast, collect, fcollect, alltoall(s), the reductions and scans on teams,
// their nonblocking forms (shmemx_*_nbi), and the deprecated active-set forms.  One template
// per routine serves both forms; the typed routines are one-line calls expanded from the
// type tables.
#include "api/api.h"
#include "coll/collectives.h"
#include "coll/nbc.h"

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

// Runs a collective on a team: at once (`req` null: the blocking form), or posted as a
// nonblocking request (coll/nbc.h) whose handle goes to *req; `dest` and `source` are the
// bytes it writes and reads (SHMEM_DEBUG's overlap check).  `body(g)` runs the algorithm over
// the team's Group, which a request builds on its fiber.
template <typename Body>
int on_team(const char* call, Team& t, shmemx_req_h* req, coll::Span dest, coll::Span source, Body body) {
  if (!req) {
    Group g(call, t);
    body(g);
    return 0;
  }
  *req = coll::post(call, t, coll::Body([call, &t, body] {
    Group g(call, t);
    body(g);
  }), dest, source);
  return 0;
}

// The request argument of an _nbi form.
shmemx_req_h* request(const char* call, shmemx_req_h* req) {
  if (!req) fatal(call, "req = NULL: a nonblocking collective needs somewhere to put its request");
  return req;
}

int broadcast(const char* call, shmem_team_t team, void* dest, const void* source, size_t bytes, int root,
              shmemx_req_h* req = nullptr) {
  return on_team(call, team_of(call, "team", team), req, {dest, bytes}, {source, bytes},
                 [=](Group& g) { coll::broadcast(g, dest, source, bytes, g.rank_of_root(root, "PE_root"), true); });
}

// collect's dest size depends on every PE's count: its overlap check covers the source only.
int collect(const char* call, shmem_team_t team, void* dest, const void* source, size_t bytes, bool same_size,
            shmemx_req_h* req = nullptr) {
  Team& t = team_of(call, "team", team);
  const size_t whole = same_size && req ? bytes * static_cast<size_t>(t.size()) : 0;
  return on_team(call, t, req, {dest, whole}, {source, bytes},
                 [=](Group& g) { coll::collect(g, dest, source, bytes, same_size); });
}

int alltoall(const char* call, shmem_team_t team, void* dest, const void* source, size_t count, size_t elem,
             ptrdiff_t dst, ptrdiff_t sst, shmemx_req_h* req = nullptr) {
  Team& t = team_of(call, "team", team);
  // The bytes from the first element of the first block to past the last of the last.
  const auto span = [&](ptrdiff_t stride) {
    if (!req || count == 0 || stride < 1) return size_t{0};
    return ((static_cast<size_t>(t.size()) * count - 1) * static_cast<size_t>(stride) + 1) * elem;
  };
  return on_team(call, t, req, {dest, span(dst)}, {source, span(sst)},
                 [=](Group& g) { coll::alltoall(g, dest, source, count, elem, dst, sst); });
}

template <typename Op, typename T>
int reduce(const char* call, shmem_team_t team, T* dest, const T* source, size_t count, Scan scan = Scan::None,
           shmemx_req_h* req = nullptr) {
  return on_team(call, team_of(call, "team", team), req, {dest, count * sizeof(T)}, {source, count * sizeof(T)},
                 [=](Group& g) { coll::reduce(g, dest, source, count, coll::fold_of<T, Op>, scan); });
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

// The nonblocking forms: the same with _nbi and the request last.
#define R request(TANDEM_CALL, r)
#define TANDEM_DEFINE_COLL_NBI(T, N)                                                                     \
  TANDEM_APIX(int, N##_broadcast_nbi, (shmem_team_t t, T * d, const T* s, size_t n, int root, shmemx_req_h* r)) { \
    return broadcast(TANDEM_CALL, t, d, s, n * sizeof(T), root, R);                                     \
  }                                                                                                      \
  TANDEM_APIX(int, N##_collect_nbi, (shmem_team_t t, T * d, const T* s, size_t n, shmemx_req_h* r)) {   \
    return collect(TANDEM_CALL, t, d, s, n * sizeof(T), false, R);                                      \
  }                                                                                                      \
  TANDEM_APIX(int, N##_fcollect_nbi, (shmem_team_t t, T * d, const T* s, size_t n, shmemx_req_h* r)) {  \
    return collect(TANDEM_CALL, t, d, s, n * sizeof(T), true, R);                                       \
  }                                                                                                      \
  TANDEM_APIX(int, N##_alltoall_nbi, (shmem_team_t t, T * d, const T* s, size_t n, shmemx_req_h* r)) {  \
    return alltoall(TANDEM_CALL, t, d, s, n, sizeof(T), 1, 1, R);                                       \
  }                                                                                                      \
  TANDEM_APIX(int, N##_alltoalls_nbi, (shmem_team_t t, T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, shmemx_req_h* r)) { \
    return alltoall(TANDEM_CALL, t, d, s, n, sizeof(T), dst, sst, R);                                   \
  }
TANDEM_COLL_TYPES(TANDEM_DEFINE_COLL_NBI)

TANDEM_APIX(int, broadcastmem_nbi, (shmem_team_t t, void* d, const void* s, size_t n, int root, shmemx_req_h* r)) {
  return broadcast(TANDEM_CALL, t, d, s, n, root, R);
}
TANDEM_APIX(int, collectmem_nbi, (shmem_team_t t, void* d, const void* s, size_t n, shmemx_req_h* r)) {
  return collect(TANDEM_CALL, t, d, s, n, false, R);
}
TANDEM_APIX(int, fcollectmem_nbi, (shmem_team_t t, void* d, const void* s, size_t n, shmemx_req_h* r)) {
  return collect(TANDEM_CALL, t, d, s, n, true, R);
}
TANDEM_APIX(int, alltoallmem_nbi, (shmem_team_t t, void* d, const void* s, size_t n, shmemx_req_h* r)) {
  return alltoall(TANDEM_CALL, t, d, s, n, 1, 1, 1, R);
}
TANDEM_APIX(int, alltoallsmem_nbi, (shmem_team_t t, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, shmemx_req_h* r)) {
  return alltoall(TANDEM_CALL, t, d, s, n, 1, dst, sst, R);
}

#define TANDEM_DEFINE_REDUCE_NBI(T, FN, FOLD, SCAN)                                                       \
  TANDEM_APIX(int, FN##_nbi, (shmem_team_t t, T * d, const T* s, size_t n, shmemx_req_h* r)) {            \
    return reduce<FOLD>(TANDEM_CALL, t, d, s, n, SCAN, R);                                                \
  }
#define TANDEM_DEFINE_REDUCE_NBI_BITWISE(T, N)              \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_and_reduce, And, Scan::None) \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_or_reduce, Or, Scan::None)   \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_xor_reduce, Xor, Scan::None)
#define TANDEM_DEFINE_REDUCE_NBI_MINMAX(T, N)               \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_max_reduce, Max, Scan::None) \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_min_reduce, Min, Scan::None)
#define TANDEM_DEFINE_REDUCE_NBI_ARITH(T, N)                      \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_sum_reduce, Sum, Scan::None)       \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_prod_reduce, Prod, Scan::None)     \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_sum_inscan, Sum, Scan::Inclusive)  \
  TANDEM_DEFINE_REDUCE_NBI(T, N##_sum_exscan, Sum, Scan::Exclusive)
TANDEM_REDUCE_BITWISE_TYPES(TANDEM_DEFINE_REDUCE_NBI_BITWISE)
TANDEM_REDUCE_MINMAX_TYPES(TANDEM_DEFINE_REDUCE_NBI_MINMAX)
TANDEM_REDUCE_ARITH_TYPES(TANDEM_DEFINE_REDUCE_NBI_ARITH)

TANDEM_APIX(int, team_sync_nbi, (shmem_team_t team, shmemx_req_h* r)) {
  const char* call = TANDEM_CALL;
  Team& t = team_of(call, "team", team);
  return on_team(call, t, request(call, r), {}, {}, [call, &t](Group&) { team_sync(call, t); });
}
#undef R

TANDEM_APIX(int, req_test, (shmemx_req_h* req)) { return coll::test(TANDEM_CALL, req); }
TANDEM_APIX(void, req_wait, (shmemx_req_h* req)) { coll::wait(TANDEM_CALL, req); }
TANDEM_APIX(void, req_waitall, (size_t count, shmemx_req_h* reqs)) { coll::wait_all(TANDEM_CALL, count, reqs); }

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
