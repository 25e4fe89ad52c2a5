// The small nbi puts that the inter-node engine holds to send together (ofi_batch.cc, which
// decides what is held and posts it): a batch, one run of puts that continue one another,
// written as one write; and lists, one per PE, whose records (list_record(), ofi_message.h)
// the target's progress copies into place.  Here are only their buffers and bookkeeping.
//
// Not thread-safe: the engine calls everything under its batch mutex.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "transport/ofi_message.h"

namespace tandem::ofi {

// A batch is written with its own completion, which frees it; a put finds no free batch only
// while kBatches are in flight, and then goes alone.  put_unconfirmed stages writes too large
// to inject in free batches.
inline constexpr size_t kBatchBytes = size_t{16} << 10;
inline constexpr size_t kBatches = 8;
struct Batch {
  int pe = -1;
  int segment = 0;
  uint64_t offset = 0;
  size_t bytes = 0;
  std::atomic<bool> in_flight{false};
  alignas(64) char data[kBatchBytes];
};

// The open lists: up to kOpen, one per PE at most.
class PutLists {
 public:
  static constexpr size_t kOpen = 8;
  // The largest put that opens a list: a list larger than rxm's buffers goes in segments,
  // so a list of a few large puts costs as many messages as the puts alone.
  static constexpr size_t kOpenMax = 256;
  struct List {
    Outgoing* out = nullptr;  // a run buffer of the engine's; null: the slot is free
    int pe = -1;              // its segment is in its head
    size_t used = 0;          // bytes of records
    size_t last = 0;          // where the last record starts
    uint64_t opened = 0;      // its number among the lists opened
  };

  size_t open() const { return open_; }
  // `pe`'s open list, or null.
  List* find(int pe) {
    if (open_ == 0) return nullptr;
    for (List& list : lists_)
      if (list.out && list.pe == pe) return &list;
    return nullptr;
  }
  // The slot for a new list: a free one, else the oldest open one, which the caller closes
  // (drop()) before start().
  List* slot() {
    List* chosen = nullptr;
    for (List& list : lists_)
      if (!list.out) return &list;
      else if (!chosen || list.opened < chosen->opened) chosen = &list;
    return chosen;
  }
  void start(List* list, Outgoing* out, int pe) {
    *list = List{out, pe, 0, 0, ++opened_};
    ++open_;
  }
  // The slot is free again (its buffer is the caller's to release or send).
  void drop(List* list) {
    *list = List{};
    --open_;
  }
  template <typename Each>
  void for_each_open(Each each) {
    for (List& list : lists_)
      if (list.out) each(&list);
  }
  void reset() {
    for (List& list : lists_) list = List{};
    open_ = 0;
  }

  // Appends a put of `bytes` at `offset`: into the last record where it continues it, else as
  // a record of its own; false when the list has no room for it.
  static bool add(List* list, uint64_t offset, const void* source, size_t bytes) {
    char* records = list->out->operands;
    if (list->used > 0) {
      const uint64_t last = record_at(*list, list->last);
      const size_t had = list_bytes(last);
      if (list_offset(last) + had == offset && had + bytes <= kListPutMax &&
          list->last + sizeof last + list_padded(had + bytes) <= kRunBytes) {
        memcpy(records + list->last + sizeof last + had, source, bytes);
        const uint64_t grown = list_record(list_offset(last), had + bytes);
        memcpy(records + list->last, &grown, sizeof grown);
        list->used = list->last + sizeof grown + list_padded(had + bytes);
        return true;
      }
    }
    const uint64_t record = list_record(offset, bytes);
    if (list->used + sizeof record + list_padded(bytes) > kRunBytes) return false;
    memcpy(records + list->used, &record, sizeof record);
    memcpy(records + list->used + sizeof record, source, bytes);
    list->last = list->used;
    list->used += sizeof record + list_padded(bytes);
    return true;
  }
  // Whether it holds one record; its first record, and that record's bytes.
  static bool single(const List& list) { return list.last == 0; }
  static uint64_t first_record(const List& list) { return record_at(list, 0); }
  static const char* first_bytes(const List& list) { return list.out->operands + sizeof(uint64_t); }

 private:
  static uint64_t record_at(const List& list, size_t at) {
    uint64_t record;
    memcpy(&record, list.out->operands + at, sizeof record);
    return record;
  }
  List lists_[kOpen];
  size_t open_ = 0;
  uint64_t opened_ = 0;
};

}  // namespace tandem::ofi
