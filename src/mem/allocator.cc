#include "mem/allocator.h"

#include <iterator>

namespace tandem {

namespace {
size_t round_up(size_t value, size_t to) { return (value + to - 1) / to * to; }
}  // namespace

SymmetricAllocator::SymmetricAllocator(size_t capacity) : capacity_(capacity / kGranule * kGranule) {
  if (capacity_ > 0) free_.emplace(0, capacity_);
}

std::optional<size_t> SymmetricAllocator::allocate(size_t size, size_t alignment) {
  if (alignment < kGranule) alignment = kGranule;
  if (size == 0) size = 1;
  if (size > capacity_) return std::nullopt;
  size = round_up(size, kGranule);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const size_t start = it->first, length = it->second;
    const size_t aligned = round_up(start, alignment);
    if (aligned < start || aligned - start > length || length - (aligned - start) < size) continue;
    const size_t tail = length - (aligned - start) - size;
    free_.erase(it);
    if (aligned > start) free_.emplace(start, aligned - start);
    if (tail > 0) free_.emplace(aligned + size, tail);
    used_.emplace(aligned, size);
    in_use_ += size;
    return aligned;
  }
  return std::nullopt;
}

bool SymmetricAllocator::release(size_t offset) {
  auto used = used_.find(offset);
  if (used == used_.end()) return false;
  size_t start = offset, length = used->second;
  in_use_ -= length;
  used_.erase(used);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + length) {
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      length += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(start, length);
  return true;
}

std::optional<size_t> SymmetricAllocator::block_size(size_t offset) const {
  auto it = used_.find(offset);
  if (it == used_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::pair<size_t, size_t>> SymmetricAllocator::containing_block(size_t offset) const {
  auto it = used_.upper_bound(offset);
  if (it == used_.begin()) return std::nullopt;
  --it;
  if (offset - it->first >= it->second) return std::nullopt;
  return *it;
}

size_t SymmetricAllocator::largest_free_block() const {
  size_t best = 0;
  for (const auto& [offset, length] : free_)
    if (length > best) best = length;
  return best;
}

}  // namespace tandem
