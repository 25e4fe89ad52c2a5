// Non-blocking put-with-signal to a PE on another node (Engine::put_signal_nbi), and
// notified access (put_notify, get_notify_nbi, notify).
//
// The signal must not arrive before the data.  Where the provider keeps atomics behind writes
// (Order All): the data's writes, then the signal's atomic, posted at once (the provider's,
// or where it has no 64-bit atomics a software atomic, which its messages keep behind
// writes too).  Where it keeps writes in order among themselves (Order Rma) and carries
// remote CQ data, the signal rides on the data's last write as that data
// (signal_rides_write()): the target's CQ reports it once the data has landed, and its
// progress applies it with a CPU atomic.  One message, as for the put alone, where a
// separate atomic would have to wait for the data's acknowledgement.  The provider's
// acknowledgement of such a write says nothing about the signal, which the target's
// progress applies later: quiet and fence confirm a PE that was sent one with a write
// asking for an answer, which the target sends once the signals ahead of it are applied
// (confirm_signals()).  Otherwise the data goes as delivery-complete
// writes with a completion each (context: a PendingSignal), and the signal is posted by the
// progress that sees the last of them land: the PE goes on at once, and quiet and fence
// wait until every pending signal has been posted.  Except under Order All with the
// provider's 64-bit atomics, a signal that does not ride is a software atomic
// (post_signal()), so that every signal from another node is applied by the target's CPU
// and node peers may update signals with CPU atomics (cpu_signals()).
//
// A notification rides on a write as its remote CQ data, which the target's CQ reports only
// once the write's data has landed.  A get's notification must follow the read's completion
// (no provider here orders a write after a read): it is a PendingSignal too, posted by the
// progress that sees the read complete.
#include <rdma/fabric.h>
#include <rdma/fi_eq.h>

#include "transport/ofi/engine.h"
#include "transport/ofi/post.h"
#include "transport/shm.h"

