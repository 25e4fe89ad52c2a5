#include "transport/ofi/answer_slots.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// And the cells that the answers of reads are written into.
struct Cells {
  alignas(8) char bytes[AnswerSlots::kCells * AnswerSlots::kCellStride] = {};
  char* of(uint64_t cookie) { return bytes + AnswerSlots::slot_of(cookie) * AnswerSlots::kCellStride; }
};

// What a target does with a read's cookie: `data`, then the tag, into the named slot's cell
// (the first `landed` bytes of that write only, if given).
void answer_cell(Cells* cells, uint64_t cookie, const std::vector<char>& data, size_t landed = SIZE_MAX) {
  std::vector<char> write(AnswerSlots::cell_write_bytes(data.size()));
  memcpy(write.data(), data.data(), data.size());
  const uint64_t tag = AnswerSlots::tag_of(cookie);
  memcpy(write.data() + AnswerSlots::tag_place(data.size()), &tag, sizeof tag);
  memcpy(cells->of(cookie), write.data(), std::min(landed, write.size()));
}

struct Collected {
  std::vector<std::pair<void*, uint64_t>> calls;
  std::vector<size_t> slots_named;
  std::vector<std::vector<char>> cells_read;  // per call: the cell's bytes (none for a value)
  size_t run(AnswerSlots& slots, const Answer* memory, const Cells& cells = Cells()) {
    return slots.collect(memory, cells.bytes,
                         [&](size_t slot, void* reply, uint64_t value, const char* cell, size_t bytes) {
                           calls.emplace_back(reply, value);
                           slots_named.push_back(slot);
                           cells_read.emplace_back(cell, cell + (cell ? bytes : 0));
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
    ASSERT_EQ(AnswerSlots::slot_of(cookie), AnswerSlots::kCells);  // the first slot without a cell
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

TEST(AnswerSlots, OnlyTheFirstSlotsHaveCellsAndOtherClaimsTakeThemLast) {
  AnswerSlots slots;
  Cells cells;
  std::set<size_t> with_cells;
  for (size_t i = 0; i < AnswerSlots::kCells; ++i) {
    uint64_t cookie = 0;
    ASSERT_TRUE(slots.claim_cell(nullptr, 16, cells.bytes, &cookie));
    with_cells.insert(AnswerSlots::slot_of(cookie));
  }
  EXPECT_EQ(with_cells.size(), AnswerSlots::kCells);
  EXPECT_LT(*with_cells.rbegin(), AnswerSlots::kCells);
  uint64_t cookie = 0;
  EXPECT_FALSE(slots.claim_cell(nullptr, 16, cells.bytes, &cookie));  // every cell taken
  slots.release_all();
  // A value's claims leave the cells free while other slots are.
  for (size_t i = 0; i < AnswerSlots::kSlots - AnswerSlots::kCells; ++i) {
    ASSERT_TRUE(slots.claim(nullptr, &cookie));
    ASSERT_GE(AnswerSlots::slot_of(cookie), AnswerSlots::kCells);
  }
  ASSERT_TRUE(slots.claim_cell(nullptr, 16, cells.bytes, &cookie));
  ASSERT_TRUE(slots.claim(nullptr, &cookie));  // then a cell's slot, rather than none
  EXPECT_LT(AnswerSlots::slot_of(cookie), AnswerSlots::kCells);
}

TEST(AnswerSlots, ACellAnswerCarriesItsBytes) {
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  Cells cells;
  int reply = 0;
  for (size_t bytes : {size_t{1}, size_t{7}, size_t{8}, size_t{100}, AnswerSlots::kCellBytes}) {
    uint64_t cookie = 0;
    ASSERT_TRUE(slots.claim_cell(&reply, bytes, cells.bytes, &cookie));
    std::vector<char> data(bytes);
    for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<char>(i * 7 + bytes);
    Collected c;
    ASSERT_EQ(c.run(slots, memory, cells), 0u) << bytes;
    answer_cell(&cells, cookie, data);
    ASSERT_EQ(c.run(slots, memory, cells), 1u) << bytes;
    EXPECT_EQ(c.calls[0].first, &reply);
    EXPECT_EQ(c.cells_read[0], data) << bytes;
    EXPECT_FALSE(slots.any_busy());
  }
}

TEST(AnswerSlots, ACellAnswerLandedInPartIsNotTaken) {
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  Cells cells;
  const std::vector<char> data(20, 'x');
  uint64_t cookie = 0;
  ASSERT_TRUE(slots.claim_cell(nullptr, data.size(), cells.bytes, &cookie));
  Collected c;
  for (size_t landed = 0; landed < AnswerSlots::cell_write_bytes(data.size()); ++landed) {
    answer_cell(&cells, cookie, data, landed);
    ASSERT_EQ(c.run(slots, memory, cells), 0u) << landed << " bytes landed";
  }
  answer_cell(&cells, cookie, data);
  EXPECT_EQ(c.run(slots, memory, cells), 1u);
}

TEST(AnswerSlots, AShorterAnswerIgnoresWhatALongerOneLeftWhereItsTagGoes) {
  // The bytes of an earlier, longer answer lie where a shorter one's tag goes; they may even
  // equal its tag: the claim clears that place, so only the new answer's tag matches.
  AnswerSlots slots;
  Answer memory[AnswerSlots::kSlots] = {};
  Cells cells;
  uint64_t first = 0, second = 0;
  ASSERT_TRUE(slots.claim_cell(nullptr, 64, cells.bytes, &first));
  const size_t slot = AnswerSlots::slot_of(first);
  // Collected, then the same slot claimed again: its next tag, known in advance.
  std::vector<char> data(64);
  answer_cell(&cells, first, data);
  ASSERT_EQ(Collected().run(slots, memory, cells), 1u);
  ASSERT_TRUE(slots.claim_cell(nullptr, 64, cells.bytes, &second));
  ASSERT_EQ(AnswerSlots::slot_of(second), slot);
  // The slot's generation after the second's (1..255 in every byte of the tag).
  const uint64_t next_tag = ((AnswerSlots::tag_of(second) & 0xff) % 255 + 1) * 0x0101010101010101ull;
  memcpy(data.data() + 8, &next_tag, sizeof next_tag);  // where an 8-byte answer's tag goes
  answer_cell(&cells, second, data);
  ASSERT_EQ(Collected().run(slots, memory, cells), 1u);
  uint64_t third = 0;
  ASSERT_TRUE(slots.claim_cell(nullptr, 8, cells.bytes, &third));
  ASSERT_EQ(AnswerSlots::slot_of(third), slot);
  ASSERT_EQ(AnswerSlots::tag_of(third), next_tag);
  Collected c;
  EXPECT_EQ(c.run(slots, memory, cells), 0u);  // without the clearing, bytes of the second
  answer_cell(&cells, third, std::vector<char>(8, 'y'));
  EXPECT_EQ(c.run(slots, memory, cells), 1u);
  EXPECT_EQ(c.cells_read[0], std::vector<char>(8, 'y'));
}
