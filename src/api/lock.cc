// Distributed locks: a queue lock (MCS) kept in the user's symmetric `long`, so waiters are
// served in arrival order and each spins on its own PE's copy.
//
// The 64-bit word is split in two halves:
//   low 32 bits, meaningful on PE 0's copy only: the tail of the queue (PE + 1, 0 = free);
//   high 32 bits, on each waiter's own copy: its successor (PE + 1) in bits 32..62, and in
//   bit 63 the grant handed over by its predecessor.
#include "api/api.h"
#include "core/backoff.h"
#include "mem/target.h"
#include "nbi/scheduler.h"

using namespace tandem;
using shm::AmoOp;

namespace {

constexpr uint64_t kTailMask = 0xffffffffull;
constexpr uint64_t kGranted = 1ull << 63;
constexpr uint64_t kNextMask = ~kTailMask & ~kGranted;
constexpr int kLockHome = 0;

// Every access to a lock word except a PE's polling of its own copy is an atomic through the
// scheduler, so lock words follow the job's one atomic path.
struct LockWord {
  const char* call;
  Target where;
  uint64_t fetch() const { return scheduler().atomic<uint64_t>(call, where, AmoOp::Fetch, 0, 0, true); }
  uint64_t fetch_and(uint64_t v) const { return scheduler().atomic<uint64_t>(call, where, AmoOp::And, v, 0, true); }
  uint64_t fetch_or(uint64_t v) const { return scheduler().atomic<uint64_t>(call, where, AmoOp::Or, v, 0, true); }
  // Returns the value found; the swap happened if it equals `expected`.
  uint64_t compare_swap(uint64_t expected, uint64_t desired) const {
    return scheduler().atomic<uint64_t>(call, where, AmoOp::CompareSwap, desired, expected, true);
  }
};

LockWord word_on(const char* call, long* lock, int pe) {
  check_buffer(call, "lock", lock, sizeof(long));
  return LockWord{call, locate(call, "lock", lock, sizeof(long), pe)};
}

// Replaces the tail on PE 0 with `tail` while `replace(old tail)` holds; returns the old tail.
template <typename Replace>
uint64_t swap_tail(const LockWord& home, uint64_t tail, Replace replace) {
  uint64_t old = home.fetch();
  while (replace(old & kTailMask)) {
    const uint64_t seen = home.compare_swap(old, (old & ~kTailMask) | tail);
    if (seen == old) return old & kTailMask;
    old = seen;
  }
  return old & kTailMask;
}

// Waits until this PE's word of `lock` has a bit of `mask` set (by PE `from`, where known).
void wait_for_bits(const char* call, long* lock, uint64_t mask, int from = -1) {
  auto* mine = reinterpret_cast<uint64_t*>(lock);
  wait_until_ready(call, [&] { return (__atomic_load_n(mine, __ATOMIC_ACQUIRE) & mask) != 0; }, from);
}

}  // namespace

TANDEM_API(void, set_lock, (long* lock)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  const int me = rt().my_pe;
  word_on(call, lock, me).fetch_and(kTailMask);  // no successor, not granted
  const LockWord home = word_on(call, lock, kLockHome);
  const uint64_t self = static_cast<uint64_t>(me) + 1;
  const uint64_t prev = swap_tail(home, self, [](uint64_t) { return true; });
  if (prev == 0) return;
  word_on(call, lock, static_cast<int>(prev - 1)).fetch_or(self << 32);
  wait_for_bits(call, lock, kGranted, static_cast<int>(prev - 1));
}

TANDEM_API(int, test_lock, (long* lock)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  const int me = rt().my_pe;
  word_on(call, lock, me).fetch_and(kTailMask);
  const uint64_t self = static_cast<uint64_t>(me) + 1;
  const uint64_t prev = swap_tail(word_on(call, lock, kLockHome), self, [](uint64_t tail) { return tail == 0; });
  return prev == 0 ? 0 : 1;
}

TANDEM_API(void, clear_lock, (long* lock)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  scheduler().quiet(call);  // what was written under the lock lands before the next holder enters
  const int me = rt().my_pe;
  const LockWord home = word_on(call, lock, kLockHome);
  const uint64_t self = static_cast<uint64_t>(me) + 1;
  // No successor queued: free the lock.
  uint64_t old = home.fetch();
  while ((old & kTailMask) == self) {
    const uint64_t seen = home.compare_swap(old, old & ~kTailMask);
    if (seen == old) return;
    old = seen;
  }
  if ((old & kTailMask) == 0) fatal(call, "lock = %p is not held by this PE", static_cast<void*>(lock));
  // A successor is queued (or about to link itself): wait for the link, then grant.
  wait_for_bits(call, lock, kNextMask);
  const uint64_t next = (__atomic_load_n(reinterpret_cast<uint64_t*>(lock), __ATOMIC_ACQUIRE) & kNextMask) >> 32;
  word_on(call, lock, static_cast<int>(next - 1)).fetch_or(kGranted);
}
