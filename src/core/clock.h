// The one clock of the library's own waits and pacing: CLOCK_MONOTONIC, in nanoseconds.
#pragma once

#include <time.h>

#include <cstdint>

namespace tandem {

inline int64_t monotonic_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

}  // namespace tandem
