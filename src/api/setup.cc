// Setup, exit and query routines.
#include "config.h"

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "api/api.h"
#include "boot/pmix_boot.h"
#include "coll/nbc.h"
#include "coll/team.h"
#include "core/cards.h"
#include "mem/shared_file.h"
#include "mem/symmetric.h"
#include "mem/target.h"
#include "nbi/progress_thread.h"
#include "nbi/scheduler.h"
#include "epoch/window.h"
#include "notify/notify.h"
#include "transport/ofi/transport.h"

namespace tandem {

void runtime_finalize(const char* call);
// TANDEM_STATS=1's lines at finalize (stats.cc); `network`: null without one.
void report_stats(const ofi::Transport* network, const ProgressThread& thread);

namespace {

// A PE's files in /dev/shm stay linked only through its shmem_init; one of a dead process
// older than this is a leftover (remove_stale_shared_files).
constexpr std::chrono::minutes kStaleSharedFileAge{10};

// The job's bootstrap.  Never destroyed: exit paths may still abort the job through it.
PmixBoot& boot() {
  static PmixBoot* pmix = new PmixBoot;
  return *pmix;
}

ofi::Transport& network_transport() {
  static ofi::Transport transport;
  return transport;
}

ProgressThread& progress_thread() {
  static ProgressThread thread;
  return thread;
}

// For SHMEM_INFO: which types' atomics are the provider's and which are served in software.
std::string atomic_paths(const ofi::Transport& network) {
  std::string native, software;
  for (int t = 0; t < static_cast<int>(ofi::AtomicType::Count); ++t) {
    const auto type = static_cast<ofi::AtomicType>(t);
    std::string& list = network.native(type) ? native : software;
    list += (list.empty() ? "" : ",") + std::string(ofi::atomic_type_name(type));
  }
  if (software.empty()) return "the provider's on every type, for every PE";
  if (native.empty()) return "software on every type (targets apply them; node peers use CPU atomics)";
  return "the provider's on " + native + ", software on " + software;
}

// The PE on another node that this PE reads from once in shmem_init (Transport::warm_up):
// the one with its index on the next node, so that where every node holds as many PEs,
// each PE also answers one.
int warm_up_partner(const Runtime& r) {
  const int next = (r.node + 1) % r.nodes;
  std::vector<int> there;
  for (int pe = 0; pe < r.n_pes; ++pe)
    if (r.node_of[static_cast<size_t>(pe)] == next) there.push_back(pe);
  return there[static_cast<size_t>(r.local_index) % there.size()];
}

// A string that is the same for PEs that share memory: the node as the launcher names it
// to PMIx (the machine's host name where it names none), the machine's boot, and the
// virtual node.  The launcher's name, not the process's own: a host in a container or
// namespace of its own may share the machine's name, or a node its name with another.
std::string node_key(const std::string& launcher_host, int pe, int n_pes, int virtual_nodes) {
  std::string key = launcher_host;
  if (key.empty()) {
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    key = host;
  }
  if (FILE* f = fopen("/proc/sys/kernel/random/boot_id", "r")) {
    char boot[64] = {0};
    if (fgets(boot, sizeof boot, f)) key += std::string("/") + boot;
    fclose(f);
  }
  if (virtual_nodes > n_pes) virtual_nodes = n_pes;
  const int per_node = (n_pes + virtual_nodes - 1) / virtual_nodes;
  return key + "/" + std::to_string(pe / per_node);
}

// The CPUs this process may run on, as bytes to publish with the node key.
cpu_set_t affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    for (unsigned c = 0; c < std::thread::hardware_concurrency() && c < CPU_SETSIZE; ++c) CPU_SET(c, &set);
  return set;
}

// Maps the pages of the library's code into this process (MADV_POPULATE_READ, Linux 5.14;
// elsewhere nothing), at the end of shmem_init, where the PEs wait for the slowest.
// Otherwise the first put, get or atomic of a PE faults in the code pages of its path, a few
// microseconds each on a virtual machine.  perf/get_latency's get_first_us on one node (2
// PEs), 8 alternating runs: 4.8-9.9 us (median 6.2) against 9.9-14.1 (median 11.1), where
// three code pages and the peer's data page faulted; a job's start as fast as before (2 PEs
// 42-49 ms against 41-58, 8 PEs on 2 cores 62-90 against 63-91).  The code's pages (1.6 MB)
// are the page cache's, shared by every PE: perf/scale on 4 PEs of one node, VmRSS 8.8 MB a
// PE against 7.8, Pss 2.16 against 1.93, private memory unchanged (1.09).
void map_library_code() {
#ifdef MADV_POPULATE_READ
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void*) -> int {
        // The code segment that holds this function.
        const auto here = reinterpret_cast<uintptr_t>(&map_library_code);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& s = info->dlpi_phdr[i];
          const uintptr_t start = info->dlpi_addr + s.p_vaddr, end = start + s.p_memsz;
          if (s.p_type != PT_LOAD || !(s.p_flags & PF_X) || here < start || here >= end) continue;
          const uintptr_t first = start & ~(static_cast<uintptr_t>(sysconf(_SC_PAGESIZE)) - 1);
          (void)madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_READ);  // a hint: may fail
          return 1;
        }
        return 0;
      },
      nullptr);
