#include "transport/ofi/socket_watch.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

using tandem::ofi::SocketWatch;

namespace {

// A listener on 127.0.0.1, a port the kernel picks.
struct Listener {
  int fd = -1;
  sockaddr_in address{};
  Listener() {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(listen(fd, 8), 0);
    EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  }
  ~Listener() { close(fd); }
  std::string name() const { return std::string(reinterpret_cast<const char*>(&address), sizeof address); }
  // A connection to this listener: the connecting socket, and the one accepted.
  std::pair<int, int> connect_to() const {
    const int out = socket(AF_INET, SOCK_STREAM, 0);
    EXPECT_EQ(connect(out, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    return {out, accept(fd, nullptr, nullptr)};
  }
};

bool watched(const SocketWatch& w, int fd) {
  return std::find(w.sockets().begin(), w.sockets().end(), fd) != w.sockets().end();
}

// An endpoint (own) with one peer, and a stranger that is neither: the watch takes the
// connections own accepted and, once the peer is added, those made to it, and nothing else.
TEST(SocketWatch, FindsTheEndpointsConnections) {
  Listener own, peer, stranger;
  const auto [to_own, accepted_by_own] = own.connect_to();
  const auto [to_peer, accepted_by_peer] = peer.connect_to();
  const auto [to_stranger, accepted_by_stranger] = stranger.connect_to();
  SocketWatch w;
  w.start(own.name());
  ASSERT_TRUE(w.on());
  EXPECT_TRUE(watched(w, accepted_by_own));  // local address: own's
  EXPECT_FALSE(watched(w, to_peer));         // not a peer yet
  w.add_peer(peer.name());
  EXPECT_TRUE(w.rescan());
  EXPECT_TRUE(watched(w, to_peer));          // remote address: the peer's
  EXPECT_FALSE(watched(w, own.fd));          // listeners are left out
  EXPECT_FALSE(watched(w, peer.fd));
  EXPECT_FALSE(watched(w, to_own));  // a connection to own from an ephemeral port: own's side counts
  EXPECT_FALSE(watched(w, accepted_by_peer));
  EXPECT_FALSE(watched(w, to_stranger));
  EXPECT_FALSE(watched(w, accepted_by_stranger));
  EXPECT_EQ(w.sockets().size(), 2u);
  for (int fd : {to_own, accepted_by_own, to_peer, accepted_by_peer, to_stranger, accepted_by_stranger}) close(fd);
}

// Connections come and go: rescan() reports a change and follows it.
TEST(SocketWatch, RescanFollowsNewAndClosedConnections) {
  Listener own, peer;
  SocketWatch w;
  w.start(own.name());
  w.add_peer(peer.name());
  EXPECT_TRUE(w.sockets().empty());
  EXPECT_FALSE(w.rescan());
  const auto [to_peer, accepted] = peer.connect_to();
  EXPECT_TRUE(w.rescan());
  EXPECT_TRUE(watched(w, to_peer));
  EXPECT_FALSE(w.rescan());
  close(to_peer);
  EXPECT_TRUE(w.rescan());
  EXPECT_TRUE(w.sockets().empty());
  close(accepted);
}

// A connection dropped (it hung up) stays out while it is open; a new socket that gets its
// descriptor number is watched again.
TEST(SocketWatch, DropLeavesAConnectionOut) {
  Listener own, peer;
  const auto [to_peer, accepted] = peer.connect_to();
  SocketWatch w;
  w.start(own.name());
  w.add_peer(peer.name());
  EXPECT_TRUE(w.rescan());
  ASSERT_TRUE(watched(w, to_peer));
  w.drop(to_peer);
  EXPECT_TRUE(w.rescan());
  EXPECT_FALSE(watched(w, to_peer));
  EXPECT_FALSE(w.rescan());
  close(to_peer);
  close(accepted);
  EXPECT_FALSE(w.rescan());
  const auto [again, accepted_again] = peer.connect_to();  // most likely the same number
  EXPECT_TRUE(w.rescan());
  EXPECT_TRUE(watched(w, again));
  close(again);
  close(accepted_again);
}

// An own name on the wildcard address matches by port: accepted connections have the
// address they came in on.
TEST(SocketWatch, WildcardOwnAddressMatchesByPort) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in any{};
  any.sin_family = AF_INET;
  any.sin_addr.s_addr = htonl(INADDR_ANY);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&any), sizeof any), 0);
  ASSERT_EQ(listen(fd, 8), 0);
  socklen_t length = sizeof any;
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&any), &length), 0);
  sockaddr_in loopback = any;
  loopback.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const int out = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_EQ(connect(out, reinterpret_cast<sockaddr*>(&loopback), sizeof loopback), 0);
  const int accepted = accept(fd, nullptr, nullptr);
  SocketWatch w;
  w.start(std::string(reinterpret_cast<const char*>(&any), sizeof any));
  EXPECT_TRUE(watched(w, accepted));
  EXPECT_FALSE(watched(w, out));
  for (int f : {fd, out, accepted}) close(f);
}

// Names that are no IP socket addresses (another provider's): the watch stays off.
TEST(SocketWatch, OffForOtherAddressFormats) {
  SocketWatch w;
  w.start(std::string(8, '\x7f'));
  EXPECT_FALSE(w.on());
  EXPECT_TRUE(w.sockets().empty());
  EXPECT_FALSE(w.rescan());
}

}  // namespace
