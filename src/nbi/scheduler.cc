#include "nbi/scheduler.h"

#include "transport/ofi.h"

namespace tandem {

namespace {

void copy(const Op& op) {
  if (op.kind == Op::Kind::Put) shm::copy(op.remote.mapped, op.local, op.bytes);
  else shm::copy(op.local, op.remote.mapped, op.bytes);
}

ofi::AtomicOp network_op(shm::AmoOp op) {
  switch (op) {
    case shm::AmoOp::Fetch: return ofi::AtomicOp::Read;
    case shm::AmoOp::Set: return ofi::AtomicOp::Write;
    case shm::AmoOp::Swap: return ofi::AtomicOp::Swap;
    case shm::AmoOp::CompareSwap: return ofi::AtomicOp::CompareSwap;
    case shm::AmoOp::Add: return ofi::AtomicOp::Sum;
    case shm::AmoOp::And: return ofi::AtomicOp::And;
    case shm::AmoOp::Or: return ofi::AtomicOp::Or;
    case shm::AmoOp::Xor: return ofi::AtomicOp::Xor;
  }
  __builtin_unreachable();
}

}  // namespace

Scheduler& scheduler() {
  static Scheduler instance;
  return instance;
}

void Scheduler::submit(const char* call, const Op& op) {
  if (op.remote.mapped) return copy(op);
  const Target& t = op.remote;
  if (op.kind == Op::Kind::Put) {
    network_->put(call, t.pe, t.segment, t.offset, op.local, op.bytes);
    if (op.bytes > network_->inject_size()) network_->wait_writes(call);  // source reusable
  } else {
    network_->get(call, t.pe, t.segment, t.offset, op.local, op.bytes);
    network_->wait_reads(call);
  }
}

// The held queue's bounds.  Holding a copy pays off only while network operations are in
// flight to overlap with it, or may still come before the next quiet.  Past kHoldSoftLimit
// bytes the queue is run on the next nbi call site that finds the network idle (nothing
// to overlap with now, and the quiet it would otherwise lengthen); past kHoldHardLimit it is
// run whatever the network does, so that held descriptors and a quiet's work stay bounded.
constexpr uint64_t kHoldSoftLimit = uint64_t{16} << 20;
constexpr uint64_t kHoldHardLimit = uint64_t{64} << 20;

void Scheduler::hold(const char* call, const Op& op, const Op* behind) {
  deferred_.push(op);
  if (behind) deferred_.push(*behind);
  held_bytes_.fetch_add(op.bytes, std::memory_order_relaxed);
  deferred_ops_.fetch_add(1, std::memory_order_relaxed);
  deferred_bytes_.fetch_add(op.bytes, std::memory_order_relaxed);
  const uint64_t held = held_bytes_.load(std::memory_order_relaxed);
  if (held >= kHoldHardLimit || (held >= kHoldSoftLimit && !(network_ && network_->in_flight()))) {
    early_drains_.fetch_add(1, std::memory_order_relaxed);
    drain(call);
  }
}

void Scheduler::update_signal(const char* call, const Target& signal, uint64_t value, bool add) {
  atomic<uint64_t>(call, signal, add ? shm::AmoOp::Add : shm::AmoOp::Set, value, 0, false);
}

void Scheduler::drain(const char* call) {
  if (deferred_.empty()) return;
  // Asking the network costs a look at its counters (system calls with tcp): only for stats.
  const bool overlapping = stats_ && network_ && network_->in_flight();
  uint64_t bytes = 0;
  deferred_.drain([&](const Op& op) {
    if (op.kind == Op::Kind::Signal) {
      shm::order_stores();  // the data before it is visible first
      update_signal(call, op.remote, op.signal, op.signal_add);
    } else {
      copy(op);
      bytes += op.bytes;
    }
  });
  held_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  if (overlapping) overlapped_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void Scheduler::submit_nbi(const char* call, const Op& op) {
  if (holds(op)) return hold(call, op);
  if (op.remote.mapped) return copy(op);
  const Target& t = op.remote;
  if (op.kind == Op::Kind::Put) network_->put(call, t.pe, t.segment, t.offset, op.local, op.bytes);
  else network_->get(call, t.pe, t.segment, t.offset, op.local, op.bytes);
}

void Scheduler::put_signal(const char* call, const Op& data, const Target& signal, uint64_t value, bool add,
                           bool nbi) {
  if (nbi && holds(data)) {
    Op update{Op::Kind::Signal, signal, nullptr, 0};
    update.signal = value;
    update.signal_add = add;
    return hold(call, data, &update);
  }
  submit(call, data);
  if (!data.remote.mapped) complete_puts(call);
  update_signal(call, signal, value, add);
}

void Scheduler::complete_puts(const char* call) {
  if (network_) network_->order_writes(call);
  shm::order_stores();
}

void Scheduler::quiet(const char* call) {
  // Network operations were posted on their call sites; the held copies run while they
  // travel, and their completions are polled last.
  drain(call);
  if (network_) network_->quiet(call);
  shm::order_stores();
}

void Scheduler::fence(const char* call) {
  drain(call);
  if (network_) network_->order_writes(call);
  shm::order_stores();
}

Scheduler::Stats Scheduler::stats() const {
  return Stats{deferred_ops_.load(), deferred_bytes_.load(), overlapped_bytes_.load(), early_drains_.load()};
}

void Scheduler::network_atomic(const char* call, const Target& remote, shm::AmoOp op, ofi::AtomicType type,
                               const void* operand, const void* compare, void* result) {
  network_->atomic(call, remote.pe, remote.segment, remote.offset, network_op(op),
                   type, op == shm::AmoOp::Fetch ? nullptr : operand,
                   op == shm::AmoOp::CompareSwap ? compare : nullptr, result);
}

}  // namespace tandem
