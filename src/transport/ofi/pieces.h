// How the inter-node engine cuts a put or a get into operations: none carries more than the
// provider's largest message, nor, over kernel sockets, more than kSocketPiece bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tandem::ofi {

class Pieces {
 public:
  // Over kernel sockets (tcp, net, sockets) the receiving provider reads each operation's
  // data in one call, and on these machines reads of 1 MiB and more took twice as long a
  // byte as reads of 512 KiB: cut at 512 KiB, between 2 PEs on 2 virtual nodes gets of 1-4
  // MiB took 25-29% less time, fcollect and alltoall 16-26% less, a put and its quiet 9-31%
  // less, and streams of 2-4 MiB puts had 13-47% more bandwidth (of 1 MiB puts 7% less);
  // pieces of 256 KiB gained less or lost (perf/README.md, "Large transfers across nodes").
  static constexpr size_t kSocketPiece = 512 * 1024;

  // `max_msg_size` as fi_info gives it (0: no limit).
  void set(size_t max_msg_size, bool through_sockets) {
    most_ = max_msg_size ? max_msg_size : SIZE_MAX;
    if (through_sockets) most_ = std::min(most_, kSocketPiece);
  }
  // The most bytes one operation carries.
  size_t most() const { return most_; }
  // How many operations carry `bytes`, and the bytes of the last (0 for none).
  size_t count(size_t bytes) const { return bytes / most_ + (bytes % most_ != 0); }
  size_t last(size_t bytes) const { return bytes == 0 ? 0 : (bytes - 1) % most_ + 1; }
  // Each operation's (offset, length) in turn.
  template <typename Piece>
  void for_each(size_t bytes, Piece piece) const {
    for (size_t done = 0; done < bytes; done += most_) piece(done, std::min(bytes - done, most_));
  }

 private:
  size_t most_ = SIZE_MAX;
};

}  // namespace tandem::ofi
