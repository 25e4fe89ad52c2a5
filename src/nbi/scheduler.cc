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

void Scheduler::submit_nbi(const char* call, const Op& op) {
  if (op.remote.mapped) {
    if (op.bytes >= defer_threshold_) deferred_.push(op);
    else copy(op);
    return;
  }
  const Target& t = op.remote;
  if (op.kind == Op::Kind::Put) network_->put(call, t.pe, t.segment, t.offset, op.local, op.bytes);
  else network_->get(call, t.pe, t.segment, t.offset, op.local, op.bytes);
}

void Scheduler::complete_puts(const char* call) {
  if (network_) network_->order_writes(call);
  shm::order_stores();
}

void Scheduler::quiet(const char* call) {
  // Network operations were posted on their call sites; the held copies run while they
  // travel, and their completions are polled last.
  deferred_.drain(copy);
  if (network_) network_->quiet(call);
  shm::order_stores();
}

void Scheduler::fence(const char* call) {
  deferred_.drain(copy);
  if (network_) network_->order_writes(call);
  shm::order_stores();
}

void Scheduler::network_atomic(const char* call, const Target& remote, shm::AmoOp op, ofi::AtomicType type,
                               const void* operand, const void* compare, void* result) {
  network_->atomic(call, remote.pe, remote.segment, remote.offset, network_op(op),
                   type, op == shm::AmoOp::Fetch ? nullptr : operand,
                   op == shm::AmoOp::CompareSwap ? compare : nullptr, result);
}

}  // namespace tandem
