// Symmetric memory management.  Every routine is collective: all PEs call it with the same
// arguments in the same order, which makes the allocator hand out the same offsets, and it
// ends with a barrier so that the new object may be the target of RMA at once.
#include <cstring>

#include "api/api.h"
#include "coll/team.h"
#include "mem/allocator.h"
#include "mem/symmetric.h"
#include "mem/target.h"
#include "nbi/scheduler.h"

using namespace tandem;

namespace {

// SHMEM_DEBUG: every PE compares what it asked for and got with PE 0; a difference means
// the PEs did not make the same allocation calls, and the heap is no longer symmetric.
void check_agreement(const char* call, size_t size, size_t alignment, const void* p) {
  Runtime& r = rt();
  const uint64_t mine[3] = {size, alignment, p ? static_cast<uint64_t>(static_cast<const char*>(p) - r.heap.base) : ~0ull};
  for (int i = 0; i < 3; ++i) r.agreement[i] = mine[i];
  team_sync(call, team_world);
  uint64_t first[3];
  scheduler().submit(call, Op{Op::Kind::Get, locate(call, "agreement", r.agreement, sizeof first, 0), first, sizeof first});
  const bool same = first[0] == mine[0] && first[1] == mine[1] && first[2] == mine[2];
  team_sync(call, team_world);  // PE 0's record stays until everyone has read it
  if (!same)
    fatal(call,
          "this PE asked for %zu bytes (alignment %zu) but PE 0 for %llu bytes (alignment %llu), or "
          "got another offset: every PE must make the same allocation calls in the same order",
          size, alignment, static_cast<unsigned long long>(first[0]),
          static_cast<unsigned long long>(first[1]));
}

void* allocate_collectively(const char* call, size_t size, size_t alignment) {
  check_ready(call);
  void* p = size == 0 ? nullptr : heap_allocate(call, size, alignment);
  if (size == 0) explain_null_faults(call);  // a program that writes through it anyway
  if (rt().config.debug) check_agreement(call, size, alignment, p);
  team_sync(call, team_world);
  return p;
}

bool is_power_of_two(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

TANDEM_API(void*, malloc, (size_t size)) { return allocate_collectively(TANDEM_CALL, size, SymmetricAllocator::kGranule); }

// Hints are advice: every object already serves atomics and signals from any PE, and a hint
// this library does not know (a later version's, another implementation's) is ignored.
TANDEM_API(void*, malloc_with_hints, (size_t size, long hints)) {
  if ((hints & ~(SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE)) && rt().config.debug)
    warn(TANDEM_CALL, "hints = %ld has bits that are not SHMEM_MALLOC_ hints; they are ignored", hints);
  return allocate_collectively(TANDEM_CALL, size, SymmetricAllocator::kGranule);
}

TANDEM_API(void*, calloc, (size_t count, size_t size)) {
  if (size != 0 && count > SIZE_MAX / size)
    fatal(TANDEM_CALL, "count = %zu times size = %zu overflows", count, size);
  void* p = allocate_collectively(TANDEM_CALL, count * size, SymmetricAllocator::kGranule);
  if (p) memset(p, 0, count * size);
  // Zeroing must be done before a peer can write into the object.
  if (p) team_sync(TANDEM_CALL, team_world);
  return p;
}

TANDEM_API(void*, align, (size_t alignment, size_t size)) {
  // An alignment that is not a power of two (0 included) gets no memory, on every PE alike
  // (they all pass the same arguments), as in Open MPI's OSHMEM; public suites check it.
  if (!is_power_of_two(alignment)) {
    check_ready(TANDEM_CALL);
    warn(TANDEM_CALL, "alignment = %zu is not a power of two: no memory is allocated", alignment);
    return nullptr;
  }
  if (alignment > kHeapAlignment) {
    check_ready(TANDEM_CALL);
    warn(TANDEM_CALL, "alignment = %zu is larger than the %zu bytes the symmetric heap is aligned to: no memory is allocated",
         alignment, kHeapAlignment);
    return nullptr;
  }
  return allocate_collectively(TANDEM_CALL, size, alignment);
}

TANDEM_API(void, free, (void* ptr)) {
  check_ready(TANDEM_CALL);
  scheduler().quiet(TANDEM_CALL);
  team_sync(TANDEM_CALL, team_world);  // no PE may still be writing into the object
  if (ptr) heap_release(TANDEM_CALL, ptr);
}

TANDEM_API(void*, realloc, (void* ptr, size_t size)) {
  check_ready(TANDEM_CALL);
  if (ptr == nullptr) return allocate_collectively(TANDEM_CALL, size, SymmetricAllocator::kGranule);
  if (size == 0) {
    pshmem_free(ptr);
    return nullptr;
  }
  // A pointer that is no live block (freed already, or never allocated) gets no memory, on
  // every PE alike, as in Open MPI's OSHMEM; public suites check it.
  const std::optional<size_t> block = heap_block_size(ptr);
  if (!block) {
    warn(TANDEM_CALL, "ptr = %p was not returned by shmem_malloc (or was freed already): no memory is allocated", ptr);
    return nullptr;
  }
  const size_t old_size = *block;
  scheduler().quiet(TANDEM_CALL);
  team_sync(TANDEM_CALL, team_world);
  void* fresh = heap_allocate(TANDEM_CALL, size, SymmetricAllocator::kGranule);
  if (fresh) {
    memcpy(fresh, ptr, old_size < size ? old_size : size);
    heap_release(TANDEM_CALL, ptr);
  }
  team_sync(TANDEM_CALL, team_world);
  return fresh;
}

extern "C" void* shmalloc(size_t size) { return pshmem_malloc(size); }
extern "C" void shfree(void* ptr) { pshmem_free(ptr); }
extern "C" void* shrealloc(void* ptr, size_t size) { return pshmem_realloc(ptr, size); }
extern "C" void* shmemalign(size_t alignment, size_t size) { return pshmem_align(alignment, size); }
