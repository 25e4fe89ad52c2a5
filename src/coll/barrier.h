// The barrier over all PEs: a dissemination barrier on counters in the symmetric heap.  In
// round k each PE bumps a counter of the PE 2^k ahead and waits for its own to be bumped;
// the counters only grow, so no reset is needed between barriers.
#pragma once

#include <cstdint>

namespace tandem {

class Barrier {
 public:
  // Collective: takes the counters from the symmetric heap (same offset on every PE).
  void init(const char* call);
  // Returns once every PE has entered the barrier.  Memory written before it by any PE is
  // visible after it to every PE.
  void run(const char* call);

 private:
  static constexpr int kMaxRounds = 32;
  uint64_t* counters_ = nullptr;  // kMaxRounds, symmetric
  uint64_t epoch_ = 0;
};

Barrier& world_barrier();

}  // namespace tandem
