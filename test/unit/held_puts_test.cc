#include "transport/ofi/held_puts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

using tandem::ofi::Outgoing;
using tandem::ofi::PutLists;
using tandem::ofi::kRunBytes;
using tandem::ofi::list_bytes;
using tandem::ofi::list_offset;
using tandem::ofi::list_padded;

namespace {

// The records of `list` as the target reads them: (offset, bytes) pairs and their bytes.
struct Record {
  uint64_t offset;
  std::vector<char> bytes;
};
std::vector<Record> records(const PutLists::List& list) {
  std::vector<Record> out;
  for (size_t at = 0; at < list.used;) {
    uint64_t record;
    memcpy(&record, list.out->operands + at, sizeof record);
    const char* data = list.out->operands + at + sizeof record;
    out.push_back(Record{list_offset(record), std::vector<char>(data, data + list_bytes(record))});
    at += sizeof record + list_padded(list_bytes(record));
  }
  return out;
}

TEST(PutLists, PutsThatContinueTheLastRecordJoinIt) {
  PutLists lists;
  auto buffer = std::make_unique<Outgoing>();
  PutLists::List* list = lists.slot();
  lists.start(list, buffer.get(), 3);
  const char a[3] = {1, 2, 3}, b[5] = {4, 5, 6, 7, 8}, c[1] = {9};
  ASSERT_TRUE(PutLists::add(list, 100, a, 3));
  ASSERT_TRUE(PutLists::add(list, 103, b, 5));  // continues: one record of 8 bytes
  EXPECT_TRUE(PutLists::single(*list));
  ASSERT_TRUE(PutLists::add(list, 40, c, 1));   // does not
  EXPECT_FALSE(PutLists::single(*list));
  const std::vector<Record> got = records(*list);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].offset, 100u);
  EXPECT_EQ(got[0].bytes, (std::vector<char>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(got[1].offset, 40u);
  EXPECT_EQ(got[1].bytes, (std::vector<char>{9}));
  EXPECT_EQ(list_offset(PutLists::first_record(*list)), 100u);
  EXPECT_EQ(PutLists::first_bytes(*list)[7], 8);
}

TEST(PutLists, AListHoldsWhatFitsItsBuffer) {
  PutLists lists;
  auto buffer = std::make_unique<Outgoing>();
  PutLists::List* list = lists.slot();
  lists.start(list, buffer.get(), 0);
  const uint64_t word = 7;
  size_t added = 0;
  while (PutLists::add(list, 16 * added, &word, sizeof word)) ++added;  // 16 bytes a record
  EXPECT_EQ(added, kRunBytes / 16);
  EXPECT_EQ(list->used, kRunBytes);
  EXPECT_EQ(records(*list).size(), added);
  // A record that still fits grows until the buffer is full, not beyond.
  PutLists::List* other = lists.slot();
  auto second = std::make_unique<Outgoing>();
  lists.start(other, second.get(), 1);
  std::vector<char> big(kRunBytes, 1);
  EXPECT_TRUE(PutLists::add(other, 0, big.data(), kRunBytes - 16));
  EXPECT_TRUE(PutLists::add(other, kRunBytes - 16, big.data(), 8));  // joins: one record of 2040 bytes, the buffer full
  EXPECT_FALSE(PutLists::add(other, kRunBytes - 8, big.data(), 1));
  EXPECT_EQ(records(*other).size(), 1u);
}

TEST(PutLists, SlotsGoFreeFirstThenOldest) {
  PutLists lists;
  std::vector<std::unique_ptr<Outgoing>> buffers;
  for (int pe = 0; pe < static_cast<int>(PutLists::kOpen); ++pe) {
    buffers.push_back(std::make_unique<Outgoing>());
    PutLists::List* list = lists.slot();
    ASSERT_EQ(list->out, nullptr);
    lists.start(list, buffers.back().get(), pe);
  }
  EXPECT_EQ(lists.open(), PutLists::kOpen);
  EXPECT_EQ(lists.find(5)->pe, 5);
  EXPECT_EQ(lists.find(99), nullptr);
  PutLists::List* oldest = lists.slot();
  EXPECT_EQ(oldest->pe, 0);
  lists.drop(oldest);
  EXPECT_EQ(lists.open(), PutLists::kOpen - 1);
  EXPECT_EQ(lists.find(0), nullptr);
  lists.start(lists.slot(), buffers[0].get(), 42);
  EXPECT_EQ(lists.slot()->pe, 1);  // now the oldest
  size_t seen = 0;
  lists.for_each_open([&](PutLists::List*) { ++seen; });
  EXPECT_EQ(seen, PutLists::kOpen);
  lists.reset();
  EXPECT_EQ(lists.open(), 0u);
  EXPECT_EQ(lists.find(42), nullptr);
}

}  // namespace
