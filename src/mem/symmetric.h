// The symmetric segments of a PE (heap and globals), their node peers' mapped copies, and
// the symmetric heap's allocation.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tandem {

// Before PMIx starts threads: moves the globals onto shared memory and creates the heap,
// with room beyond SHMEM_SYMMETRIC_SIZE for a fixed reserve of the library's own objects
// and `areas` bytes more (the areas that grow with settings).
void symmetric_prepare(const char* call, size_t areas);
// What node peers need to map this PE's segments (locators and sizes), as a blob.
std::string symmetric_card();
// Maps the segments of every PE in rt().local_pes, from their cards (`card_of`: PE's card,
// read for those PEs alone).
void symmetric_map_peers(const char* call, const std::function<std::string(const char* call, int pe)>& card_of);
// Once every peer has mapped them: removes this PE's files from /dev/shm, or closes the
// descriptors of its memfds.
void symmetric_peers_mapped();
// What holds this PE's heap, in words (SHMEM_INFO).
const char* symmetric_backing();

// The heap's base address is a multiple of this, the largest alignment shmem_align grants.
constexpr size_t kHeapAlignment = size_t{1} << 30;

// Heap allocation on this PE (the API makes it collective).  nullptr with a message when
// the heap is exhausted, or when /dev/shm cannot hold the block's pages (TANDEM_SHARED_MEMORY
// =dev-shm: they are reserved now, unless `reserve` is Reserve::Later, where the caller
// reserves the parts it uses with heap_reserve before they are touched).
enum class Reserve { Now, Later };
void* heap_allocate(const char* call, size_t size, size_t alignment, Reserve reserve = Reserve::Now);
// Makes [at, at + len) of the heap safe to touch; false with a message when /dev/shm is full.
bool heap_reserve(const char* call, const void* at, size_t len);
// Frees a block; a pointer that is not the start of a heap block is an error.
void heap_release(const char* call, void* ptr);
// Size of the heap block starting at ptr, if one does.
std::optional<size_t> heap_block_size(const void* ptr);

}  // namespace tandem
