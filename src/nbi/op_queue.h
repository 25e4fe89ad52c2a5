// Ops held back by the scheduler, in submission order.  Thread-safe: threads of one PE may
// submit and drain at once (SHMEM_THREAD_MULTIPLE).  A drain returns only once every Op
// pushed before it has been carried out, also those that another thread's drain took: the
// copying happens under a lock that a later drain waits for.
#pragma once

#include <atomic>
#include <deque>
#include <mutex>

#include "nbi/op.h"

namespace tandem {

class OpQueue {
 public:
  void push(const Op& op) {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    ops_.push_back(op);
    pending_.fetch_add(1, std::memory_order_acq_rel);
  }
  // Ops pushed and not yet carried out (held, or being carried out by a drain).
  size_t size() const { return pending_.load(std::memory_order_acquire); }
  bool empty() const { return size() == 0; }

  // Carries out every Op pushed so far, oldest first, handing each to `carry_out`.
  template <typename CarryOut>
  void drain(CarryOut carry_out) {
    if (empty()) return;
    std::lock_guard<std::mutex> draining(drain_mutex_);
    std::deque<Op> taken;
    {
      std::lock_guard<std::mutex> lock(queue_mutex_);
      taken.swap(ops_);
    }
    for (const Op& op : taken) carry_out(op);
    pending_.fetch_sub(taken.size(), std::memory_order_acq_rel);
  }

 private:
  std::mutex drain_mutex_;   // held while a drain carries Ops out
  std::mutex queue_mutex_;   // guards ops_
  std::deque<Op> ops_;
  std::atomic<size_t> pending_{0};
};

}  // namespace tandem
