// Where the operand of a single non-fetching atomic stays until the atomic completes: it is
// not injected, since a provider may then report no completion (tcp;ofi_rxm drops it for an
// injected atomic), and the caller's operand is gone once the call returns.  The engine
// takes a slot for each such atomic (driving progress while all are in flight) and frees it
// when the atomic's completion comes back with the slot as its context.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

namespace tandem::ofi {

class OperandSlots {
 public:
  struct Slot {
    alignas(16) unsigned char operand[16];
    std::atomic<bool> busy{false};
  };
  static constexpr size_t kSlots = 64;

  // The slots, made at the first call (the engine registers them where the provider asks).
  void make() {
    if (!slots_) slots_.reset(new Slot[kSlots]);
  }
  static constexpr size_t bytes() { return kSlots * sizeof(Slot); }
  // A free slot, now taken, or nullptr while every one is in flight.
  Slot* try_take() {
    const size_t first = next_.fetch_add(1, std::memory_order_relaxed);
    for (size_t k = 0; k < kSlots; ++k) {
      Slot& slot = slots_[(first + k) % kSlots];
      bool free = false;
      if (slot.busy.compare_exchange_strong(free, true, std::memory_order_acquire)) return &slot;
    }
    return nullptr;
  }
  Slot* slots() const { return slots_.get(); }  // null until make()
  // Every slot free again (the endpoint closed).
  void free_all() {
    for (size_t i = 0; slots_ && i < kSlots; ++i) slots_[i].busy = false;
  }

 private:
  std::unique_ptr<Slot[]> slots_;
  std::atomic<size_t> next_{0};
};

}  // namespace tandem::ofi
