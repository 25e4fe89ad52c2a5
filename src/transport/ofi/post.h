// Engine::post and Engine::progress_until, shared by the files of the inter-node
// engine.  Every wait loop there calls progress() itself and pauses with a Backoff that does
// not (Backoff::without_progress()): one turn of progress per turn of the loop.
#pragma once

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <mutex>

#include "core/backoff.h"
#include "core/error.h"
#include "transport/ofi/engine.h"

namespace tandem::ofi {

// libfabric's operation and datatype for each AtomicOp and AtomicType, in their order.
inline constexpr fi_op kOps[] = {FI_ATOMIC_READ, FI_ATOMIC_WRITE, FI_ATOMIC_WRITE, FI_CSWAP, FI_SUM,
                                 FI_BAND,        FI_BOR,          FI_BXOR,         FI_MIN,   FI_MAX};
inline constexpr fi_datatype kTypes[] = {FI_INT32, FI_INT64, FI_UINT32, FI_UINT64, FI_FLOAT, FI_DOUBLE};

// The entry of `pool` (`n` of them: batches, operand slots, receive buffers) that `context`
// is, or null.
template <typename Entry>
Entry* entry_of(Entry* pool, size_t n, void* context) {
  auto* entry = static_cast<Entry*>(context);
  return pool && entry >= pool && entry < pool + n ? entry : nullptr;
}

template <typename Issue>
void Engine::post(const char* call, const char* what, int pe, Backoff& backoff, Issue issue) {
  timeout_.issued(pe);
  sleep_.note_reached(pe);
  ssize_t rc;
  NetTimeout::Wait stall;
  for (;;) {
    {
      std::lock_guard<SpinLock> lock(mutex_);
      rc = issue();
    }
    if (rc != -FI_EAGAIN) break;
    progress();
    watch(call, stall, pe);
    backoff.pause();
  }
  if (rc != 0) fatal(call, "libfabric: %s PE %d failed: %s", what, pe, fi_strerror(static_cast<int>(-rc)));
}

template <typename Before>
void Engine::inject_into(const char* call, const char* what, int pe, int segment, uint64_t offset,
                         const void* source, size_t length, Before before) {
  const fi_addr_t peer = peer_address(call, pe);
  const uint64_t at = remote_address(call, pe, segment, offset), key = remote_key(call, pe, segment);
  Backoff backoff = Backoff::without_progress();
  post(call, what, pe, backoff, [&] {
    before();
    return fi_inject_write(ep_, source, length, peer, at, key);
  });
}

template <typename Issue>
void Engine::post_with(const char* call, const char* what, int pe, void* owner, const LocalMemory::Hold& hold,
                          Issue issue) {
  void* context = nullptr;
  Backoff backoff = Backoff::without_progress();
  post(call, what, pe, backoff, [&]() -> ssize_t {
    // Every pooled context in flight: progress frees some.
    if (!context && !(context = local_.context(owner, hold))) return -FI_EAGAIN;
    return issue(context);
  });
}

template <typename Ready>
void Engine::progress_until(const char* call, Ready ready, int pe) {
  Backoff backoff = Backoff::without_progress();
  NetTimeout::Wait stall;
  while (!ready()) {
    progress();
    watch(call, stall, pe);
    backoff.pause();
  }
}

}  // namespace tandem::ofi
