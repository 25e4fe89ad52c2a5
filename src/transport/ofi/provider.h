// Which libfabric provider the inter-node engine uses, and the rules it must follow there.
// A provider imposes rules through its fi_info (mode, mr_mode, the orders and atomics it
// grants); TANDEM_OFI_REQUIRE imposes some of them on a provider that does not, so that a
// machine without an RDMA NIC runs the code paths such a NIC needs.  tandem_info's table of
// providers comes from survey().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct fi_info;

namespace tandem::ofi {

// How operations to one target stay in order, the first of these the provider grants (see
// Transport's description of each).
enum class Order : uint8_t { All, Rma, None };
const char* order_name(Order order);

// The rules the engine follows.
struct Rules {
  bool context = false;            // FI_CONTEXT/FI_CONTEXT2: a provider context per operation with a completion
  bool mr_local = false;           // FI_MR_LOCAL: a descriptor for every local buffer
  bool mr_raw = false;             // FI_MR_RAW: keys are byte strings that each peer maps
  bool mr_endpoint = false;        // FI_MR_ENDPOINT: registrations are bound to the endpoint
  bool virtual_addresses = false;  // FI_MR_VIRT_ADDR: a target is a virtual address, else an offset
  bool provider_keys = false;      // FI_MR_PROV_KEY: the provider picks the keys
  bool unordered = false;          // the provider's write order is not used: every write delivery-complete
  bool no_atomics = false;         // FI_ATOMIC is not used: every atomic in software
  // "FI_CONTEXT2, FI_MR_LOCAL, ..." (the libfabric names), or "none".
  std::string describe() const;
};

// TANDEM_OFI_REQUIRE: the words context, mr_local, unordered and no_atomics, separated by
// commas (empty: none).  False, with the first word it does not know in `bad`, otherwise.
bool parse_required(const std::string& text, Rules* required, std::string* bad);

// Whether `prov_name` (as fi_info names it) carries atomics as messages that the target's
// progress applies, as ofi_rxm does over any provider: no faster than Tandem's software
// path, and not atomic with a node peer's CPU atomic.
bool emulates_atomics(const std::string& prov_name);

struct Choice {
  fi_info* info = nullptr;  // the caller frees it (fi_freeinfo)
  Order order = Order::None;
  bool atomics = false;     // the provider's atomics serve the types it has every operation on
  Rules rules;              // what the provider imposes, with what was required added
  Rules emulated;           // what was required that the provider does not impose itself
  std::string problem;      // without info: why no provider can serve
};

// The provider `name` (a libfabric provider name such as "tcp;ofi_rxm"), or where it is
// empty the best one that can serve across machines: hardware RDMA providers first, then
// tcp, then other ones, then sockets and udp.  shm serves one machine only and ofi_mrail
// needs a configuration of its own: they are used only when named.
Choice choose(const std::string& name, const Rules& required);

// Whether the provider reaches its peers through kernel TCP sockets that a progress thread
// may sleep on itself (socket_watch.h): tcp, net, sockets.
bool talks_through_sockets(const std::string& name);

// One row per provider that libfabric lists, in the order choose() tries them.
struct ProviderReport {
  std::string name;
  bool usable = false;
  bool automatic = false;  // choose() may take it when no name is given
  bool chosen = false;     // what choose("") takes
  std::string detail;      // the order, atomics and rules in force, or why it cannot serve
};
std::vector<ProviderReport> survey(const Rules& required);

// Tells libfabric the job's size, up to 64 PEs, before it first initialises (FI_UNIVERSE_SIZE,
// unless the environment sets it): rxm sizes its completion queue for (32 + 128) x universe
// completions, about 77 bytes each, whose pages a PE touches one after the other as
// completions go through (at libfabric's default of 1024, 12.5 MB, of which 300,000 puts
// across nodes had touched 7 MB), whatever the PEs it talks to.  The queue holds what
// completes between two reads of it; past its size the provider keeps the rest in a list
// (libfabric's util CQ), so a smaller queue costs only where that many complete at once.
// (The address vector, the universe's other use, is sized by Engine::open.)  No effect once
// libfabric has initialised.
void announce_job_size(int n_pes);

// The file libfabric is loaded from (loading it now if no call has yet): the copy that
// configure found (TANDEM_FABRIC_LIBDIR) where it loads, else the loader's.
const char* library_file();

}  // namespace tandem::ofi
