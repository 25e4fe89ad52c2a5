// Atomic memory operations for the standard, extended and bitwise type tables, their nbi
// forms and the deprecated unprefixed names.  The scheduler sends every AMO of a job down one
// path (CPU atomics when all PEs share memory, the network's otherwise), so they stay atomic
// with each other.
#include "api/api.h"
#include "mem/target.h"
#include "nbi/scheduler.h"
#include "transport/shm.h"

using namespace tandem;
using shm::AmoOp;

namespace {

template <typename T>
T amo(const char* call, shmem_ctx_t ctx, AmoOp op, T* dest, int pe, T operand = T(), T compare = T(),
      bool fetch = true) {
  pe = ctx_pe(call, ctx, pe);
  check_buffer(call, "dest", dest, sizeof(T));
  if (__builtin_expect(reinterpret_cast<uintptr_t>(dest) % sizeof(T) != 0, 0))
    fatal(call, "dest = %p is not aligned to its %zu-byte type", static_cast<void*>(dest), sizeof(T));
  return scheduler().atomic(call, locate(call, "dest", dest, sizeof(T), pe), op, operand, compare, fetch);
}

// The non-fetching forms: over the network they complete at the next quiet.
template <typename T>
void amo_post(const char* call, shmem_ctx_t ctx, AmoOp op, T* dest, int pe, T operand) {
  amo(call, ctx, op, dest, pe, operand, T(), false);
}

// The nbi forms complete at once; `fetch` receives the old value.
template <typename T>
void amo_nbi(const char* call, shmem_ctx_t ctx, AmoOp op, T* fetch, T* dest, int pe, T operand = T(), T compare = T()) {
  check_buffer(call, "fetch", fetch, sizeof(T));
  *fetch = amo(call, ctx, op, dest, pe, operand, compare);
}

}  // namespace

