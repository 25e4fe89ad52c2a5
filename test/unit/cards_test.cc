#include "core/cards.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace tandem;

namespace {
EndpointCard sample_endpoint() {
  EndpointCard card;
  card.address = std::string("\x02\x00\x1f\x90\x7f\x00\x00\x01", 8);
  card.regions = {{0x10000000, std::string(8, 'k')}, {0, ""}, {0x7f0000001000, std::string(40, 'r')}};
  card.doorbell = 4242;
  card.secret = 0x0123456789abcdefull;
  return card;
}

// Every cut of a good card short of its end, and the card with a byte more, are refused.
template <typename Read>
void expect_every_truncation_refused(const std::string& good, Read read) {
  ASSERT_TRUE(read(good));
  for (size_t length = 0; length < good.size(); ++length) EXPECT_FALSE(read(good.substr(0, length))) << length;
  EXPECT_FALSE(read(good + 'x'));
}
}  // namespace

TEST(Cards, EndpointRoundTrip) {
  const EndpointCard card = sample_endpoint();
  auto back = read_endpoint_card(write_card(card), 3);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->address, card.address);
  ASSERT_EQ(back->regions.size(), 3u);
  EXPECT_EQ(back->regions[2].base, card.regions[2].base);
  EXPECT_EQ(back->regions[2].key, card.regions[2].key);
  EXPECT_TRUE(back->regions[1].key.empty());
  EXPECT_EQ(back->doorbell, 4242);
  EXPECT_EQ(back->secret, card.secret);
  EXPECT_FALSE(read_endpoint_card(write_card(card), 2)) << "a card with another number of regions";
}

TEST(Cards, TruncatedOrLongerCardsAreRefused) {
  expect_every_truncation_refused(write_card(sample_endpoint()),
                                  [](const std::string& c) { return read_endpoint_card(c, 3).has_value(); });
  NodeCard node{"host/boot/0", {}};
  CPU_SET(3, &node.affinity);
  expect_every_truncation_refused(write_card(node), [](const std::string& c) { return read_node_card(c).has_value(); });
  SegmentCard segments{1 << 20, 4096, "memfd:12:5:777", "/tandem-12-data"};
  expect_every_truncation_refused(write_card(segments),
                                  [](const std::string& c) { return read_segment_card(c).has_value(); });
}

TEST(Cards, AnotherKindOrVersionIsRefused) {
  const std::string node = write_card(NodeCard{"h/b/0", {}});
  ASSERT_TRUE(read_node_card(node));
  EXPECT_FALSE(read_segment_card(node));
  EXPECT_FALSE(read_endpoint_card(node, 0));
  std::string other_version = node;
  other_version[4] = static_cast<char>(kCardVersion + 1);
  EXPECT_FALSE(read_node_card(other_version));
  std::string other_magic = node;
  other_magic[0] = 'X';
  EXPECT_FALSE(read_node_card(other_magic));
}

// A length field that claims more than the card holds, up to 4 GiB, allocates nothing and
// is refused.
TEST(Cards, LengthsBeyondTheCardAreRefused) {
  std::string card = write_card(sample_endpoint());
  const uint32_t huge = 0xffffffffu;
  memcpy(&card[6], &huge, sizeof huge);  // the address's length, after "TDMe" and the version
  EXPECT_FALSE(read_endpoint_card(card, 3));
  EXPECT_FALSE(read_node_card(write_card(NodeCard{std::string(5000, 'h'), {}}))) << "a key over the limit";
}

TEST(Cards, SegmentLocatorsAreChecked) {
  EXPECT_TRUE(read_segment_card(write_card(SegmentCard{4096, 0, "/tandem-9-heap", ""})));
  EXPECT_FALSE(read_segment_card(write_card(SegmentCard{4096, 0, "/etc/passwd", ""})));
  EXPECT_FALSE(read_segment_card(write_card(SegmentCard{4096, 10, "/tandem-9-heap", ""}))) << "globals without a locator";
  EXPECT_FALSE(read_segment_card(write_card(SegmentCard{4096, 0, "/tandem-9-heap", "/tandem-9-data"})))
      << "a locator for globals of no size";
}
