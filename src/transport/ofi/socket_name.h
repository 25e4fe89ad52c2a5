// An endpoint name as fi_getname gives it, read as an IPv4 or IPv6 socket address: what the
// socket watch (socket_watch.cc) and the doorbell (doorbell.cc) both need of the names of
// providers that talk through sockets (tcp, net, sockets).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace tandem::ofi {

class SocketName {
 public:
  SocketName() = default;  // no address
  // `name`, `length` bytes; no address (ok() false) unless it is a sockaddr_in or
  // sockaddr_in6.
  SocketName(const void* name, size_t length) {
    if (length < sizeof(sa_family_t) || length > sizeof address_) return;
    memcpy(&address_, name, length);
    if (address_.ss_family == AF_INET && length >= sizeof(sockaddr_in)) length_ = sizeof(sockaddr_in);
    else if (address_.ss_family == AF_INET6 && length >= sizeof(sockaddr_in6)) length_ = sizeof(sockaddr_in6);
  }
  explicit SocketName(const std::string& name) : SocketName(name.data(), name.size()) {}

  bool ok() const { return length_ != 0; }
  // The address that names no host (INADDR_ANY, in6addr_any).
  bool wildcard() const {
    return ipv4() ? v4().sin_addr.s_addr == htonl(INADDR_ANY) : IN6_IS_ADDR_UNSPECIFIED(&v6().sin6_addr);
  }
  uint16_t port() const { return ntohs(ipv4() ? v4().sin_port : v6().sin6_port); }
  void set_port(uint16_t port) { (ipv4() ? v4().sin_port : v6().sin6_port) = htons(port); }
  // A comparable string: family and port, then (`with_address`) the address bytes; empty
  // without an address.
  std::string key(bool with_address) const {
    if (!ok()) return {};
    std::string k(1, static_cast<char>(address_.ss_family));
    auto append = [&k](const auto& field) { k.append(reinterpret_cast<const char*>(&field), sizeof field); };
    if (ipv4()) {
      append(v4().sin_port);
      if (with_address) append(v4().sin_addr);
    } else {
      append(v6().sin6_port);
      if (with_address) append(v6().sin6_addr);
    }
    return k;
  }
  const sockaddr* address() const { return reinterpret_cast<const sockaddr*>(&address_); }
  socklen_t length() const { return length_; }

 private:
  bool ipv4() const { return address_.ss_family == AF_INET; }
  sockaddr_in& v4() { return reinterpret_cast<sockaddr_in&>(address_); }
  const sockaddr_in& v4() const { return reinterpret_cast<const sockaddr_in&>(address_); }
  sockaddr_in6& v6() { return reinterpret_cast<sockaddr_in6&>(address_); }
  const sockaddr_in6& v6() const { return reinterpret_cast<const sockaddr_in6&>(address_); }

  sockaddr_storage address_{};
  socklen_t length_ = 0;
};

}  // namespace tandem::ofi
