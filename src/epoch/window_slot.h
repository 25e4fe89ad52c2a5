// A window's slot of the window area, as the epochs (window.cc) and the lock protocol
// (window_lock.cc) share it: the header, then posts[n_pes] (by world PE: the exposure epochs
// that PE opened to this one).
#pragma once

#include <cstdint>

#include "epoch/window.h"
#include "transport/shm.h"

namespace tandem::epoch {

struct WindowHeader {
  uint64_t completes;  // access epochs towards this PE completed
  uint64_t lock;       // the lock word (window_lock.cc)
};

// The header of slot `slot` in this PE's window area.
WindowHeader* header(int slot);

// The atomic `op` on `word` of this PE's window area as it is on world PE `pe`, with its
// result (the word's value before it).
uint64_t window_atomic(const char* call, const uint64_t* word, int pe, shm::AmoOp op, uint64_t operand,
                       uint64_t compare = 0);

// What the release of a lock of `type` adds to the lock word.
uint64_t lock_release(LockType type);

}  // namespace tandem::epoch
