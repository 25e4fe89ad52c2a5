// A communication operation on its way through the scheduler: what to move between a local
// buffer and a symmetric object on some PE.  Blocking and non-blocking RMA both travel as Ops.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mem/target.h"

namespace tandem {

struct Op {
  enum class Kind : uint8_t { Put, Get };
  Kind kind = Kind::Put;
  Target remote{};      // the symmetric object (mapped for node peers)
  void* local = nullptr;  // the local buffer: source of a put, destination of a get
  size_t bytes = 0;
};

}  // namespace tandem
