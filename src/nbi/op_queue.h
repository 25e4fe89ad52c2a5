// Ops held back by the scheduler, in submission order.  Thread-safe: threads of one PE may
// submit and drain at once (SHMEM_THREAD_MULTIPLE).
#pragma once

#include <atomic>
#include <deque>
#include <mutex>

#include "nbi/op.h"

namespace tandem {

class OpQueue {
 public:
  void push(const Op& op) {
    std::lock_guard<std::mutex> lock(mutex_);
    ops_.push_back(op);
    size_.store(ops_.size(), std::memory_order_release);
  }
  bool empty() const { return size_.load(std::memory_order_acquire) == 0; }
  size_t size() const { return size_.load(std::memory_order_acquire); }

  // Takes every held Op, oldest first, and hands each to `carry_out`.
  template <typename CarryOut>
  void drain(CarryOut carry_out) {
    if (empty()) return;
    std::deque<Op> taken;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      taken.swap(ops_);
      size_.store(0, std::memory_order_release);
    }
    for (const Op& op : taken) carry_out(op);
  }

 private:
  mutable std::mutex mutex_;
  std::deque<Op> ops_;
  std::atomic<size_t> size_{0};
};

}  // namespace tandem
