// The software atomic path of the inter-node engine (see Engine::native): atomics on a
// type the provider lacks an operation for travel as requests that the target's progress
// applies with CPU atomics on its own memory and answers.  Where the provider talks through
// sockets, requests after an initiator's first to a target are written into the
// initiator's ring at the target (request_rings.h) and answers into its answer slots
// (answer_slots.h); otherwise both are messages.  An atomic on an array (a window
// accumulate) travels as run requests, each carrying the operands of many elements: one
// request and one answer per run, not per element.  Strided puts and gets of small blocks
// travel the same way (strided.cc): the target applies a scatter here, in the order of
// arrival, and answers a gather from deliver(); so do lists of nbi puts (batch.cc).
#include <rdma/fabric.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_rma.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <utility>

#include "core/backoff.h"
#include "core/error.h"
#include "transport/ofi/engine.h"
#include "transport/ofi/post.h"
#include "transport/shm.h"

namespace tandem::ofi {

namespace {

// Applies a software atomic to this PE's memory at `at`, returning the old value's bytes.
template <typename T>
uint64_t apply(AtomicOp op, void* at, uint64_t operand_bytes, uint64_t compare_bytes) {
  static constexpr shm::AmoOp kAmo[] = {shm::AmoOp::Fetch, shm::AmoOp::Set, shm::AmoOp::Swap,
                                        shm::AmoOp::CompareSwap, shm::AmoOp::Add, shm::AmoOp::And,
                                        shm::AmoOp::Or, shm::AmoOp::Xor, shm::AmoOp::Min, shm::AmoOp::Max};
  T operand, compare;
  memcpy(&operand, &operand_bytes, sizeof operand);
  memcpy(&compare, &compare_bytes, sizeof compare);
  const T old = shm::amo(kAmo[static_cast<int>(op)], static_cast<T*>(at), operand, compare);
  uint64_t bytes = 0;
  memcpy(&bytes, &old, sizeof old);
  return bytes;
}

// A read for a peer (a word get, an atomic fetch): one load, atomic on an aligned word, as
// the provider's own reads are.  The program may store to the word meanwhile (a get races
// with its owner's stores by design, as a read by the NIC would), so ThreadSanitizer, which
// sees these loads and not the provider's, is not shown them.
__attribute__((no_sanitize("thread"))) uint64_t read_word(const void* at, size_t size) {
  if (size == sizeof(uint64_t)) return *static_cast<const volatile uint64_t*>(at);
  return *static_cast<const volatile uint32_t*>(at);
}

// A read of `bytes` for a peer (a get answered into its cell): out of ThreadSanitizer's sight
// for the same reason, so in words of fixed size (which the compiler turns into loads; a
// memcpy of variable length would be a call that ThreadSanitizer intercepts).
__attribute__((no_sanitize("thread"))) void read_bytes(char* to, const char* from, size_t bytes) {
  size_t i = 0;
  for (; i + sizeof(uint64_t) <= bytes; i += sizeof(uint64_t)) __builtin_memcpy(to + i, from + i, sizeof(uint64_t));
  for (; i < bytes; ++i) to[i] = from[i];
}

uint64_t apply(AtomicOp op, AtomicType type, void* at, uint64_t operand, uint64_t compare) {
  if (op == AtomicOp::Read) return read_word(at, atomic_type_size(type));
  switch (type) {
    case AtomicType::Int32: return apply<int32_t>(op, at, operand, compare);
    case AtomicType::Int64: return apply<int64_t>(op, at, operand, compare);
    case AtomicType::UInt32: return apply<uint32_t>(op, at, operand, compare);
    case AtomicType::UInt64: return apply<uint64_t>(op, at, operand, compare);
    case AtomicType::Float: return apply<float>(op, at, operand, compare);
    case AtomicType::Double: return apply<double>(op, at, operand, compare);
    case AtomicType::Count: break;
  }
  __builtin_unreachable();
}

// A message of one buffer, with its descriptor.
fi_msg one_buffer(iovec* iov, void** desc, fi_addr_t peer) {
  fi_msg message{};
  message.msg_iov = iov;
  message.desc = desc;
  message.iov_count = 1;
  message.addr = peer;
  return message;
}

}  // namespace

// Where a fetching software atomic's answer lands; it lives on the initiator's stack until
// `answered`.
struct Engine::Reply {
  std::atomic<bool> answered{false};
  uint64_t value = 0;
  void* dest = nullptr;  // a read's, answered into a cell
};

void Engine::software_atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op,
                                AtomicType type, const void* operand, const void* compare, void* result) {
  if (inject_size_ < kMessageBytes)
    fatal(call,
          "the libfabric provider %s has no %s atomic on %s and cannot send Tandem's %zu-byte "
          "software atomic request either; pick another with TANDEM_OFI_PROVIDER",
          provider_.c_str(), atomic_op_name(op), atomic_type_name(type), kMessageBytes);
  Reply reply;
  Message request{};
  request.kind = Message::Request;
  request.op = op;
  request.type = type;
  request.segment = static_cast<uint8_t>(segment);
  request.origin = my_pe_;
  request.offset = offset;
  if (operand) memcpy(&request.operand, operand, atomic_type_size(type));
  if (compare) memcpy(&request.compare, compare, atomic_type_size(type));
  if (!write_request(call, pe, request, result ? &reply : nullptr)) {
    request.cookie = message_cookie(call, pe, reserve_answer(call, result ? &reply : nullptr));
    const fi_addr_t peer = peer_address(call, pe);
    Backoff backoff = Backoff::without_progress();
    seal(call, request, pe);
    post(call, "an atomic request to", pe, backoff, [&] { return fi_inject(ep_, &request, kMessageBytes, peer); });
  }
  if (!result) return;
  progress_until(call, [&] { return reply.answered.load(std::memory_order_acquire); }, pe);
  memcpy(result, &reply.value, atomic_type_size(type));
}

