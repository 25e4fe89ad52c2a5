// A PE's doorbell: a UDP socket on its endpoint's address that its progress thread watches
// along with the provider's connections, and that peers ring when an operation they wait for
// has gone unanswered for a while (NetTimeout::kNudgeNs).
//
// Why: while its PE waits in the library, the progress thread keeps off and only looks,
// after pauses of up to 400 us, whether the PE still does (progress.cc); a PE that goes
// from a wait straight to computing leaves its peers' operations unserved until that look,
// and sleeping on the connections meanwhile would wake the thread for every message the PE
// takes itself.  Only the initiator knows that an operation is late, so it says so: one
// datagram per late wait, none while operations complete in time.  Providers that talk
// through sockets only (the endpoint names are IPv4 or IPv6 addresses); a PE whose name is
// not, or whose socket cannot be opened, has no doorbell and is never rung.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/peer_pages.h"
#include "transport/ofi/socket_name.h"

namespace tandem::ofi {

class Doorbell {
 public:
  // Opens this PE's doorbell on the address of the endpoint named `own` (as fi_getname gives
  // it); returns its port, 0 where there is none.
  uint16_t open(const std::string& own);
  void close();
  ~Doorbell() { close(); }
  // Room for the doorbells of `pes` PEs, none known yet.
  void reset(size_t pes);
  // The doorbell of `pe`, whose endpoint is named `name`, is at `port` of its address (no
  // doorbell: port 0, or a name that is no address).  Once per PE, from any thread (one at a
  // time), while others may ring().
  void add_peer(int pe, const std::string& name, uint16_t port);
  // Rings `pe`'s doorbell, if it has one; never blocks.  True where it rang (this PE knows
  // that doorbell), whether or not the ring could leave.
  bool ring(int pe) const;
  // The descriptor to poll for rings, or -1.
  int fd() const { return fd_; }
  // Empties the socket after poll() said it was readable.
  void drain() const;

 private:
  int fd_ = -1;
  // Per PE, its doorbell's address once add_peer() gave one (null: none, or not known yet).
  PeerPages<std::atomic<const SocketName*>> peers_;
};

}  // namespace tandem::ofi
