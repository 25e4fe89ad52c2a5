// Address translation: a symmetric address of this PE names the same object on every PE as
// (segment, offset).  For a node peer the object is also mapped here (`mapped`); for a PE
// on another node it is reached through the network with the segment and offset.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/runtime.h"

namespace tandem {

enum SegmentId : int { kHeapSegment = 0, kDataSegment = 1 };

struct Target {
  char* mapped;   // the object in this process's view of `pe`'s memory, or nullptr
  int pe;
  int segment;
  uint64_t offset;
};

// Checks that [addr, addr + len) lies inside one symmetric segment and that `pe` exists, and
// says where the object lives on `pe`.  `what` names the argument in messages ("dest").
Target locate_slow(const char* call, const char* what, const void* addr, size_t len, int pe);

// The symmetric segment that holds `addr`: the heap, then the globals (a program's static
// arrays and flags are as common); nullptr if neither.
inline const Segment* segment_of(const Runtime& r, const void* addr) {
  return r.heap.contains(addr) ? &r.heap : r.data.contains(addr) ? &r.data : nullptr;
}

inline Target locate(const char* call, const char* what, const void* addr, size_t len, int pe) {
  Runtime& r = rt();
  if (pe >= 0 && pe < r.n_pes && !r.config.debug) {
    if (const Segment* seg = segment_of(r, addr)) {
      const size_t offset = static_cast<size_t>(static_cast<const char*>(addr) - seg->base);
      if (len <= seg->size - offset) {
        char* peer = seg->peer_base[static_cast<size_t>(pe)];
        return Target{peer ? peer + offset : nullptr, pe, seg == &r.heap ? kHeapSegment : kDataSegment, offset};
      }
    }
  }
  return locate_slow(call, what, addr, len, pe);
}

}  // namespace tandem
