// The provider's atomics: single ones, fetching or not, and runs of them on arrays.  Types
// the provider lacks take the software path (software_atomic.cc).
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>

#include <cstring>

#include "core/backoff.h"
#include "transport/ofi/engine.h"
#include "transport/ofi/post.h"

namespace tandem::ofi {

namespace {

// The message of an atomic on `target` at `peer` with the operands in `operand`.
fi_msg_atomic atomic_message(const fi_ioc* operand, const fi_rma_ioc* target, fi_addr_t peer, fi_datatype type,
                             fi_op op, void* context) {
  fi_msg_atomic msg{};
  msg.msg_iov = operand;
  msg.iov_count = 1;
  msg.addr = peer;
  msg.rma_iov = target;
  msg.rma_iov_count = 1;
  msg.datatype = type;
  msg.op = op;
  msg.context = context;
  return msg;
}

}  // namespace

const char* atomic_op_name(AtomicOp op) {
  static const char* names[] = {"fetch", "set", "swap", "compare_swap", "add", "and", "or", "xor", "min", "max"};
  return names[static_cast<int>(op)];
}

const char* atomic_type_name(AtomicType type) {
  static const char* names[] = {"int32", "int64", "uint32", "uint64", "float", "double"};
  return names[static_cast<int>(type)];
}

void Engine::atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op,
                       AtomicType type, const void* operand, const void* compare, void* result) {
  // A request written into the target's ring is a write: under Order Rma it stays behind
  // every write to that PE before a pending fence (and a pending fence means nothing else
  // is out), and the target applies it once it has landed.  Only an atomic of the
  // provider's or a request message can pass them.
  const bool native = native_[static_cast<int>(type)];
  if (native || !writes_requests_to(call, pe)) settle_fence(call);
  if (native) held_.flush_for(call, pe);
  post_atomic(call, pe, segment, offset, op, type, operand, compare, result);
}

void Engine::post_atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op,
                            AtomicType type, const void* operand, const void* compare, void* result) {
  flush(call);
  if (!native_[static_cast<int>(type)])
    return software_atomic(call, pe, segment, offset, op, type, operand, compare, result);
  const fi_addr_t peer = peer_address(call, pe);
  const uint64_t key = remote_key(call, pe, segment);
  const uint64_t address = remote_address(call, pe, segment, offset);
  const fi_op fop = kOps[static_cast<int>(op)];
  const fi_datatype ftype = kTypes[static_cast<int>(type)];
  const size_t size = atomic_type_size(type);
  uint64_t scratch = 0;  // FI_ATOMIC_READ ignores its operand but wants a buffer
  const void* buffer = operand ? operand : &scratch;
  LocalMemory::Hold hold;
  if (!result) {
    if (order_ == Order::All) ledger_.note_write(pe, false);
    OperandSlots::Slot* slot = take_operand_slot(call);
    memcpy(slot->operand, buffer, size);
    const LocalMemory::Buffer operands = stage(call, slot->operand, size, false, &hold);
    atomics_issued_.fetch_add(1, std::memory_order_acq_rel);
    writes_issued_.fetch_add(1, std::memory_order_acq_rel);
    return post_with(call, "an atomic on", pe, slot, hold, [&](void* context) {
      return write_atomic(peer, operands, 1, address, key, ftype, fop, context);
    });
  }
  // One hold for the three: with FI_MR_LOCAL they share a bounce slot.
  const LocalMemory::Buffer operands = stage(call, buffer, size, false, &hold);
  const LocalMemory::Buffer comparand =
      op == AtomicOp::CompareSwap ? stage(call, compare, size, false, &hold) : LocalMemory::Buffer{nullptr, nullptr};
  const LocalMemory::Buffer results = stage(call, result, size, true, &hold);
  reads_issued_.fetch_add(1, std::memory_order_acq_rel);
  post_with(call, "an atomic on", pe, &counted_read_, hold, [&](void* context) {
    const fi_ioc operand_ioc{operands.at, 1};
    fi_ioc result_ioc{results.at, 1};
    void* operand_desc = operands.desc;
    void* result_desc = results.desc;
    const fi_rma_ioc target{address, 1, key};
    fi_msg_atomic msg = atomic_message(&operand_ioc, &target, peer, ftype, fop, context);
    msg.desc = &operand_desc;
    if (op != AtomicOp::CompareSwap) return fi_fetch_atomicmsg(ep_, &msg, &result_ioc, &result_desc, 1, FI_COMPLETION);
    fi_ioc comparand_ioc{comparand.at, 1};
    void* comparand_desc = comparand.desc;
    return fi_compare_atomicmsg(ep_, &msg, &comparand_ioc, &comparand_desc, 1, &result_ioc, &result_desc, 1,
                                FI_COMPLETION);
  });
  wait_reads(call);
}

