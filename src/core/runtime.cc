#include "core/runtime.h"

#include "core/backoff.h"
#include "core/clock.h"

namespace tandem {

namespace {
constexpr unsigned kLocalAccessesPerClockRead = 32;
constexpr int64_t kLocalLookIntervalUs = 50;
thread_local unsigned local_accesses = 0;
thread_local int64_t last_local_look_us = 0;
}  // namespace

void look_if_due() {
  if (++local_accesses % kLocalAccessesPerClockRead != 0) return;
  const int64_t us = monotonic_ns() / 1000;
  if (us - last_local_look_us < kLocalLookIntervalUs) return;
  last_local_look_us = us;
  drive_progress();
}

}  // namespace tandem
