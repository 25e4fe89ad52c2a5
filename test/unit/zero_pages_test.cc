#include "core/zero_pages.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <utility>
#include <vector>

using tandem::ZeroPages;

namespace {

// How many of the range's pages are resident.
size_t resident_pages(const ZeroPages& pages) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((pages.size() + page - 1) / page);
  if (mincore(pages.data(), pages.size(), in.data()) != 0) return SIZE_MAX;
  size_t n = 0;
  for (unsigned char c : in) n += c & 1;
  return n;
}

// The request rings' use: a table per PE of the job, of which a PE touches a few entries.
TEST(ZeroPages, ZeroFilledAndResidentOnlyWhereTouched) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  ZeroPages pages(256 * page);
  ASSERT_NE(pages.data(), nullptr);
  EXPECT_EQ(pages.size(), 256 * page);
  EXPECT_EQ(resident_pages(pages), 0u);
  auto* bytes = static_cast<unsigned char*>(pages.data());
  bytes[3 * page + 8] = 1;
  bytes[200 * page] = 2;
  EXPECT_EQ(resident_pages(pages), 2u);
  for (size_t i = 0; i < pages.size(); i += page / 2) {
    if (i != 3 * page + 8 && i != 200 * page) {
      EXPECT_EQ(bytes[i], 0) << i;
    }
  }
}

TEST(ZeroPages, MovesAndReleases) {
  ZeroPages a(1 << 20);
  void* data = a.data();
  ASSERT_NE(data, nullptr);
  ZeroPages b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data(), data);
  a = std::move(b);
  EXPECT_EQ(a.data(), data);
  a.release();
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  ZeroPages none(0);
  EXPECT_EQ(none.data(), nullptr);
}

}  // namespace