uint64_t Engine::reserve_answer(const char* call, Reply* reply, int list_pe) {
  count_request(call);
  if (!answers_written_) return reinterpret_cast<uint64_t>(reply);
  return claim_slot(call, reply, list_pe);
}

void Engine::count_request(const char* call) {
  // Bounded: the answers need this PE's receive buffers, or its answer slots.
  progress_until(call, [&] {
    return software_sent_.load(std::memory_order_acquire) - software_answered_.load(std::memory_order_acquire) <
           kInbox;
  });
  software_sent_.fetch_add(1, std::memory_order_acq_rel);
}

uint64_t Engine::claim_slot(const char* call, Reply* reply, int list_pe) {
  uint64_t cookie = 0;
  progress_until(call, [&] {
    std::lock_guard<SpinLock> lock(mutex_);
    if (!answer_slots_.claim(reply, &cookie)) return false;
    claimed(cookie, list_pe);
    return true;
  });
  return cookie;
}

void Engine::claimed(uint64_t cookie, int list_pe) {
  ring_target_[AnswerSlots::slot_of(cookie)] = -1;
  list_target_[AnswerSlots::slot_of(cookie)] = list_pe;
}

bool Engine::writes_requests_to(const char* call, int pe) {
  if (!rings_with(call, pe)) return false;
  std::lock_guard<SpinLock> lock(mutex_);
  return rings_.announced(pe);  // else the message announces this PE
}

bool Engine::write_request(const char* call, int pe, const Message& request, Reply* reply) {
  if (!writes_requests_to(call, pe)) return false;
  count_request(call);
  // A request that fetches nothing has no answer slot: the target's Ack completes it.
  write_entry(call, pe, request, reply ? claim_slot(call, reply) : 0, false);
  return true;
}

bool Engine::read_into_cell(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes) {
  if (!writes_requests_to(call, pe)) return false;
  Reply reply;
  reply.dest = dest;
  uint64_t cookie = 0;
  {
    std::lock_guard<SpinLock> lock(mutex_);
    if (!answer_slots_.claim_cell(&reply, bytes, own_.cells, &cookie)) return false;
    claimed(cookie, -1);
  }
  // Behind this PE's writes to `pe` and in its place among its requests there, as a word get.
  flush(call);
  count_request(call);
  Message request{};
  request.segment = static_cast<uint8_t>(segment);
  request.offset = offset;
  request.compare = bytes;
  write_entry(call, pe, request, cookie, true);
  progress_until(call, [&] { return reply.answered.load(std::memory_order_acquire); }, pe);
  return true;
}

