#include "transport/answer_slots.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

using tandem::ofi::AnswerSlots;

namespace {

// The initiator's memory that targets write answers into.
using Answer = AnswerSlots::Written;

// What a target does with a request's cookie: the value, then the tag, into the named slot.
void answer(Answer* memory, uint64_t cookie, uint64_t value) {
  Answer& a = memory[AnswerSlots::slot_of(cookie)];
  a.value = value;
  a.tag = AnswerSlots::tag_of(cookie);
}

struct Collected {
  std::vector<std::pair<void*, uint64_t>> calls;
  std::vector<size_t> slots_named;
  size_t run(AnswerSlots& slots, const Answer* memory) {
    return slots.collect(memory, [&](size_t slot, void* reply, uint64_t value) {
      calls.emplace_back(reply, value);
      slots_named.push_back(slot);
    });
  }
};

// A slot claimed, answered and collected: the cookie its request carried.
uint64_t round_trip(AnswerSlots& slots, Answer* memory, uint64_t value) {
  uint64_t cookie = 0;
  EXPECT_TRUE(slots.claim(nullptr, &cookie));
  answer(memory, cookie, value);
  EXPECT_EQ(Collected().run(slots, memory), 1u);
  return cookie;
}

}  // namespace

TEST(AnswerSlots, CookiesNameDistinctSlotsUntilAllAreTaken) {
  AnswerSlots slots;
  std::set<size_t> named;
  for (size_t i = 0; i < AnswerSlots::kSlots; ++i) {
    uint64_t cookie = 0;
    ASSERT_TRUE(slots.claim(nullptr, &cookie));
    EXPECT_TRUE(AnswerSlots::names_slot(cookie));
    named.insert(AnswerSlots::slot_of(cookie));
  }
  EXPECT_EQ(named.size(), AnswerSlots::kSlots);
  uint64_t cookie = 0;
  EXPECT_FALSE(slots.claim(nullptr, &cookie));
  EXPECT_TRUE(slots.any_busy());
}

TEST(AnswerSlots, MessagePathCookiesNameNoSlot) {
  int reply = 0;
  EXPECT_FALSE(AnswerSlots::names_slot(0));
  EXPECT_FALSE(AnswerSlots::names_slot(reinterpret_cast<uint64_t>(&reply)));
  EXPECT_EQ(AnswerSlots::compact(0), 0u);
  EXPECT_EQ(AnswerSlots::expand(0), 0u);
}

TEST(AnswerSlots, CompactCookiesComeBackWhole) {
  // A confirmation carries its cookie in 16 bits of remote CQ data.
  AnswerSlots slots;
  for (size_t i = 0; i < AnswerSlots::kSlots; ++i) {
    uint64_t cookie = 0;
    ASSERT_TRUE(slots.claim(nullptr, &cookie));
    const uint64_t small = AnswerSlots::compact(cookie);
    EXPECT_NE(small, 0u);
    EXPECT_LT(small, uint64_t{1} << 16);
    EXPECT_EQ(AnswerSlots::expand(small), cookie);
  }
}

TEST(AnswerSlots, AnAnswerFillsItsReplyOnceAndFreesItsSlot) {
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  int first = 0, second = 0;
  uint64_t a = 0, b = 0;
  ASSERT_TRUE(slots.claim(&first, &a));
  ASSERT_TRUE(slots.claim(&second, &b));
  Collected c;
  EXPECT_EQ(c.run(slots, memory), 0u);  // nothing landed yet
  answer(memory, b, 42);
  EXPECT_EQ(c.run(slots, memory), 1u);
  ASSERT_EQ(c.calls.size(), 1u);
  EXPECT_EQ(c.calls[0].first, &second);
  EXPECT_EQ(c.calls[0].second, 42u);
  EXPECT_EQ(c.run(slots, memory), 0u);  // collected once only
  answer(memory, a, 7);
  EXPECT_EQ(c.run(slots, memory), 1u);
  EXPECT_EQ(c.calls[1].first, &first);
  EXPECT_EQ(c.calls[1].second, 7u);
  EXPECT_FALSE(slots.any_busy());
}

