// The kernel sockets through which a socket-based provider (tcp, net, sockets) reaches the
// peers, for a progress thread to sleep on in poll() until traffic for its PE arrives.
//
// Why not the completion queue's wait object: with libfabric 1.17's tcp, a queue opened
// with one keeps every connection in an epoll set that each turn of progress reads with
// epoll_wait, and a PE that waits in the library pays for it on every message (about 0.8 us
// of a 4.4 us half round trip on 2 cores, man 7 tandem).  poll() on the same sockets costs
// nothing while nobody sleeps in it.  The provider does not hand out its sockets, so they
// are found among the process's descriptors by address: a TCP socket whose local address
// is this endpoint's (the connections it accepted) or whose remote address is a peer's
// endpoint (the connections it made).  The listener is left out: the provider accepts a
// connection only in its periodic connection management (rxm: every 10 ms), and until then
// the listener would wake a sleeper at once, again and again.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace tandem::ofi {

class SocketWatch {
 public:
  // Watches the sockets of the endpoint named `own` (an endpoint name as fi_getname gives
  // it): those it accepted, and those it made to the peers add_peer() names.  A name that is
  // not a sockaddr_in or sockaddr_in6 leaves the watch off.
  void start(const std::string& own);
  // A peer this endpoint may connect to; from any thread, while another rescans.
  void add_peer(const std::string& name);
  void stop();
  bool on() const { return on_.load(std::memory_order_relaxed); }
  // Looks through the process's descriptors again (connections come and go as PEs first
  // reach each other); true if the set changed.
  bool rescan();
  const std::vector<int>& sockets() const { return sockets_; }
  // The connection on `fd` hung up or failed: it is left out from now on (until the provider
  // closes it, poll() would report it at once, again and again).
  void drop(int fd);

 private:
  std::atomic<bool> on_{false};
  std::string own_;                 // SocketName::key() of the own name; without its address if that is a wildcard
  bool own_any_ = false;            // the own name is a wildcard address: only its port counts
  std::mutex peers_mutex_;
  std::vector<std::string> peers_;  // SocketName::key() of each peer's name, sorted
  std::vector<int> sockets_;
  std::vector<unsigned long> dropped_;  // inode numbers of the connections drop() left out
};

}  // namespace tandem::ofi
