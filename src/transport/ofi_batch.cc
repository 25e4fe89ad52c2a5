// Coalesced puts (Engine::put with `coalesce`).  Small nbi puts that continue one another
// (each starts where the previous ended, same PE and segment) are copied into a batch and
// written as one message: with tcp a message costs a system call or more whatever its size,
// so a run of 8-byte puts moves at the speed of its messages, not of the link.  Where the
// provider talks through sockets, puts to one PE that do not continue one another are
// copied into a list instead, a request of up to kRunBytes of records (offset, length,
// bytes) that the target's progress copies into place and answers.
//
// Hybrid issue: a put goes alone (eager) unless it continues the previous one, or follows
// one to the same PE, so an isolated put still overlaps whatever follows; a run is held
// (lazy) in the open batch or list until it ends (a put to another PE or segment; for a
// batch, one that does not continue it), it fills, or the PE does anything else with the
// network or waits: every other operation, quiet, fence and the progress of every wait loop
// write the open batch or list first, and a progress thread with a core of its own writes
// one that no put joined since its last look.  So a PE that waits for an answer to its puts
// never waits on a batch it holds itself.
//
// Order: a batch is a write, behind the writes before it.  A list is a message that the
// target applies when its progress reads it, after the writes that came before it; a write
// or read that came after it could land first, so those wait until every list to their PE
// is answered (flush_for), and while one is out, puts to that PE join lists rather than go
// alone or in batches.  Puts keep their order either way.
#include <atomic>
#include <cstring>

#include "transport/ofi_engine.h"
#include "transport/ofi_post.h"

