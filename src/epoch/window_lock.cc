// The lock protocol of lock epochs (shmemx_win_lock, shmemx_win_unlock): the lock word on
// each target, how a lock is acquired (tandem_win::acquire) and how its release updates the
// word (lock_release).  The word: the number of shared holders in the low 32 bits, the
// exclusive holder above them, and the number of exclusive requests waiting above that.
#include "core/backoff.h"
#include "epoch/window.h"
#include "epoch/window_slot.h"

using namespace tandem;
using namespace tandem::epoch;

namespace {

constexpr uint64_t kWriter = uint64_t{1} << 32;
constexpr uint64_t kWaiting = uint64_t{1} << 33;
constexpr uint64_t kReaders = kWriter - 1;

}  // namespace

uint64_t tandem::epoch::lock_release(LockType type) {
  // Adding the two's complement takes the holder away.
  return type == LockType::Exclusive ? uint64_t{0} - kWriter : ~uint64_t{0};
}

// Writer preference: a shared request is granted only while no exclusive request holds or
// waits, so an exclusive request waits for the shared holders of the moment, not for a
// stream of new ones.
void tandem_win::acquire(const char* call, int rank) {
  const Target& t = targets_[static_cast<size_t>(rank)];
  const int pe = team_->pes[static_cast<size_t>(rank)];
  const uint64_t* word = &header(slot_)->lock;
  Backoff backoff(call);
  if (t.lock == LockType::Exclusive) {
    // Free, the lock is taken at once; else the request, announced, holds back shared ones
    // and takes the lock once no one holds it.
    uint64_t seen = window_atomic(call, word, pe, shm::AmoOp::CompareSwap, kWriter, 0);
    if (seen == 0) return;
    seen = window_atomic(call, word, pe, shm::AmoOp::Add, kWaiting) + kWaiting;
    for (;;) {
      if ((seen & (kWriter | kReaders)) == 0) {
        const uint64_t before = window_atomic(call, word, pe, shm::AmoOp::CompareSwap, seen - kWaiting + kWriter, seen);
        if (before == seen) return;
        seen = before;
        continue;
      }
      backoff.pause();
      seen = window_atomic(call, word, pe, shm::AmoOp::Fetch, 0);
    }
  }
  for (;;) {
    if ((window_atomic(call, word, pe, shm::AmoOp::Add, 1) & ~kReaders) == 0) return;
    // Taken back, and not tried again (which would hold up the exclusive request's
    // compare-and-swap) until no exclusive request is left.
    window_atomic(call, word, pe, shm::AmoOp::Add, ~uint64_t{0});
    do backoff.pause();
    while ((window_atomic(call, word, pe, shm::AmoOp::Fetch, 0) & ~kReaders) != 0);
  }
}
