#include <config.h>  // the build's (src/config.h), not this directory's core/config.h
#include "core/config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

namespace tandem {

const std::vector<ConfigEntry>& config_table() {
  static const std::string teams =
      "live teams a PE may belong to at once, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED included (2 to 4096); each takes " +
      std::to_string(kTeamSlotBytes / 1024) +
      " KiB of the symmetric heap (pages of it only once used), beyond SHMEM_SYMMETRIC_SIZE";
  static const std::vector<ConfigEntry> table = {
      {"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", "512M",
       "bytes of symmetric heap per PE (suffixes K, M, G); pages are used only when touched"},
      {"TANDEM_SHARED_MEMORY", nullptr, "auto",
       "what holds the symmetric heap and globals that a node's PEs share: auto (memfd, else files in /dev/shm), memfd (memory of no file system, which a small /dev/shm does not limit; a node's PEs must share a PID namespace and /proc), dev-shm (files in /dev/shm, reserved as shmem_malloc hands them out, so that a full /dev/shm makes it return NULL)"},
      {"SHMEM_DEBUG", "SMA_DEBUG", "0",
       "1 turns on costly argument checks (bounds of heap objects and of globals, collective agreement)"},
      {"SHMEM_INFO", "SMA_INFO", "0", "1 makes PE 0 print every variable and its value at init"},
      {"SHMEM_VERSION", "SMA_VERSION", "0", "1 makes PE 0 print the library version at init"},
      {"TANDEM_VIRTUAL_NODES", nullptr, "1",
       "split the PEs into this many nodes (blocks of consecutive PEs) that share no memory"},
      {"TANDEM_YIELD", nullptr, "auto",
       "waiting PEs yield the CPU: auto (when PEs outnumber cores), always, never"},
      {"TANDEM_DEFER_THRESHOLD", nullptr, "8K",
       "intra-node nbi transfers of at least this many bytes are copied at the next quiet or fence, while the network works (off: copied at once; auto: from a size that follows the measured copy bandwidth, and only while the network is in use)"},
      {"TANDEM_OFI_PROVIDER", nullptr, "",
       "libfabric provider for PEs on other nodes, e.g. tcp;ofi_rxm or sockets (empty: the best found)"},
      {"TANDEM_OFI_REQUIRE", nullptr, "",
       "rules of RDMA NICs to follow on any provider, as if it imposed them, separated by commas: context (a provider context per operation, FI_CONTEXT2), mr_local (a registered buffer or descriptor for every local buffer, FI_MR_LOCAL), unordered (no use of the provider's write order: every write delivery-complete), no_atomics (the provider's FI_ATOMIC unused: atomics in software); context and mr_local are also checked as they are followed (man 7 tandem, PROVIDERS)"},
      {"TANDEM_OFI_BOUNCE", nullptr, "16K",
       "where the provider needs a descriptor for every local buffer (FI_MR_LOCAL): private buffers (not symmetric) of up to this many bytes are copied through registered bounce buffers, larger ones registered for the operation (64 to 256K)"},
      {"TANDEM_NETNS", nullptr, "",
       "a network namespace file (/var/run/netns/NAME) to open the network endpoint in, for testing virtual nodes on one machine (needs CAP_SYS_ADMIN)"},
      {"TANDEM_PROGRESS_THREAD", nullptr, TANDEM_PROGRESS_THREAD_DEFAULT,
       "a thread that progresses the network while the PE computes, when PEs span nodes: auto or on (a thread woken by the traffic for its PE, on a core without a PE when the machine has one, else on its PE's core, where it keeps off while the PE waits in the library), off (no thread: a PE that neither calls the library nor waits in it stalls the peers that reach into its memory)"},
      {"TANDEM_NET_TIMEOUT", nullptr, "30",
       "seconds a wait on the network (quiet, a blocking get or fetching atomic, a retry of a busy network, a wait while this PE's operations to other nodes are outstanding) may see no completion at all before it ends the job with a message naming the PE that does not answer (a stopped process, a link that is down); 0: wait forever.  With TANDEM_PROGRESS_THREAD=off, a PE that computes without calling the library answers nothing meanwhile: keep this above its longest such stretch"},
      {"TANDEM_AGGREGATE", nullptr, "on",
       "on: a run of small nbi puts to consecutive addresses of a PE on another node travels as one message (up to 16 KiB); where the provider talks through sockets, so do small nbi puts to one PE that do not continue one another (lists of up to 2 KiB that the target copies into place)"},
      {"TANDEM_PROXY_WRITES", nullptr, "auto",
       "the progress thread posts the nbi puts of 64 KiB or more to other nodes, so the PE goes on while the data is handed to the network: auto (when the thread has a core of its own), on, off"},
      {"TANDEM_PROXY_COPIES", nullptr, "auto",
       "the progress thread runs the held intra-node copies as soon as they are held, so they overlap computation too: auto (when the thread has a core of its own), on, off"},
      {"TANDEM_NOTIFY", nullptr, "auto",
       "how a notification (shmemx_*_notify) reaches a PE on another node: auto (as the remote CQ data of the data's write, when the provider carries 8 bytes of it; else as a message after the data landed), messages (always as a message)"},
      {"TANDEM_ATOMICS", nullptr, "auto",
       "atomics between nodes: auto (the provider's where they are its own, in software where it lacks an operation for the type or emulates atomics with messages, as ofi_rxm does), software (all in software, applied by the target PE), provider (the provider's on every type it has every operation for)"},
      {"TANDEM_EPOCH_STRATEGY", nullptr, "adaptive",
       "when the operations of a window epoch (shmemx_win_*) are issued: adaptive (puts, gets and large accumulates at once, once their target is open, an access epoch's target once TANDEM_EPOCH_QUEUE operations wait for it; accumulates of up to 16 elements are queued, folded per element and issued as runs by the call that ends the epoch where each would be a network message, or where trials show that they fold), eager (each at once, once its target is open), lazy (all by the call that ends the epoch, the last put to each target carrying the target's update), hybrid (lazy until TANDEM_EPOCH_QUEUE operations wait for one target, then eager for it)"},
      {"TANDEM_EPOCH_QUEUE", nullptr, "32",
       "hybrid epochs, and adaptive access epochs: operations queued for one target before it is opened and served at once"},
      {"TANDEM_TEAMS", nullptr, "256", teams.c_str()},
      {"TANDEM_WINDOWS", nullptr, "128",
       "live windows (shmemx_win_create) a PE may belong to at once (1 to 65536); each takes 16 bytes plus 8 per PE of the symmetric heap, rounded up to 64"},
      {"TANDEM_STATS", nullptr, "0",
       "1 makes every PE print at finalize what the scheduler held back and how much of it overlapped network transfers"},
      {"TANDEM_SPIN", nullptr, "2000",
       "polls of a waited-on variable before a waiting PE starts yielding"},
  };
  return table;
}

std::optional<size_t> parse_size(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i == text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  unsigned long long value = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    unsigned digit = static_cast<unsigned>(text[i] - '0');
    if (value > (std::numeric_limits<unsigned long long>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  unsigned shift = 0;
  if (i < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[i]))) {
      case 'K': shift = 10; ++i; break;
      case 'M': shift = 20; ++i; break;
      case 'G': shift = 30; ++i; break;
      case 'T': shift = 40; ++i; break;
      default: break;
    }
    if (i < text.size() && std::toupper(static_cast<unsigned char>(text[i])) == 'B') ++i;
  }
  if (i != text.size()) return std::nullopt;
  if (shift && value > (std::numeric_limits<size_t>::max() >> shift)) return std::nullopt;
  return static_cast<size_t>(value << shift);
}