void Engine::write_entry(const char* call, int pe, const Message& request, uint64_t cookie, bool read) {
  RequestRings::Entry entry{};
  entry.cookie = static_cast<uint16_t>(AnswerSlots::compact(cookie));
  uint32_t n = 0;
  progress_until(call, [&] {
    std::lock_guard<SpinLock> lock(mutex_);
    if (!rings_.has_room(pe)) return false;
    rings_.take(pe, &n, &entry);
    if (cookie) {
      ring_target_[AnswerSlots::slot_of(cookie)] = pe;
      ring_number_[AnswerSlots::slot_of(cookie)] = n;
    }
    return true;
  }, pe);
  entry.offset = request.offset;
  entry.operand = request.operand;
  entry.compare = request.compare;
  entry.op = static_cast<uint8_t>(request.op);
  entry.type = static_cast<uint8_t>(request.type);
  entry.segment = request.segment;
  entry.read = read;
  inject_into(call, read ? "a read request to" : "an atomic request to", pe, kRings,
              RequestRings::entry_offset(my_pe_, n), &entry, sizeof entry);
}

void Engine::send_ack(int pe) {
  RequestRings::Ack ack{};
  inject_into("progress", "an answer to", pe, kRings, RequestRings::ack_offset(ring_pes_, my_pe_), &ack, sizeof ack,
              [&] { ack = RequestRings::ack_of(rings_.consumed_from(pe)); });  // under the lock: see consumed_from()
}

uint64_t Engine::message_cookie(const char* call, int pe, uint64_t cookie) {
  if (!rings_with(call, pe)) return cookie;
  std::lock_guard<SpinLock> lock(mutex_);
  return rings_.with_sent(pe, cookie);
}

void Engine::collect_answers() {
  size_t silent = 0;  // requests that fetch nothing, known complete with a later one's answer
  size_t n = answer_slots_.collect(own_.answers, own_.cells, [&](size_t slot, void* to, uint64_t value,
                                                                 const char* cell, size_t bytes) {
    if (ring_target_[slot] >= 0)
      silent += rings_.consumed(std::exchange(ring_target_[slot], -1), ring_number_[slot] + 1);
    if (list_target_[slot] >= 0) held_.list_answered(std::exchange(list_target_[slot], -1));
    if (!to) return;
    Reply* reply = static_cast<Reply*>(to);
    if (cell) memcpy(reply->dest, cell, bytes);
    reply->value = value;
    reply->answered.store(true, std::memory_order_release);
  });
  n += silent;
  if (rings_.awaiting_acks()) n += rings_.collect_acks(static_cast<const char*>(ring_memory_.data()), ring_pes_);
  if (n == 0) return;
  software_answered_.fetch_add(n, std::memory_order_acq_rel);
  if (timeout_.timing()) timeout_.completed();
}

void Engine::software_atomic_run(const char* call, int pe, int segment, uint64_t offset, AtomicOp op,
                                    AtomicType type, const void* operands, size_t count) {
  static_assert(sizeof(Incoming) == kMessageBytes + kRunBytes, "a run's operands follow its request");
  const size_t size = atomic_type_size(type);
  const auto* bytes = static_cast<const char*>(operands);
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(count - done, kRunBytes / size);
    if (n == 1) {
      software_atomic(call, pe, segment, offset + done * size, op, type, bytes + done * size, nullptr, nullptr);
      ++done;
      continue;
    }
    Outgoing* run = take_run(call);
    run->head = Message{};
    run->head.kind = Message::RunRequest;
    run->head.op = op;
    run->head.type = type;
    run->head.segment = static_cast<uint8_t>(segment);
    run->head.origin = my_pe_;
    run->head.offset = offset + done * size;
    run->head.compare = n;
    memcpy(run->operands, bytes + done * size, n * size);
    send_run(call, pe, run, n * size);
    done += n;
  }
}

Outgoing* Engine::take_run(const char* call) {
  Outgoing* run = nullptr;
  progress_until(call, [&] {
    for (size_t i = 0; i < kRunsInFlight && !run; ++i) {
      bool idle = false;
      if (runs_[i].in_flight.compare_exchange_strong(idle, true, std::memory_order_acq_rel)) run = &runs_[i];
    }
    return run != nullptr;
  });
  return run;
}

void Engine::send_run(const char* call, int pe, Outgoing* run, size_t payload, bool list) {
  run->head.cookie = message_cookie(call, pe, reserve_answer(call, nullptr, list ? pe : -1));
  send_outgoing(call, list ? "a list of puts to" : "a request to", pe, run, payload);
}

