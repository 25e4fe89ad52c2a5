// The rings through which a PE's software atomic requests reach a target as writes into
// the target's memory instead of as messages, where the provider talks through sockets (as
// the answers come back through AnswerSlots, answer_slots.h, and for the same reason: with
// libfabric 1.17's tcp every message received costs its receiver a signal of the
// provider's wait set, about 1.1 us here, and a write received costs nothing beyond its
// bytes).
//
// Every PE holds one ring of kEntries per initiator (the region kRings of engine.h).
// The initiator numbers its requests to each target 0, 1, 2, ... (a sequence number of 32
// bits that wraps) and writes request n whole, in one write, into entry n % kEntries of its
// ring at the target, its tag last: the tag repeats the byte of n's generation (n /
// kEntries, mapped to 1..255) in all 8 bytes, so a tag written only in part, or the one the
// entry kept from request n - kEntries, matches none, as in AnswerSlots.  The target applies
// its rings' entries in each ring's order.  A fetching request's answer comes back
// through the initiator's answer slots; a request that fetches nothing has no answer of its
// own: the target writes back how many of the ring's entries it has consumed (an Ack, one
// write for every entry it served from that ring at one read of its completion queue), and
// a stream of adds costs the target no write per add.  The initiator writes request n only
// once it knows entry n - kEntries consumed (has_room()): from an Ack, or from the answer of
// a fetching request at or after it.
//
// A target scans only the rings of the initiators that announced themselves: an
// initiator's first request to a target travels as a message (as run requests always do),
// and the target scans that initiator's ring from then on, at every read of its completion
// queue.  One initiator's requests keep the order it made them in, messages and ring
// entries alike: a request message carries how many requests the initiator had written
// into the ring before it (with_sent()), and the target applies those first
// (serve_message()); a ring entry carries how many request messages went before it, and
// the target leaves it until it has applied those (a message's completion may be read
// after the entries written behind it have landed).
//
// Not thread-safe: the engine calls everything under its lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/peer_pages.h"

namespace tandem::ofi {

class RequestRings {
 public:
  static constexpr size_t kEntries = 32;
  static_assert(kEntries <= 64, "a bit per entry in Peer::silent");

  // A request as the initiator writes it into its ring at the target, in one write.
  struct Entry {
    uint64_t offset;   // in the target's segment
    uint64_t operand;  // the operand's bytes
    uint64_t compare;
    uint8_t op;        // AtomicOp
    uint8_t type;      // AtomicType
    uint8_t segment;
    uint8_t read;       // 1: a read of `compare` bytes, answered into the slot's cell (no atomic)
    uint16_t cookie;    // the answer slot's cookie, AnswerSlots::compact(); 0: fetches nothing
    uint16_t messages;  // request messages to this target before it (mod 2^16)
    uint64_t tag;       // tag_of(n): last
  };
  // How many entries of the initiator's ring a target has consumed, as the target writes it
  // into the initiator's memory, in one write: `count`, then its complement, so that a write
  // landed in part (the complement mixes two counts' bytes) reads as none.
  struct Ack {
    uint64_t count;
    uint64_t check;  // ~count
  };
  static Ack ack_of(uint32_t count) { return Ack{count, ~uint64_t{count}}; }
  // A request the target served from a ring under the engine's lock, whose answer goes out
  // after it; and those of one read of the completion queue (`messages` entries at most):
  // a ring's worth per request message read (which serves its ring first) and for the scan
  // after them.
  struct Served {
    int origin;
    uint16_t cookie;  // AnswerSlots::compact(); 0: fetches nothing
    uint8_t segment;  // a read's (`read` bytes at `value`, its offset)
    uint32_t read;
    uint64_t value;   // the old value
  };
  template <size_t messages>
  struct ServedBatch {
    size_t n = 0;
    Served at[(messages + 1) * kEntries];
  };

  // A PE's ring memory: kEntries entries per initiator, then an Ack per target.
  static size_t memory_bytes(size_t npes) { return npes * (kEntries * sizeof(Entry) + sizeof(Ack)); }
  static size_t entry_offset(int initiator, uint32_t n) {
    return (static_cast<size_t>(initiator) * kEntries + index_of(n)) * sizeof(Entry);
  }
  static size_t ack_offset(size_t npes, int target) {
    return npes * kEntries * sizeof(Entry) + static_cast<size_t>(target) * sizeof(Ack);
  }

  void reset(size_t npes) {
    peers_.reset(npes);
    active_.clear();
    awaiting_.clear();
  }

  // Where request n goes in its ring, and the tag it carries.
  static size_t index_of(uint32_t n) { return n % kEntries; }
  static uint64_t tag_of(uint32_t n) { return (n / kEntries % 255 + 1) * 0x0101010101010101ull; }

