// The communication proxy: a thread that drives the network's progress while the PE
// computes, so that peers' puts, gets and atomics on this PE's memory complete with
// manual-progress providers.  It sleeps in the provider's wait object when idle, and is
// pinned (hwloc) to a core the node's PEs leave free, when there is one; without one, it
// shares the PEs' cores (those its PE is not bound to, where a launcher bound it) and keeps
// off while the PE drives progress itself.
//
// On a node that holds every PE there is no network to serve, and the thread exists only for
// the nonblocking collectives (coll/nbc.h): started at a PE's first post, it sleeps until a
// node peer rings its bell (ring_node_peer()), having waited a while for this PE's part of a
// collective, and then resumes the PE's requests until the PE is back in the library.
#pragma once

#include <atomic>
#include <cstdint>
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
  // Starts the thread of a PE whose node holds every PE: it sleeps on `bell` (this PE's
  // word of symmetric memory, Runtime::bell) until a node peer rings it.
  void start_node(uint32_t* bell);
  void stop();
  bool running() const { return thread_.joinable(); }
  // The core it was given (a core without a PE), or -1.
  int core() const { return core_; }
  bool own_core() const { return core_ >= 0; }
  // On one node: how often node peers rang its bell, and how often it resumed the PE's
  // requests for them.
  uint64_t rings_heard() const { return rings_heard_.load(std::memory_order_relaxed); }
  uint64_t serves() const { return serves_.load(std::memory_order_relaxed); }

 private:
  void run();
  void run_node();
  ofi::Transport* network_ = nullptr;
  uint32_t* bell_ = nullptr;  // on one node
  std::atomic<uint64_t> rings_heard_{0}, serves_{0};
  int core_ = -1;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// The core a PE's progress thread should use: one of the cores beyond those the machine's
// `machine_pes` PEs occupy (PEs are assumed bound, if at all, to the lowest cores), or -1
// when every core has a PE.  `cores` is the machine's core count.
int spare_core_for(int machine_index, int machine_pes, int cores);

// Rings the bell of node peer `pe` (every node peer: -1), whose collective this PE's has
// waited for: its progress thread, if it runs one, then serves its requests.  On one node.
void ring_node_peer(int pe);
// How often this PE rang node peers' bells.
uint64_t node_rings_sent();

// The node's cores as hwloc counts them.
int core_count();

}  // namespace tandem