void Engine::send_outgoing(const char* call, const char* what, int pe, Outgoing* out, size_t payload) {
  LocalMemory::Hold hold;
  seal(call, out->head, pe);
  const size_t bytes = kMessageBytes + payload;
  const LocalMemory::Buffer buffer = stage(call, &out->head, bytes, false, &hold);  // the engine's own
  iovec iov{buffer.at, bytes};
  void* desc = buffer.desc;
  fi_msg message = one_buffer(&iov, &desc, peer_address(call, pe));
  post_with(call, what, pe, out, hold, [&](void* context) {
    message.context = context;
    return fi_sendmsg(ep_, &message, FI_COMPLETION);
  });
}

bool Engine::run_sent(void* context) {
  Outgoing* run = entry_of(runs_.get(), kRunsInFlight, context);
  if (!run) return false;
  run->in_flight.store(false, std::memory_order_release);
  return true;
}

void Engine::post_receive(Incoming* slot) {
  LocalMemory::Hold hold;
  const LocalMemory::Buffer buffer = stage("progress", slot, sizeof(Incoming), true, &hold);  // the engine's own
  iovec iov{buffer.at, sizeof(Incoming)};
  void* desc = buffer.desc;
  fi_msg message = one_buffer(&iov, &desc, FI_ADDR_UNSPEC);
  post_with("progress", "a receive for", my_pe_, slot, hold, [&](void* context) {
    message.context = context;
    return fi_recvmsg(ep_, &message, FI_COMPLETION);
  });
}

void Engine::send_notification(const char* call, int pe, uint64_t data) {
  if (inject_size_ < kMessageBytes)
    fatal(call, "the libfabric provider %s carries neither 8 bytes of remote CQ data nor Tandem's %zu-byte "
          "notification message; pick another with TANDEM_OFI_PROVIDER", provider_.c_str(), kMessageBytes);
  Message m{};
  m.kind = Message::Notification;
  m.origin = my_pe_;
  m.operand = data;
  const fi_addr_t peer = peer_address(call, pe);
  Backoff backoff = Backoff::without_progress();
  seal(call, m, pe);
  post(call, "a notification to", pe, backoff, [&] { return fi_inject(ep_, &m, kMessageBytes, peer); });
}

void Engine::serve_entry(int origin, const RequestRings::Entry& entry, ServedRequests* served) {
  requests_served_.fetch_add(1, std::memory_order_relaxed);
  requests_from_rings_.fetch_add(1, std::memory_order_relaxed);
  if (entry.read) {
    // Read when the answer is written (handle_completions()), as a gather's blocks.
    served->at[served->n++] = Served{origin, entry.cookie, entry.segment, static_cast<uint32_t>(entry.compare),
                                     entry.offset};
    return;
  }
  const auto op = static_cast<AtomicOp>(entry.op);
  const auto type = static_cast<AtomicType>(entry.type);
  see_program_turns();
  const uint64_t old = apply(op, type, base_[entry.segment] + entry.offset, entry.operand, entry.compare);
  publish_network_update();
  served->at[served->n++] = Served{origin, entry.cookie, 0, 0, old};
}

void Engine::apply_request(void* context, ServedRequests* served) {
  Incoming* slot = entry_of(inbox_.data(), inbox_.size(), context);
  if (!slot) return;
  Message& m = slot->head;
  const bool request = m.kind == Message::Request || m.kind == Message::RunRequest || m.kind == Message::Scatter ||
                       m.kind == Message::List;
  if (request && rings_with("progress", m.origin, true)) {  // under the lock (read_cq())
    rings_.serve_message(ring_entries(), m.origin, m.cookie, std::size(served->at) - served->n,
                         [&](int origin, const RequestRings::Entry& entry) { serve_entry(origin, entry, served); });
  }
  see_program_turns();
  if (m.kind == Message::Request) {
    m.operand = apply(m.op, m.type, base_[m.segment] + m.offset, m.operand, m.compare);  // the answer's
  } else if (m.kind == Message::RunRequest) {
    const size_t size = atomic_type_size(m.type);
    for (uint64_t i = 0; i < m.compare; ++i) {
      uint64_t operand = 0;
      memcpy(&operand, slot->operands + i * size, size);
      apply(m.op, m.type, base_[m.segment] + m.offset + i * size, operand, 0);
    }
  } else if (m.kind == Message::Scatter) {
    const size_t block = scatter_block(m.compare);
    shm::copy_strided(base_[m.segment] + m.offset, static_cast<ptrdiff_t>(m.operand), slot->operands,
                      static_cast<ptrdiff_t>(block), 1, block, scatter_blocks(m.compare));
  } else if (m.kind == Message::List) {
    for (size_t at = 0; at < m.compare;) {
      uint64_t record;
      memcpy(&record, slot->operands + at, sizeof record);
      const size_t bytes = list_bytes(record);
      memcpy(base_[m.segment] + list_offset(record), slot->operands + at + sizeof record, bytes);
      at += sizeof record + list_padded(bytes);
    }
  } else {
    return;
  }
  publish_network_update();
  if (m.kind != Message::Scatter && m.kind != Message::List) requests_served_.fetch_add(1, std::memory_order_relaxed);
  m.kind = Message::Applied;
}