#endif
}

void finalize_at_exit() {
  if (rt().initialized) runtime_finalize("shmem_finalize (at exit)");
}

}  // namespace

// Brings the runtime up; later calls only count (1.6 reference counting).
void runtime_init(const char* call, int requested_threads) {
  Runtime& r = rt();
  if (r.init_count > 0) {
    ++r.init_count;
    if (requested_threads > r.thread_level) r.thread_level = requested_threads;
    return;
  }
  if (r.finalized) fatal(call, "the library cannot be initialised again after shmem_finalize");
  std::string problems;
  r.config = Config::from_environment(&problems);
  ofi::Rules required;
  std::string bad;
  if (!ofi::parse_required(r.config.ofi_require, &required, &bad))
    problems += std::string(problems.empty() ? "" : "\n") + "TANDEM_OFI_REQUIRE=\"" + r.config.ofi_require + "\" names \"" +
                bad + "\", not one of context, mr_local, unordered, no_atomics";
  if (!problems.empty()) fatal(call, "bad environment: %s", problems.c_str());
  r.thread_level = requested_threads;
  restore_crash_signals();

  // Before PMIx starts its threads.  The PEs are not counted yet: the windows' per-PE
  // counters come out of the heap's fixed reserve, and beyond it out of the program's part.
  symmetric_prepare(call, team_area_bytes(r.config.teams) + epoch::window_area_bytes(r.config.windows, 0));
  teams_allocate(call);
  boot().init(call);
  r.my_pe = boot().rank();
  r.n_pes = boot().size();
  if (r.my_pe == 0)
    for (const std::string& line : config_unknown(environ)) warn(call, "%s", line.c_str());

  // Each PE publishes its node key and its CPU affinity in one blob; every PE's is read, one
  // at a time, keeping only what is per node.  Cores are shared by every PE of the machine,
  // whatever virtual node it belongs to (the key up to its last '/' names the machine).  The
  // PEs outnumber the cores when they outnumber the CPUs that any of them may use: each PE's
  // own mask would be one CPU under a launcher that binds PEs to cores.
  const NodeCard mine{node_key(boot().host(), r.my_pe, r.n_pes, r.config.virtual_nodes), affinity()};
  boot().publish(call, "tandem.node", write_card(mine));
  boot().exchange(call);
  auto machine = [](const std::string& key) { return std::string_view(key).substr(0, key.rfind('/')); };
  const std::string_view my_machine = machine(mine.key);
  std::unordered_map<std::string, int> node_index;
  cpu_set_t usable;
  CPU_ZERO(&usable);
  r.node_of.assign(static_cast<size_t>(r.n_pes), 0);
  r.machine_pes = 0;
  for (int pe = 0; pe < r.n_pes; ++pe) {
    auto card = read_node_card(boot().get(call, "tandem.node", pe));
    if (!card) fatal(call, "PE %d sent a malformed node description (another build of Tandem?)", pe);
    if (machine(card->key) == my_machine) {
      if (pe == r.my_pe) r.my_machine_index = r.machine_pes;
      ++r.machine_pes;
      CPU_OR(&usable, &usable, &card->affinity);
    }
    const int index = static_cast<int>(node_index.size());
    r.node_of[static_cast<size_t>(pe)] = node_index.try_emplace(std::move(card->key), index).first->second;
  }
  r.node = r.node_of[static_cast<size_t>(r.my_pe)];
  r.local_pes.clear();
  for (int pe = 0; pe < r.n_pes; ++pe) {
    if (pe == r.my_pe) r.local_index = static_cast<int>(r.local_pes.size());
    if (r.node_of[static_cast<size_t>(pe)] == r.node) r.local_pes.push_back(pe);
  }
  r.nodes = static_cast<int>(node_index.size());
  r.spans_nodes = r.nodes > 1;
  r.oversubscribed = r.machine_pes > CPU_COUNT(&usable);

  // Node peers' segment cards, and below the network's endpoint cards, are read where they
  // are needed: a PE's private memory keeps nothing of a peer it never addresses (man 7
  // tandem, SCALING).
  boot().publish(call, "tandem.segments", symmetric_card());
  boot().exchange(call);
  symmetric_map_peers(call, [](const char* at, int pe) { return boot().get(at, "tandem.segments", pe); });
  boot().fence(call);  // every peer has mapped our files
  symmetric_peers_mapped();
  // A node's first PE removes what jobs killed whole during their start left in /dev/shm.
  if (r.my_machine_index == 0) remove_stale_shared_files(kStaleSharedFileAge);

  ofi::Transport* network = nullptr;
  if (r.spans_nodes) {
    network = &network_transport();
    const int cores = core_count();
    const int spare = spare_core_for(r.my_machine_index, r.machine_pes, cores);
    // Unless off: a thread woken by the traffic for this PE, on a core without a PE when the
    // machine has one (every provider runs with manual progress here, so a PE that computes
    // or spins on memory without calling the library would stall the peers that reach into
    // it).
    const bool proxy = r.config.progress_thread != Config::Switch::Off;
    char* const bases[ofi::Transport::kSegments] = {r.heap.base, r.data.base};
    const size_t sizes[ofi::Transport::kSegments] = {r.heap.size, r.data.size};
    ofi::Transport::Settings settings;
    settings.provider = r.config.ofi_provider;
    settings.required = required;
    settings.bounce_bytes = r.config.ofi_bounce;
    settings.waitable = proxy;
    settings.netns = r.config.netns;
    settings.atomics = r.config.atomics;
    settings.coalesce = r.config.aggregate;
    settings.notify_messages = r.config.notify_messages;
    settings.n_pes = r.n_pes;
    network->open(call, settings, bases, sizes);
    network->set_timeout(r.config.net_timeout);
    network->on_notification([](uint64_t data) {
      if (!stamp_landed(data)) notify::deliver(notify::source_of(data), notify::tag_of(data));
    });
    boot().publish(call, "tandem.endpoint", network->card());
    boot().exchange(call);
    network->connect(call, r.n_pes, r.my_pe,
                     [](const char* at, int pe) { return boot().get(at, "tandem.endpoint", pe); });
    // The progress thread's duties (TANDEM_PROXY_*: auto gives them to a thread with a core
    // of its own), set before it starts.
    const bool own_core = proxy && spare >= 0;
    auto duty = [&](Config::Switch s) { return proxy && (s == Config::Switch::On || (s == Config::Switch::Auto && own_core)); };
    scheduler().set_progress_thread(own_core, duty(r.config.proxy_writes), duty(r.config.proxy_copies));
    r.progress_thread = proxy;  // before it starts: notify.cc locks its state from then on
    if (proxy) {
      r.present = [] { network_transport().note_present(); };
      r.nudge = [](int pe) { network_transport().nudge(pe); };
      r.ring_node = [](int pe) { rt().each_node_peer(pe, [](int p) { network_transport().nudge(p); }); };
      progress_thread().start(network, spare);
    }
  }
  // What every wait does each turn: drain this PE's notification lanes (a node peer may be
  // held back by a full one; nothing to drain before notify::init), and drive the network
  // when PEs span nodes.
  r.progress = r.spans_nodes ? [](const char* call, AwaitedPe* awaited) {
    notify::poll();
    network_transport().poll(call, awaited);
  } : [](const char*, AwaitedPe*) { notify::poll(); };
  r.look = r.spans_nodes ? [] {
    notify::poll();
    network_transport().look();
  } : notify::poll;
  // PEs on several nodes: atomics on the provider's types go through the network, also to
  // node peers; the scheduler keeps CPU atomics for the others.
  scheduler().configure(r.config.defer_auto ? Scheduler::kAutoThreshold : r.config.defer_threshold, network,
                        r.config.stats);
  scheduler().set_notifications({notify::publish, [](int tag) { return notify::pack(rt().my_pe, tag); }});
  r.initialized = true;
  r.init_count = 1;
  teams_init(call);
  epoch::windows_init(call);
  r.agreement = static_cast<uint64_t*>(heap_allocate(call, 4 * sizeof(uint64_t), 64));
  // Every PE takes its bell, in every job, so that the symmetric addresses after it agree.
  r.bell = static_cast<uint32_t*>(heap_allocate(call, sizeof(uint32_t), 64));
  // On a node that holds every PE, a PE that posts a nonblocking collective and computes
  // would hold its node peers until it is back in the library: its peers' waits ring its
  // bell, and its progress thread, started at its first post, then does its part.
  if (!r.spans_nodes && r.bell && r.config.progress_thread != Config::Switch::Off) {
    r.ring_node = ring_node_peer;
    r.posted = [] {
      static std::atomic<bool> started{false};
      if (!started.load(std::memory_order_relaxed) && !started.exchange(true)) progress_thread().start_node(rt().bell);
    };
  }
  notify::init(call);
  static bool registered = false;
  if (!registered) {
    atexit(finalize_at_exit);
    registered = true;
  }
  // Every PE is past the steps that wait without driving the network, so a partner that
  // is still warming up its own paths, or already in the sync, answers.
  if (network) network->warm_up(call, warm_up_partner(r));
  map_library_code();  // before the sync, where the PEs wait for the slowest
  team_sync(call, team_world);

  if (r.my_pe == 0 && (r.config.version || r.config.info))
    printf("Tandem %s, OpenSHMEM %d.%d\n", PACKAGE_VERSION, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
  if (r.my_pe == 0 && r.config.info) {
    printf("Environment:\n%s  %d PEs on %d node(s), %zu on this node, %d on this machine%s\n",
           config_report().c_str(), r.n_pes,
           r.nodes,
           r.local_pes.size(), r.machine_pes,
           r.oversubscribed ? " (more than its cores: waits yield)" : "");
    if (network) {
      printf("  network: libfabric provider %s (%s); rules in force: %s%s%s%s\n", network->provider().c_str(),
             network->order() == ofi::Transport::Order::All   ? "ordered writes, quiet confirms them"
             : network->order() == ofi::Transport::Order::Rma ? "ordered writes, quiet confirms them, delivery-complete atomics"
                                                              : "delivery-complete writes",
             network->rules().describe().c_str(),
             network->emulated().describe() == "none" ? "" : " (TANDEM_OFI_REQUIRE, checked: ",
             network->emulated().describe() == "none" ? "" : network->emulated().describe().c_str(),
             network->emulated().describe() == "none" ? "" : ")");
    }
    if (network)
      printf("  network: atomics: %s; progress thread %s\n",
             atomic_paths(*network).c_str(),
             !progress_thread().running() ? "off"
             : progress_thread().own_core()
                 ? ("on core " + std::to_string(progress_thread().core()) +
                    (scheduler().proxy_writes() ? ", posts large writes" : "") +
                    (scheduler().proxy_copies() ? ", runs held copies" : "")).c_str()
                 : "on (unpinned: no core without a PE)");
    else
      printf("  network: none (all PEs share memory; atomics are CPU atomics)\n");
    if (network)
      printf("  network: %s; messages served only with the target's secret, drawn at random for each job\n",
             network->rules().provider_keys ? "keys the provider's" : "keys drawn at random for each job");
    if (network)
      printf("  notifications across nodes: %s\n",
             network->notifies_by_data() ? "remote CQ data on the data's write" : "messages after the data");
    printf("  shared memory: %s\n", symmetric_backing());
    printf("  scheduler: nbi copies held from %s\n", scheduler().describe_threshold().c_str());
  }
  fflush(stdout);
}

// Completes communication and brings the runtime down once every init is matched.
void runtime_finalize(const char* call) {
  Runtime& r = rt();
  if (!r.initialized) fatal(call, "called before shmem_init (or more often than shmem_init)");
  if (--r.init_count > 0) return;
  coll::settle_all(call);  // the nonblocking collectives still in flight
  scheduler().quiet(call);
  if (r.config.stats) report_stats(r.spans_nodes ? &network_transport() : nullptr, progress_thread());
  if (!r.spans_nodes) {
    r.ring_node = nullptr;
    r.posted = nullptr;
    progress_thread().stop();  // its requests are complete
  }
  team_sync(call, team_world);
  if (r.spans_nodes) {
    // Our last barrier signals may still travel; once every PE is past this point no
    // operation targets an endpoint any more, and endpoints can close.
    scheduler().quiet(call);
    boot().fence(call);
    r.progress = [](const char*, AwaitedPe*) { notify::poll(); };
    r.look = notify::poll;
    r.present = nullptr;
    r.nudge = nullptr;
    r.ring_node = nullptr;
    progress_thread().stop();
    r.progress_thread = false;  // once it has stopped: notify.cc locks its state while it may run
    scheduler().configure(~size_t{0}, nullptr);
    scheduler().set_progress_thread(false, false, false);
    network_transport().close();
  }
  r.progress = nullptr;
  r.look = nullptr;
  r.initialized = false;
  r.finalized = true;
  boot().finalize();
}

}  // namespace tandem

