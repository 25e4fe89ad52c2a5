#include "core/flat_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

using tandem::FlatTable;

namespace {

uint64_t key_of(int source, int tag) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(source)) << 32) | static_cast<uint32_t>(tag);
}

// The table against a std::map under random inserts, updates and erases, with few keys (many
// collisions and runs to shift back) and many (growth).
void against_map(int sources, int tags, int steps, unsigned seed) {
  FlatTable<uint64_t> table;
  std::map<uint64_t, uint64_t> model;
  std::mt19937 random(seed);
  for (int step = 0; step < steps; ++step) {
    const uint64_t key = key_of(static_cast<int>(random() % sources), static_cast<int>(random() % tags));
    switch (random() % 3) {
      case 0:
      case 1:
        *table.find_or_add(key) += 1;
        model[key] += 1;
        break;
      case 2:
        table.erase(key);
        model.erase(key);
        break;
    }
    ASSERT_EQ(table.size(), model.size()) << "step " << step;
    if (step % 64 == 0) {
      for (const auto& [k, v] : model) {
        const uint64_t* found = table.find(k);
        ASSERT_NE(found, nullptr) << "step " << step << ": key " << k << " lost";
        ASSERT_EQ(*found, v) << "step " << step;
      }
      size_t visited = 0;
      table.for_each([&](uint64_t k, uint64_t& v) {
        ++visited;
        EXPECT_EQ(model.at(k), v);
      });
      ASSERT_EQ(visited, model.size());
    }
  }
  for (const auto& [k, v] : model) ASSERT_NE(table.find(k), nullptr);
}

TEST(FlatTable, FindsWhatWasAdded) {
  FlatTable<uint64_t> table;
  EXPECT_EQ(table.find(key_of(1, 2)), nullptr);
  *table.find_or_add(key_of(1, 2)) = 7;
  EXPECT_EQ(*table.find(key_of(1, 2)), 7u);
  EXPECT_EQ(table.find(key_of(2, 1)), nullptr);
  EXPECT_EQ(*table.find_or_add(key_of(1, 2)), 7u);  // not a second entry
  EXPECT_EQ(table.size(), 1u);
  table.erase(key_of(2, 1));  // absent: nothing happens
  EXPECT_EQ(table.size(), 1u);
  table.erase(key_of(1, 2));
  EXPECT_EQ(table.find(key_of(1, 2)), nullptr);
  EXPECT_EQ(table.size(), 0u);
}

TEST(FlatTable, KeepsEveryKeyThroughCollisionsAndErasures) {
  against_map(3, 7, 20000, 1);  // 21 keys in a table of 64: long runs
  against_map(2, 1000, 20000, 2);
}

TEST(FlatTable, KeepsEveryKeyThroughGrowth) {
  FlatTable<uint64_t> table;
  for (int tag = 0; tag < 5000; ++tag) *table.find_or_add(key_of(tag % 16, tag)) = static_cast<uint64_t>(tag);
  for (int tag = 0; tag < 5000; tag += 2) table.erase(key_of(tag % 16, tag));
  EXPECT_EQ(table.size(), 2500u);
  for (int tag = 0; tag < 5000; ++tag) {
    const uint64_t* v = table.find(key_of(tag % 16, tag));
    if (tag % 2) {
      ASSERT_NE(v, nullptr) << tag;
      EXPECT_EQ(*v, static_cast<uint64_t>(tag));
    } else {
      EXPECT_EQ(v, nullptr) << tag;
    }
  }
}

// Keys used once each and left disposable (value 0) make the table drop them rather than
// grow: it stays within a few times the entries still in use, which all survive, with
// their values.
TEST(FlatTable, DropsDisposableEntriesInsteadOfGrowing) {
  FlatTable<uint64_t> table;
  auto unused = [](const uint64_t& v) { return v == 0; };
  for (int tag = 0; tag < 10; ++tag) *table.find_or_add(key_of(0, tag), unused) = 1;
  size_t most = 0;
  for (int tag = 0; tag < 100000; ++tag) {
    uint64_t* v = table.find_or_add(key_of(1, tag), unused);
    ASSERT_EQ(*v, 0u) << tag;
    if (tag % 1000 == 999) *v = 2;  // one in a thousand stays in use
    most = std::max(most, table.size());
  }
  EXPECT_LE(most, 4 * (10 + 100 + 1)) << "the table grew with the disposable keys";
  for (int tag = 0; tag < 10; ++tag) {
    const uint64_t* v = table.find(key_of(0, tag));
    ASSERT_NE(v, nullptr) << tag;
    EXPECT_EQ(*v, 1u);
  }
  for (int tag = 999; tag < 100000; tag += 1000) {
    const uint64_t* v = table.find(key_of(1, tag));
    ASSERT_NE(v, nullptr) << tag;
    EXPECT_EQ(*v, 2u);
  }
}

}  // namespace
