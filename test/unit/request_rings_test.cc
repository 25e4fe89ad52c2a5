#include "transport/ofi/request_rings.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

using tandem::ofi::RequestRings;
using Entry = RequestRings::Entry;

namespace {

constexpr int kPes = 3;
constexpr int kInitiator = 1;
constexpr int kTarget = 2;

// Two PEs' view of the rings: the initiator's state, the target's state and ring memory.
struct Pair {
  RequestRings initiator, target;
  std::vector<Entry> memory = std::vector<Entry>(kPes * RequestRings::kEntries);
  std::vector<uint64_t> served;  // the operands the target served, in order

  Pair() {
    initiator.reset(kPes);
    target.reset(kPes);
  }
  // The initiator's request with `operand`, as the engine builds it (no write yet).
  Entry request(uint64_t operand, uint32_t* n, uint16_t cookie = 0) {
    Entry e{};
    e.operand = operand;
    e.cookie = cookie;
    initiator.take(kTarget, n, &e);
    sent = *n + 1;
    return e;
  }
  uint32_t sent = 0;
  Entry& slot(uint32_t n) { return memory[kInitiator * RequestRings::kEntries + RequestRings::index_of(n)]; }
  // The write of `e` landing, whole or its first `bytes` only.
  void land(const Entry& e, uint32_t n, size_t bytes = sizeof(Entry)) { memcpy(&slot(n), &e, bytes); }
  void write(uint64_t operand) {
    uint32_t n = 0;
    const Entry e = request(operand, &n);
    land(e, n);
  }
  size_t scan() {
    return target.scan(memory.data(), 1000, [&](int origin, const Entry& e) {
      EXPECT_EQ(origin, kInitiator);
      served.push_back(e.operand);
    });
  }
  // A request message from the initiator (its cookie from with_sent()) served by the target.
  size_t message(uint64_t operand) {
    const uint64_t cookie = initiator.with_sent(kTarget, 0);
    const size_t n = target.serve_message(memory.data(), kInitiator, cookie, 1000,
                                          [&](int, const Entry& e) { served.push_back(e.operand); });
    served.push_back(operand);  // the message's own request, applied next
    return n;
  }
  void answer_all() { initiator.consumed(kTarget, sent); }
};

}  // namespace