namespace tandem::ofi {

namespace {

// The remote CQ data of signals and confirmations: bits 63-62 are 01 (the collectives' stamps
// set bit 63; notifications carry a PE below 2^30 in bits 61-32 and a tag below).  Bit 61
// marks a confirmation, which carries the asking PE in bits 31-0 and its answer slot's
// cookie in bits 47-32 (AnswerSlots::compact; 0 where answers are messages).  A signal: bit
// 60 add, bit 59 the segment, bits 58-32 the signal's offset in 8-byte words, bits 31-0 the
// value.
constexpr uint64_t kSignalClass = uint64_t{1} << 62, kConfirmation = uint64_t{1} << 61;
constexpr uint64_t kAdd = uint64_t{1} << 60, kSegmentBit = uint64_t{1} << 59;
constexpr int kWordBits = 27, kValueBits = 32;
static_assert(Engine::kSegments == 2, "one bit names a signal's segment");

bool signal_class(uint64_t data) { return data >> 62 == 1; }

}  // namespace

bool Engine::signal_rides_write(int signal_segment, uint64_t signal_offset, uint64_t value) const {
  return signals_ride_writes() && signal_offset % 8 == 0 &&
         signal_offset / 8 < (uint64_t{1} << kWordBits) && value >> kValueBits == 0 && signal_segment < kSegments;
}

bool Engine::apply_signal(const fi_cq_data_entry& e) {
  // A counted write of this PE's own that carried a signal: some providers (sockets) set
  // FI_REMOTE_CQ_DATA on its completion as well.
  if (!(e.flags & FI_REMOTE_CQ_DATA) || e.op_context == &counted_write_ || !signal_class(e.data) ||
      (e.data & kConfirmation))
    return false;
  const int segment = (e.data & kSegmentBit) ? 1 : 0;
  const uint64_t word = e.data >> kValueBits & ((uint64_t{1} << kWordBits) - 1);
  const uint64_t value = e.data & ((uint64_t{1} << kValueBits) - 1);
  auto* signal = reinterpret_cast<uint64_t*>(base_[segment] + word * 8);
  shm::amo(e.data & kAdd ? shm::AmoOp::Add : shm::AmoOp::Set, signal, value);
  return true;
}

bool Engine::answer_confirmation(uint64_t data) {
  if (!signal_class(data) || !(data & kConfirmation)) return false;
  Message answer{};
  answer.kind = Message::Answer;
  answer.origin = my_pe_;
  answer.cookie = AnswerSlots::expand(data >> kValueBits & 0xffff);
  send_answer(answer, static_cast<int>(data & 0xffffffffu));
  return true;
}

void Engine::confirm_signals(const char* call, const std::vector<int>& pes) {
  for (int pe : pes) {
    // Counted among the software path's answers: quiet waits for it.
    const uint64_t cookie = AnswerSlots::compact(reserve_answer(call));
    const uint64_t data = kSignalClass | kConfirmation | cookie << kValueBits | static_cast<uint32_t>(my_pe_);
    write_message(call, pe, 0, 0, nullptr, 0, nullptr, &data, Completion::Local);
  }
}

struct Engine::PendingSignal {
  int pe;
  int segment;
  uint64_t offset;
  uint64_t value;
  bool add;
  size_t pieces;        // the data's writes (reads: get_notify_nbi) not yet complete
  bool notify = false;  // a notification carrying `value`, not a signal
  bool reads = false;   // the pieces are reads
};

void Engine::put_signal_nbi(const char* call, int pe, int segment, uint64_t offset, const void* source,
                               size_t bytes, int signal_segment, uint64_t signal_offset, uint64_t value, bool add) {
  if (signal_rides_write(signal_segment, signal_offset, value)) {
    const uint64_t data = kSignalClass | (add ? kAdd : 0) | (signal_segment ? kSegmentBit : 0) |
                          signal_offset / 8 << kValueBits | value;
    ledger_.note_signal(pe);
    return write_carrying(call, pe, segment, offset, source, bytes, data, Completion::Local);
  }
  if (order_ == Order::All || bytes == 0) {
    put(call, pe, segment, offset, source, bytes);
    settle_fence(call);
    return post_signal(call, pe, signal_segment, signal_offset, value, add);
  }
  write_then(call, pe, segment, offset, source, bytes, PendingSignal{pe, signal_segment, signal_offset, value, add, 0});
}

void Engine::post_signal(const char* call, int pe, int segment, uint64_t offset, uint64_t value, bool add) {
  flush(call);
  const AtomicOp op = add ? AtomicOp::Sum : AtomicOp::Write;
  if (cpu_signals()) return software_atomic(call, pe, segment, offset, op, AtomicType::UInt64, &value, nullptr, nullptr);
  post_atomic(call, pe, segment, offset, op, AtomicType::UInt64, &value, nullptr, nullptr);
}

void Engine::write_then(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                           const PendingSignal& then) {
  held_.flush_for(call, pe);
  auto* pending = new PendingSignal(then);
  pending->pieces = pieces_.count(bytes);
  signals_pending_.fetch_add(1);
  pieces_.for_each(bytes, [&](size_t done, size_t chunk) {
    write_message(call, pe, segment, offset + done, static_cast<const char*>(source) + done, chunk, pending, nullptr,
                  Completion::Landed);
  });
}

bool Engine::signal_data_landed(void* context) {
  if (entry_of(inbox_.data(), inbox_.size(), context)) return false;
  auto* pending = static_cast<PendingSignal*>(context);
  if (pending->reads) count_read();
  else count_write();
  if (--pending->pieces > 0) return true;
  std::lock_guard<std::mutex> lock(signals_mutex_);
  signals_ready_.push_back(pending);
  return true;
}

void Engine::post_ready_signals() {
  std::vector<PendingSignal*> ready;
  {
    std::lock_guard<std::mutex> lock(signals_mutex_);
    ready.swap(signals_ready_);
  }
  for (PendingSignal* p : ready) {
    const uint64_t value = p->value;
    // Behind data that has landed: nothing before them can be overtaken (no settle_fence()).
    if (p->notify)
      post_notification("progress", p->pe, value);
    else
      post_signal("progress", p->pe, p->segment, p->offset, value, p->add);
    delete p;
    signals_pending_.fetch_sub(1);
  }
}

void Engine::put_notify(const char* call, int pe, int segment, uint64_t offset, const void* source,
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
  write_carrying(call, pe, segment, offset, source, bytes, data, Completion::Confirmed);
}

void Engine::write_carrying(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                            uint64_t data, Completion completion) {
  held_.flush_for(call, pe);
  const char* from = static_cast<const char*>(source);
  const size_t last = pieces_.last(bytes);
  if (bytes > last) {
    put(call, pe, segment, offset, from, bytes - last);
    if (order_ == Order::None) wait_writes(call);
  }
  write_message(call, pe, segment, offset + bytes - last, from + bytes - last, last, nullptr, &data, completion);
}

void Engine::get_notify_nbi(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes,
                               uint64_t data) {
  if (bytes == 0) return notify(call, pe, data);
  held_.flush_for(call, pe);
  auto* pending = new PendingSignal{pe, 0, 0, data, false, pieces_.count(bytes), true, true};
  signals_pending_.fetch_add(1);
  pieces_.for_each(bytes, [&](size_t done, size_t chunk) {
    read_message(call, pe, segment, offset + done, static_cast<char*>(dest) + done, chunk, pending);
  });
}

void Engine::notify(const char* call, int pe, uint64_t data) {
  if (!notify_by_data_) settle_fence(call);  // a message may pass writes
  held_.flush_for(call, pe);
  post_notification(call, pe, data);
}

void Engine::post_notification(const char* call, int pe, uint64_t data) {
  flush(call);
  if (!notify_by_data_) return send_notification(call, pe, data);
  write_message(call, pe, 0, 0, nullptr, 0, nullptr, &data);
}

void Engine::wait_signals(const char* call) {
  progress_until(call, [&] { return signals_pending_.load() == 0; });
}

}  // namespace tandem::ofi
