#include "mem/allocator.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using tandem::SymmetricAllocator;

TEST(SymmetricAllocator, HandsOutAlignedNonOverlappingBlocks) {
  SymmetricAllocator a(1 << 20);
  auto x = a.allocate(100);
  auto y = a.allocate(1);
  auto z = a.allocate(4096, 4096);
  ASSERT_TRUE(x && y && z);
  EXPECT_EQ(*x % SymmetricAllocator::kGranule, 0u);
  EXPECT_EQ(*z % 4096, 0u);
  EXPECT_GE(*y, *x + 100);
  EXPECT_GE(*z, *y + 1);
  EXPECT_EQ(*a.block_size(*x), 128u);
}

TEST(SymmetricAllocator, ReusesFreedSpaceAndCoalesces) {
  SymmetricAllocator a(64 * 10);
  std::vector<size_t> blocks;
  for (int i = 0; i < 10; ++i) blocks.push_back(*a.allocate(64));
  EXPECT_FALSE(a.allocate(64)) << "the heap is full";
  // Free every block in an order that needs merging on both sides.
  for (int i : {1, 3, 2, 0, 5, 4, 9, 7, 8, 6}) ASSERT_TRUE(a.release(blocks[static_cast<size_t>(i)]));
  EXPECT_EQ(a.free_block_count(), 1u);
  EXPECT_EQ(a.largest_free_block(), 640u);
  EXPECT_EQ(*a.allocate(640), 0u);
}

TEST(SymmetricAllocator, RejectsUnknownAndDoubleFree) {
  SymmetricAllocator a(4096);
  auto x = a.allocate(64);
  ASSERT_TRUE(x);
  EXPECT_FALSE(a.release(*x + 64));
  EXPECT_TRUE(a.release(*x));
  EXPECT_FALSE(a.release(*x));
}

TEST(SymmetricAllocator, ReportsExhaustion) {
  SymmetricAllocator a(1 << 16);
  EXPECT_FALSE(a.allocate((1 << 16) + 1));
  EXPECT_FALSE(a.allocate(SIZE_MAX));
  EXPECT_TRUE(a.allocate(1 << 16));
  EXPECT_EQ(a.bytes_in_use(), 1u << 16);
}

TEST(SymmetricAllocator, FindsTheBlockHoldingAnOffset) {
  SymmetricAllocator a(1 << 16);
  auto x = *a.allocate(256);
  auto inside = a.containing_block(x + 255);
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->first, x);
  EXPECT_EQ(inside->second, 256u);
  EXPECT_FALSE(a.containing_block(x + 256));
}

TEST(SymmetricAllocator, SameCallSequenceGivesSameOffsets) {
  // Symmetry: two PEs that make the same calls must see the same offsets.
  SymmetricAllocator a(1 << 22), b(1 << 22);
  std::mt19937 rng(7);
  std::vector<size_t> live_a, live_b;
  for (int step = 0; step < 2000; ++step) {
    if (!live_a.empty() && rng() % 3 == 0) {
      size_t i = rng() % live_a.size();
      ASSERT_TRUE(a.release(live_a[i]));
      ASSERT_TRUE(b.release(live_b[i]));
      live_a.erase(live_a.begin() + static_cast<long>(i));
      live_b.erase(live_b.begin() + static_cast<long>(i));
    } else {
      size_t size = 1 + rng() % 5000, align = size_t{64} << (rng() % 4);
      auto x = a.allocate(size, align);
      auto y = b.allocate(size, align);
      ASSERT_EQ(x, y);
      if (x) {
        live_a.push_back(*x);
        live_b.push_back(*y);
      }
    }
  }
}

TEST(SymmetricAllocator, BlocksNeverOverlap) {
  SymmetricAllocator a(1 << 20);
  std::mt19937 rng(11);
  std::vector<std::pair<size_t, size_t>> live;
  for (int step = 0; step < 3000; ++step) {
    if (!live.empty() && rng() % 2 == 0) {
      size_t i = rng() % live.size();
      ASSERT_TRUE(a.release(live[i].first));
      live.erase(live.begin() + static_cast<long>(i));
    } else if (auto x = a.allocate(1 + rng() % 3000)) {
      size_t size = *a.block_size(*x);
      for (auto [o, s] : live) ASSERT_TRUE(*x + size <= o || o + s <= *x);
      live.emplace_back(*x, size);
    }
  }
}
