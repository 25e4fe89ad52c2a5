// Put-with-signal and the signal routines.  The data lands first (a CPU copy, or a network
// write waited for), then the signal is updated with release ordering, so a PE that sees the
// signal sees the data.  An nbi form whose copy the scheduler holds back holds its signal
// behind it.
#include "api/api.h"
#include "api/compare.h"
#include "core/backoff.h"
#include "mem/target.h"
#include "nbi/scheduler.h"
#include "transport/shm.h"

using namespace tandem;


namespace {

void check_sig_op(const char* call, int sig_op) {
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(call, "sig_op = %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", sig_op);
}

void update_signal(const char* call, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) {
  check_buffer(call, "sig_addr", sig_addr, sizeof(uint64_t));
  check_sig_op(call, sig_op);
  scheduler().update_signal(call, locate(call, "sig_addr", sig_addr, sizeof(uint64_t), pe), signal,
                            sig_op == SHMEM_SIGNAL_ADD);
}

template <typename T>
void put_signal(const char* call, shmem_ctx_t ctx, T* dest, const T* source, size_t nelems,
                uint64_t* sig_addr, uint64_t signal, int sig_op, int pe, bool nbi) {
  pe = ctx_pe(call, ctx, pe);
  const size_t bytes = nelems * sizeof(T);
  // No data: the signal is still updated, as the data would have been delivered.
  if (nothing_to_move(call, bytes, pe)) return update_signal(call, sig_addr, signal, sig_op, pe);
  check_buffer(call, "dest", dest, bytes);
  check_buffer(call, "source", source, bytes);
  check_buffer(call, "sig_addr", sig_addr, sizeof(uint64_t));
  check_sig_op(call, sig_op);
  const Target to = locate(call, "dest", dest, bytes, pe);
  const Target sig = locate(call, "sig_addr", sig_addr, sizeof(uint64_t), pe);
  scheduler().put_signal(call, Op{Op::Kind::Put, to, const_cast<T*>(source), bytes}, sig, signal,
                         sig_op == SHMEM_SIGNAL_ADD, nbi);
}

}  // namespace

#define CTX SHMEM_CTX_DEFAULT
#define TANDEM_SIGNAL_PARAMS(T) (T * d, const T* s, size_t n, uint64_t* sig, uint64_t v, int op, int pe)
#define TANDEM_CTX_SIGNAL_PARAMS(T) (shmem_ctx_t c, T * d, const T* s, size_t n, uint64_t* sig, uint64_t v, int op, int pe)
#define TANDEM_DEFINE_PUT_SIGNAL(T, N)                                                                   \
  TANDEM_API(void, N##_put_signal, TANDEM_SIGNAL_PARAMS(T)) { put_signal(TANDEM_CALL, CTX, d, s, n, sig, v, op, pe, false); } \
  TANDEM_API(void, ctx_##N##_put_signal, TANDEM_CTX_SIGNAL_PARAMS(T)) { put_signal(TANDEM_CALL, c, d, s, n, sig, v, op, pe, false); } \
  TANDEM_API(void, N##_put_signal_nbi, TANDEM_SIGNAL_PARAMS(T)) { put_signal(TANDEM_CALL, CTX, d, s, n, sig, v, op, pe, true); } \
  TANDEM_API(void, ctx_##N##_put_signal_nbi, TANDEM_CTX_SIGNAL_PARAMS(T)) { put_signal(TANDEM_CALL, c, d, s, n, sig, v, op, pe, true); }
TANDEM_RMA_TYPES(TANDEM_DEFINE_PUT_SIGNAL)

#define TANDEM_DEFINE_PUT_SIGNAL_SIZED(BITS, E)                                                          \
  TANDEM_API(void, put##BITS##_signal, TANDEM_SIGNAL_PARAMS(void)) { put_signal(TANDEM_CALL, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, sig, v, op, pe, false); } \
  TANDEM_API(void, ctx_put##BITS##_signal, TANDEM_CTX_SIGNAL_PARAMS(void)) { put_signal(TANDEM_CALL, c, static_cast<E*>(d), static_cast<const E*>(s), n, sig, v, op, pe, false); } \
  TANDEM_API(void, put##BITS##_signal_nbi, TANDEM_SIGNAL_PARAMS(void)) { put_signal(TANDEM_CALL, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, sig, v, op, pe, true); } \
  TANDEM_API(void, ctx_put##BITS##_signal_nbi, TANDEM_CTX_SIGNAL_PARAMS(void)) { put_signal(TANDEM_CALL, c, static_cast<E*>(d), static_cast<const E*>(s), n, sig, v, op, pe, true); }
TANDEM_RMA_SIZES(TANDEM_DEFINE_PUT_SIGNAL_SIZED)
TANDEM_DEFINE_PUT_SIGNAL_SIZED(mem, char)

TANDEM_API(uint64_t, signal_fetch, (const uint64_t* sig_addr)) {
  check_ready(TANDEM_CALL);
  check_buffer(TANDEM_CALL, "sig_addr", sig_addr, sizeof(uint64_t));
  drive_progress_in_spin();  // a program may spin on it
  return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

TANDEM_API(void, signal_add, (uint64_t* sig_addr, uint64_t signal, int pe)) { update_signal(TANDEM_CALL, sig_addr, signal, SHMEM_SIGNAL_ADD, pe); }
TANDEM_API(void, ctx_signal_add, (shmem_ctx_t c, uint64_t* sig_addr, uint64_t signal, int pe)) {
  update_signal(TANDEM_CALL, sig_addr, signal, SHMEM_SIGNAL_ADD, ctx_pe(TANDEM_CALL, c, pe));
}
TANDEM_API(void, signal_set, (uint64_t* sig_addr, uint64_t signal, int pe)) { update_signal(TANDEM_CALL, sig_addr, signal, SHMEM_SIGNAL_SET, pe); }
TANDEM_API(void, ctx_signal_set, (shmem_ctx_t c, uint64_t* sig_addr, uint64_t signal, int pe)) {
  update_signal(TANDEM_CALL, sig_addr, signal, SHMEM_SIGNAL_SET, ctx_pe(TANDEM_CALL, c, pe));
}

TANDEM_API(uint64_t, signal_wait_until, (uint64_t* sig_addr, int cmp, uint64_t cmp_value)) {
  check_ready(TANDEM_CALL);
  check_buffer(TANDEM_CALL, "sig_addr", sig_addr, sizeof(uint64_t));
  uint64_t seen = 0;
  wait_until_ready(TANDEM_CALL, [&] {
    seen = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
    return compare_values(TANDEM_CALL, seen, cmp, cmp_value);
  });
  return seen;
}
