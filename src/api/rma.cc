// Remote memory access: put, get, p, g, the strided forms and their nbi twins, for every
// standard RMA type, every size and bytes.  One template per operation; the typed routines
// are one-line calls expanded from the type tables.
#include "api/api.h"
#include "core/backoff.h"
#include "nbi/scheduler.h"
#include "mem/target.h"
#include "transport/shm.h"

#include <algorithm>
#include <vector>

using namespace tandem;

namespace {

enum class Blocking { Yes, No };

void submit(const char* call, const Op& op, Blocking blocking) {
  if (blocking == Blocking::Yes) scheduler().submit(call, op);
  else scheduler().submit_nbi(call, op);
}

template <typename T>
void put(const char* call, shmem_ctx_t ctx, T* dest, const T* source, size_t nelems, int pe, Blocking b) {
  pe = ctx_pe(call, ctx, pe);
  const size_t bytes = nelems * sizeof(T);
  if (nothing_to_move(call, bytes, pe)) return;
  check_buffer(call, "dest", dest, bytes);
  check_buffer(call, "source", source, bytes);
  const Target to = locate(call, "dest", dest, bytes, pe);
  submit(call, Op{Op::Kind::Put, to, const_cast<T*>(source), bytes}, b);
}

template <typename T>
void get(const char* call, shmem_ctx_t ctx, T* dest, const T* source, size_t nelems, int pe, Blocking b) {
  pe = ctx_pe(call, ctx, pe);
  const size_t bytes = nelems * sizeof(T);
  if (nothing_to_move(call, bytes, pe)) return;
  check_buffer(call, "dest", dest, bytes);
  check_buffer(call, "source", source, bytes);
  const Target from = locate(call, "source", source, bytes, pe);
  submit(call, Op{Op::Kind::Get, from, dest, bytes}, b);
}

template <typename T>
void p(const char* call, shmem_ctx_t ctx, T* dest, T value, int pe) {
  pe = ctx_pe(call, ctx, pe);
  check_buffer(call, "dest", dest, sizeof(T));
  const Target to = locate(call, "dest", dest, sizeof(T), pe);
  if (to.mapped) *reinterpret_cast<T*>(to.mapped) = value;
  else scheduler().submit(call, Op{Op::Kind::Put, to, &value, sizeof(T)});
}

template <typename T>
T g(const char* call, shmem_ctx_t ctx, const T* source, int pe) {
  pe = ctx_pe(call, ctx, pe);
  check_buffer(call, "source", source, sizeof(T));
  const Target from = locate(call, "source", source, sizeof(T), pe);
  if (from.mapped) {
    look_now_and_then();  // a program may spin on it
    return *reinterpret_cast<const T*>(from.mapped);
  }
  T value;
  scheduler().submit(call, Op{Op::Kind::Get, from, &value, sizeof(T)});
  return value;
}

// Elements spanned by `blocks` blocks of `block` elements placed `stride` elements apart.
size_t strided_extent(const char* call, const char* what, ptrdiff_t stride, size_t block, size_t blocks) {
  if (stride < 1) fatal(call, "%s = %td is not a positive stride", what, stride);
  return blocks == 0 ? 0 : (blocks - 1) * static_cast<size_t>(stride) + block;
}

// iput, iget, ibput and ibget (block = 1 for the i forms), through Scheduler::submit_strided;
// one completion wait at the end, where Ops remain in flight, gives the blocking semantics.
template <typename T>
void strided(const char* call, Op::Kind kind, shmem_ctx_t ctx, T* dest, const T* source, ptrdiff_t dst,
             ptrdiff_t sst, size_t block, size_t blocks, int pe) {
  pe = ctx_pe(call, ctx, pe);
  if (nothing_to_move(call, block == 0 || blocks == 0 ? 0 : 1, pe)) return;  // (the product may wrap)
  const size_t dest_bytes = strided_extent(call, "dst", dst, block, blocks) * sizeof(T);
  const size_t source_bytes = strided_extent(call, "sst", sst, block, blocks) * sizeof(T);
  check_buffer(call, "dest", dest, dest_bytes);
  check_buffer(call, "source", source, source_bytes);
  const bool put = kind == Op::Kind::Put;
  const Target remote = put ? locate(call, "dest", dest, dest_bytes, pe) : locate(call, "source", source, source_bytes, pe);
  char* local = reinterpret_cast<char*>(put ? const_cast<T*>(source) : dest);
  if (scheduler().submit_strided(call, kind, remote, local, put ? dst : sst, put ? sst : dst, sizeof(T), block, blocks))
    scheduler().quiet(call);
}

}  // namespace