std::optional<bool> parse_bool(std::string_view text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "1" || lower == "yes" || lower == "true" || lower == "on" || lower == "y") return true;
  if (lower == "0" || lower == "no" || lower == "false" || lower == "off" || lower == "n") return false;
  return std::nullopt;
}

const char* config_lookup(const ConfigEntry& entry) {
  if (const char* v = std::getenv(entry.name)) return v;
  if (entry.alias) return std::getenv(entry.alias);
  return nullptr;
}

const ConfigEntry& config_entry(std::string_view name) {
  for (const auto& e : config_table())
    if (name == e.name) return e;
  std::abort();  // a programming error: every name used must be in the table
}

namespace {
const char* value_or_default(const char* name) {
  const ConfigEntry& e = config_entry(name);
  const char* v = config_lookup(e);
  return v ? v : e.fallback;
}

void complain(std::string* error, const char* name, const char* value, const char* expected) {
  if (!error->empty()) *error += "\n";
  *error += std::string(name) + "=\"" + value + "\" is not " + expected;
}

// Setting `name` as a number (size suffixes allowed) from `low` to `high`; after a
// complaint that it is not `expected`, nothing.
std::optional<size_t> number(std::string* error, const char* name, size_t low, size_t high, const char* expected) {
  const char* v = value_or_default(name);
  if (auto n = parse_size(v); n && *n >= low && *n <= high) return n;
  complain(error, name, v, expected);
  return std::nullopt;
}

// Setting `name` as one of the words of `choices`, each with its value; after a complaint
// that it is not `expected`, nothing.
template <typename T>
std::optional<T> choice(std::string* error, const char* name, std::initializer_list<std::pair<std::string_view, T>> choices,
                        const char* expected) {
  const char* v = value_or_default(name);
  for (const auto& [word, value] : choices)
    if (word == v) return value;
  complain(error, name, v, expected);
  return std::nullopt;
}
}  // namespace

