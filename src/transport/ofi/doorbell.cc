#include "transport/ofi/doorbell.h"

#include <unistd.h>

namespace tandem::ofi {

uint16_t Doorbell::open(const std::string& own) {
  close();
  // The wildcard address names no host for the peers to ring.
  SocketName address(own);
  if (!address.ok() || address.wildcard()) return 0;
  address.set_port(0);
  fd_ = socket(address.address()->sa_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return 0;
  sockaddr_storage bound;
  socklen_t length = sizeof bound;
  if (bind(fd_, address.address(), address.length()) != 0 ||
      getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &length) != 0) {
    close();
    return 0;
  }
  return SocketName(&bound, length).port();
}

void Doorbell::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  reset(0);
}

void Doorbell::reset(size_t pes) {
  for (size_t pe = 0; pe < peers_.size(); ++pe)
    if (const auto* p = peers_.find(pe)) delete p->load(std::memory_order_relaxed);
  peers_.reset(pes);
}

void Doorbell::add_peer(int pe, const std::string& name, uint16_t port) {
  SocketName address(name);
  if (pe < 0 || static_cast<size_t>(pe) >= peers_.size() || port == 0 || !address.ok() || address.wildcard()) return;
  address.set_port(port);
  peers_.at(static_cast<size_t>(pe)).store(new SocketName(address), std::memory_order_release);
}

bool Doorbell::ring(int pe) const {
  if (fd_ < 0 || pe < 0 || static_cast<size_t>(pe) >= peers_.size()) return false;
  const auto* known = peers_.find(static_cast<size_t>(pe));
  const SocketName* p = known ? known->load(std::memory_order_acquire) : nullptr;
  if (!p) return false;
  const char byte = 1;
  // A ring that cannot leave (a full socket buffer) is dropped: the thread looks on its own
  // soon after anyway.
  ssize_t ignored = sendto(fd_, &byte, 1, MSG_DONTWAIT, p->address(), p->length());
  (void)ignored;
  return true;
}

void Doorbell::drain() const {
  char bytes[64];
  while (fd_ >= 0 && recv(fd_, bytes, sizeof bytes, MSG_DONTWAIT) > 0) {
  }
}

}  // namespace tandem::ofi
