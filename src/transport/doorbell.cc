#include "transport/doorbell.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cstring>

namespace tandem::ofi {

namespace {

// `name` as a socket address of `length` bytes, with its port set to `port`; false if it is
// no IPv4 or IPv6 address, or the wildcard one (which names no host to ring).
bool with_port(const std::string& name, uint16_t port, sockaddr_storage* address, socklen_t* length) {
  *address = sockaddr_storage{};
  if (name.size() < sizeof(sa_family_t) || name.size() > sizeof *address) return false;
  memcpy(address, name.data(), name.size());
  if (address->ss_family == AF_INET && name.size() >= sizeof(sockaddr_in)) {
    auto& in = reinterpret_cast<sockaddr_in&>(*address);
    if (in.sin_addr.s_addr == htonl(INADDR_ANY)) return false;
    in.sin_port = htons(port);
    *length = sizeof(sockaddr_in);
    return true;
  }
  if (address->ss_family == AF_INET6 && name.size() >= sizeof(sockaddr_in6)) {
    auto& in6 = reinterpret_cast<sockaddr_in6&>(*address);
    if (IN6_IS_ADDR_UNSPECIFIED(&in6.sin6_addr)) return false;
    in6.sin6_port = htons(port);
    *length = sizeof(sockaddr_in6);
    return true;
  }
  return false;
}

}  // namespace

uint16_t Doorbell::open(const std::string& own) {
  close();
  sockaddr_storage address;
  socklen_t length = 0;
  if (!with_port(own, 0, &address, &length)) return 0;
  fd_ = socket(address.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return 0;
  socklen_t bound = sizeof address;
  if (bind(fd_, reinterpret_cast<const sockaddr*>(&address), length) != 0 ||
      getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &bound) != 0) {
    close();
    return 0;
  }
  return ntohs(address.ss_family == AF_INET ? reinterpret_cast<const sockaddr_in&>(address).sin_port
                                            : reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
}

void Doorbell::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  peers_.clear();
}

void Doorbell::add_peer(const std::string& name, uint16_t port) {
  Peer p{};
  if (port == 0 || !with_port(name, port, &p.address, &p.length)) p.length = 0;
  peers_.push_back(p);
}

void Doorbell::ring(int pe) const {
  if (fd_ < 0 || pe < 0 || static_cast<size_t>(pe) >= peers_.size()) return;
  const Peer& p = peers_[static_cast<size_t>(pe)];
  if (p.length == 0) return;
  const char byte = 1;
  // A ring that cannot leave (a full socket buffer) is dropped: the thread looks on its own
  // soon after anyway.
  ssize_t ignored = sendto(fd_, &byte, 1, MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(&p.address), p.length);
  (void)ignored;
}

void Doorbell::drain() const {
  char bytes[64];
  while (fd_ >= 0 && recv(fd_, bytes, sizeof bytes, MSG_DONTWAIT) > 0) {
  }
}

}  // namespace tandem::ofi