  // The initiator's side, per target.  announced(): its first request went as a message;
  // has_room(): the next request's entry is free.
  bool announced(int pe) const { return peer(pe).announced; }
  bool has_room(int pe) const { return peer(pe).sent - peer(pe).consumed < kEntries; }
  // Counts the next request to `pe` as sent, and fills in its entry's place in the ring
  // (index_of(*n)), tag and `messages`; `entry->cookie` says whether it fetches.
  void take(int pe, uint32_t* n, Entry* entry) {
    Peer& p = peer(pe);
    *n = p.sent++;
    entry->messages = p.messages_sent;
    entry->tag = tag_of(*n);
    if (entry->cookie) return;
    if (p.silent == 0) awaiting_.push_back(pe);
    p.silent |= uint64_t{1} << index_of(*n);
  }
  // A request message to `pe`, counted: returns `cookie` (AnswerSlots') carrying how many
  // requests went into the ring before it, in bits 16-47.
  uint64_t with_sent(int pe, uint64_t cookie) {
    Peer& p = peer(pe);
    ++p.messages_sent;
    p.announced = true;
    return (cookie & ~(uint64_t{0xffffffff} << 16)) | uint64_t{p.sent} << 16;
  }
  // `pe` has consumed the ring's entries before request `count` (a fetching request's
  // answer came back: count = its number + 1; or an Ack): returns how many of those newly
  // known consumed fetch nothing (their requests are now complete).
  size_t consumed(int pe, uint32_t count) {
    Peer& p = peer(pe);
    if (static_cast<int32_t>(count - p.consumed) <= 0) return 0;
    size_t done = 0;
    for (; p.consumed != count; ++p.consumed) {
      const uint64_t bit = uint64_t{1} << index_of(p.consumed);
      if (p.silent & bit) ++done;
      p.silent &= ~bit;
    }
    return done;
  }
  // The Acks that have landed in `memory` (this PE's ring memory, for `npes` PEs) from the
  // targets with requests that fetch nothing outstanding: each passed to consumed(); returns
  // how many requests completed.
  size_t collect_acks(const char* memory, size_t npes) {
    size_t done = 0;
    for (size_t i = 0; i < awaiting_.size();) {
      const int pe = awaiting_[i];
      const auto* ack = reinterpret_cast<const Ack*>(memory + ack_offset(npes, pe));
      const uint64_t count = __atomic_load_n(&ack->count, __ATOMIC_ACQUIRE);
      if (__atomic_load_n(&ack->check, __ATOMIC_ACQUIRE) == ~count) done += consumed(pe, static_cast<uint32_t>(count));
      if (peer(pe).silent == 0) {
        awaiting_[i] = awaiting_.back();
        awaiting_.pop_back();
      } else {
        ++i;
      }
    }
    return done;
  }
  bool awaiting_acks() const { return !awaiting_.empty(); }

  // The target's side; `rings` is this PE's ring memory, and each entry served goes to
  // serve(origin, entry).  serve_message(): the request message from `origin` with `cookie` is about
  // to be applied: first the ring's entries before it, then the message counted, and the
  // ring scanned from now on.  scan(): the entries that have landed in the rings scanned,
  // in each ring's order.  Both serve at most `most` and return how many they served.
  template <typename Serve>
  size_t serve_message(const Entry* rings, int origin, uint64_t cookie, size_t most, Serve serve) {
    Peer& p = peer(origin);
    if (!p.scanned) {
      p.scanned = true;
      active_.push_back(origin);
    }
    const size_t n = drain(rings, origin, static_cast<uint32_t>(cookie >> 16), most, serve);
    ++p.messages_applied;
    return n;
  }
  template <typename Serve>
  size_t scan(const Entry* rings, size_t most, Serve serve) {
    size_t n = 0;
    for (int origin : active_) {
      if (n == most) break;
      n += drain(rings, origin, peer(origin).expected + kEntries, most - n, serve);
    }
    return n;
  }
  bool any_scanned() const { return !active_.empty(); }
  // How many entries of `origin`'s ring this PE has consumed: what an Ack says.  Read when
  // the Ack is posted, under the lock that serving takes, so that the Acks to one initiator
  // never go back even when two threads serve and post them.
  uint32_t consumed_from(int origin) const { return peer(origin).expected; }

 private:
  // Serves `origin`'s entries from the next one expected while they have landed, come
  // before request `limit` and no request message before them is still to be applied.
  template <typename Serve>
  size_t drain(const Entry* rings, int origin, uint32_t limit, size_t most, Serve serve) {
    Peer& p = peer(origin);
    const Entry* ring = rings + static_cast<size_t>(origin) * kEntries;
    size_t n = 0;
    while (n < most && static_cast<int32_t>(limit - p.expected) > 0) {
      const Entry& e = ring[index_of(p.expected)];
      if (__atomic_load_n(&e.tag, __ATOMIC_ACQUIRE) != tag_of(p.expected)) break;
      if (static_cast<int16_t>(static_cast<uint16_t>(e.messages - p.messages_applied)) > 0) break;
      serve(origin, e);
      ++p.expected;
      ++n;
    }
    return n;
  }
  struct Peer {
    // As initiator, to this target: requests written into the ring, and of them known
    // consumed; which of those not yet known consumed fetch nothing (a bit per entry);
    // request messages sent.
    uint32_t sent = 0;
    uint32_t consumed = 0;
    uint64_t silent = 0;
    uint16_t messages_sent = 0;
    bool announced = false;
    // As target, of this initiator: its next request in the ring, its request messages
    // applied; whether its ring is scanned.
    uint32_t expected = 0;
    uint16_t messages_applied = 0;
    bool scanned = false;
  };
  Peer& peer(int pe) { return peers_.at(static_cast<size_t>(pe)); }
  const Peer& peer(int pe) const {
    static const Peer none;
    const Peer* p = peers_.find(static_cast<size_t>(pe));
    return p ? *p : none;
  }
  PeerPages<Peer> peers_;
  std::vector<int> active_;    // the initiators whose rings are scanned
  std::vector<int> awaiting_;  // the targets with requests that fetch nothing not known consumed
};

}  // namespace tandem::ofi