bool Engine::deliver(Incoming* slot) {
  if (slot->head.kind == Message::Refused) {
    post_receive(slot);
    return false;
  }
  if (slot->head.kind == Message::Gather) {
    // Read after the writes and scatters that came before it (their completions were read
    // first); the receive buffer takes messages again at once.
    const Message request = slot->head;
    post_receive(slot);
    answer_gather(request);
    return false;
  }
  if (slot->head.kind == Message::Gathered) return take_gathered(slot);
  const Message m = slot->head;
  post_receive(slot);
  if (m.kind == Message::Notification) {
    notification_handler_(m.operand);
    return false;
  }
  if (m.kind == Message::ProbeAnswer) {
    timeout_.answered(m.origin);
    return false;
  }
  if (m.kind == Message::Answer) {
    if (m.cookie) {
      Reply* reply = reinterpret_cast<Reply*>(m.cookie);
      reply->value = m.operand;
      reply->answered.store(true, std::memory_order_release);
    }
    software_answered_.fetch_add(1, std::memory_order_acq_rel);
    return true;
  }
  // A probe, or a request applied by read_cq(): a request's answer carries the old value.
  Message answer = m;
  answer.kind = m.kind == Message::Probe ? Message::ProbeAnswer : Message::Answer;
  send_answer(answer, m.origin);
  return false;
}

void Engine::answer_read(const Served& served) {
  // The bytes read, then the tag of the initiator's slot, in one injected write (get_now()
  // asks for no more than fit one); the padding between them zeroed.
  alignas(8) char out[AnswerSlots::kCellStride];
  const size_t length = AnswerSlots::cell_write_bytes(served.read);
  if (served.read > AnswerSlots::kCellBytes || length > inject_size_)
    fatal("progress", "PE %d asked for a read of %u bytes into an answer cell, more than one write of %zu bytes carries",
          served.origin, served.read, inject_size_);
  read_bytes(out, base_[served.segment] + served.value, served.read);
  memset(out + served.read, 0, AnswerSlots::tag_place(served.read) - served.read);
  const uint64_t tag = AnswerSlots::tag_of(AnswerSlots::expand(served.cookie));
  memcpy(out + AnswerSlots::tag_place(served.read), &tag, sizeof tag);
  const uint64_t cell = offsetof(Own, cells) + AnswerSlots::slot_of(served.cookie) * AnswerSlots::kCellStride;
  inject_into("progress", "an answer to", served.origin, kOwn, cell, out, length);
}

void Engine::send_answer(const Message& answer, int pe) {
  if (answer.kind == Message::Answer && AnswerSlots::names_slot(answer.cookie)) {
    const size_t slot = AnswerSlots::slot_of(answer.cookie);
    const AnswerSlots::Written written{answer.operand, AnswerSlots::tag_of(answer.cookie)};
    inject_into("progress", "an answer to", pe, kOwn, offsetof(Own, answers) + slot * sizeof written, &written,
                sizeof written);
    return;
  }
  // Every message names its sender, whom the receiver answers.
  Message signed_answer = answer;
  signed_answer.origin = my_pe_;
  const fi_addr_t peer = peer_address("progress", pe);
  Backoff backoff = Backoff::without_progress();
  seal("progress", signed_answer, pe);
  post("progress", "an answer to", pe, backoff, [&] { return fi_inject(ep_, &signed_answer, kMessageBytes, peer); });
}

void Engine::wait_software(const char* call) {
  progress_until(call, [&] {
    return software_answered_.load(std::memory_order_acquire) >= software_sent_.load(std::memory_order_acquire);
  });
}


}  // namespace tandem::ofi
