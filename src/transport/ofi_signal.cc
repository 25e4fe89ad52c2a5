// Non-blocking put-with-signal to a PE on another node (Transport::put_signal_nbi), and
// notified access (put_notify, get_notify_nbi, notify).
//
// The signal must not arrive before the data.  Where the provider keeps atomics behind writes
// (Order All): the data's writes, then the signal's atomic, posted at once.  Otherwise the
// data goes as delivery-complete writes with a completion each (context: a PendingSignal),
// and the signal is posted by the progress that sees the last of them land: the PE goes on at
// once, and quiet and fence wait until every pending signal has been posted.
//
// A notification rides on a write as its remote CQ data, which the target's CQ reports only
// once the write's data has landed.  A get's notification must follow the read's completion
// (no provider here orders a write after a read): it is a PendingSignal too, posted by the
// progress that sees the read complete.
#include "transport/ofi.h"
#include "transport/ofi_post.h"

namespace tandem::ofi {

struct Transport::PendingSignal {
  int pe;
  int segment;
  uint64_t offset;
  uint64_t value;
  bool add;
  size_t pieces;        // the data's writes (reads: get_notify_nbi) not yet complete
  bool notify = false;  // a notification carrying `value`, not a signal
  bool reads = false;   // the pieces are reads
};

void Transport::put_signal_nbi(const char* call, int pe, int segment, uint64_t offset, const void* source,
                               size_t bytes, int signal_segment, uint64_t signal_offset, uint64_t value, bool add) {
  const AtomicOp op = add ? AtomicOp::Sum : AtomicOp::Write;
  if (order_ == Order::All || bytes == 0) {
    put(call, pe, segment, offset, source, bytes);
    atomic(call, pe, signal_segment, signal_offset, op, AtomicType::UInt64, &value, nullptr, nullptr);
    return;
  }
  write_then(call, pe, segment, offset, source, bytes, PendingSignal{pe, signal_segment, signal_offset, value, add, 0});
}

void Transport::write_then(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                           const PendingSignal& then) {
  flush(call);
  auto* pending = new PendingSignal(then);
  pending->pieces = pieces(bytes);
  signals_pending_.fetch_add(1);
  for_each_piece(bytes, [&](size_t done, size_t chunk) {
    write_message(call, pe, segment, offset + done, static_cast<const char*>(source) + done, chunk, pending, nullptr,
                  Completion::Landed);
  });
}

bool Transport::signal_data_landed(void* context) {
  const auto* slot = static_cast<const Incoming*>(context);
  if (!inbox_.empty() && slot >= inbox_.data() && slot < inbox_.data() + inbox_.size()) return false;
  auto* pending = static_cast<PendingSignal*>(context);
  if (pending->reads) count_read();
  else count_write();
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
    if (p->notify)
      notify("progress", p->pe, value);
    else
      atomic("progress", p->pe, p->segment, p->offset, p->add ? AtomicOp::Sum : AtomicOp::Write,
             AtomicType::UInt64, &value, nullptr, nullptr);
    delete p;
    signals_pending_.fetch_sub(1);
  }
}

void Transport::put_notify(const char* call, int pe, int segment, uint64_t offset, const void* source,
                           size_t bytes, uint64_t data) {
  if (!notify_by_data_ && bytes > 0) {
    // A message after the data: behind its writes where the provider orders messages after
    // writes, else sent by the progress that sees the last of them land.
    if (order_ == Order::All) {
      put(call, pe, segment, offset, source, bytes);
      return notify(call, pe, data);
    }
    return write_then(call, pe, segment, offset, source, bytes, PendingSignal{pe, 0, 0, data, false, 0, true});
  }
  flush(call);
  const char* from = static_cast<const char*>(source);
  if (bytes > max_message_) {
    // The pieces before the last land first: ordered providers keep writes in order,
    // otherwise they are waited for.
    const size_t last = (bytes - 1) % max_message_ + 1;
    put(call, pe, segment, offset, from, bytes - last);
    if (order_ == Order::None) wait_writes(call);
    from += bytes - last;
    offset += bytes - last;
    bytes = last;
  }
  write_message(call, pe, segment, offset, from, bytes, nullptr, &data);
}

void Transport::get_notify_nbi(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes,
                               uint64_t data) {
  if (bytes == 0) return notify(call, pe, data);
  flush(call);
  auto* pending = new PendingSignal{pe, 0, 0, data, false, pieces(bytes), true, true};
  signals_pending_.fetch_add(1);
  for_each_piece(bytes, [&](size_t done, size_t chunk) {
    read_message(call, pe, segment, offset + done, static_cast<char*>(dest) + done, chunk, pending);
  });
}

void Transport::notify(const char* call, int pe, uint64_t data) {
  flush(call);
  if (!notify_by_data_) return send_notification(call, pe, data);
  write_message(call, pe, 0, 0, nullptr, 0, nullptr, &data);
}

void Transport::wait_signals(const char* call) {
  progress_until(call, [&] { return signals_pending_.load() == 0; });
}

}  // namespace tandem::ofi
