// A table from 64-bit keys (any but kNoKey) to values, for the lookups on a hot path: the
// notifications' (source, tag) pairs (notify.cc: each pair's started requests and the count
// of its notifications that came before any, by pack(source, tag)) and the elements of a
// window's staged accumulates (window.cc, by offset).
//
// Open addressing with linear probing, each key beside its value, so that a lookup costs
// a multiplication and, mostly, one cache line, and an insert allocates nothing but when the
// table grows (a program that starts a request per row or per step has thousands of pairs;
// an epoch stages an element per accumulated word).  The caller erases what has nothing
// left, or names it to find_or_add() as disposable, so that the table stays the size of
// what is pending, not of every key ever used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tandem {

template <typename Value>
class FlatTable {
 public:
  static constexpr uint64_t kNoKey = ~uint64_t{0};  // never a key: marks an empty entry

  Value* find(uint64_t key) {
    for (size_t i = slot(key);; i = (i + 1) & mask()) {
      if (entries_[i].key == key) return &entries_[i].value;
      if (entries_[i].key == kNoKey) return nullptr;
    }
  }
  // The key's value, a new one if it had none.  Inserting and erasing move entries:
  // pointers from find() are stale afterwards.
  Value* find_or_add(uint64_t key) {
    return find_or_add(key, [](const Value&) { return false; });
  }
  // The same, but when the table is full enough to grow, the entries whose value is
  // `disposable` go first, and it grows only if more than a quarter is still in use: a key
  // that comes back again and again (a request restarted for the same pair) keeps its entry
  // instead of being erased and inserted each time, and the table stays within four times
  // what is not disposable.
  template <typename Disposable>
  Value* find_or_add(uint64_t key, Disposable disposable) {
    if (Value* v = find(key)) return v;
    if (2 * (used_ + 1) > entries_.size()) {
      size_t kept = 0;
      for (const Entry& e : entries_) kept += e.key != kNoKey && !disposable(e.value);
      rebuild(4 * (kept + 1) > entries_.size() ? 2 * entries_.size() : entries_.size(), disposable);
    }
    size_t i = slot(key);
    while (entries_[i].key != kNoKey) i = (i + 1) & mask();
    entries_[i].key = key;
    ++used_;
    return &entries_[i].value;
  }
  // Erases the key, if present.  Each entry after it up to the next empty one moves back
  // into the hole unless its home slot lies between the hole and it, so that every probe
  // still finds it.
  void erase(uint64_t key) {
    size_t hole = slot(key);
    while (entries_[hole].key != key) {
      if (entries_[hole].key == kNoKey) return;
      hole = (hole + 1) & mask();
    }
    for (size_t j = (hole + 1) & mask(); entries_[j].key != kNoKey; j = (j + 1) & mask()) {
      if (((j - slot(entries_[j].key)) & mask()) < ((j - hole) & mask())) continue;
      entries_[hole] = entries_[j];
      hole = j;
    }
    entries_[hole] = Entry();
    --used_;
  }
  // visit(key, value) for every key; it must not insert or erase.
  template <typename Visit>
  void for_each(Visit visit) {
    for (Entry& e : entries_)
      if (e.key != kNoKey) visit(e.key, e.value);
  }
  size_t size() const { return used_; }

 private:
  struct Entry {
    uint64_t key = kNoKey;
    Value value{};
  };
  size_t mask() const { return entries_.size() - 1; }
  size_t slot(uint64_t key) const { return static_cast<size_t>((key * 0x9e3779b97f4a7c15ull) >> shift_); }
  // Moves every entry but the disposable ones into a table of `size` entries (a power of 2).
  template <typename Disposable>
  void rebuild(size_t size, Disposable disposable) {
    std::vector<Entry> old(size);
    old.swap(entries_);
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(size));
    used_ = 0;
    for (const Entry& e : old) {
      if (e.key == kNoKey || disposable(e.value)) continue;
      size_t i = slot(e.key);
      while (entries_[i].key != kNoKey) i = (i + 1) & mask();
      entries_[i] = e;
      ++used_;
    }
  }
  std::vector<Entry> entries_ = std::vector<Entry>(16);
  unsigned shift_ = 64 - 4;  // 64 - log2(entries_.size())
  size_t used_ = 0;
};

}  // namespace tandem