Config Config::from_environment(std::string* error) {
  Config c;
  constexpr size_t kAny = std::numeric_limits<size_t>::max();
  if (auto n = number(error, "SHMEM_SYMMETRIC_SIZE", 1, kAny, "a positive size such as 256M or 2G")) c.symmetric_size = *n;
  else c.symmetric_size = *parse_size(config_entry("SHMEM_SYMMETRIC_SIZE").fallback);
  const char* v;
  for (auto [name, field] : {std::pair{"SHMEM_DEBUG", &c.debug}, std::pair{"SHMEM_INFO", &c.info},
                             std::pair{"SHMEM_VERSION", &c.version}, std::pair{"TANDEM_STATS", &c.stats},
                             std::pair{"TANDEM_AGGREGATE", &c.aggregate}}) {
    v = value_or_default(name);
    if (auto b = parse_bool(v)) *field = *b;
    else complain(error, name, v, "0 or 1");
  }
  using Backing = Config::SharedMemory;
  if (auto b = choice<Backing>(error, "TANDEM_SHARED_MEMORY",
                               {{"auto", Backing::Auto}, {"memfd", Backing::Memfd}, {"dev-shm", Backing::DevShm}},
                               "auto, memfd or dev-shm"))
    c.shared_memory = *b;
  if (auto n = number(error, "TANDEM_VIRTUAL_NODES", 1, 1u << 20, "a positive number of nodes")) c.virtual_nodes = static_cast<int>(*n);
  if (auto y = choice<Yield>(error, "TANDEM_YIELD", {{"auto", Yield::Auto}, {"always", Yield::Always}, {"never", Yield::Never}},
                             "auto, always or never"))
    c.yield = *y;
  v = value_or_default("TANDEM_DEFER_THRESHOLD");
  if (std::string_view(v) == "off") c.defer_threshold = ~size_t{0};
  else if (std::string_view(v) == "auto") c.defer_auto = true;
  else if (auto n = parse_size(v)) c.defer_threshold = *n;
  else complain(error, "TANDEM_DEFER_THRESHOLD", v, "a size such as 8K, off or auto");
  c.ofi_provider = value_or_default("TANDEM_OFI_PROVIDER");
  c.ofi_require = value_or_default("TANDEM_OFI_REQUIRE");
  if (auto n = number(error, "TANDEM_OFI_BOUNCE", 64, size_t{256} << 10, "a size from 64 to 256K")) c.ofi_bounce = *n;
  c.netns = value_or_default("TANDEM_NETNS");
  for (auto [name, field] : {std::pair{"TANDEM_PROGRESS_THREAD", &c.progress_thread},
                             std::pair{"TANDEM_PROXY_WRITES", &c.proxy_writes},
                             std::pair{"TANDEM_PROXY_COPIES", &c.proxy_copies}}) {
    if (auto w = choice<Switch>(error, name, {{"auto", Switch::Auto}, {"on", Switch::On}, {"off", Switch::Off}}, "auto, on or off"))
      *field = *w;
  }
  if (auto m = choice<bool>(error, "TANDEM_NOTIFY", {{"auto", false}, {"messages", true}}, "auto or messages"))
    c.notify_messages = *m;
  using Atomics = Config::Atomics;
  if (auto a = choice<Atomics>(error, "TANDEM_ATOMICS",
                               {{"auto", Atomics::Auto}, {"software", Atomics::Software}, {"provider", Atomics::Provider}},
                               "auto, software or provider"))
    c.atomics = *a;
  using Strategy = Config::EpochStrategy;
  if (auto e = choice<Strategy>(error, "TANDEM_EPOCH_STRATEGY",
                                {{"adaptive", Strategy::Adaptive}, {"lazy", Strategy::Lazy}, {"eager", Strategy::Eager},
                                 {"hybrid", Strategy::Hybrid}},
                                "adaptive, lazy, eager or hybrid"))
    c.epoch_strategy = *e;
  if (auto n = number(error, "TANDEM_EPOCH_QUEUE", 1, kAny, "a positive number of operations")) c.epoch_queue = *n;
  if (auto n = number(error, "TANDEM_TEAMS", 2, 4096, "a number of teams from 2 to 4096")) c.teams = *n;
  if (auto n = number(error, "TANDEM_WINDOWS", 1, 65536, "a number of windows from 1 to 65536")) c.windows = *n;
  v = value_or_default("TANDEM_NET_TIMEOUT");
  {
    char* end = nullptr;
    const double seconds = std::strtod(v, &end);
    if (end != v && *end == '\0' && seconds >= 0 && seconds <= 1e6) c.net_timeout = seconds;
    else complain(error, "TANDEM_NET_TIMEOUT", v, "a number of seconds (0: no timeout)");
  }
  if (auto n = number(error, "TANDEM_SPIN", 0, kAny, "a number of polls")) c.spin_before_yield = *n;
  return c;
}

