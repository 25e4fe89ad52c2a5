// Every environment variable Tandem reads, in one table: name, default, meaning.
// SHMEM_INFO, tandem_info and man 7 tandem all print from this table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tandem {

struct ConfigEntry {
  const char* name;        // e.g. "SHMEM_SYMMETRIC_SIZE"
  const char* alias;       // deprecated spelling read when name is unset (or nullptr)
  const char* fallback;    // default value, as text
  const char* meaning;
};

// The bytes of the symmetric heap that each live team takes (TANDEM_TEAMS): the slot that
// coll/slot.h lays out within them, 50 pages.
constexpr size_t kTeamSlotBytes = 216 * 1024;

// The table, in the order it is documented.
const std::vector<ConfigEntry>& config_table();

// Parses "512", "64K", "2M", "1G" (case-insensitive, optional trailing B) into bytes.
std::optional<size_t> parse_size(std::string_view text);
// Parses 1/0, yes/no, true/false, on/off.
std::optional<bool> parse_bool(std::string_view text);

// The settings in effect, read once at shmem_init.
struct Config {
  size_t symmetric_size = 0;
  enum class SharedMemory { Auto, Memfd, DevShm } shared_memory = SharedMemory::Auto;  // TANDEM_SHARED_MEMORY
  bool debug = false;
  bool info = false;
  bool version = false;
  bool stats = false;  // TANDEM_STATS
  int virtual_nodes = 1;
  enum class Yield { Auto, Always, Never } yield = Yield::Auto;  // TANDEM_YIELD
  size_t spin_before_yield = 0;
  size_t defer_threshold = ~size_t{0};
  bool defer_auto = false;  // TANDEM_DEFER_THRESHOLD=auto
  std::string ofi_provider;    // TANDEM_OFI_PROVIDER; empty: the best one found
  std::string ofi_require;     // TANDEM_OFI_REQUIRE (parsed by the network engine)
  size_t ofi_bounce = 16 << 10;  // TANDEM_OFI_BOUNCE
  std::string netns;           // TANDEM_NETNS; empty: the process's own namespace
  enum class Switch { Auto, On, Off } progress_thread = Switch::Auto;  // TANDEM_PROGRESS_THREAD
  enum class Atomics { Auto, Software, Provider } atomics = Atomics::Auto;  // TANDEM_ATOMICS
  bool notify_messages = false;   // TANDEM_NOTIFY=messages
  Switch proxy_writes = Switch::Auto;  // TANDEM_PROXY_WRITES
  Switch proxy_copies = Switch::Auto;  // TANDEM_PROXY_COPIES
  bool aggregate = true;          // TANDEM_AGGREGATE
  enum class EpochStrategy { Lazy, Eager, Hybrid, Adaptive } epoch_strategy = EpochStrategy::Adaptive;  // TANDEM_EPOCH_STRATEGY
  size_t epoch_queue = 32;        // TANDEM_EPOCH_QUEUE
  size_t teams = 256;             // TANDEM_TEAMS
  size_t windows = 128;           // TANDEM_WINDOWS
  double net_timeout = 30;        // TANDEM_NET_TIMEOUT, seconds; 0: none

  // Reads the environment; a malformed value is reported through `error` (the message to
  // show) and the default is kept.
  static Config from_environment(std::string* error);
};

// The value of a table entry as the environment gives it (name, then alias), or nullptr.
const char* config_lookup(const ConfigEntry& entry);
const ConfigEntry& config_entry(std::string_view name);

// Lines "NAME=value (default: d) meaning" for SHMEM_INFO and tandem_info.
std::string config_report();

// The TANDEM_* variables of `environment` (name=value strings, as environ) that are no
// setting of the table, each with a line saying so and naming the closest setting.  The
// launcher's own (TANDEM_LAUNCHER), the scripts' (TANDEM_PREFIX, TANDEM_CONFIGURE_FLAGS)
// and the test harness's (TANDEM_TEST_*) are not settings and pass unremarked.
std::vector<std::string> config_unknown(const char* const* environment);
// The setting whose name is closest to `name` (fewest letters changed, added or dropped).
const char* config_closest(std::string_view name);

}  // namespace tandem
