#include "nbi/scheduler.h"

#include "transport/shm.h"

namespace tandem {

namespace {
void carry_out(const Op& op) { shm::copy(op.to, op.from, op.bytes); }
}  // namespace

Scheduler& scheduler() {
  static Scheduler instance;
  return instance;
}

void Scheduler::submit(const Op& op) { carry_out(op); }

void Scheduler::submit_nbi(const Op& op) {
  if (op.bytes >= defer_threshold_) deferred_.push(op);
  else carry_out(op);
}

void Scheduler::quiet() {
  deferred_.drain(carry_out);
  shm::order_stores();
}

void Scheduler::fence() {
  // Held Ops may target any PE; carrying them out now keeps them ahead of later Ops.
  deferred_.drain(carry_out);
  shm::order_stores();
}

}  // namespace tandem
