// Transport::post and Transport::progress_until, shared by the files of the inter-node
// engine.  Every wait loop there calls progress() itself and pauses with a Backoff that does
// not (Backoff::without_progress()): one turn of progress per turn of the loop.
#pragma once

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include <mutex>

#include "core/backoff.h"
#include "core/error.h"
#include "transport/ofi.h"

namespace tandem::ofi {

// The entry of `pool` (`n` of them: batches, operand slots, receive buffers) that `context`
// is, or null.
template <typename Entry>
Entry* entry_of(Entry* pool, size_t n, void* context) {
  auto* entry = static_cast<Entry*>(context);
  return pool && entry >= pool && entry < pool + n ? entry : nullptr;
}

template <typename Issue>
void Transport::post(const char* call, const char* what, int pe, Backoff& backoff, Issue issue) {
  timeout_.issued(pe);
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

template <typename Issue>
void Transport::post_with(const char* call, const char* what, int pe, void* owner, const LocalMemory::Hold& hold,
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
void Transport::progress_until(const char* call, Ready ready, int pe) {
  Backoff backoff = Backoff::without_progress();
  NetTimeout::Wait stall;
  while (!ready()) {
    progress();
    watch(call, stall, pe);
    backoff.pause();
  }
}

}  // namespace tandem::ofi