TEST(AnswerSlots, AReusedSlotWaitsForItsNewAnswer) {
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  const uint64_t first = round_trip(slots, memory, 1);
  uint64_t again = 0;
  Collected c;
  ASSERT_TRUE(slots.claim(nullptr, &again));
  ASSERT_EQ(AnswerSlots::slot_of(again), AnswerSlots::slot_of(first));
  EXPECT_NE(AnswerSlots::tag_of(again), AnswerSlots::tag_of(first));
  EXPECT_EQ(c.run(slots, memory), 0u);  // the slot still holds the first answer
  answer(memory, again, 2);
  EXPECT_EQ(c.run(slots, memory), 1u);
  EXPECT_EQ(c.calls.back().second, 2u);
}

TEST(AnswerSlots, GenerationsCycleWithoutZero) {
  // Memory never written reads as tag 0: no generation may use it, so a fresh slot is not
  // taken for answered; and each reuse of a slot changes its tag.
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  uint64_t previous = 0;
  for (int round = 0; round < 600; ++round) {
    uint64_t cookie = 0;
    ASSERT_TRUE(slots.claim(nullptr, &cookie));
    ASSERT_EQ(AnswerSlots::slot_of(cookie), 0u);
    ASSERT_NE(AnswerSlots::tag_of(cookie), 0u);
    ASSERT_NE(AnswerSlots::tag_of(cookie), previous);
    Collected c;
    ASSERT_EQ(c.run(slots, memory), 0u);
    answer(memory, cookie, static_cast<uint64_t>(round));
    ASSERT_EQ(c.run(slots, memory), 1u);
    previous = AnswerSlots::tag_of(cookie);
  }
}

TEST(AnswerSlots, AnAnswerLandedInPartIsNotTaken) {
  // The provider copies the write's 16 bytes in order and may stop anywhere: until the last
  // byte of the tag is there, the slot mixes two generations' tags and reads as unanswered.
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  round_trip(slots, memory, 5);
  uint64_t second = 0;
  Collected c;
  ASSERT_TRUE(slots.claim(nullptr, &second));
  const Answer full{0x1122334455667788ull, AnswerSlots::tag_of(second)};
  Answer& slot = memory[AnswerSlots::slot_of(second)];
  for (size_t landed = 0; landed < sizeof full; ++landed) {
    memcpy(&slot, &full, landed);
    ASSERT_EQ(c.run(slots, memory), 0u) << landed << " bytes landed";
  }
  memcpy(&slot, &full, sizeof full);
  EXPECT_EQ(c.run(slots, memory), 1u);
  EXPECT_EQ(c.calls.back().second, full.value);
}

TEST(AnswerSlots, ReleaseAllForgetsClaimsButNotGenerations) {
  AnswerSlots slots;
  uint64_t before = 0, after = 0;
  ASSERT_TRUE(slots.claim(nullptr, &before));
  slots.release_all();
  EXPECT_FALSE(slots.any_busy());
  ASSERT_TRUE(slots.claim(nullptr, &after));
  EXPECT_EQ(AnswerSlots::slot_of(after), AnswerSlots::slot_of(before));
  EXPECT_NE(AnswerSlots::tag_of(after), AnswerSlots::tag_of(before));
}

TEST(AnswerSlots, CollectNamesTheSlotOfEachAnswer) {
  // The engine learns from the slot which target's ring the answered request went through.
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  uint64_t first = 0, second = 0;
  ASSERT_TRUE(slots.claim(nullptr, &first));
  ASSERT_TRUE(slots.claim(nullptr, &second));
  answer(memory, second, 2);
  Collected c;
  ASSERT_EQ(c.run(slots, memory), 1u);
  EXPECT_EQ(c.slots_named, std::vector<size_t>{AnswerSlots::slot_of(second)});
  EXPECT_NE(AnswerSlots::slot_of(first), AnswerSlots::slot_of(second));
}
