// The operation path: every RMA becomes an Op handed to the scheduler, which decides when
// and how it is carried out: a CPU copy for a node peer, an RDMA operation for a PE on
// another node.  An intra-node nbi Op of at least TANDEM_DEFER_THRESHOLD bytes is held until
// the next quiet or fence; quiet posts what the network still waits for, then runs the held
// copies, then polls the network's completions.  Atomics go through here too, so that every
// atomic of a job takes one path (CPU atomics when all PEs share memory, the network's
// otherwise) and they stay atomic with each other.
#pragma once

#include <cstddef>

#include "nbi/op.h"
#include "nbi/op_queue.h"
#include "transport/shm.h"

namespace tandem {

namespace ofi {
class Transport;
}

class Scheduler {
 public:
  void configure(size_t defer_threshold, ofi::Transport* network, bool atomics_via_network) {
    defer_threshold_ = defer_threshold;
    network_ = network;
    atomics_via_network_ = atomics_via_network;
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
  // Ops held back, not yet carried out.
  size_t held() const { return deferred_.size(); }

  // An atomic at `remote`, returning the old value when `fetch` (else T()).
  template <typename T>
  T atomic(const char* call, const Target& remote, shm::AmoOp op, T operand, T compare, bool fetch);

 private:
  void network_atomic(const char* call, const Target& remote, shm::AmoOp op, bool is_float,
                      bool is_signed, size_t size, const void* operand, const void* compare,
                      void* result);
  size_t defer_threshold_ = ~size_t{0};
  ofi::Transport* network_ = nullptr;
  bool atomics_via_network_ = false;
  OpQueue deferred_;
};

Scheduler& scheduler();

template <typename T>
T Scheduler::atomic(const char* call, const Target& remote, shm::AmoOp op, T operand, T compare, bool fetch) {
  if (remote.mapped && !atomics_via_network_)
    return shm::amo(op, reinterpret_cast<T*>(remote.mapped), operand, compare);
  T result{};
  network_atomic(call, remote, op, std::is_floating_point_v<T>, std::is_signed_v<T>, sizeof(T),
                 &operand, &compare, fetch || op == shm::AmoOp::Fetch ? &result : nullptr);
  return result;
}

}  // namespace tandem
