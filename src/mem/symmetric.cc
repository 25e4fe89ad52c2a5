#include "mem/symmetric.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/cards.h"
#include "core/runtime.h"
#include "mem/allocator.h"
#include "mem/data_segment.h"
#include "mem/global_objects.h"
#include "mem/target.h"

namespace tandem {

namespace {

// Runtime objects (barrier counters, ...) come from the heap too, on top of what the user
// asked for with SHMEM_SYMMETRIC_SIZE.
constexpr size_t kInternalReserve = 1u << 20;

size_t page_size() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

// SHMEM_DEBUG only: the globals' extents, read once at init and never changed after.
const GlobalObjectTable* global_objects = nullptr;

// What backs this PE's segments (Runtime's heap and data say where they are mapped), and
// the heap's allocator.  Never destroyed, as rt(): exit paths may still unlink the files.
struct Backing {
  SharedFile heap_file;
  SharedFile data_file;
  std::mutex heap_mutex;  // guards allocator
  SymmetricAllocator* allocator = nullptr;
};

Backing& backing() {
  static Backing* b = new Backing;
  return *b;
}

// A file in /dev/shm: the pages of [offset, offset + len) are taken now, where a full
// /dev/shm can be reported, not at the first touch, where it would be a SIGBUS.  Called with
// the heap's mutex held.
bool reserve_locked(const char* call, size_t offset, size_t len) {
  const int err = backing().heap_file.reserve(offset, len);
  if (err == 0) return true;
  warn(call, "%s", dev_shm_shortage(len, "the symmetric heap", err).c_str());
  return false;
}

}  // namespace

void symmetric_prepare(const char* call, size_t areas) {
  Runtime& r = rt();
  Backing& b = backing();
  set_exit_hook(unlink_all_shared_files);
  const SharedFile::Kind kind = r.config.shared_memory;
  DataRange range = find_executable_data();
  if (range.size > 0) {
    b.data_file = share_data_segment(call, range, kind);
    r.data.base = range.start;
    r.data.size = range.size;
    if (r.config.debug && global_objects == nullptr) {
      const auto lo = reinterpret_cast<uintptr_t>(range.start);
      global_objects = new GlobalObjectTable(
          GlobalObjectTable::from_executable(range.load_bias, lo, lo + range.size));
    }
  }
  const size_t page = page_size();
  const size_t size = (r.config.symmetric_size + kInternalReserve + areas + page - 1) / page * page;
  b.heap_file = SharedFile::create(call, "heap", size, kind);
  // The allocator aligns offsets; for those to be aligned addresses the base must be aligned
  // at least as much as any request, so reserve room and place the heap on a boundary.
  char* reserved = static_cast<char*>(mmap(nullptr, size + kHeapAlignment, PROT_NONE,
                                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  if (reserved == MAP_FAILED)
    fatal(call, "cannot reserve address space for a symmetric heap of %zu bytes (SHMEM_SYMMETRIC_SIZE): %s",
          size, strerror(errno));
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(reserved) + kHeapAlignment - 1) &
                                          ~(uintptr_t{kHeapAlignment} - 1));
  if (aligned > reserved) munmap(reserved, static_cast<size_t>(aligned - reserved));
  munmap(aligned + size, static_cast<size_t>(reserved + size + kHeapAlignment - (aligned + size)));
  void* base = mmap(aligned, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED,
                    b.heap_file.fd(), 0);
  if (base == MAP_FAILED)
    fatal(call, "cannot map a symmetric heap of %zu bytes (SHMEM_SYMMETRIC_SIZE): %s", size,
          strerror(errno));
  r.heap.base = static_cast<char*>(base);
  r.heap.size = size;
  b.allocator = new SymmetricAllocator(size);
}

std::string symmetric_card() {
  const Runtime& r = rt();
  const Backing& b = backing();
  return write_card(SegmentCard{r.heap.size, r.data.size, b.heap_file.locator(), b.data_file.locator()});
}

void symmetric_map_peers(const char* call, const std::function<std::string(const char* call, int pe)>& card_of) {
  Runtime& r = rt();
  r.heap.peer_base.assign(static_cast<size_t>(r.n_pes), nullptr);
  r.data.peer_base.assign(static_cast<size_t>(r.n_pes), nullptr);
  for (int pe : r.local_pes) {
    const auto card = read_segment_card(card_of(call, pe));
    if (!card) fatal(call, "PE %d sent a malformed segment description (another build of Tandem?)", pe);
    if (card->heap_size != r.heap.size)
      fatal(call, "PE %d has a symmetric heap of %llu bytes and this PE %zu: every PE must see the same SHMEM_SYMMETRIC_SIZE",
            pe, static_cast<unsigned long long>(card->heap_size), r.heap.size);
    if (card->data_size != r.data.size)
      fatal(call, "PE %d has %llu bytes of globals and this PE %zu: every PE must run the same executable",
            pe, static_cast<unsigned long long>(card->data_size), r.data.size);
    if (pe == r.my_pe) {
      r.heap.peer_base[static_cast<size_t>(pe)] = r.heap.base;
      r.data.peer_base[static_cast<size_t>(pe)] = r.data.base;
      continue;
    }
    r.heap.peer_base[static_cast<size_t>(pe)] =
        static_cast<char*>(SharedFile::map_peer(call, pe, card->heap_locator, r.heap.size));
    if (r.data.size > 0)
      r.data.peer_base[static_cast<size_t>(pe)] =
          static_cast<char*>(SharedFile::map_peer(call, pe, card->data_locator, r.data.size));
  }
}

void symmetric_peers_mapped() {
  backing().heap_file.peers_mapped();
  backing().data_file.peers_mapped();
}

const char* symmetric_backing() {
  return backing().heap_file.is_memfd() ? "memfds (TANDEM_SHARED_MEMORY: not limited by /dev/shm)"
                                        : "files in /dev/shm (TANDEM_SHARED_MEMORY), reserved as they are handed out";
}

void* heap_allocate(const char* call, size_t size, size_t alignment, Reserve reserve) {
  const Runtime& r = rt();
  Backing& b = backing();
  std::lock_guard<std::mutex> lock(b.heap_mutex);
  auto offset = b.allocator->allocate(size, alignment);
  if (!offset) {
    warn(call,
         "the symmetric heap cannot hold %zu more bytes: %zu of %zu bytes are in use and the "
         "largest free block is %zu bytes; raise SHMEM_SYMMETRIC_SIZE",
         size, b.allocator->bytes_in_use(), b.allocator->capacity(), b.allocator->largest_free_block());
    return nullptr;
  }
  if (reserve == Reserve::Now && !reserve_locked(call, *offset, size)) {
    b.allocator->release(*offset);
    return nullptr;
  }
  return r.heap.base + *offset;
}

bool heap_reserve(const char* call, const void* at, size_t len) {
  Backing& b = backing();
  std::lock_guard<std::mutex> lock(b.heap_mutex);
  return reserve_locked(call, static_cast<size_t>(static_cast<const char*>(at) - rt().heap.base), len);
}

void heap_release(const char* call, void* ptr) {
  const Runtime& r = rt();
  Backing& b = backing();
  std::lock_guard<std::mutex> lock(b.heap_mutex);
  if (!r.heap.contains(ptr) || !b.allocator->release(static_cast<size_t>(static_cast<char*>(ptr) - r.heap.base)))
    fatal(call, "ptr = %p was not returned by shmem_malloc (or was freed already)", ptr);
}

std::optional<size_t> heap_block_size(const void* ptr) {
  const Runtime& r = rt();
  Backing& b = backing();
  std::lock_guard<std::mutex> lock(b.heap_mutex);
  return r.heap.contains(ptr) ? b.allocator->block_size(static_cast<size_t>(static_cast<const char*>(ptr) - r.heap.base))
                              : std::nullopt;
}

Target locate_slow(const char* call, const char* what, const void* addr, size_t len, int pe) {
  Runtime& r = rt();
  check_ready(call);
  check_pe(call, pe);
  const Segment* seg = segment_of(r, addr);
  if (seg == nullptr)
    fatal(call, "%s = %p is not a symmetric address (neither in the symmetric heap nor a global variable)",
          what, addr);
  const size_t offset = static_cast<size_t>(static_cast<const char*>(addr) - seg->base);
  if (len > seg->size - offset)
    fatal(call, "%s = %p with %zu bytes runs %zu bytes past the end of the symmetric %s", what,
          addr, len, len - (seg->size - offset), seg == &r.heap ? "heap" : "globals");
  if (r.config.debug && seg == &r.heap && len > 0) {
    Backing& b = backing();
    std::lock_guard<std::mutex> lock(b.heap_mutex);
    auto block = b.allocator->containing_block(offset);
    if (!block)
      fatal(call, "%s = %p is inside the symmetric heap but not inside an allocated object", what, addr);
    if (offset + len > block->first + block->second)
      fatal(call, "%s = %p with %zu bytes runs past the end of its %zu-byte object", what, addr,
            len, block->second);
  }
  if (r.config.debug && seg == &r.data && len > 0 && global_objects != nullptr) {
    // Only a transfer that starts inside a known object is bounded: one that starts in the
    // padding between objects, or in data without a symbol, has no extent to check against.
    const GlobalObject* object = global_objects->containing(reinterpret_cast<uintptr_t>(addr));
    if (object != nullptr && reinterpret_cast<uintptr_t>(addr) - object->start + len > object->size)
      fatal(call, "%s = %p with %zu bytes runs past the end of its %zu-byte object (the global%s%s)",
            what, addr, len, object->size, object->name.empty() ? "" : " ", object->name.c_str());
  }
  char* peer = seg->peer_base[static_cast<size_t>(pe)];
  return Target{peer ? peer + offset : nullptr, pe, seg == &r.heap ? kHeapSegment : kDataSegment, offset};
}

}  // namespace tandem
