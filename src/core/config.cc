#include "core/config.h"

#include <cctype>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace tandem {

const std::vector<ConfigEntry>& config_table() {
  static const std::vector<ConfigEntry> table = {
      {"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", "512M",
       "bytes of symmetric heap per PE (suffixes K, M, G); pages are used only when touched"},
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
      {"TANDEM_NETNS", nullptr, "",
       "a network namespace file (/var/run/netns/NAME) to open the network endpoint in, for testing virtual nodes on one machine (needs CAP_SYS_ADMIN)"},
      {"TANDEM_PROGRESS_THREAD", nullptr, "auto",
       "a thread that progresses the network while the PE computes, when PEs span nodes: auto (on a core without a PE when the machine has one; otherwise a watchdog that sleeps 1 ms at a time and drives progress only when its PE drove none since its last look, so a PE that computes or spins on memory without calling the library stalls its peers for about a millisecond, and one that calls the library pays nothing), on (a thread woken by incoming traffic, pinned to a spare core when there is one: faster answers from a computing PE, costlier for one that waits in the library on a full core), off (no thread: a PE that neither calls the library nor waits in it stalls the peers that reach into its memory)"},
      {"TANDEM_NET_TIMEOUT", nullptr, "30",
       "seconds a wait on the network (quiet, a blocking get or fetching atomic, a retry of a busy network, a wait while this PE's operations to other nodes are outstanding) may see no completion at all before it ends the job with a message naming the PE that does not answer (a stopped process, a link that is down); 0: wait forever.  With TANDEM_PROGRESS_THREAD=off, a PE that computes without calling the library answers nothing meanwhile: keep this above its longest such stretch"},
      {"TANDEM_AGGREGATE", nullptr, "on",
       "on: a run of small nbi puts to consecutive addresses of a PE on another node travels as one message (up to 16 KiB)"},
      {"TANDEM_PROXY_WRITES", nullptr, "auto",
       "the progress thread posts the nbi puts of 64 KiB or more to other nodes, so the PE goes on while the data is handed to the network: auto (when the thread has a core of its own), on, off"},
      {"TANDEM_PROXY_COPIES", nullptr, "auto",
       "the progress thread runs the held intra-node copies as soon as they are held, so they overlap computation too: auto (when the thread has a core of its own), on, off"},
      {"TANDEM_NOTIFY", nullptr, "auto",
       "how a notification (shmemx_*_notify) reaches a PE on another node: auto (as the remote CQ data of the data's write, when the provider carries 8 bytes of it; else as a message after the data landed), messages (always as a message)"},
      {"TANDEM_ATOMICS", nullptr, "auto",
       "atomics between nodes: auto (the provider's, in software on types it lacks an operation for), software (all in software, applied by the target PE)"},
      {"TANDEM_EPOCH_STRATEGY", nullptr, "adaptive",
       "when the operations of a window epoch (shmemx_win_*) are issued: adaptive (puts, gets and large accumulates at once, once their target is open, an access epoch's target once TANDEM_EPOCH_QUEUE operations wait for it; accumulates of up to 16 elements are queued, folded per element and issued as runs by the call that ends the epoch where each would be a network message, or where trials show that they fold), eager (each at once, once its target is open), lazy (all by the call that ends the epoch, the last put to each target carrying the target's update), hybrid (lazy until TANDEM_EPOCH_QUEUE operations wait for one target, then eager for it)"},
      {"TANDEM_EPOCH_QUEUE", nullptr, "32",
       "hybrid epochs, and adaptive access epochs: operations queued for one target before it is opened and served at once"},
      {"TANDEM_TEAMS", nullptr, "256",
       "live teams a PE may belong to at once, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED included (2 to 4096); each takes 36352 bytes of the symmetric heap (pages of it only once used), beyond SHMEM_SYMMETRIC_SIZE"},
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
}  // namespace

Config Config::from_environment(std::string* error) {
  Config c;
  const char* v = value_or_default("SHMEM_SYMMETRIC_SIZE");
  if (auto s = parse_size(v); s && *s > 0) {
    c.symmetric_size = *s;
  } else {
    complain(error, "SHMEM_SYMMETRIC_SIZE", v, "a positive size such as 256M or 2G");
    c.symmetric_size = *parse_size(config_entry("SHMEM_SYMMETRIC_SIZE").fallback);
  }
  for (auto [name, field] : {std::pair{"SHMEM_DEBUG", &c.debug}, std::pair{"SHMEM_INFO", &c.info},
                             std::pair{"SHMEM_VERSION", &c.version}, std::pair{"TANDEM_STATS", &c.stats},
                             std::pair{"TANDEM_AGGREGATE", &c.aggregate}}) {
    v = value_or_default(name);
    if (auto b = parse_bool(v)) *field = *b;
    else complain(error, name, v, "0 or 1");
  }
  v = value_or_default("TANDEM_VIRTUAL_NODES");
  if (auto n = parse_size(v); n && *n >= 1 && *n <= 1u << 20) c.virtual_nodes = static_cast<int>(*n);
  else complain(error, "TANDEM_VIRTUAL_NODES", v, "a positive number of nodes");
  v = value_or_default("TANDEM_YIELD");
  if (std::string_view(v) == "always") c.yield = Yield::Always;
  else if (std::string_view(v) == "never") c.yield = Yield::Never;
  else if (std::string_view(v) != "auto")
    complain(error, "TANDEM_YIELD", v, "auto, always or never");
  v = value_or_default("TANDEM_DEFER_THRESHOLD");
  if (std::string_view(v) == "off") c.defer_threshold = ~size_t{0};
  else if (std::string_view(v) == "auto") c.defer_auto = true;
  else if (auto n = parse_size(v)) c.defer_threshold = *n;
  else complain(error, "TANDEM_DEFER_THRESHOLD", v, "a size such as 8K, off or auto");
  c.ofi_provider = value_or_default("TANDEM_OFI_PROVIDER");
  c.netns = value_or_default("TANDEM_NETNS");
  for (auto [name, field] : {std::pair{"TANDEM_PROGRESS_THREAD", &c.progress_thread},
                             std::pair{"TANDEM_PROXY_WRITES", &c.proxy_writes},
                             std::pair{"TANDEM_PROXY_COPIES", &c.proxy_copies}}) {
    v = value_or_default(name);
    if (std::string_view(v) == "on") *field = Switch::On;
    else if (std::string_view(v) == "off") *field = Switch::Off;
    else if (std::string_view(v) == "auto") *field = Switch::Auto;
    else complain(error, name, v, "auto, on or off");
  }
  v = value_or_default("TANDEM_NOTIFY");
  if (std::string_view(v) == "messages") c.notify_messages = true;
  else if (std::string_view(v) != "auto") complain(error, "TANDEM_NOTIFY", v, "auto or messages");
  v = value_or_default("TANDEM_ATOMICS");
  if (std::string_view(v) == "software") c.software_atomics = true;
  else if (std::string_view(v) != "auto") complain(error, "TANDEM_ATOMICS", v, "auto or software");
  v = value_or_default("TANDEM_EPOCH_STRATEGY");
  if (std::string_view(v) == "lazy") c.epoch_strategy = Config::EpochStrategy::Lazy;
  else if (std::string_view(v) == "eager") c.epoch_strategy = Config::EpochStrategy::Eager;
  else if (std::string_view(v) == "hybrid") c.epoch_strategy = Config::EpochStrategy::Hybrid;
  else if (std::string_view(v) == "adaptive") c.epoch_strategy = Config::EpochStrategy::Adaptive;
  else complain(error, "TANDEM_EPOCH_STRATEGY", v, "adaptive, lazy, eager or hybrid");
  v = value_or_default("TANDEM_EPOCH_QUEUE");
  if (auto n = parse_size(v); n && *n > 0) c.epoch_queue = *n;
  else complain(error, "TANDEM_EPOCH_QUEUE", v, "a positive number of operations");
  v = value_or_default("TANDEM_TEAMS");
  if (auto n = parse_size(v); n && *n >= 2 && *n <= 4096) c.teams = *n;
  else complain(error, "TANDEM_TEAMS", v, "a number of teams from 2 to 4096");
  v = value_or_default("TANDEM_WINDOWS");
  if (auto n = parse_size(v); n && *n >= 1 && *n <= 65536) c.windows = *n;
  else complain(error, "TANDEM_WINDOWS", v, "a number of windows from 1 to 65536");
  v = value_or_default("TANDEM_NET_TIMEOUT");
  {
    char* end = nullptr;
    const double seconds = std::strtod(v, &end);
    if (end != v && *end == '\0' && seconds >= 0 && seconds <= 1e6) c.net_timeout = seconds;
    else complain(error, "TANDEM_NET_TIMEOUT", v, "a number of seconds (0: no timeout)");
  }
  v = value_or_default("TANDEM_SPIN");
  if (auto n = parse_size(v)) c.spin_before_yield = *n;
  else complain(error, "TANDEM_SPIN", v, "a number of polls");
  return c;
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
