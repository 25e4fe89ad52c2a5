// Fuzz target: the admission of messages that reach a PE's endpoint (message_problem,
// src/transport/ofi/admit.cc).  The input is a message as it arrives (head, then what
// follows).  A message that admission lets through is then applied here as the engine
// applies it (software_atomic.cc, strided.cc and batch.cc of src/transport/ofi) to segments
// allocated at their exact sizes, so that the address sanitizer catches any byte it would
// touch outside them.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "transport/ofi/message.h"

using namespace tandem::ofi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kMessageBytes) return 0;
  Message m;
  memcpy(&m, data, sizeof m);
  static char operands[kRunBytes];
  const size_t carried = size - kMessageBytes < kRunBytes ? size - kMessageBytes : kRunBytes;
  memcpy(operands, data + kMessageBytes, carried);
  // A heap, small globals and a segment this PE does not have.
  const size_t sizes[3] = {3 * 4096, 520, 0};
  std::vector<char> heap(sizes[0]), globals(sizes[1]);
  char* bases[3] = {heap.data(), globals.data(), nullptr};
  if (message_problem(m, operands, kMessageBytes + carried, 4, sizes, 3)) return 0;
  char* base = m.segment < 3 ? bases[m.segment] : nullptr;
  switch (m.kind) {
    case Message::Request:
      memset(base + m.offset, 1, atomic_type_size(m.type));
      break;
    case Message::RunRequest:
      memcpy(base + m.offset, operands, m.compare * atomic_type_size(m.type));
      break;
    case Message::Scatter:
    case Message::Gather: {
      const uint64_t block = scatter_block(m.compare), blocks = scatter_blocks(m.compare);
      for (uint64_t b = 0; b < blocks; ++b) {
        char* at = base + m.offset + static_cast<int64_t>(b) * static_cast<int64_t>(m.operand);
        if (m.kind == Message::Scatter) memcpy(at, operands + b * block, block);
        else memcpy(operands + b * block, at, block);
      }
      break;
    }
    case Message::List:
      for (uint64_t at = 0; at < m.compare;) {
        uint64_t record;
        memcpy(&record, operands + at, sizeof record);
        memcpy(base + list_offset(record), operands + at + sizeof record, list_bytes(record));
        at += sizeof record + list_padded(list_bytes(record));
      }
      break;
    default:
      break;
  }
  return 0;
}
