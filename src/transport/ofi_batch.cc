// Coalesced puts (Engine::put with `coalesce`).  Small nbi puts that continue one another
// (each starts where the previous ended, same PE and segment) are copied into a batch and
// written as one message: with tcp a message costs a system call or more whatever its size,
// so a run of 8-byte puts moves at the speed of its messages, not of the link.
//
// Hybrid issue: a put goes alone (eager) unless it continues the previous one, so an
// isolated put still overlaps whatever follows; a run is held (lazy) in the open batch until
// it ends, the batch fills (kBatchBytes), or the PE does anything else with the network or
// waits: every other operation, quiet, fence and the progress of every wait loop write the
// open batch first, so puts keep their order and a PE that waits for an answer to its puts
// never waits on a batch it holds itself.  A progress thread with a core of its own also
// writes a batch that no put joined since its last look.
#include <cstring>

#include "transport/ofi_engine.h"

namespace tandem::ofi {

bool Engine::absorb(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes) {
  std::lock_guard<std::mutex> lock(batch_mutex_);
  Batch* open = open_batch_;
  if (open && open->pe == pe && open->segment == segment && open->offset + open->bytes == offset &&
      open->bytes + bytes <= kBatchBytes) {
    memcpy(open->data + open->bytes, source, bytes);
    open->bytes += bytes;
    run_end_ = offset + bytes;
    coalesced_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (open) write_batch(call);
  const bool continues = pe == run_pe_ && segment == run_segment_ && offset == run_end_;
  run_pe_ = pe;
  run_segment_ = segment;
  run_end_ = offset + bytes;
  if (!continues) return false;
  Batch* free = nullptr;
  for (int attempt = 0; attempt < 2 && !free; ++attempt) {
    if (attempt) progress();  // completions free batches
    for (size_t i = 0; i < kBatches && !free; ++i)
      if (!batches_[i].in_flight.load(std::memory_order_acquire)) free = &batches_[i];
  }
  if (!free) return false;
  free->pe = pe;
  free->segment = segment;
  free->offset = offset;
  free->bytes = bytes;
  memcpy(free->data, source, bytes);
  open_batch_ = free;
  batch_open_.store(true, std::memory_order_release);
  coalesced_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

Engine::Batch* Engine::take_batch() {
  std::lock_guard<std::mutex> lock(batch_mutex_);
  for (size_t i = 0; i < kBatches; ++i) {
    Batch* b = &batches_[i];
    if (b != open_batch_ && !b->in_flight.load(std::memory_order_acquire)) {
      b->in_flight.store(true, std::memory_order_release);
      return b;
    }
  }
  return nullptr;
}

void Engine::write_batch(const char* call) {
  Batch* b = open_batch_;
  open_batch_ = nullptr;
  const bool injected = b->bytes <= inject_size_;  // the provider copies it: the batch stays free
  if (!injected) b->in_flight.store(true, std::memory_order_release);
  write_message(call, b->pe, b->segment, b->offset, b->data, b->bytes, injected ? nullptr : b);
  // Only now: a flush() that sees no open batch must find this one's write counted.
  batch_open_.store(false, std::memory_order_release);
}

void Engine::flush_batch(const char* call) {
  std::lock_guard<std::mutex> lock(batch_mutex_);
  if (open_batch_) write_batch(call);
}

void Engine::flush_if_idle() {
  if (!batch_open_.load(std::memory_order_acquire)) return;
  const uint64_t now = coalesced_.load(std::memory_order_relaxed);
  if (now == coalesced_at_last_look_) flush_batch("the progress thread");
  coalesced_at_last_look_ = now;
}

}  // namespace tandem::ofi