const char* config_closest(std::string_view name) {
  const char* best = nullptr;
  size_t best_distance = ~size_t{0};
  // A name cut short (TANDEM_DEFER) means the setting it begins, however far the rest is.
  if (name.size() > 7)
    for (const auto& e : config_table())
      if (std::string_view(e.name).starts_with(name)) return e.name;
  for (const auto& e : config_table()) {
    // Edit distance, one row at a time.
    const std::string_view other = e.name;
    std::vector<size_t> row(other.size() + 1);
    for (size_t j = 0; j <= other.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= name.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= other.size(); ++j) {
        const size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (name[i - 1] != other[j - 1])});
        diagonal = above;
      }
    }
    if (row[other.size()] < best_distance) {
      best_distance = row[other.size()];
      best = e.name;
    }
  }
  return best;
}

std::vector<std::string> config_unknown(const char* const* environment) {
  std::vector<std::string> lines;
  for (const char* const* v = environment; v && *v; ++v) {
    const std::string_view entry = *v;
    const std::string_view name = entry.substr(0, entry.find('='));
    if (name.substr(0, 7) != "TANDEM_" || name.substr(0, 12) == "TANDEM_TEST_" || name == "TANDEM_LAUNCHER" ||
        name == "TANDEM_PREFIX" || name == "TANDEM_CONFIGURE_FLAGS")
      continue;
    bool known = false;
    for (const auto& e : config_table()) known = known || name == e.name;
    if (!known)
      lines.push_back(std::string(name) + " is not a Tandem setting and is ignored; the closest one is " +
                      config_closest(name) + " (tandem_info lists them)");
  }
  return lines;
}

std::string config_report() {
  std::ostringstream out;
  for (const auto& e : config_table()) {
    const char* v = config_lookup(e);
    out << "  " << e.name << "=" << (v ? v : e.fallback) << (v ? "" : " (default)") << "\n      "
        << e.meaning << "\n";
  }
  return out.str();
}

}  // namespace tandem
