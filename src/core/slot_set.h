// Which slots of a symmetric area (the teams', the windows') this PE uses: a bit per slot,
// kept in words of 64 so that the PEs of a group can compare them a word at a time
// (Group::free_everywhere).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tandem {

class SlotSet {
 public:
  void reset(size_t slots) {
    size_ = slots;
    used_ = 0;
    words_.assign((slots + 63) / 64, 0);
  }
  size_t size() const { return size_; }
  size_t used() const { return used_; }
  size_t words() const { return words_.size(); }
  // The free slots among 64 * word .. 64 * word + 63, as bits.
  uint64_t free_bits(size_t word) const {
    const size_t valid = std::min<size_t>(64, size_ - 64 * word);
    const uint64_t in_range = valid == 64 ? ~uint64_t{0} : (uint64_t{1} << valid) - 1;
    return ~words_[word] & in_range;
  }
  void take(int slot) {
    words_[static_cast<size_t>(slot) / 64] |= uint64_t{1} << (slot % 64);
    ++used_;
  }
  void give(int slot) {
    words_[static_cast<size_t>(slot) / 64] &= ~(uint64_t{1} << (slot % 64));
    --used_;
  }

 private:
  size_t size_ = 0;
  size_t used_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace tandem
