// The regions of a PE that its peers on other nodes reach, and what the inter-node engine
// keeps of each PE it reaches: the PE's address in the address vector, and the base and key
// of each of its regions, with the secret that the PE asks of every message sent to it.  Everything comes from the PE's card, read when this PE first
// addresses it or hears from it (Engine::resolve()); until then the PE costs its address
// word, and its card's page (PeerPages) is made only once one PE of the page is reached.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/peer_pages.h"
#include "transport/ofi/answer_slots.h"
#include "transport/ofi/transport.h"

namespace tandem::ofi {

// The regions a PE's peers reach: the segments, the engine's own memory (Own), the request
// rings.
inline constexpr int kOwn = Transport::kSegments, kRings = kOwn + 1, kRegions = kOwn + 2;

// What peers write into besides the segments: the pad, a line that peers write a byte into
// where a write must be delivery-complete but has no data (shm never completes an empty
// one; see Engine::write_message), the answers to this PE's software atomics, and the
// cells for the answers of its reads (AnswerSlots).
struct alignas(64) Own {
  char pad[64];
  AnswerSlots::Written answers[AnswerSlots::kSlots];
  alignas(64) char cells[AnswerSlots::kCells * AnswerSlots::kCellStride];
};

struct PeerSegment {
  uint64_t base;
  uint64_t key;
};

struct PeerCard {
  PeerSegment regions[kRegions];
  uint64_t secret;
};

class Peers {
 public:
  // An address not yet resolved (libfabric's FI_ADDR_NOTAVAIL).
  static constexpr uint64_t kUnresolved = ~uint64_t{0};
  // Room for `pes` PEs, none resolved.
  void reset(size_t pes) {
    addresses_.reset(new std::atomic<uint64_t>[pes]);
    for (size_t pe = 0; pe < pes; ++pe) addresses_[pe].store(kUnresolved, std::memory_order_relaxed);
    cards_.reset(pes);
  }
  size_t size() const { return cards_.size(); }
  // `pe`'s address, kUnresolved until resolved(); then, and only then, its card is set.
  uint64_t address(int pe) const { return addresses_[static_cast<size_t>(pe)].load(std::memory_order_acquire); }
  void resolved(int pe, uint64_t address) {
    addresses_[static_cast<size_t>(pe)].store(address, std::memory_order_release);
  }
  PeerCard& card(int pe) { return cards_.at(static_cast<size_t>(pe)); }

 private:
  std::unique_ptr<std::atomic<uint64_t>[]> addresses_;
  PeerPages<PeerCard> cards_;
};

}  // namespace tandem::ofi
