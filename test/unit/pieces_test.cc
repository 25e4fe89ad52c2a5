#include "transport/ofi/pieces.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

using tandem::ofi::Pieces;

namespace {

std::vector<std::pair<size_t, size_t>> cut(const Pieces& pieces, size_t bytes) {
  std::vector<std::pair<size_t, size_t>> out;
  pieces.for_each(bytes, [&](size_t offset, size_t length) { out.emplace_back(offset, length); });
  return out;
}

}  // namespace

TEST(Pieces, SocketsCutAtTheSocketPiece) {
  Pieces pieces;
  pieces.set(0, true);  // no provider limit
  EXPECT_EQ(pieces.most(), Pieces::kSocketPiece);
  const size_t k = Pieces::kSocketPiece;
  EXPECT_EQ(pieces.count(k), 1u);
  EXPECT_EQ(pieces.count(k + 1), 2u);
  EXPECT_EQ(pieces.last(k + 1), 1u);
  EXPECT_EQ(pieces.last(2 * k), k);
  const auto four = cut(pieces, 4 * k + 8);
  ASSERT_EQ(four.size(), 5u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(four[i], std::make_pair(i * k, k));
  EXPECT_EQ(four[4], std::make_pair(4 * k, size_t{8}));
}

TEST(Pieces, TheProvidersLimitWhenSmaller) {
  Pieces pieces;
  pieces.set(1000, true);
  EXPECT_EQ(pieces.most(), 1000u);
  EXPECT_EQ(pieces.count(2500), 3u);
  EXPECT_EQ(pieces.last(2500), 500u);
  pieces.set(1000, false);
  EXPECT_EQ(cut(pieces, 1000), (std::vector<std::pair<size_t, size_t>>{{0, 1000}}));
}

TEST(Pieces, WholeWithoutSocketsOrLimit) {
  Pieces pieces;
  pieces.set(0, false);
  EXPECT_EQ(pieces.most(), SIZE_MAX);
  EXPECT_EQ(pieces.count(size_t{1} << 40), 1u);
  EXPECT_EQ(pieces.last(size_t{1} << 40), size_t{1} << 40);
  EXPECT_EQ(pieces.count(0), 0u);
  EXPECT_EQ(pieces.last(0), 0u);
  EXPECT_TRUE(cut(pieces, 0).empty());
}
