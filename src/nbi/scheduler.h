// The operation path: every RMA becomes an Op handed to the scheduler, which decides when
// and how it is carried out: a CPU copy for a node peer, an RDMA operation for a PE on
// another node.  An intra-node nbi Op of at least TANDEM_DEFER_THRESHOLD bytes is held until
// the next quiet or fence; quiet posts what the network still waits for, then runs the held
// copies, then polls the network's completions.  Atomics go through here too, so that all
// atomics on one type take one path and stay atomic with each other: CPU atomics when all PEs
// share memory or the network serves that type in software (its target applies them with CPU
// atomics), the provider's atomics otherwise, also to node peers and to the PE itself.
#pragma once

#include <atomic>
#include <cstddef>

#include "nbi/op.h"
#include "nbi/op_queue.h"
#include "transport/ofi.h"
#include "transport/shm.h"

namespace tandem {

class Scheduler {
 public:
  // `network`: the inter-node engine when PEs span nodes, else null.  `stats`: count what
  // stats() reports that costs a look at the network (TANDEM_STATS).
  void configure(size_t defer_threshold, ofi::Transport* network, bool stats = false) {
    defer_threshold_ = defer_threshold;
    network_ = network;
    stats_ = stats;
    for (int t = 0; t < static_cast<int>(ofi::AtomicType::Count); ++t)
      cpu_atomics_[t] = !network || !network->native(static_cast<ofi::AtomicType>(t));
  }
  // Blocking: returns once the source buffer may be reused (puts) or the data arrived (gets).
  void submit(const char* call, const Op& op);
  // Non-blocking: may return before the transfer happened; completed by quiet().
  void submit_nbi(const char* call, const Op& op);
  // Makes every put submitted so far land before any later write (for put-with-signal: the
  // signal must not overtake the data).
  void complete_puts(const char* call);
  // Completes every submitted Op and atomic.
  void quiet(const char* call);
  // Orders Ops to each PE: those before the fence land before those after it.
  void fence(const char* call);
  // A put-with-signal: `data`, then the signal update at `signal`, which never overtakes
  // it.  An nbi one whose data is held back holds its signal back behind it.
  void put_signal(const char* call, const Op& data, const Target& signal, uint64_t value, bool add, bool nbi);
  // Ops held back, not yet carried out.
  size_t held() const { return deferred_.size(); }

  // What TANDEM_STATS=1 reports at finalize.
  struct Stats {
    uint64_t deferred_ops = 0;
    uint64_t deferred_bytes = 0;
    uint64_t overlapped_bytes = 0;  // held copies run while network operations were in flight
    uint64_t early_drains = 0;      // held copies run on a call site, the queue being full
  };
  Stats stats() const;

  // An atomic at `remote`, returning the old value when `fetch` (else T()).
  template <typename T>
  T atomic(const char* call, const Target& remote, shm::AmoOp op, T operand, T compare, bool fetch);

 private:
  template <typename T>
  static constexpr ofi::AtomicType atomic_type() {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMOs are on 4- and 8-byte types");
    if constexpr (std::is_floating_point_v<T>) return sizeof(T) == 4 ? ofi::AtomicType::Float : ofi::AtomicType::Double;
    else if constexpr (sizeof(T) == 4) return std::is_signed_v<T> ? ofi::AtomicType::Int32 : ofi::AtomicType::UInt32;
    else return std::is_signed_v<T> ? ofi::AtomicType::Int64 : ofi::AtomicType::UInt64;
  }
  void network_atomic(const char* call, const Target& remote, shm::AmoOp op, ofi::AtomicType type,
                      const void* operand, const void* compare, void* result);
  // Whether an nbi `op` is held: a copy to a node peer (or this PE) of defer_threshold_
  // bytes or more.
  bool holds(const Op& op) const { return op.remote.mapped && op.bytes >= defer_threshold_; }
  // Holds `op`, and `behind` right after it when given; runs the queue on this call site
  // once it grows past its bounds.
  void hold(const char* call, const Op& op, const Op* behind = nullptr);
  // Runs the held Ops, oldest first.
  void drain(const char* call);
  void update_signal(const char* call, const Target& signal, uint64_t value, bool add);
  size_t defer_threshold_ = ~size_t{0};
  ofi::Transport* network_ = nullptr;
  bool stats_ = false;
  bool cpu_atomics_[static_cast<int>(ofi::AtomicType::Count)] = {true, true, true, true, true, true};
  OpQueue deferred_;
  std::atomic<uint64_t> held_bytes_{0};
  std::atomic<uint64_t> deferred_ops_{0}, deferred_bytes_{0}, overlapped_bytes_{0}, early_drains_{0};
};

Scheduler& scheduler();

template <typename T>
T Scheduler::atomic(const char* call, const Target& remote, shm::AmoOp op, T operand, T compare, bool fetch) {
  constexpr ofi::AtomicType type = atomic_type<T>();
  if (remote.mapped && cpu_atomics_[static_cast<int>(type)]) {
    // With a network, this type's atomics from other nodes are served by this PE's progress:
    // a PE that polls with atomics on its own memory (shmem_test_lock in a loop) must still
    // serve them, or their initiators, holding the lock, wait forever.
    if (network_) network_->progress();
    return shm::amo(op, reinterpret_cast<T*>(remote.mapped), operand, compare);
  }
  T result{};
  network_atomic(call, remote, op, type, &operand, &compare, fetch || op == shm::AmoOp::Fetch ? &result : nullptr);
  return result;
}

}  // namespace tandem
