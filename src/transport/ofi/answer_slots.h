// The slots through which the answers to a PE's software atomics come back as writes into
// its own memory (engine.h, Own) instead of as messages.  With libfabric 1.17's tcp
// provider every message received costs its receiver a signal of the provider's wait set (a
// 1-byte write, a poll and a read: about 1.1 us on these machines); a write it receives
// costs nothing beyond its bytes.
//
// A request that claims slot i carries a cookie naming i and a generation g (1..255, the
// slot's next); the target writes the answer's value and then the tag of g, the byte g in
// all 8 bytes, into the initiator's slot i in one write.  The slot still holds the tag of
// its previous generation, written in full (a slot is freed only once its tag arrived), so
// a tag that the provider has written only in part mixes two generations' bytes and matches
// none: a slot reads as answered only when the whole write has landed, `value` first.  That
// rests on the bytes landing in the order of the write, which providers that talk through
// kernel sockets do (they copy the stream into memory); and the engine reads the slots under
// the lock its calls into the provider take, so no copy is under way meanwhile.
//
// The first kCells slots have a cell each besides, for the answer of a read of up to
// kCellBytes (a blocking get): the target writes the bytes and then the tag, in one write,
// at the cell's start, the tag at the first multiple of 8 after the bytes.  That place may
// hold bytes of an earlier, longer answer, so a claim of the cell zeroes it first.
//
// Not thread-safe: the engine calls everything under its lock.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tandem::ofi {

class AnswerSlots {
 public:
  static constexpr size_t kSlots = 64;
  static constexpr size_t kCells = 4;
  static constexpr size_t kCellBytes = 256;
  static constexpr size_t kCellStride = kCellBytes + sizeof(uint64_t);
  // Where a cell's tag goes after `bytes` of answer, and how many bytes the write carries.
  static size_t tag_place(size_t bytes) { return (bytes + 7) & ~size_t{7}; }
  static size_t cell_write_bytes(size_t bytes) { return tag_place(bytes) + sizeof(uint64_t); }

  // An answer as the target writes it into the initiator's slot, in one write.
  struct Written {
    uint64_t value;
    uint64_t tag;  // tag_of() the request's cookie
  };

  // Claims a free slot for a request whose answer goes to `reply` (null: the answer is only
  // counted), setting `*cookie`, what the request carries; false when every slot is taken.
  // The slots with cells go last.
  bool claim(void* reply, uint64_t* cookie) {
    if (busy_ == ~uint64_t{0}) return false;
    const uint64_t free = ~busy_ & ~kCellMask ? ~busy_ & ~kCellMask : ~busy_;
    take(static_cast<size_t>(__builtin_ctzll(free)), reply, 0, cookie);
    return true;
  }
  // Claims a free slot with a cell for the answer of a read of `bytes` (at most kCellBytes)
  // into `cells` (kCells cells of kCellStride); false when every such slot is taken.
  bool claim_cell(void* reply, size_t bytes, char* cells, uint64_t* cookie) {
    const uint64_t free = ~busy_ & kCellMask;
    if (!free) return false;
    const size_t i = static_cast<size_t>(__builtin_ctzll(free));
    __atomic_store_n(reinterpret_cast<uint64_t*>(cells + i * kCellStride + tag_place(bytes)), 0, __ATOMIC_RELAXED);
    take(i, reply, bytes, cookie);
    return true;
  }

  // Whether a request's cookie names a slot (else it is the message path's: 0 or the
  // address of the initiator's reply, never with the top bit set).
  static bool names_slot(uint64_t cookie) { return (cookie & kNamesSlot) != 0; }
  // A cookie in 16 bits (0: none), for a request that travels in remote CQ data, and back.
  static uint64_t compact(uint64_t cookie) { return names_slot(cookie) ? cookie & 0xffff : 0; }
  static uint64_t expand(uint64_t compact) { return compact ? kNamesSlot | (compact & 0xffff) : 0; }
  // The slot that `cookie` names, and the tag its answer carries.
  static size_t slot_of(uint64_t cookie) { return static_cast<size_t>(cookie & 0xff) % kSlots; }
  static uint64_t tag_of(uint64_t cookie) { return tag((cookie >> 8) & 0xff); }

  // For each busy slot whose answer has landed in `answers` (kSlots of them) or its cell in
  // `cells`: frees it and calls done(slot, reply, value, cell, bytes), `cell` the answer's
  // bytes (null for a value).  Returns how many.
  template <typename Done>
  size_t collect(const Written* answers, const char* cells, Done done) {
    size_t n = 0;
    for (uint64_t left = busy_; left; left &= left - 1) {
      const size_t i = static_cast<size_t>(__builtin_ctzll(left));
      const char* cell = cell_bytes_[i] ? cells + i * kCellStride : nullptr;
      const uint64_t* tag_at = cell ? reinterpret_cast<const uint64_t*>(cell + tag_place(cell_bytes_[i])) : &answers[i].tag;
      if (__atomic_load_n(tag_at, __ATOMIC_ACQUIRE) != tag(generation_[i])) continue;
      done(i, reply_[i], cell ? 0 : __atomic_load_n(&answers[i].value, __ATOMIC_RELAXED), cell, cell_bytes_[i]);
      busy_ &= ~(uint64_t{1} << i);
      ++n;
    }
    return n;
  }

  bool any_busy() const { return busy_ != 0; }
  // Forgets every claim (the engine closes); the generations go on, as the slots' memory
  // keeps the last tags written.
  void release_all() { busy_ = 0; }

 private:
  static constexpr uint64_t kNamesSlot = uint64_t{1} << 63;
  static uint64_t tag(uint64_t generation) { return generation * 0x0101010101010101ull; }
  static constexpr uint64_t kCellMask = (uint64_t{1} << kCells) - 1;
  void take(size_t i, void* reply, size_t cell_bytes, uint64_t* cookie) {
    busy_ |= uint64_t{1} << i;
    generation_[i] = static_cast<uint8_t>(generation_[i] % 255 + 1);
    reply_[i] = reply;
    cell_bytes_[i] = static_cast<uint16_t>(cell_bytes);
    *cookie = kNamesSlot | uint64_t{generation_[i]} << 8 | i;
  }
  uint64_t busy_ = 0;
  uint8_t generation_[kSlots] = {};
  uint16_t cell_bytes_[kSlots] = {};  // a read's answer in the slot's cell: its bytes
  void* reply_[kSlots] = {};
};

}  // namespace tandem::ofi
