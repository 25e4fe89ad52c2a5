// The symmetric heap's allocator: offsets into a heap of fixed capacity, first fit with
// coalescing on free.  Deterministic: the same sequence of calls on every PE yields the same
// offsets, which is what makes the heap symmetric.  Not thread-safe (callers lock).
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace tandem {

class SymmetricAllocator {
 public:
  static constexpr size_t kGranule = 64;  // every block starts and ends on this alignment

  explicit SymmetricAllocator(size_t capacity);

  // Offset of a new block of at least `size` bytes aligned to `alignment` (a power of two),
  // or nothing when no free block fits.  size 0 is treated as 1.
  std::optional<size_t> allocate(size_t size, size_t alignment = kGranule);
  // Returns the block starting at `offset` to the free list; false if no block starts there.
  bool release(size_t offset);
  // Size of the block starting at `offset`, if one does.
  std::optional<size_t> block_size(size_t offset) const;
  // The block containing `offset`: its start and size, if the offset is inside one.
  std::optional<std::pair<size_t, size_t>> containing_block(size_t offset) const;

  size_t capacity() const { return capacity_; }
  size_t bytes_in_use() const { return in_use_; }
  size_t largest_free_block() const;
  size_t free_block_count() const { return free_.size(); }

 private:
  size_t capacity_;
  size_t in_use_ = 0;
  std::map<size_t, size_t> free_;  // offset -> length, never two adjacent entries
  std::map<size_t, size_t> used_;  // offset -> length
};

}  // namespace tandem
