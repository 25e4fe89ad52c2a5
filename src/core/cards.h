// What each PE publishes through PMIx at shmem_init for its peers (its cards), written and
// read in one place.  A peer's card is input from outside this process: PMIx carries what
// the peer (or anything that speaks to the launcher) put there.  So every reader checks the
// card's header (a magic word, the card's kind, the format's version), bounds every length
// by what remains and by a limit of its own, and refuses the card whole (nullopt) when
// anything is off: truncated, too long, another kind or version, a field out of range.  The
// caller then ends the PE with a line naming the peer.  Nothing here ends the PE, allocates
// more than a limit allows, or reads past the card (test/fuzz/cards.cc holds it to that).
#pragma once

#include <sched.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tandem {

// The format's version: cards of another version are refused (a job whose PEs run
// different builds of the library).
inline constexpr uint16_t kCardVersion = 2;

// Which node a PE is on, and the CPUs it may run on.
struct NodeCard {
  std::string key;  // the node key (api/setup.cc): host, boot id, virtual node
  cpu_set_t affinity{};
};
std::string write_card(const NodeCard& card);
std::optional<NodeCard> read_node_card(std::string_view card);

// The start of every name of a file in /dev/shm: tandem-<pid>-<what>.
inline constexpr std::string_view kSharedFilePrefix = "tandem-";

// Where a PE's shared memory is (mem/shared_file.h): "memfd:<pid>:<fd>:<inode>" or
// "/tandem-<pid>-<what>".
struct SharedLocator {
  bool memfd = false;
  long pid = 0;
  int fd = -1;         // memfd only
  uint64_t inode = 0;  // memfd only: guards against another process's descriptor
  std::string name;    // file only, "/tandem-<pid>-<what>"
};
std::string memfd_locator(long pid, int fd, uint64_t inode);
std::string file_locator(long pid, std::string_view what);
// nullopt when the text has neither shape (or names anything outside /dev/shm/tandem-*).
std::optional<SharedLocator> parse_shared_locator(std::string_view text);

// The sizes of a PE's symmetric heap and globals, and where node peers find them.
struct SegmentCard {
  uint64_t heap_size = 0;
  uint64_t data_size = 0;
  std::string heap_locator;
  std::string data_locator;  // empty when data_size is 0
};
std::string write_card(const SegmentCard& card);
std::optional<SegmentCard> read_segment_card(std::string_view card);

// A PE's network endpoint: its libfabric address, per region (segments, ...) the base and
// the provider's key, its doorbell's port, and the secret that every message to it carries
// (transport/ofi/admit.cc).
struct EndpointCard {
  struct Region {
    uint64_t base = 0;
    std::string key;  // empty: no such region (an executable without globals)
  };
  std::string address;
  std::vector<Region> regions;
  uint16_t doorbell = 0;
  uint64_t secret = 0;
};
std::string write_card(const EndpointCard& card);
// `regions`: how many regions a card must have.
std::optional<EndpointCard> read_endpoint_card(std::string_view card, size_t regions);

}  // namespace tandem