#define CTX SHMEM_CTX_DEFAULT
#define TANDEM_DEFINE_RMA(T, N)                                                                                    \
  TANDEM_API(void, N##_put, (T * d, const T* s, size_t n, int pe)) { put(TANDEM_CALL, CTX, d, s, n, pe, Blocking::Yes); } \
  TANDEM_API(void, ctx_##N##_put, (shmem_ctx_t c, T * d, const T* s, size_t n, int pe)) { put(TANDEM_CALL, c, d, s, n, pe, Blocking::Yes); } \
  TANDEM_API(void, N##_get, (T * d, const T* s, size_t n, int pe)) { get(TANDEM_CALL, CTX, d, s, n, pe, Blocking::Yes); } \
  TANDEM_API(void, ctx_##N##_get, (shmem_ctx_t c, T * d, const T* s, size_t n, int pe)) { get(TANDEM_CALL, c, d, s, n, pe, Blocking::Yes); } \
  TANDEM_API(void, N##_put_nbi, (T * d, const T* s, size_t n, int pe)) { put(TANDEM_CALL, CTX, d, s, n, pe, Blocking::No); } \
  TANDEM_API(void, ctx_##N##_put_nbi, (shmem_ctx_t c, T * d, const T* s, size_t n, int pe)) { put(TANDEM_CALL, c, d, s, n, pe, Blocking::No); } \
  TANDEM_API(void, N##_get_nbi, (T * d, const T* s, size_t n, int pe)) { get(TANDEM_CALL, CTX, d, s, n, pe, Blocking::No); } \
  TANDEM_API(void, ctx_##N##_get_nbi, (shmem_ctx_t c, T * d, const T* s, size_t n, int pe)) { get(TANDEM_CALL, c, d, s, n, pe, Blocking::No); } \
  TANDEM_API(void, N##_p, (T * d, T v, int pe)) { p(TANDEM_CALL, CTX, d, v, pe); } \
  TANDEM_API(void, ctx_##N##_p, (shmem_ctx_t c, T * d, T v, int pe)) { p(TANDEM_CALL, c, d, v, pe); } \
  TANDEM_API(T, N##_g, (const T* s, int pe)) { return g(TANDEM_CALL, CTX, s, pe); } \
  TANDEM_API(T, ctx_##N##_g, (shmem_ctx_t c, const T* s, int pe)) { return g(TANDEM_CALL, c, s, pe); } \
  TANDEM_API(void, N##_iput, (T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, CTX, d, s, dst, sst, 1, n, pe); } \
  TANDEM_API(void, ctx_##N##_iput, (shmem_ctx_t c, T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, c, d, s, dst, sst, 1, n, pe); } \
  TANDEM_API(void, N##_iget, (T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, CTX, d, s, dst, sst, 1, n, pe); } \
  TANDEM_API(void, ctx_##N##_iget, (shmem_ctx_t c, T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, c, d, s, dst, sst, 1, n, pe); } \
  TANDEM_API(void, N##_ibput, (T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, CTX, d, s, dst, sst, b, nb, pe); } \
  TANDEM_API(void, ctx_##N##_ibput, (shmem_ctx_t c, T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, c, d, s, dst, sst, b, nb, pe); } \
  TANDEM_API(void, N##_ibget, (T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, CTX, d, s, dst, sst, b, nb, pe); } \
  TANDEM_API(void, ctx_##N##_ibget, (shmem_ctx_t c, T * d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, c, d, s, dst, sst, b, nb, pe); }
TANDEM_RMA_TYPES(TANDEM_DEFINE_RMA)

// Sized forms: the element type of each width, behind void pointers.
#define TANDEM_DEFINE_SIZED(BITS, E)                                                                               \
  TANDEM_API(void, put##BITS, (void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::Yes); } \
  TANDEM_API(void, ctx_put##BITS, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::Yes); } \
  TANDEM_API(void, get##BITS, (void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::Yes); } \
  TANDEM_API(void, ctx_get##BITS, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::Yes); } \
  TANDEM_API(void, put##BITS##_nbi, (void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::No); } \
  TANDEM_API(void, ctx_put##BITS##_nbi, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::No); } \
  TANDEM_API(void, get##BITS##_nbi, (void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::No); } \
  TANDEM_API(void, ctx_get##BITS##_nbi, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, Blocking::No); } \
  TANDEM_API(void, iput##BITS, (void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, CTX, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, 1, n, pe); } \
  TANDEM_API(void, ctx_iput##BITS, (shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, c, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, 1, n, pe); } \
  TANDEM_API(void, iget##BITS, (void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, CTX, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, 1, n, pe); } \
  TANDEM_API(void, ctx_iget##BITS, (shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, c, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, 1, n, pe); } \
  TANDEM_API(void, ibput##BITS, (void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, CTX, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, b, nb, pe); } \
  TANDEM_API(void, ctx_ibput##BITS, (shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Put, c, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, b, nb, pe); } \
  TANDEM_API(void, ibget##BITS, (void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, CTX, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, b, nb, pe); } \
  TANDEM_API(void, ctx_ibget##BITS, (shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t nb, int pe)) { strided(TANDEM_CALL, Op::Kind::Get, c, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, b, nb, pe); }
TANDEM_RMA_SIZES(TANDEM_DEFINE_SIZED)

TANDEM_API(void, putmem, (void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, CTX, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::Yes); }
TANDEM_API(void, ctx_putmem, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, c, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::Yes); }
TANDEM_API(void, getmem, (void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, CTX, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::Yes); }
TANDEM_API(void, ctx_getmem, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, c, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::Yes); }
TANDEM_API(void, putmem_nbi, (void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, CTX, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::No); }
TANDEM_API(void, ctx_putmem_nbi, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { put(TANDEM_CALL, c, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::No); }
TANDEM_API(void, getmem_nbi, (void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, CTX, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::No); }
TANDEM_API(void, ctx_getmem_nbi, (shmem_ctx_t c, void* d, const void* s, size_t n, int pe)) { get(TANDEM_CALL, c, static_cast<char*>(d), static_cast<const char*>(s), n, pe, Blocking::No); }