using namespace tandem;

TANDEM_API(void, init, (void)) { runtime_init(TANDEM_CALL, SHMEM_THREAD_SINGLE); }

TANDEM_API(int, init_thread, (int requested, int* provided)) {
  if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
    fatal(TANDEM_CALL, "requested = %d is not a thread level (SHMEM_THREAD_SINGLE ... SHMEM_THREAD_MULTIPLE)", requested);
  runtime_init(TANDEM_CALL, requested);
  if (provided) *provided = rt().thread_level;
  return 0;
}

TANDEM_API(void, query_thread, (int* provided)) {
  check_ready(TANDEM_CALL);
  check_buffer(TANDEM_CALL, "provided", provided, 1);
  *provided = rt().thread_level;
}

TANDEM_API(void, query_initialized, (int* initialized)) {
  check_buffer(TANDEM_CALL, "initialized", initialized, 1);
  *initialized = rt().initialized ? 1 : 0;
}

TANDEM_API(void, finalize, (void)) { runtime_finalize(TANDEM_CALL); }

TANDEM_API(void, global_exit, (int status)) {
  fflush(stdout);
  fflush(stderr);
  boot().abort_job(status, "shmem_global_exit");
  exit_pe(status);
}

TANDEM_API(int, my_pe, (void)) {
  check_ready(TANDEM_CALL);
  return rt().my_pe;
}

