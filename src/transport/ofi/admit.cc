// Admission of the messages that arrive at the endpoint: the engine serves a message only once
// it is whole, carries this PE's secret, and says nothing that would make this PE touch memory
// outside its segments.  A process outside the job can reach a PE's endpoint as well as its
// peers can: what it sends is dropped, once with a warning, and the job goes on.
//
// The secret is a random word that each PE draws at init and that only the job's PEs learn,
// from its card through PMIx (Engine::seal() stamps it on every message).  Not the provider's
// naming of senders (FI_SOURCE): a provider names a sender by the address this PE inserted
// for it, and a PE inserts a peer's address only when it first addresses it or hears from it
// (Engine::resolve()); what arrived before names no one, or (shm) a PE inserted since.
#include <cstring>

#include "core/error.h"
#include "transport/ofi/engine.h"

namespace tandem::ofi {

namespace {

// Whether [offset, offset + bytes) lies inside a segment of `size` bytes.
bool inside(uint64_t offset, uint64_t bytes, size_t size) { return offset <= size && bytes <= size - offset; }

// Whether `blocks` blocks of `block` bytes, `stride` apart from `offset` on, lie inside a
// segment of `size` bytes (false too where the numbers overflow).
bool strided_inside(uint64_t offset, int64_t stride, uint64_t block, uint64_t blocks, size_t size) {
  int64_t span = 0;  // from the first block's start to the last's
  if (__builtin_mul_overflow(stride, static_cast<int64_t>(blocks - 1), &span)) return false;
  const uint64_t back = span < 0 ? uint64_t{0} - static_cast<uint64_t>(span) : 0;
  const uint64_t ahead = span > 0 ? static_cast<uint64_t>(span) : 0;
  return back <= offset && inside(offset - back, back + ahead + block, size);
}

}  // namespace

const char* message_problem(const Message& m, const char* operands, size_t len, size_t pes, const size_t* sizes,
                            int segments) {
  if (len < kMessageBytes) return "shorter than a message's head";
  if (m.origin < 0 || static_cast<size_t>(m.origin) >= pes) return "its origin is no PE of the job";
  const size_t carried = len - kMessageBytes;
  const bool touches = m.kind == Message::Request || m.kind == Message::RunRequest || m.kind == Message::Scatter ||
                       m.kind == Message::Gather || m.kind == Message::List;
  if (touches && (m.segment >= segments || sizes[m.segment] == 0)) return "it names no segment of this PE";
  const size_t size = touches ? sizes[m.segment] : 0;
  switch (m.kind) {
    case Message::Request:
    case Message::RunRequest: {
      if (m.op >= AtomicOp::Count || m.type >= AtomicType::Count) return "it names no atomic operation";
      const size_t element = atomic_type_size(m.type);
      if (m.offset % element != 0) return "its target is not aligned";
      if (m.kind == Message::Request) return inside(m.offset, element, size) ? nullptr : "it reaches outside the segment";
      if (m.compare == 0 || m.compare > kRunBytes / element || carried < m.compare * element)
        return "its operands do not fit it";
      return inside(m.offset, m.compare * element, size) ? nullptr : "it reaches outside the segment";
    }
    case Message::Scatter:
    case Message::Gather:
    case Message::Gathered: {
      const uint64_t block = scatter_block(m.compare), blocks = scatter_blocks(m.compare);
      if (block == 0 || blocks == 0 || block * blocks > kRunBytes) return "its blocks do not fit a message";
      if (m.kind != Message::Gather && carried < block * blocks) return "its blocks do not fit it";
      if (m.kind == Message::Gathered) return nullptr;
      return strided_inside(m.offset, static_cast<int64_t>(m.operand), block, blocks, size)
                 ? nullptr
                 : "it reaches outside the segment";
    }
    case Message::List: {
      if (m.compare > kRunBytes || carried < m.compare) return "its records do not fit it";
      for (uint64_t at = 0; at < m.compare;) {
        uint64_t record;
        if (m.compare - at < sizeof record) return "a record is cut short";
        memcpy(&record, operands + at, sizeof record);
        const size_t bytes = list_bytes(record);
        if (list_padded(bytes) > m.compare - at - sizeof record) return "a record is cut short";
        if (!inside(list_offset(record), bytes, size)) return "it reaches outside the segment";
        at += sizeof record + list_padded(bytes);
      }
      return nullptr;
    }
    case Message::Answer:
    case Message::Notification:
    case Message::Probe:
    case Message::ProbeAnswer:
      return nullptr;
    default:
      return "it is of no kind the engine sends";
  }
}

bool Engine::admit(const Incoming& slot, size_t len) {
  const Message& m = slot.head;
  const char* why = message_problem(m, slot.operands, len, peers_.size(), size_, kSegments);
  if (!why && m.proof != secret_) why = "it does not carry this PE's secret";
  if (!why) return true;
  if (refused_.fetch_add(1, std::memory_order_relaxed) == 0)
    warn("progress",
         "dropped a message that claims to come from PE %d: %s (sent by a process outside the job?); "
         "further ones are dropped without a word",
         m.origin, why);
  return false;
}

}  // namespace tandem::ofi