namespace tandem::ofi {

bool Engine::absorb(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes) {
  std::lock_guard<std::mutex> lock(batch_mutex_);
  Batch* open = open_batch_;
  if (open && open->pe == pe && open->segment == segment && open->offset + open->bytes == offset &&
      open->bytes + bytes <= kBatchBytes) {
    memcpy(open->data + open->bytes, source, bytes);
    open->bytes += bytes;
    run_end_ = offset + bytes;
    coalesced_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (open_list_ && list_pe_ == pe && open_list_->head.segment == segment) {
    // A list that holds one run which this put continues, with no list out before it,
    // turns into a batch: a long run then goes as one write of up to kBatchBytes.
    if (offset == run_end_ && list_last_ == 0 && lists_out_[pe].load(std::memory_order_acquire) == 0)
      if (Batch* batch = free_batch()) {
        uint64_t record;
        memcpy(&record, open_list_->operands, sizeof record);
        batch->pe = pe;
        batch->segment = segment;
        batch->offset = list_offset(record);
        batch->bytes = list_bytes(record);
        memcpy(batch->data, open_list_->operands + sizeof record, batch->bytes);
        memcpy(batch->data + batch->bytes, source, bytes);
        batch->bytes += bytes;
        open_list_->in_flight.store(false, std::memory_order_release);
        open_list_ = nullptr;
        open_batch_ = batch;
        run_end_ = offset + bytes;
        coalesced_.fetch_add(1, std::memory_order_relaxed);
        return true;
      }
    if (add_to_list(offset, source, bytes)) {
      run_end_ = offset + bytes;
      coalesced_.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
  }
  write_open(call);
  const uint64_t quiets = quiets_.load(std::memory_order_relaxed);
  const bool same = pe == run_pe_ && segment == run_segment_;
  const bool continues = same && offset == run_end_;
  const bool follows = same && !continues && quiets == run_quiets_;  // in the same epoch
  run_pe_ = pe;
  run_segment_ = segment;
  run_end_ = offset + bytes;
  run_quiets_ = quiets;
  const bool lists_out = lists_ && lists_out_[pe].load(std::memory_order_acquire) != 0;
  if (lists_ && offset < kListOffsets && bytes <= kListPutMax && ((follows && bytes <= kListOpenMax) || lists_out)) {
    open_list(call, pe, segment);
    add_to_list(offset, source, bytes);
    coalesced_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (!continues || lists_out) return false;
  Batch* free = free_batch();
  if (!free) return false;
  free->pe = pe;
  free->segment = segment;
  free->offset = offset;
  free->bytes = bytes;
  memcpy(free->data, source, bytes);
  open_batch_ = free;
  batch_open_.store(true, std::memory_order_release);
  coalesced_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

Engine::Batch* Engine::free_batch() {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt) progress();  // completions free batches
    for (size_t i = 0; i < kBatches; ++i)
      if (!batches_[i].in_flight.load(std::memory_order_acquire)) return &batches_[i];
  }
  return nullptr;
}

void Engine::open_list(const char* call, int pe, int segment) {
  settle_fence(call);  // a message may pass writes
  Outgoing* list = take_run(call);
  list->head = Message{};
  list->head.kind = Message::List;
  list->head.segment = static_cast<uint8_t>(segment);
  list->head.origin = my_pe_;
  open_list_ = list;
  list_pe_ = pe;
  list_used_ = 0;
  batch_open_.store(true, std::memory_order_release);
}

bool Engine::add_to_list(uint64_t offset, const void* source, size_t bytes) {
  char* records = open_list_->operands;
  uint64_t last = 0;
  if (list_used_ > 0) memcpy(&last, records + list_last_, sizeof last);
  const size_t had = list_bytes(last);
  if (list_used_ > 0 && list_offset(last) + had == offset && had + bytes <= kListPutMax &&
      list_last_ + sizeof last + list_padded(had + bytes) <= kRunBytes) {
    // It continues the last record: its bytes join it.
    memcpy(records + list_last_ + sizeof last + had, source, bytes);
    last = list_record(list_offset(last), had + bytes);
    memcpy(records + list_last_, &last, sizeof last);
    list_used_ = list_last_ + sizeof last + list_padded(had + bytes);
    return true;
  }
  if (list_used_ + sizeof last + list_padded(bytes) > kRunBytes) return false;
  const uint64_t record = list_record(offset, bytes);
  memcpy(records + list_used_, &record, sizeof record);
  memcpy(records + list_used_ + sizeof record, source, bytes);
  list_last_ = list_used_;
  list_used_ += sizeof record + list_padded(bytes);
  return true;
}

void Engine::send_list(const char* call) {
  Outgoing* list = open_list_;
  open_list_ = nullptr;
  list->head.compare = list_used_;
  lists_out_[list_pe_].fetch_add(1, std::memory_order_acq_rel);  // before its answer can come
  count_request(call);
  list->head.cookie = message_cookie(list_pe_, claim_slot(call, nullptr, list_pe_));
  send_outgoing(call, "a list of puts to", list_pe_, list, list_used_);
  batch_open_.store(false, std::memory_order_release);  // as in write_batch()
}

void Engine::wait_lists(const char* call, int pe) {
  progress_until(call, [&] { return lists_out_[pe].load(std::memory_order_acquire) == 0; }, pe);
}

Engine::Batch* Engine::take_batch() {
  std::lock_guard<std::mutex> lock(batch_mutex_);
  for (size_t i = 0; i < kBatches; ++i) {
    Batch* b = &batches_[i];
    if (b != open_batch_ && !b->in_flight.load(std::memory_order_acquire)) {
      b->in_flight.store(true, std::memory_order_release);
      return b;
    }
  }
  return nullptr;
}

void Engine::write_batch(const char* call) {
  Batch* b = open_batch_;
  open_batch_ = nullptr;
  const bool injected = b->bytes <= inject_size_;  // the provider copies it: the batch stays free
  if (!injected) b->in_flight.store(true, std::memory_order_release);
  write_message(call, b->pe, b->segment, b->offset, b->data, b->bytes, injected ? nullptr : b);
  // Only now: a flush() that sees no open batch must find this one's write counted.
  batch_open_.store(false, std::memory_order_release);
}

void Engine::write_open(const char* call) {
  if (open_batch_) write_batch(call);
  if (!open_list_) return;
  uint64_t record;
  memcpy(&record, open_list_->operands, sizeof record);
  if (list_last_ == 0 && list_bytes(record) <= inject_size_ && lists_out_[list_pe_].load(std::memory_order_acquire) == 0) {
    // A list of one put with no list before it: the put goes as a write after all.
    write_message(call, list_pe_, open_list_->head.segment, list_offset(record), open_list_->operands + sizeof record,
                  list_bytes(record), nullptr);
    open_list_->in_flight.store(false, std::memory_order_release);
    open_list_ = nullptr;
    batch_open_.store(false, std::memory_order_release);
    return;
  }
  send_list(call);
}

void Engine::flush_batch(const char* call) {
  std::lock_guard<std::mutex> lock(batch_mutex_);
  write_open(call);
}

void Engine::flush_if_idle() {
  if (!batch_open_.load(std::memory_order_acquire)) return;
  const uint64_t now = coalesced_.load(std::memory_order_relaxed);
  if (now == coalesced_at_last_look_) flush_batch("the progress thread");
  coalesced_at_last_look_ = now;
}

}  // namespace tandem::ofi
