// Strided puts and gets of the inter-node engine that travel packed (Transport::put_strided,
// get_strided), where the provider talks through sockets: a scatter carries up to kRunBytes
// of small blocks that the target's progress copies into place (applied with the other
// requests, software_atomic.cc); a gather asks for up to kRunBytes of them, which the
// target's progress copies into an answer of its own, and the initiator copies them out.
// Both are software-path requests: counted, bounded by the receive buffers, waited for by
// quiet and fence.
#include <rdma/fabric.h>
#include <rdma/fi_endpoint.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <vector>

#include "core/backoff.h"
#include "transport/ofi/engine.h"
#include "transport/ofi/post.h"
#include "transport/shm.h"

namespace tandem::ofi {

bool Engine::put_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, const void* source,
                         size_t source_stride, size_t block, size_t blocks) {
  if (!answers_written_ || blocks < 2 || block > Transport::kScatterBlock) return false;
  settle_fence(call);  // a message may pass writes
  flush(call);
  const auto* from = static_cast<const char*>(source);
  const size_t per_message = kRunBytes / block;
  for (size_t done = 0; done < blocks;) {
    const size_t n = std::min(per_message, blocks - done);
    Outgoing* run = take_run(call);
    run->head = Message{};
    run->head.kind = Message::Scatter;
    run->head.segment = static_cast<uint8_t>(segment);
    run->head.origin = my_pe_;
    run->head.offset = offset + done * stride;
    run->head.operand = stride;
    run->head.compare = scatter_shape(block, n);
    shm::copy_strided(run->operands, static_cast<ptrdiff_t>(block), from + done * source_stride,
                      static_cast<ptrdiff_t>(source_stride), 1, block, n);
    send_run(call, pe, run, n * block);
    done += n;
  }
  return true;
}

// Where the blocks of one gather's answer go; on the initiator's stack until every answer
// of its call has come.
struct Engine::Gathering {
  char* dest;
  size_t dest_stride;
  std::atomic<size_t>* left;  // answers of the call still to come
};

bool Engine::get_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, void* dest,
                         size_t dest_stride, size_t block, size_t blocks) {
  if (!answers_written_ || inject_size_ < kMessageBytes || blocks < 2 || block > Transport::kGatherBlock)
    return false;
  settle_fence(call);  // a message may pass writes
  flush(call);
  const size_t per_message = kRunBytes / block;
  const size_t messages = (blocks + per_message - 1) / per_message;
  std::atomic<size_t> left{messages};
  std::vector<Gathering> gatherings(messages);
  const fi_addr_t peer = peer_address(call, pe);
  Backoff backoff = Backoff::without_progress();
  for (size_t k = 0, done = 0; k < messages; ++k) {
    const size_t n = std::min(per_message, blocks - done);
    gatherings[k] = Gathering{static_cast<char*>(dest) + done * dest_stride, dest_stride, &left};
    Message request{};
    request.kind = Message::Gather;
    request.segment = static_cast<uint8_t>(segment);
    request.origin = my_pe_;
    request.offset = offset + done * stride;
    request.operand = stride;
    request.compare = scatter_shape(block, n);
    count_request(call);  // its answer takes one of this PE's receive buffers
    request.cookie = reinterpret_cast<uint64_t>(&gatherings[k]);
    seal(call, request, pe);
    post(call, "a gather request to", pe, backoff, [&] { return fi_inject(ep_, &request, kMessageBytes, peer); });
    done += n;
  }
  progress_until(call, [&] { return left.load(std::memory_order_acquire) == 0; }, pe);
  return true;
}

void Engine::answer_gather(const Message& request) {
  Outgoing* answer = nullptr;
  {
    std::lock_guard<SpinLock> lock(gathers_lock_);
    for (size_t i = 0; i < kGatherAnswers && !answer; ++i)
      if (!gather_answers_[i].in_flight.load(std::memory_order_relaxed)) answer = &gather_answers_[i];
    if (!answer) {
      gathers_waiting_.push_back(request);
      return;
    }
    answer->in_flight.store(true, std::memory_order_relaxed);
  }
  send_gathered(answer, request);
}

void Engine::send_gathered(Outgoing* answer, const Message& request) {
  const size_t block = scatter_block(request.compare), blocks = scatter_blocks(request.compare);
  answer->head = request;
  answer->head.kind = Message::Gathered;
  answer->head.origin = my_pe_;  // every message names its sender (admit())
  shm::copy_strided(answer->operands, static_cast<ptrdiff_t>(block), base_[request.segment] + request.offset,
                    static_cast<ptrdiff_t>(request.operand), 1, block, blocks);
  send_outgoing("progress", "an answer to", request.origin, answer, block * blocks);
}

bool Engine::gather_answered(void* context) {
  Outgoing* answer = entry_of(gather_answers_.get(), kGatherAnswers, context);
  if (!answer) return false;
  Message next;
  {
    std::lock_guard<SpinLock> lock(gathers_lock_);
    if (gathers_waiting_.empty()) {
      answer->in_flight.store(false, std::memory_order_relaxed);
      return true;
    }
    next = gathers_waiting_.front();
    gathers_waiting_.pop_front();
  }
  send_gathered(answer, next);
  return true;
}

bool Engine::take_gathered(Incoming* slot) {
  // The blocks into place before the buffer takes messages again.
  const Message& g = slot->head;
  const Gathering* to = reinterpret_cast<const Gathering*>(g.cookie);
  const size_t block = scatter_block(g.compare);
  shm::copy_strided(to->dest, static_cast<ptrdiff_t>(to->dest_stride), slot->operands, static_cast<ptrdiff_t>(block),
                    1, block, scatter_blocks(g.compare));
  std::atomic<size_t>* left = to->left;
  post_receive(slot);
  software_answered_.fetch_add(1, std::memory_order_acq_rel);
  left->fetch_sub(1, std::memory_order_release);  // the call may return and free `to`
  return true;
}

}  // namespace tandem::ofi
