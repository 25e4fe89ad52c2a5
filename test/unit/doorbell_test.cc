#include "transport/ofi/doorbell.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>

#include <string>

using tandem::ofi::Doorbell;

namespace {

// An endpoint name as fi_getname gives it with a socket provider: an IPv4 address and port.
std::string name_of(uint32_t host, uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(host);
  a.sin_port = htons(port);
  return std::string(reinterpret_cast<const char*>(&a), sizeof a);
}

bool rung(const Doorbell& d, int timeout_ms) {
  pollfd p{d.fd(), POLLIN, 0};
  return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

}  // namespace

// A doorbell on an endpoint's address rings for the PEs that gave a port, once they have,
// and only for them.
TEST(Doorbell, RingsThePeersThatHaveOne) {
  Doorbell own, other;
  const uint16_t own_port = own.open(name_of(INADDR_LOOPBACK, 4000));
  const uint16_t other_port = other.open(name_of(INADDR_LOOPBACK, 4001));
  ASSERT_NE(own_port, 0);
  ASSERT_NE(other_port, 0);
  ASSERT_GE(own.fd(), 0);
  own.reset(4);
  EXPECT_FALSE(own.ring(0));  // not known yet
  EXPECT_FALSE(rung(other, 50));
  // PE 0: other's doorbell; PE 1: no doorbell (port 0); PE 2: a wildcard address; PE 3
  // never added.
  own.add_peer(0, name_of(INADDR_LOOPBACK, 4001), other_port);
  own.add_peer(1, name_of(INADDR_LOOPBACK, 4002), 0);
  own.add_peer(2, name_of(INADDR_ANY, 4003), other_port);
  own.add_peer(7, name_of(INADDR_LOOPBACK, 4001), other_port);  // no such PE
  EXPECT_FALSE(own.ring(1));
  EXPECT_FALSE(own.ring(3));
  EXPECT_FALSE(own.ring(2));
  EXPECT_FALSE(own.ring(7));  // no such PE
  EXPECT_FALSE(rung(other, 50));
  EXPECT_TRUE(own.ring(0));
  EXPECT_TRUE(own.ring(0));
  EXPECT_TRUE(rung(other, 5000));
  other.drain();  // both rings at once
  EXPECT_FALSE(rung(other, 50));
  EXPECT_FALSE(rung(own, 0));
}

// A name that is no IP address gives no doorbell, and ringing from it does nothing.
TEST(Doorbell, NoneWithoutAnAddress) {
  Doorbell d;
  EXPECT_EQ(d.open(std::string("\x01\x02\x03", 3)), 0);
  EXPECT_EQ(d.fd(), -1);
  d.reset(1);
  d.add_peer(0, name_of(INADDR_LOOPBACK, 4000), 4000);
  EXPECT_FALSE(d.ring(0));
  d.drain();
}
