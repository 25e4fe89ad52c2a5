// The operation path: every RMA becomes an Op handed to the scheduler, which decides when
// it is carried out; quiet and fence complete what it holds.  An intra-node nbi Op of at
// least TANDEM_DEFER_THRESHOLD bytes is held until the next quiet or fence; everything else
// is carried out on the call site.  The network engine plugs in here without touching the
// API layer.
#pragma once

#include <cstddef>

#include "nbi/op.h"
#include "nbi/op_queue.h"

namespace tandem {

class Scheduler {
 public:
  void configure(size_t defer_threshold) { defer_threshold_ = defer_threshold; }
  // Blocking: returns once the source buffer may be reused (puts) or the data arrived (gets).
  void submit(const Op& op);
  // Non-blocking: may return before the transfer happened; completed by quiet().
  void submit_nbi(const Op& op);
  // Completes every submitted Op.
  void quiet();
  // Orders Ops to each PE: those before the fence land before those after it.
  void fence();
  // Ops held back, not yet carried out.
  size_t held() const { return deferred_.size(); }

 private:
  size_t defer_threshold_ = ~size_t{0};
  OpQueue deferred_;
};

Scheduler& scheduler();

}  // namespace tandem
