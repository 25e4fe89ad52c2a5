// The messages of the inter-node engine's software path (transport.h): atomics that the
// provider cannot do, strided puts and gets of small blocks (scatters, gathers), lists of
// small nbi puts, notifications where remote CQ data cannot carry them, and the network
// timeout's probes.  A request is answered once the target applied it: by a message, or
// where the provider talks through sockets by a write into the initiator's answer slots
// (answer_slots.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "transport/ofi/types.h"

namespace tandem::ofi {

// `cookie` names the initiator's answer slot (AnswerSlots), or on the message path is the
// address of its reply for a fetching request, else 0.  A run request (non-fetching, on
// `compare` elements from `offset` on) is followed on the wire by its operands; a scatter by
// its blocks, packed (`compare`: scatter_shape()), which the target copies to `offset`,
// `offset` + `operand`, `offset` + 2 `operand` and so on.  A gather asks for the blocks of
// that shape and place; the answer (Gathered, the same head) is followed by them, packed, and
// its `cookie` is the initiator's record of where they go.  A list carries small nbi puts to
// one segment (`compare` bytes of records: list_record()), which the target copies into place.
// `proof` is the target's secret, as its card gave it (Engine::seal(), admit()).
struct Message {
  // Probe, ProbeAnswer: the network timeout's (timeout.cc).
  // Applied: a request, run request or scatter that the target's read of the CQ applied (in
  // the order of arrival), its answer still to send; Refused: a message that admission
  // dropped (admit.cc), its buffer still to post again; neither is ever on the wire.
  enum Kind : uint8_t {
    Request = 1, Answer = 2, Notification = 3, Probe = 4, ProbeAnswer = 5, RunRequest = 6, Applied = 7,
    Scatter = 8, Gather = 9, Gathered = 10, List = 11, Refused = 12
  } kind;
  AtomicOp op;
  AtomicType type;
  uint8_t segment;
  int32_t origin;    // the initiator's PE
  uint64_t offset;   // in the target's segment
  uint64_t operand;  // the operand's bytes (answers: the old value's; notifications: the data)
  uint64_t compare;
  uint64_t cookie;
  uint64_t proof;
};

// The bytes of a message's head on the wire: all of it (no padding to send).
inline constexpr size_t kMessageBytes = sizeof(uint64_t) * 6;
static_assert(sizeof(Message) == kMessageBytes, "a message has no padding");

// The most operand bytes of one run request.
inline constexpr size_t kRunBytes = 2048;

// A scatter's `compare`: `blocks` blocks of `block` bytes each, and back.
inline uint64_t scatter_shape(size_t block, size_t blocks) { return uint64_t{block} << 32 | blocks; }
inline size_t scatter_block(uint64_t shape) { return static_cast<size_t>(shape >> 32); }
inline size_t scatter_blocks(uint64_t shape) { return static_cast<size_t>(shape & 0xffffffffu); }

// A list's record: a head of 8 bytes, the put's offset and length, then its bytes, padded to
// 8.  A put is listed when its offset is below kListOffsets and its bytes fit one list.
inline constexpr uint64_t kListOffsets = uint64_t{1} << 48;
inline constexpr size_t kListPutMax = kRunBytes - sizeof(uint64_t);
inline uint64_t list_record(uint64_t offset, size_t bytes) { return offset << 16 | bytes; }
inline uint64_t list_offset(uint64_t record) { return record >> 16; }
inline size_t list_bytes(uint64_t record) { return static_cast<size_t>(record & 0xffff); }
inline size_t list_padded(size_t bytes) { return (bytes + 7) & ~size_t{7}; }

// Why a message that arrived cannot be served (nullptr: it can), from what it says alone: its
// length `len` (head and what follows, in `operands`), its kind, its origin among `pes` PEs,
// its segment among this PE's `segments` (`sizes`: each one's bytes, 0 where there is none)
// and the extent of what it would read or write there.  Messages come from anything that
// reaches the endpoint (admit.cc); none may make the target touch memory outside a segment.
const char* message_problem(const Message& m, const char* operands, size_t len, size_t pes, const size_t* sizes,
                            int segments);

// A posted receive buffer: room for any message.
struct Incoming {
  Message head;
  char operands[kRunBytes];
};

// A run request being sent, until its send completes.
struct Outgoing : Incoming {
  std::atomic<bool> in_flight{false};
};

}  // namespace tandem::ofi
