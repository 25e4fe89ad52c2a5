// Whether a PE drives the network's progress itself, for its progress thread to keep off
// while it does: the PE's threads count their turns (waits in the library) and looks (a
// test, say), and the progress thread asks whether the counts moved since it last asked.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/clock.h"
#include "core/runtime.h"

namespace tandem::ofi {

class PeActivity {
 public:
  // A turn of progress (a wait in the library) and a look, by a PE thread; the progress
  // thread's own (on_progress_thread()) are not counted.
  void count_turn() { count(turns_); }
  void count_look() { count(looks_); }
  // The progress thread: whether the PE's threads drove progress since its last question;
  // `paused_ns`: how long the thread paused since then (not counted as staleness: a PE that
  // waited all through a long pause still drives).
  bool driving(int64_t paused_ns) {
    // A PE that tests a flag between sleeps of 50 us looks every 60-100 us; one that spins
    // on a test, every microsecond or so.
    constexpr uint64_t kSpinningLookNs = 20000;
    // Waits counted since a question this long ago (the thread slept on the wait object)
    // may be the last ones before the PE went off to compute, such as the end of a
    // barrier: they say nothing of now, and pausing for them would hold up the traffic
    // that woke the thread.  A PE that still waits is seen at the next question, a pause
    // later.
    constexpr uint64_t kStaleNs = 1000000;
    const int64_t now_ns = monotonic_ns();
    const uint64_t turns = turns_.load(std::memory_order_relaxed);
    const uint64_t looks = looks_.load(std::memory_order_relaxed);
    const auto elapsed = static_cast<uint64_t>(now_ns - seen_ns_);
    const bool waited = turns != turns_seen_ && elapsed < kStaleNs + static_cast<uint64_t>(paused_ns);
    const bool spun = looks != looks_seen_ && (looks - looks_seen_) * kSpinningLookNs >= elapsed;
    turns_seen_ = turns;
    looks_seen_ = looks;
    seen_ns_ = now_ns;
    return waited || spun;
  }
  // When a PE thread last took a turn or a look (monotonic_ns()), and how long ago.
  int64_t last_ns() const { return last_ns_.load(std::memory_order_relaxed); }
  int64_t since_last_ns() const { return monotonic_ns() - last_ns(); }

 private:
  void count(std::atomic<uint64_t>& count) {
    // A plain relaxed store, no read-modify-write: the progress thread only asks whether
    // the count moved, and two PE threads that race here still move it.
    if (on_progress_thread()) return;
    count.store(count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    last_ns_.store(monotonic_ns(), std::memory_order_relaxed);
  }

  std::atomic<uint64_t> turns_{0};
  std::atomic<uint64_t> looks_{0};
  uint64_t turns_seen_ = 0;  // the counts at the progress thread's last question
  uint64_t looks_seen_ = 0;
  int64_t seen_ns_ = 0;      // and when it was (monotonic_ns())
  std::atomic<int64_t> last_ns_{0};
};

}  // namespace tandem::ofi