TEST(RequestRings, TheFirstRequestGoesAsAMessageThenRingsAreScanned) {
  Pair p;
  EXPECT_FALSE(p.initiator.announced(kTarget));
  EXPECT_FALSE(p.target.any_scanned());
  EXPECT_EQ(p.message(1), 0u);
  EXPECT_TRUE(p.initiator.announced(kTarget));
  EXPECT_TRUE(p.target.any_scanned());
  p.write(2);
  p.write(3);
  EXPECT_EQ(p.scan(), 2u);
  EXPECT_EQ(p.served, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(p.scan(), 0u);  // each entry once
}

TEST(RequestRings, AnUnannouncedRingIsNotScanned) {
  Pair p;
  p.write(7);  // not what the engine does: it shows the scan looks at announced rings only
  EXPECT_EQ(p.scan(), 0u);
  EXPECT_TRUE(p.served.empty());
}

TEST(RequestRings, AnEntryIsServedOnlyOnceItsWholeWriteHasLanded) {
  // Every cut of the write, over an entry that holds the previous round's request: the tag
  // of a part-written entry mixes two generations' bytes and matches neither.
  for (size_t cut = 0; cut < sizeof(Entry); ++cut) {
    Pair p;
    p.message(0);
    for (size_t i = 0; i < RequestRings::kEntries; ++i) p.write(100 + i);  // round 0: every entry
    ASSERT_EQ(p.scan(), RequestRings::kEntries);
    p.answer_all();
    uint32_t n = 0;
    const Entry e = p.request(999, &n);
    ASSERT_EQ(RequestRings::index_of(n), 0u);
    p.land(e, n, cut);
    EXPECT_EQ(p.scan(), 0u) << "cut at byte " << cut;
    p.land(e, n);
    EXPECT_EQ(p.scan(), 1u);
    EXPECT_EQ(p.served.back(), 999u);
  }
}

TEST(RequestRings, EntriesAreServedInTheirOrderWhateverOrderTheyLandIn) {
  Pair p;
  p.message(0);
  uint32_t n1 = 0, n2 = 0;
  const Entry e1 = p.request(1, &n1);
  const Entry e2 = p.request(2, &n2);
  p.land(e2, n2);
  EXPECT_EQ(p.scan(), 0u);  // request 1 first
  p.land(e1, n1);
  EXPECT_EQ(p.scan(), 2u);
  EXPECT_EQ(p.served, (std::vector<uint64_t>{0, 1, 2}));
}

TEST(RequestRings, ARingHoldsAtMostKEntriesUnanswered) {
  Pair p;
  p.message(0);
  for (size_t i = 0; i < RequestRings::kEntries; ++i) {
    ASSERT_TRUE(p.initiator.has_room(kTarget));
    p.write(i);
  }
  EXPECT_FALSE(p.initiator.has_room(kTarget));
  p.initiator.consumed(kTarget, 1);
  EXPECT_TRUE(p.initiator.has_room(kTarget));
}

TEST(RequestRings, AMessageIsAppliedAfterTheEntriesWrittenBeforeIt) {
  // A run request (always a message) behind ring entries: serve_message() serves them
  // first, although no scan ran in between.
  Pair p;
  p.message(0);
  p.write(1);
  p.write(2);
  EXPECT_EQ(p.message(3), 2u);
  EXPECT_EQ(p.served, (std::vector<uint64_t>{0, 1, 2, 3}));
}

TEST(RequestRings, AnEntryWrittenAfterAMessageWaitsForIt) {
  // The entry behind a message has landed, but the message's completion has not been read
  // yet: the scan leaves the entry until the message is applied.
  Pair p;
  p.message(0);
  p.write(1);
  const uint64_t cookie = p.initiator.with_sent(kTarget, 0);  // a message sent, not yet read
  p.write(3);
  EXPECT_EQ(p.scan(), 1u);  // request 1 only
  EXPECT_EQ(p.served, (std::vector<uint64_t>{0, 1}));
  p.target.serve_message(p.memory.data(), kInitiator, cookie, 1000, [&](int, const Entry& e) {
    p.served.push_back(e.operand);
  });
  p.served.push_back(2);  // the message's request
  EXPECT_EQ(p.scan(), 1u);
  EXPECT_EQ(p.served, (std::vector<uint64_t>{0, 1, 2, 3}));
}

TEST(RequestRings, AMessageCookieKeepsItsAnswerSlot) {
  RequestRings r;
  r.reset(kPes);
  const uint64_t slot_cookie = uint64_t{1} << 63 | 0x2a05;  // AnswerSlots': slot 5, generation 42
  for (int i = 0; i < 3; ++i) {
    uint32_t n = 0;
    Entry e{};
    r.take(kTarget, &n, &e);
  }
  const uint64_t cookie = r.with_sent(kTarget, slot_cookie);
  EXPECT_EQ(cookie & 0xffff, 0x2a05u);
  EXPECT_EQ(cookie >> 63, 1u);
  EXPECT_EQ(static_cast<uint32_t>(cookie >> 16), 3u);
}

TEST(RequestRings, TagsOfOneEntryDifferFromOneUseToTheNext) {
  // Including across the wrap of the 32-bit request number.
  for (uint64_t n : {uint64_t{RequestRings::kEntries}, uint64_t{1} << 20, (uint64_t{1} << 32) - 1,
                     uint64_t{1} << 32, (uint64_t{1} << 32) + 5}) {
    const auto now = static_cast<uint32_t>(n);
    const auto before = static_cast<uint32_t>(n - RequestRings::kEntries);
    EXPECT_EQ(RequestRings::index_of(now), RequestRings::index_of(before));
    EXPECT_NE(RequestRings::tag_of(now), RequestRings::tag_of(before)) << n;
    EXPECT_NE(RequestRings::tag_of(now), 0u);  // ring memory starts zeroed
  }
}

namespace {

// The initiator's ring memory, where targets write their Acks.
struct InitiatorMemory {
  std::vector<uint64_t> words = std::vector<uint64_t>(RequestRings::memory_bytes(kPes) / sizeof(uint64_t));
  char* bytes() { return reinterpret_cast<char*>(words.data()); }
  void ack(uint32_t count, size_t bytes_landed = sizeof(RequestRings::Ack)) {
    const RequestRings::Ack a = RequestRings::ack_of(count);
    memcpy(bytes() + RequestRings::ack_offset(kPes, kTarget), &a, bytes_landed);
  }
};

}  // namespace

TEST(RequestRings, TheTargetCountsTheEntriesItConsumed) {
  Pair p;
  p.message(0);
  EXPECT_EQ(p.target.consumed_from(kInitiator), 0u);
  p.write(1);
  p.write(2);
  EXPECT_EQ(p.scan(), 2u);
  EXPECT_EQ(p.target.consumed_from(kInitiator), 2u);
}

TEST(RequestRings, AnAckCompletesTheRequestsThatFetchNothing) {
  Pair p;
  InitiatorMemory m;
  p.message(0);
  uint32_t n = 0;
  for (uint64_t i = 1; i <= 3; ++i) p.land(p.request(i, &n), n);  // fetch nothing
  EXPECT_TRUE(p.initiator.awaiting_acks());
  EXPECT_EQ(p.initiator.collect_acks(m.bytes(), kPes), 0u);  // no Ack yet
  m.ack(2);
  EXPECT_EQ(p.initiator.collect_acks(m.bytes(), kPes), 2u);
  EXPECT_TRUE(p.initiator.awaiting_acks());
  EXPECT_EQ(p.initiator.collect_acks(m.bytes(), kPes), 0u);  // each once
  m.ack(3);
  EXPECT_EQ(p.initiator.collect_acks(m.bytes(), kPes), 1u);
  EXPECT_FALSE(p.initiator.awaiting_acks());
}

TEST(RequestRings, AnAckLandedInPartReadsAsNoneOrAsTheWholeNewCount) {
  // Every cut of an Ack's write over the previous one, across carries in the count's bytes:
  // what the initiator reads (check == ~count) is nothing, or the new count itself.
  const std::pair<uint32_t, uint32_t> steps[] = {{0xff, 0x100}, {0xfffe, 0x10003}, {0xffffff, 0x1000000}, {5, 9}};
  for (const auto& [before, after] : steps) {
    for (size_t cut = 0; cut <= sizeof(RequestRings::Ack); ++cut) {
      RequestRings::Ack memory = RequestRings::ack_of(before);
      const RequestRings::Ack next = RequestRings::ack_of(after);
      memcpy(&memory, &next, cut);
      if (memory.check == ~memory.count) {
        EXPECT_TRUE(memory.count == after || (cut == 0 && memory.count == before)) << before << " cut " << cut;
      }
      if (cut == sizeof(RequestRings::Ack)) {
        EXPECT_EQ(memory.count, after);
      }
    }
  }
  // collect_acks() reads that rule: a part-landed Ack completes nothing, the whole one does.
  Pair p;
  InitiatorMemory m;
  p.message(0);
  uint32_t n = 0;
  for (uint64_t i = 0; i < 3; ++i) p.land(p.request(i, &n), n);
  m.ack(3, sizeof(uint64_t));  // the count without its complement
  EXPECT_EQ(p.initiator.collect_acks(m.bytes(), kPes), 0u);
  m.ack(3);
  EXPECT_EQ(p.initiator.collect_acks(m.bytes(), kPes), 3u);
}

TEST(RequestRings, AFetchingAnswerAlsoCompletesTheSilentRequestsBeforeIt) {
  Pair p;
  p.message(0);
  uint32_t n = 0;
  p.request(1, &n);      // fetches nothing
  p.request(2, &n);      // fetches nothing
  p.request(3, &n, 77);  // fetches: its answer comes back through a slot
  EXPECT_EQ(p.initiator.consumed(kTarget, n + 1), 2u);
  EXPECT_EQ(p.initiator.consumed(kTarget, n + 1), 0u);  // known already
  InitiatorMemory m;
  EXPECT_EQ(p.initiator.collect_acks(m.bytes(), kPes), 0u);
  EXPECT_FALSE(p.initiator.awaiting_acks());
}
