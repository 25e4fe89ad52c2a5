// A communication operation on its way through the scheduler: what to move, from where, to
// which PE.  Blocking and non-blocking RMA both travel as Ops.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tandem {

struct Op {
  enum class Kind : uint8_t { Put, Get };
  Kind kind = Kind::Put;
  int pe = -1;
  void* to = nullptr;          // where the bytes land (already resolved for a node peer)
  const void* from = nullptr;  // where they come from
  size_t bytes = 0;
};

}  // namespace tandem
