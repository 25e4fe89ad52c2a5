#include "coll/barrier.h"

#include "core/backoff.h"
#include "core/runtime.h"
#include "mem/symmetric.h"
#include "mem/target.h"
#include "nbi/scheduler.h"

namespace tandem {

Barrier& world_barrier() {
  static Barrier instance;
  return instance;
}

void Barrier::init(const char* call) {
  counters_ = static_cast<uint64_t*>(heap_allocate(call, kMaxRounds * sizeof(uint64_t), 64));
  if (counters_ == nullptr) fatal(call, "no room for the barrier's counters in the symmetric heap");
  // The heap is fresh at init (zero-filled), so the counters start at 0 on every PE; zeroing
  // them here would race with a faster peer that already entered the first barrier.
  epoch_ = 0;
}

void Barrier::run(const char* call) {
  Runtime& r = rt();
  const int n = r.n_pes;
  const uint64_t epoch = ++epoch_;
  for (int k = 0, distance = 1; distance < n; ++k, distance <<= 1) {
    const int partner = (r.my_pe + distance) % n;
    const Target remote = locate(call, "barrier counter", &counters_[k], sizeof(uint64_t), partner);
    scheduler().atomic<uint64_t>(call, remote, shm::AmoOp::Add, 1, 0, false);
    uint64_t* mine = &counters_[k];
    wait_until_ready([&] { return __atomic_load_n(mine, __ATOMIC_ACQUIRE) >= epoch; });
  }
}

}  // namespace tandem