TANDEM_API(int, n_pes, (void)) {
  check_ready(TANDEM_CALL);
  return rt().n_pes;
}

TANDEM_API(int, pe_accessible, (int pe)) {
  check_ready(TANDEM_CALL);
  return pe >= 0 && pe < rt().n_pes;
}

TANDEM_API(int, addr_accessible, (const void* addr, int pe)) {
  check_ready(TANDEM_CALL);
  Runtime& r = rt();
  if (pe < 0 || pe >= r.n_pes) return 0;
  return segment_of(r, addr) != nullptr;
}

TANDEM_API(void*, ptr, (const void* dest, int pe)) {
  check_ready(TANDEM_CALL);
  Runtime& r = rt();
  if (pe < 0 || pe >= r.n_pes || !r.is_local(pe)) return nullptr;
  if (!r.heap.contains(dest) && !r.data.contains(dest)) return nullptr;
  return locate(TANDEM_CALL, "dest", dest, 0, pe).mapped;
}

TANDEM_API(void, info_get_version, (int* major, int* minor)) {
  check_buffer(TANDEM_CALL, "major", major, 1);
  check_buffer(TANDEM_CALL, "minor", minor, 1);
  *major = SHMEM_MAJOR_VERSION;
  *minor = SHMEM_MINOR_VERSION;
}

TANDEM_API(void, info_get_name, (char* name)) {
  check_buffer(TANDEM_CALL, "name", name, 1);
  snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

extern "C" void start_pes(int) { runtime_init("start_pes", SHMEM_THREAD_SINGLE); }
extern "C" int _my_pe(void) { return pshmem_my_pe(); }
extern "C" int _num_pes(void) { return pshmem_n_pes(); }

extern "C" void tandem_generic_no_match(void) {
  fatal("a type-generic shmem_ routine", "was called with an argument type it does not cover");
}
