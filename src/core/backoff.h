// How a PE waits for memory that another PE will change: poll with a CPU pause, then, once
// polling has gone on for a while (at once when PEs outnumber cores), yield the core so that
// the PE we wait for can run.  Every poll also drives the network's progress, which
// manual-progress providers need for incoming operations to land.
#pragma once

#include <sched.h>

#include "core/runtime.h"
#include "core/spin_lock.h"

namespace tandem {

class Backoff {
 public:
  // Each pause drives the network's progress; code that drives it itself between pauses
  // (the transport) passes nullptr instead, so that a turn of its loop costs one progress.
  Backoff() : Backoff(rt().progress) {}
  explicit Backoff(void (*progress)()) : progress_(progress) {
    const Config& c = rt().config;
    if (c.yield == Config::Yield::Always) limit_ = 0;
    else if (c.yield == Config::Yield::Never) limit_ = ~0ull;
    else limit_ = rt().oversubscribed ? 16 : c.spin_before_yield;
  }
  void pause() {
    if (progress_) progress_();
    if (polls_ < limit_) {
      ++polls_;
      cpu_relax();
    } else {
      sched_yield();
    }
  }

 private:
  unsigned long long polls_ = 0;
  unsigned long long limit_;
  void (*progress_)();  // the network's progress, when PEs span nodes
};

// One turn of the network's progress, for calls that look at memory once without waiting
// (the test routines): a PE that polls with them, sleeping in between, must still let the
// operations of manual-progress providers land, or their initiators wait forever.
inline void drive_progress() {
  if (void (*progress)() = rt().progress) progress();
}

// Polls `ready()` until it returns true.
template <typename Ready>
inline void wait_until_ready(Ready ready) {
  if (ready()) return;
  Backoff backoff;
  while (!ready()) backoff.pause();
}

}  // namespace tandem
