#include "core/peer_pages.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

using tandem::PeerPages;

// Untaken entries read as absent and cost no page; taking one makes its page alone, whose
// other entries are then there, value-initialised.
TEST(PeerPages, MakesOnlyThePagesTaken) {
  PeerPages<uint64_t, 64> pages;
  pages.reset(1000);
  EXPECT_EQ(pages.size(), 1000u);
  EXPECT_EQ(pages.pages_made(), 0u);
  for (size_t pe : {0u, 63u, 64u, 999u}) EXPECT_EQ(pages.find(pe), nullptr) << pe;
  pages.at(130) = 7;
  EXPECT_EQ(pages.pages_made(), 1u);
  ASSERT_NE(pages.find(130), nullptr);
  EXPECT_EQ(*pages.find(130), 7u);
  ASSERT_NE(pages.find(128), nullptr);  // the same page
  EXPECT_EQ(*pages.find(128), 0u);
  EXPECT_EQ(pages.find(127), nullptr);
  EXPECT_EQ(pages.find(192), nullptr);
  pages.at(999) = 9;  // on the last page
  EXPECT_EQ(pages.pages_made(), 2u);
  EXPECT_EQ(&pages.at(130), pages.find(130)) << "a page stays where it was made";
  pages.reset(10);
  EXPECT_EQ(pages.pages_made(), 0u);
  EXPECT_EQ(pages.find(5), nullptr);
}

// Threads that take entries of the same pages at once make each page once, and every write
// to an entry of its own lands in the one page that stays.
TEST(PeerPages, ThreadsMakeEachPageOnce) {
  constexpr size_t kPes = 4096, kThreads = 4;
  PeerPages<std::atomic<uint32_t>, 16> pages;
  pages.reset(kPes);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (size_t pe = t; pe < kPes; pe += kThreads) pages.at(pe).fetch_add(static_cast<uint32_t>(pe) + 1);
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(pages.pages_made(), kPes / 16);
  for (size_t pe = 0; pe < kPes; ++pe) {
    ASSERT_NE(pages.find(pe), nullptr) << pe;
    EXPECT_EQ(pages.find(pe)->load(), pe + 1) << pe;
  }
}
