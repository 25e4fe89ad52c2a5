// Distributed locks: a queue lock (MCS) kept in the user's symmetric `long`, so waiters are
// served in arrival order and each spins on its own PE's copy.
//
// The 64-bit word is split in two halves:
//   low 32 bits, meaningful on PE 0's copy only: the tail of the queue (PE + 1, 0 = free);
//   high 32 bits, on each waiter's own copy: its successor (PE + 1) in bits 32..62, and in
//   bit 63 the grant handed over by its predecessor.
#include "api/api.h"
#include "core/backoff.h"

using namespace tandem;

namespace {

constexpr uint64_t kTailMask = 0xffffffffull;
constexpr uint64_t kGranted = 1ull << 63;
constexpr uint64_t kNextMask = ~kTailMask & ~kGranted;
constexpr int kLockHome = 0;

uint64_t* word_on(const char* call, long* lock, int pe) {
  check_buffer(call, "lock", lock, sizeof(long));
  return reinterpret_cast<uint64_t*>(resolve(call, "lock", lock, sizeof(long), pe));
}

// Atomically replaces the tail on PE 0 with `tail` when `expected(old tail)` holds;
// returns the old tail.
template <typename Expect>
uint64_t swap_tail(uint64_t* home, uint64_t tail, Expect expected) {
  uint64_t old = __atomic_load_n(home, __ATOMIC_ACQUIRE);
  while (expected(old & kTailMask)) {
    if (__atomic_compare_exchange_n(home, &old, (old & ~kTailMask) | tail, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      return old & kTailMask;
  }
  return old & kTailMask;
}

}  // namespace

TANDEM_API(void, set_lock, (long* lock)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  const int me = rt().my_pe;
  uint64_t* mine = word_on(call, lock, me);
  __atomic_fetch_and(mine, kTailMask, __ATOMIC_ACQ_REL);  // no successor, not granted
  uint64_t* home = word_on(call, lock, kLockHome);
  const uint64_t self = static_cast<uint64_t>(me) + 1;
  const uint64_t prev = swap_tail(home, self, [](uint64_t) { return true; });
  if (prev == 0) return;
  uint64_t* before = word_on(call, lock, static_cast<int>(prev - 1));
  __atomic_fetch_or(before, self << 32, __ATOMIC_ACQ_REL);
  wait_until_ready([&] { return (__atomic_load_n(mine, __ATOMIC_ACQUIRE) & kGranted) != 0; });
}

TANDEM_API(int, test_lock, (long* lock)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  const int me = rt().my_pe;
  uint64_t* mine = word_on(call, lock, me);
  __atomic_fetch_and(mine, kTailMask, __ATOMIC_ACQ_REL);
  uint64_t* home = word_on(call, lock, kLockHome);
  const uint64_t self = static_cast<uint64_t>(me) + 1;
  const uint64_t prev = swap_tail(home, self, [](uint64_t tail) { return tail == 0; });
  return prev == 0 ? 0 : 1;
}

TANDEM_API(void, clear_lock, (long* lock)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  shmem_quiet();  // what was written under the lock lands before the next holder enters
  const int me = rt().my_pe;
  uint64_t* mine = word_on(call, lock, me);
  uint64_t* home = word_on(call, lock, kLockHome);
  const uint64_t self = static_cast<uint64_t>(me) + 1;
  // No successor queued: free the lock.
  uint64_t old = __atomic_load_n(home, __ATOMIC_ACQUIRE);
  while ((old & kTailMask) == self) {
    if (__atomic_compare_exchange_n(home, &old, old & ~kTailMask, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return;
  }
  if ((old & kTailMask) == 0)
    fatal(call, "lock = %p is not held by this PE", static_cast<void*>(lock));
  // A successor is queued (or about to link itself): wait for the link, then grant.
  uint64_t next = 0;
  wait_until_ready([&] {
    next = (__atomic_load_n(mine, __ATOMIC_ACQUIRE) & kNextMask) >> 32;
    return next != 0;
  });
  uint64_t* successor = word_on(call, lock, static_cast<int>(next - 1));
  __atomic_fetch_or(successor, kGranted, __ATOMIC_ACQ_REL);
}
