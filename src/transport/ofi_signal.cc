// Non-blocking put-with-signal to a PE on another node (Transport::put_signal_nbi).  The
// signal must not arrive before the data.  With ordered writes the provider keeps them in
// order: the data's writes, then the signal's atomic, posted at once.  With delivery-complete
// writes, the data goes as writes with a completion each (context: a PendingSignal), and the
// signal is posted by the progress that sees the last of them complete: the PE goes on at
// once, and quiet and fence wait until every pending signal has been posted.
#include "transport/ofi.h"
#include "transport/ofi_post.h"

namespace tandem::ofi {

struct Transport::PendingSignal {
  int pe;
  int segment;
  uint64_t offset;
  uint64_t value;
  bool add;
  size_t pieces;  // the data's writes not yet complete
};

void Transport::put_signal_nbi(const char* call, int pe, int segment, uint64_t offset, const void* source,
                               size_t bytes, int signal_segment, uint64_t signal_offset, uint64_t value, bool add) {
  const AtomicOp op = add ? AtomicOp::Sum : AtomicOp::Write;
  if (ordered_ || bytes == 0) {
    put(call, pe, segment, offset, source, bytes);
    atomic(call, pe, signal_segment, signal_offset, op, AtomicType::UInt64, &value, nullptr, nullptr);
    return;
  }
  flush(call);
  const size_t pieces = bytes / max_message_ + (bytes % max_message_ != 0);  // max_message_ may be SIZE_MAX
  auto* pending = new PendingSignal{pe, signal_segment, signal_offset, value, add, pieces};
  signals_pending_.fetch_add(1);
  const char* from = static_cast<const char*>(source);
  while (bytes > 0) {
    const size_t chunk = bytes < max_message_ ? bytes : max_message_;
    write_with_completion(call, pe, segment, offset, from, chunk, pending);
    from += chunk;
    offset += chunk;
    bytes -= chunk;
  }
}

bool Transport::signal_data_landed(void* context) {
  const auto* slot = static_cast<const Message*>(context);
  if (!inbox_.empty() && slot >= inbox_.data() && slot < inbox_.data() + inbox_.size()) return false;
  auto* pending = static_cast<PendingSignal*>(context);
  if (--pending->pieces > 0) return true;
  std::lock_guard<std::mutex> lock(signals_mutex_);
  signals_ready_.push_back(pending);
  return true;
}

void Transport::post_ready_signals() {
  std::vector<PendingSignal*> ready;
  {
    std::lock_guard<std::mutex> lock(signals_mutex_);
    ready.swap(signals_ready_);
  }
  for (PendingSignal* p : ready) {
    const uint64_t value = p->value;
    atomic("progress", p->pe, p->segment, p->offset, p->add ? AtomicOp::Sum : AtomicOp::Write, AtomicType::UInt64,
           &value, nullptr, nullptr);
    delete p;
    signals_pending_.fetch_sub(1);
  }
}

void Transport::wait_signals() {
  progress_until([&] { return signals_pending_.load() == 0; });
}

}  // namespace tandem::ofi
