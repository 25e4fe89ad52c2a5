// The CPU's spin-wait hint, and a lock that spins instead of sleeping.
#pragma once

#include <sched.h>

#include <atomic>

namespace tandem {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// A lock for short critical sections (a provider call) shared with a thread that may hold
// it for a few microseconds: waiters spin, then yield, instead of sleeping in the kernel,
// whose wake-up would add its latency to every wait for the network.
class SpinLock {
 public:
  void lock() {
    for (unsigned spins = 0; locked_.exchange(true, std::memory_order_acquire);) {
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < 1024) cpu_relax();
        else sched_yield();
      }
    }
  }
  bool try_lock() {
    return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace tandem
