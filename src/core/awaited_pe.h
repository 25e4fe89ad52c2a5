// What a wait on memory waits for, for the network timeout: the PE on another node whose
// write it waits for (-1: none, or not known), and where the network engine's watch of that
// PE stands while this PE has nothing outstanding (transport/ofi/timeout.cc,
// Engine::watch_idle).
#pragma once

#include <cstdint>

namespace tandem {

struct AwaitedPe {
  int pe = -1;
  int64_t since_ns = 0;  // since when the PE has not been heard from (0: not looked yet)
  bool probed = false;   // a probe went to it at half the timeout
};

}  // namespace tandem
