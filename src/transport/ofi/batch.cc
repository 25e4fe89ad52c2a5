// Coalesced puts (HeldPuts in held_puts.h; Engine::put with `coalesce`).  Small nbi puts
// that continue one another (each starts where the previous ended, same PE and segment) are
// copied into a batch and written as one message: with tcp a message costs a system call or
// more whatever its size, so a run of 8-byte puts moves at the speed of its messages, not
// of the link.  Where the provider talks through sockets, puts to a PE that do not continue
// one another are copied into a list instead, a request of up to kRunBytes of records
// (offset, length, bytes) that the target's progress copies into place and answers; a list
// is open per PE, for up to PutLists::kOpen PEs at once, so puts spread over several PEs
// travel in lists too.
//
// Hybrid issue: a put goes alone (eager) unless it continues the previous one or follows
// one to the same PE in the same epoch (since the last quiet), so an isolated put still
// overlaps whatever follows; the others are held (lazy) in the open batch or their PE's
// list until the batch's run ends, the batch or list fills, or the PE does anything else
// with the network or waits: every other operation, quiet, fence and the progress of every
// wait loop write the open batch and lists first, and a progress thread with a core of its
// own writes them when no put joined since its last look.  So a PE that waits for an answer
// to its puts never waits on a batch or list it holds itself.
//
// Order: a PE has one open batch or list at most, closed before the next of its puts goes
// another way.  A batch is a write, behind the writes before it.  A list is a message that
// the target applies when its progress reads it, after the writes that came before it; a
// write or read that came after it could land first, so those wait until every list to
// their PE is answered (flush_for), and while one is out, puts to that PE join lists rather
// than go alone or in batches.  Puts to a PE keep their order either way.
#include <atomic>
#include <cstring>

#include "transport/ofi/engine.h"
#include "transport/ofi/post.h"