void Engine::warm_up(const char* call, int pe) {
  uint64_t word = 0;
  get(call, pe, 0, 0, &word, sizeof word);
  wait_reads(call);
  atomic(call, pe, 0, 0, AtomicOp::Read, AtomicType::UInt64, nullptr, nullptr, &word);
}

void Engine::atomic_array(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
                             const void* operands, size_t count) {
  settle_fence(call);
  const size_t size = atomic_type_size(type);
  const auto* bytes = static_cast<const char*>(operands);
  if (!native_[static_cast<int>(type)]) {
    flush(call);
    return software_atomic_run(call, pe, segment, offset, op, type, operands, count);
  }
  const size_t most = array_most_[static_cast<int>(type)][static_cast<int>(op)];
  if (most <= 1) {
    for (size_t i = 0; i < count; ++i) atomic(call, pe, segment, offset + i * size, op, type, bytes + i * size, nullptr, nullptr);
    return;
  }
  held_.flush_for(call, pe);
  if (order_ == Order::All) ledger_.note_write(pe, false);
  const fi_addr_t peer = peer_address(call, pe);
  const uint64_t key = remote_key(call, pe, segment);
  const uint64_t address = remote_address(call, pe, segment, offset);
  for (size_t done = 0; done < count;) {
    const size_t chunk = count - done < most ? count - done : most;
    LocalMemory::Hold hold;
    const LocalMemory::Buffer chunk_operands = stage(call, bytes + done * size, chunk * size, false, &hold);
    atomics_issued_.fetch_add(1, std::memory_order_acq_rel);
    writes_issued_.fetch_add(1, std::memory_order_acq_rel);
    post_with(call, "an atomic on", pe, &counted_atomic_, hold, [&](void* context) {
      return write_atomic(peer, chunk_operands, chunk, address + done * size, key, kTypes[static_cast<int>(type)],
                          kOps[static_cast<int>(op)], context);
    });
    done += chunk;
  }
}

ssize_t Engine::write_atomic(uint64_t peer, const LocalMemory::Buffer& operands, size_t count, uint64_t address,
                                uint64_t key, int datatype, int op, void* context) {
  const fi_ioc operand{operands.at, count};
  void* desc = operands.desc;
  const fi_rma_ioc target{address, count, key};
  fi_msg_atomic msg =
      atomic_message(&operand, &target, peer, static_cast<fi_datatype>(datatype), static_cast<fi_op>(op), context);
  msg.desc = &desc;
  // Counted done once landed, unless quiet's confirming write follows it (Order All).
  return fi_atomicmsg(ep_, &msg, order_ == Order::All ? FI_COMPLETION : FI_COMPLETION | FI_DELIVERY_COMPLETE);
}

OperandSlots::Slot* Engine::take_operand_slot(const char* call) {
  Backoff backoff = Backoff::without_progress();
  NetTimeout::Wait stall;
  for (;;) {
    if (OperandSlots::Slot* slot = operands_.try_take()) return slot;
    // Every slot's atomic is in flight: completions free them.
    progress();
    watch(call, stall);
    backoff.pause();
  }
}

}  // namespace tandem::ofi
