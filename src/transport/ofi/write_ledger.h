// Which PEs the inter-node engine must confirm at the next quiet or fence (Order All and
// Rma, transport.h): per PE since the last confirmation, nothing written (clean), one
// delivery-complete write that confirms itself (landing), writes that need an empty
// delivery-complete write behind them (unconfirmed), or a signal that rode on a write and is
// confirmed by the target's answer, which confirms the writes before it too (signalled).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tandem::ofi {

class WriteLedger {
 public:
  void reset(size_t pes) { state_.assign(pes, kClean); }
  // An operation to `pe` that is not delivery-complete; returns whether it should be after
  // all: with `may_land` (a write) the first since the last take() is, and then confirms
  // itself; anything else leaves the PE unconfirmed.
  bool note_write(int pe, bool may_land) {
    uint8_t* state = &state_[static_cast<size_t>(pe)];
    // Atomic loads and stores, as the unlocked look reads it while other threads write.
    if (__atomic_load_n(state, __ATOMIC_RELAXED) >= kUnconfirmed) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    const uint8_t was = *state;
    if (was >= kUnconfirmed) return false;
    if (was == kClean) written_.push_back(pe);
    const bool lands = may_land && was == kClean;
    __atomic_store_n(state, lands ? kLanding : kUnconfirmed, __ATOMIC_RELAXED);
    if (!lands) open_.fetch_add(1, std::memory_order_relaxed);
    return lands;
  }
  // A signal rode on a write to `pe`.
  void note_signal(int pe) {
    uint8_t* state = &state_[static_cast<size_t>(pe)];
    std::lock_guard<std::mutex> lock(mutex_);
    const uint8_t was = *state;
    if (was == kClean) written_.push_back(pe);
    if (was < kUnconfirmed) open_.fetch_add(1, std::memory_order_relaxed);
    __atomic_store_n(state, kSignalled, __ATOMIC_RELAXED);
  }
  // Whether a PE was sent a signal on a write since the last take().
  bool signals_out() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int pe : written_)
      if (state_[static_cast<size_t>(pe)] == kSignalled) return true;
    return false;
  }
  // Whether some PE needs confirming, without the lock (the network timeout's look).
  bool any_open() const { return open_.load(std::memory_order_relaxed) > 0; }
  // The PEs that need a confirming write (`writes`) and those that were sent a signal
  // (`signals`); every PE is clean afterwards.
  void take(std::vector<int>& writes, std::vector<int>& signals) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int pe : written_) {
      const uint8_t state = state_[static_cast<size_t>(pe)];
      if (state == kUnconfirmed) writes.push_back(pe);
      else if (state == kSignalled) signals.push_back(pe);
      __atomic_store_n(&state_[static_cast<size_t>(pe)], kClean, __ATOMIC_RELAXED);
    }
    written_.clear();
    open_.store(0, std::memory_order_relaxed);
  }

 private:
  static constexpr uint8_t kClean = 0, kLanding = 1, kUnconfirmed = 2, kSignalled = 3;
  std::mutex mutex_;
  std::vector<uint8_t> state_;  // per PE
  std::vector<int> written_;    // the PEs not clean
  std::atomic<size_t> open_{0};  // how many are unconfirmed or signalled
};

}  // namespace tandem::ofi
