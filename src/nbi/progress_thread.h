// The communication proxy: a thread that drives the network's progress while the PE
// computes, so that peers' puts, gets and atomics on this PE's memory complete with
// manual-progress providers.  It sleeps in the provider's wait object when idle, and is
// pinned (hwloc) to a core the node's PEs leave free, when there is one; without one, it
// shares the PEs' cores (those its PE is not bound to, where a launcher bound it) and keeps
// off while the PE drives progress itself.
#pragma once

#include <atomic>
#include <thread>

namespace tandem {

namespace ofi {
class Transport;
}

class ProgressThread {
 public:
  // Starts the thread; `core` is a hwloc logical core index to pin it to, or -1.  With a
  // core of its own, it polls the network while its PE has writes in flight (the provider's
  // wait object does not wake for them) and runs the scheduler's Ops for it
  // (Scheduler::run_held).
  void start(ofi::Transport* network, int core);
  void stop();
  bool running() const { return thread_.joinable(); }
  // The core it was given (a core without a PE), or -1.
  int core() const { return core_; }
  bool own_core() const { return core_ >= 0; }

 private:
  void run();
  ofi::Transport* network_ = nullptr;
  int core_ = -1;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// The core a PE's progress thread should use: one of the cores beyond those the machine's
// `machine_pes` PEs occupy (PEs are assumed bound, if at all, to the lowest cores), or -1
// when every core has a PE.  `cores` is the machine's core count.
int spare_core_for(int machine_index, int machine_pes, int cores);

// The node's cores as hwloc counts them.
int core_count();

}  // namespace tandem