#define CTX SHMEM_CTX_DEFAULT
#define TANDEM_DEFINE_AMO_EXTENDED(T, N)                                                                   \
  TANDEM_API(T, N##_atomic_fetch, (const T* s, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Fetch, const_cast<T*>(s), pe); } \
  TANDEM_API(T, ctx_##N##_atomic_fetch, (shmem_ctx_t c, const T* s, int pe)) { return amo(TANDEM_CALL, c, AmoOp::Fetch, const_cast<T*>(s), pe); } \
  TANDEM_API(void, N##_atomic_set, (T * d, T v, int pe)) { amo_post(TANDEM_CALL, CTX, AmoOp::Set, d, pe, v); } \
  TANDEM_API(void, ctx_##N##_atomic_set, (shmem_ctx_t c, T * d, T v, int pe)) { amo_post(TANDEM_CALL, c, AmoOp::Set, d, pe, v); } \
  TANDEM_API(T, N##_atomic_swap, (T * d, T v, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Swap, d, pe, v); } \
  TANDEM_API(T, ctx_##N##_atomic_swap, (shmem_ctx_t c, T * d, T v, int pe)) { return amo(TANDEM_CALL, c, AmoOp::Swap, d, pe, v); } \
  TANDEM_API(void, N##_atomic_fetch_nbi, (T * f, const T* s, int pe)) { amo_nbi(TANDEM_CALL, CTX, AmoOp::Fetch, f, const_cast<T*>(s), pe); } \
  TANDEM_API(void, ctx_##N##_atomic_fetch_nbi, (shmem_ctx_t c, T * f, const T* s, int pe)) { amo_nbi(TANDEM_CALL, c, AmoOp::Fetch, f, const_cast<T*>(s), pe); } \
  TANDEM_API(void, N##_atomic_swap_nbi, (T * f, T * d, T v, int pe)) { amo_nbi(TANDEM_CALL, CTX, AmoOp::Swap, f, d, pe, v); } \
  TANDEM_API(void, ctx_##N##_atomic_swap_nbi, (shmem_ctx_t c, T * f, T * d, T v, int pe)) { amo_nbi(TANDEM_CALL, c, AmoOp::Swap, f, d, pe, v); }
TANDEM_AMO_EXTENDED_TYPES(TANDEM_DEFINE_AMO_EXTENDED)

#define TANDEM_DEFINE_AMO_STANDARD(T, N)                                                                   \
  TANDEM_API(T, N##_atomic_compare_swap, (T * d, T cond, T v, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::CompareSwap, d, pe, v, cond); } \
  TANDEM_API(T, ctx_##N##_atomic_compare_swap, (shmem_ctx_t c, T * d, T cond, T v, int pe)) { return amo(TANDEM_CALL, c, AmoOp::CompareSwap, d, pe, v, cond); } \
  TANDEM_API(T, N##_atomic_fetch_inc, (T * d, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Add, d, pe, static_cast<T>(1)); } \
  TANDEM_API(T, ctx_##N##_atomic_fetch_inc, (shmem_ctx_t c, T * d, int pe)) { return amo(TANDEM_CALL, c, AmoOp::Add, d, pe, static_cast<T>(1)); } \
  TANDEM_API(void, N##_atomic_inc, (T * d, int pe)) { amo_post(TANDEM_CALL, CTX, AmoOp::Add, d, pe, static_cast<T>(1)); } \
  TANDEM_API(void, ctx_##N##_atomic_inc, (shmem_ctx_t c, T * d, int pe)) { amo_post(TANDEM_CALL, c, AmoOp::Add, d, pe, static_cast<T>(1)); } \
  TANDEM_API(T, N##_atomic_fetch_add, (T * d, T v, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Add, d, pe, v); } \
  TANDEM_API(T, ctx_##N##_atomic_fetch_add, (shmem_ctx_t c, T * d, T v, int pe)) { return amo(TANDEM_CALL, c, AmoOp::Add, d, pe, v); } \
  TANDEM_API(void, N##_atomic_add, (T * d, T v, int pe)) { amo_post(TANDEM_CALL, CTX, AmoOp::Add, d, pe, v); } \
  TANDEM_API(void, ctx_##N##_atomic_add, (shmem_ctx_t c, T * d, T v, int pe)) { amo_post(TANDEM_CALL, c, AmoOp::Add, d, pe, v); } \
  TANDEM_API(void, N##_atomic_compare_swap_nbi, (T * f, T * d, T cond, T v, int pe)) { amo_nbi(TANDEM_CALL, CTX, AmoOp::CompareSwap, f, d, pe, v, cond); } \
  TANDEM_API(void, ctx_##N##_atomic_compare_swap_nbi, (shmem_ctx_t c, T * f, T * d, T cond, T v, int pe)) { amo_nbi(TANDEM_CALL, c, AmoOp::CompareSwap, f, d, pe, v, cond); } \
  TANDEM_API(void, N##_atomic_fetch_inc_nbi, (T * f, T * d, int pe)) { amo_nbi(TANDEM_CALL, CTX, AmoOp::Add, f, d, pe, static_cast<T>(1)); } \
  TANDEM_API(void, ctx_##N##_atomic_fetch_inc_nbi, (shmem_ctx_t c, T * f, T * d, int pe)) { amo_nbi(TANDEM_CALL, c, AmoOp::Add, f, d, pe, static_cast<T>(1)); } \
  TANDEM_API(void, N##_atomic_fetch_add_nbi, (T * f, T * d, T v, int pe)) { amo_nbi(TANDEM_CALL, CTX, AmoOp::Add, f, d, pe, v); } \
  TANDEM_API(void, ctx_##N##_atomic_fetch_add_nbi, (shmem_ctx_t c, T * f, T * d, T v, int pe)) { amo_nbi(TANDEM_CALL, c, AmoOp::Add, f, d, pe, v); }
TANDEM_AMO_STANDARD_TYPES(TANDEM_DEFINE_AMO_STANDARD)

#define TANDEM_DEFINE_AMO_BITWISE_OP(T, N, OP, KIND)                                                       \
  TANDEM_API(T, N##_atomic_fetch_##OP, (T * d, T v, int pe)) { return amo(TANDEM_CALL, CTX, KIND, d, pe, v); } \
  TANDEM_API(T, ctx_##N##_atomic_fetch_##OP, (shmem_ctx_t c, T * d, T v, int pe)) { return amo(TANDEM_CALL, c, KIND, d, pe, v); } \
  TANDEM_API(void, N##_atomic_##OP, (T * d, T v, int pe)) { amo_post(TANDEM_CALL, CTX, KIND, d, pe, v); } \
  TANDEM_API(void, ctx_##N##_atomic_##OP, (shmem_ctx_t c, T * d, T v, int pe)) { amo_post(TANDEM_CALL, c, KIND, d, pe, v); } \
  TANDEM_API(void, N##_atomic_fetch_##OP##_nbi, (T * f, T * d, T v, int pe)) { amo_nbi(TANDEM_CALL, CTX, KIND, f, d, pe, v); } \
  TANDEM_API(void, ctx_##N##_atomic_fetch_##OP##_nbi, (shmem_ctx_t c, T * f, T * d, T v, int pe)) { amo_nbi(TANDEM_CALL, c, KIND, f, d, pe, v); }
#define TANDEM_DEFINE_AMO_BITWISE(T, N)                \
  TANDEM_DEFINE_AMO_BITWISE_OP(T, N, and, AmoOp::And) \
  TANDEM_DEFINE_AMO_BITWISE_OP(T, N, or, AmoOp::Or)   \
  TANDEM_DEFINE_AMO_BITWISE_OP(T, N, xor, AmoOp::Xor)
TANDEM_AMO_BITWISE_TYPES(TANDEM_DEFINE_AMO_BITWISE)

#define TANDEM_DEFINE_AMO_DEPRECATED_EXTENDED(T, N)                                                        \
  TANDEM_API(T, N##_fetch, (const T* s, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Fetch, const_cast<T*>(s), pe); } \
  TANDEM_API(void, N##_set, (T * d, T v, int pe)) { amo_post(TANDEM_CALL, CTX, AmoOp::Set, d, pe, v); } \
  TANDEM_API(T, N##_swap, (T * d, T v, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Swap, d, pe, v); }
TANDEM_AMO_DEPRECATED_EXTENDED_TYPES(TANDEM_DEFINE_AMO_DEPRECATED_EXTENDED)

#define TANDEM_DEFINE_AMO_DEPRECATED(T, N)                                                                 \
  TANDEM_API(T, N##_cswap, (T * d, T cond, T v, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::CompareSwap, d, pe, v, cond); } \
  TANDEM_API(T, N##_finc, (T * d, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Add, d, pe, static_cast<T>(1)); } \
  TANDEM_API(void, N##_inc, (T * d, int pe)) { amo_post(TANDEM_CALL, CTX, AmoOp::Add, d, pe, static_cast<T>(1)); } \
  TANDEM_API(T, N##_fadd, (T * d, T v, int pe)) { return amo(TANDEM_CALL, CTX, AmoOp::Add, d, pe, v); } \
  TANDEM_API(void, N##_add, (T * d, T v, int pe)) { amo_post(TANDEM_CALL, CTX, AmoOp::Add, d, pe, v); }
TANDEM_AMO_DEPRECATED_TYPES(TANDEM_DEFINE_AMO_DEPRECATED)
