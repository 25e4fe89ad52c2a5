// Fuzz target: the cards a PE reads from PMIx (src/core/cards.h).  The first byte picks the
// reader, the rest is the card.  Beyond "no crash, no leak, no read past the card, no
// allocation over the limit", a card that a reader accepts must be what the writer makes of
// what was read: the format has one spelling of everything.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/cards.h"

using namespace tandem;

namespace {
void same_or_abort(std::string_view read, const std::string& written) {
  if (read != written) abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view card(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      if (auto c = read_node_card(card)) same_or_abort(card, write_card(*c));
      break;
    case 1:
      if (auto c = read_segment_card(card)) same_or_abort(card, write_card(*c));
      break;
    case 2:
      // The engine reads cards of 4 regions; other counts are refused the same way.
      if (auto c = read_endpoint_card(card, data[0] / 4 % 6)) same_or_abort(card, write_card(*c));
      break;
    default:
      if (auto l = parse_shared_locator(card))
        same_or_abort(card, l->memfd ? memfd_locator(l->pid, l->fd, l->inode) : l->name);
  }
  return 0;
}