namespace tandem::ofi {

void HeldPuts::open(bool coalesce) {
  coalesce_ = coalesce;
  if (!batches_) batches_.reset(new Batch[kBatches]);  // coalesced puts, staged writes
}

void HeldPuts::connect(size_t pes, bool lists) {
  lists_on_ = coalesce_ && lists;
  peers_.reset(pes);
}

void HeldPuts::close() {
  open_batch_ = nullptr;
  open_lists_.reset();
  lists_on_ = false;
  open_ = false;
  run_pe_ = -1;
  for (size_t i = 0; batches_ && i < kBatches; ++i) batches_[i].in_flight = false;
}

bool HeldPuts::hold(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                    bool coalesce) {
  if (!coalesce || !coalesce_ || bytes > kPutMax) {
    flush_for(call, pe);
    return false;
  }
  if (absorb(call, pe, segment, offset, source, bytes)) return true;
  if (lists_out(pe)) wait_lists(call, pe);
  return false;
}

bool HeldPuts::absorb(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t epoch = quiets_.load(std::memory_order_relaxed) + 1;
  const bool continues = pe == run_pe_ && segment == run_segment_ && offset == run_end_;
  Peer& peer = peers_.at(static_cast<size_t>(pe));
  const bool follows = peer.put_epoch == epoch && !continues;  // pe had a put in this epoch
  run_pe_ = pe;
  run_segment_ = segment;
  run_end_ = offset + bytes;
  peer.put_epoch = epoch;
  Batch* open = open_batch_;
  if (open && open->pe == pe && open->segment == segment && open->offset + open->bytes == offset &&
      open->bytes + bytes <= kBatchBytes) {
    memcpy(open->data + open->bytes, source, bytes);
    open->bytes += bytes;
    coalesced_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (PutLists::List* list = open_lists_.find(pe)) {
    if (list->out->head.segment == segment &&
        (list_to_batch(list, offset, source, bytes) || PutLists::add(list, offset, source, bytes))) {
      coalesced_.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
    close_list(call, list);  // full, or for another segment
  }
  if (open && open->pe == pe) write_batch(call);  // pe's earlier puts go first
  const bool lists_out = lists_on_ && peer.lists_out.load(std::memory_order_acquire) != 0;
  const bool listable = lists_on_ && offset < kListOffsets && bytes <= kListPutMax;
  if (listable && ((follows && bytes <= PutLists::kOpenMax) || lists_out)) {
    PutLists::add(open_list(call, pe, segment), offset, source, bytes);
    coalesced_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (!continues || lists_out) return false;
  if (open_batch_) write_batch(call);  // one batch open at most
  Batch* free = free_batch();
  if (!free) return false;
  free->pe = pe;
  free->segment = segment;
  free->offset = offset;
  free->bytes = bytes;
  memcpy(free->data, source, bytes);
  open_batch_ = free;
  note_open();
  coalesced_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

Batch* HeldPuts::free_batch() {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt) engine_.progress();  // completions free batches
    for (size_t i = 0; i < kBatches; ++i)
      if (!batches_[i].in_flight.load(std::memory_order_acquire)) return &batches_[i];
  }
  return nullptr;
}

PutLists::List* HeldPuts::open_list(const char* call, int pe, int segment) {
  PutLists::List* list = open_lists_.slot();
  if (list->out) close_list(call, list);  // the oldest
  engine_.settle_fence(call);  // a message may pass writes
  Outgoing* out = engine_.take_run(call);
  out->head = Message{};
  out->head.kind = Message::List;
  out->head.segment = static_cast<uint8_t>(segment);
  out->head.origin = engine_.my_pe_;
  open_lists_.start(list, out, pe);
  note_open();
  return list;
}

bool HeldPuts::list_to_batch(PutLists::List* list, uint64_t offset, const void* source, size_t bytes) {
  // A list of one run that this put continues, with no batch open and no list out to its PE,
  // turns into a batch: a long run then goes as one write of up to kBatchBytes.
  if (open_batch_ || !PutLists::single(*list) || lists_out(list->pe))
    return false;
  const uint64_t record = PutLists::first_record(*list);
  if (list_offset(record) + list_bytes(record) != offset) return false;
  Batch* batch = free_batch();
  if (!batch) return false;
  batch->pe = list->pe;
  batch->segment = list->out->head.segment;
  batch->offset = list_offset(record);
  batch->bytes = list_bytes(record);
  memcpy(batch->data, PutLists::first_bytes(*list), batch->bytes);
  memcpy(batch->data + batch->bytes, source, bytes);
  batch->bytes += bytes;
  list->out->in_flight.store(false, std::memory_order_release);
  open_lists_.drop(list);
  open_batch_ = batch;
  note_open();
  return true;
}

void HeldPuts::close_list(const char* call, PutLists::List* list) {
  const uint64_t record = PutLists::first_record(*list);
  if (PutLists::single(*list) && list_bytes(record) <= engine_.inject_size() &&
      !lists_out(list->pe)) {
    // One put, and no list before it: it goes as a write after all.
    engine_.write_message(call, list->pe, list->out->head.segment, list_offset(record), PutLists::first_bytes(*list),
                  list_bytes(record), nullptr);
    list->out->in_flight.store(false, std::memory_order_release);
  } else {
    list->out->head.compare = list->used;
    // Counted before its answer can come.
    peers_.at(static_cast<size_t>(list->pe)).lists_out.fetch_add(1, std::memory_order_acq_rel);
    engine_.send_run(call, list->pe, list->out, list->used, true);
  }
  open_lists_.drop(list);
  note_open();  // only now: a flush() that sees nothing open must find this one sent
}

void HeldPuts::wait_lists(const char* call, int pe) {
  engine_.progress_until(call, [&] { return !lists_out(pe); }, pe);
}

Batch* HeldPuts::take_batch() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < kBatches; ++i) {
    Batch* b = &batches_[i];
    if (b != open_batch_ && !b->in_flight.load(std::memory_order_acquire)) {
      b->in_flight.store(true, std::memory_order_release);
      return b;
    }
  }
  return nullptr;
}

void HeldPuts::write_batch(const char* call) {
  Batch* b = open_batch_;
  open_batch_ = nullptr;
  const bool injected = b->bytes <= engine_.inject_size();  // the provider copies it: the batch stays free
  if (!injected) b->in_flight.store(true, std::memory_order_release);
  engine_.write_message(call, b->pe, b->segment, b->offset, b->data, b->bytes, injected ? nullptr : b);
  // Only now: a flush() that sees nothing open must find this one's write counted.
  note_open();
}

void HeldPuts::write_open(const char* call) {
  if (open_batch_) write_batch(call);
  open_lists_.for_each_open([&](PutLists::List* list) { close_list(call, list); });
}

void HeldPuts::flush_all(const char* call) {
  std::lock_guard<std::mutex> lock(mutex_);
  write_open(call);
}

void HeldPuts::flush_if_idle() {
  if (!holding()) return;
  const uint64_t now = coalesced_.load(std::memory_order_relaxed);
  if (now == coalesced_at_last_look_) flush_all("the progress thread");
  coalesced_at_last_look_ = now;
}

Batch* HeldPuts::batch_of(void* context) { return entry_of(batches_.get(), kBatches, context); }

}  // namespace tandem::ofi
