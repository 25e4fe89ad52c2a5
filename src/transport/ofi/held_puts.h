// The small nbi puts that the inter-node engine holds to send together (HeldPuts, whose
// rules batch.cc describes): a batch, one run of puts that continue one another, written
// as one write; and lists, one per PE, whose records (list_record(), message.h) the
// target's progress copies into place.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>

#include "core/peer_pages.h"
#include "transport/ofi/message.h"

namespace tandem::ofi {

class Engine;

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

// The open lists: up to kOpen, one per PE at most.  Not thread-safe: HeldPuts calls it
// under its mutex.
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

// Which puts the engine holds, in which batch or list, and when they go (batch.cc).
// What is held goes out through the engine (`engine_`: its writes, its run buffers and
// request answers); the engine tells it of quiets, answered lists and completed batches.
class HeldPuts {
 public:
  explicit HeldPuts(Engine& engine) : engine_(engine) {}
  // At the engine's open: whether puts may be held; the batches (which put_unconfirmed
  // stages writes in too) exist from then on.
  void open(bool coalesce);
  Batch* batches() const { return batches_.get(); }
  // At connect: `pes` PEs; lists where the provider talks through sockets (`lists`).
  void connect(size_t pes, bool lists);
  void close();  // the engine closes: nothing is held or in flight any more
  // Before a put to `pe` (`coalesce`: one that may be held): true if it is held.  Otherwise
  // what was held for `pe` has gone first and every list to `pe` is answered, so the put
  // may go alone; what is held for other PEs may stay.
  bool hold(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes, bool coalesce);
  // Sends everything held (every wait's progress, and every operation but a put).
  void flush(const char* call) {
    if (holding()) flush_all(call);
  }
  // flush(), then, for an operation that must not pass this PE's lists of puts to `pe` (a
  // write, a read, an atomic of the provider's), a wait until they are applied.
  void flush_for(const char* call, int pe) {
    flush(call);
    if (lists_out(pe)) wait_lists(call, pe);
  }
  bool holding() const { return open_.load(std::memory_order_acquire); }
  // The progress thread, at each look: sends what is held once no put has joined it since
  // the look before.
  void flush_if_idle();
  // A batch that is neither open nor in flight, now in flight (freed by its write's
  // completion); null when every one is taken.
  Batch* take_batch();
  // The batch that `context` (a completion's) names, or null.
  Batch* batch_of(void* context);
  void quieted() { quiets_.fetch_add(1, std::memory_order_relaxed); }  // the next put starts a run
  void list_answered(int pe) { peers_.at(static_cast<size_t>(pe)).lists_out.fetch_sub(1, std::memory_order_release); }
  uint64_t coalesced() const { return coalesced_.load(std::memory_order_relaxed); }

 private:
  static constexpr size_t kPutMax = 2048;  // larger puts always go alone
  // Takes the put into the open batch or list, or opens one for it; false: it goes alone
  // (the open batch or list of its PE, if any, has gone first).
  bool absorb(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes);
  bool lists_out(int pe) const {
    const Peer* p = lists_on_ ? peers_.find(static_cast<size_t>(pe)) : nullptr;
    return p && p->lists_out.load(std::memory_order_acquire) != 0;
  }
  void wait_lists(const char* call, int pe);
  void flush_all(const char* call);
  void write_open(const char* call);  // the open batch and lists; mutex_ held
  void write_batch(const char* call);  // the open batch; mutex_ held
  Batch* free_batch();  // one neither open nor in flight, driving progress once if none is
  PutLists::List* open_list(const char* call, int pe, int segment);
  // Sends it, or writes its one put where no list to its PE is out; its slot is free after.
  void close_list(const char* call, PutLists::List* list);
  bool list_to_batch(PutLists::List* list, uint64_t offset, const void* source, size_t bytes);
  void note_open() { open_.store(open_batch_ || open_lists_.open() > 0, std::memory_order_release); }

  Engine& engine_;
  bool coalesce_ = false;
  std::unique_ptr<Batch[]> batches_;
  Batch* open_batch_ = nullptr;
  std::atomic<bool> open_{false};  // a batch or list is open
  std::mutex mutex_;  // taken before the engine's lock, never after
  int run_pe_ = -1;   // the last put that could be held ends at (pe, segment, end)
  int run_segment_ = -1;
  uint64_t run_end_ = 0;
  std::atomic<uint64_t> quiets_{0};  // a Peer::put_epoch is one of them
  std::atomic<uint64_t> coalesced_{0};
  uint64_t coalesced_at_last_look_ = 0;  // flush_if_idle()'s
  // Lists of puts (where the provider talks through sockets): a list is a message, applied
  // when the target reads it, so writes and reads to its PE wait until every list to it is
  // answered (flush_for), and while one is out, puts to it join lists.
  bool lists_on_ = false;
  PutLists open_lists_;
  struct Peer {
    std::atomic<uint32_t> lists_out{0};  // lists sent, not answered
    uint64_t put_epoch = 0;              // 1 + quiets_ at its last put held
  };
  PeerPages<Peer> peers_;
};

}  // namespace tandem::ofi
