#include "nbi/progress_thread.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <vector>

#include "core/backoff.h"
#include "core/runtime.h"
#include "nbi/scheduler.h"
#include "transport/ofi/transport.h"

namespace tandem {

namespace {

// What the thread needs of the node's topology, read once per process (hwloc reads sysfs:
// 20-30 ms on a 2-core virtual machine, on every PE's way through shmem_init), after which
// the topology is destroyed: while a process holds one, hwloc keeps every plugin it found
// loaded (Debian's: X11, OpenCL, libxml2 and ICU behind them), 1.5 MB of each PE's resident
// memory that Tandem never uses (perf/scale.sh).
struct Cores {
  std::vector<cpu_set_t> cpus;  // each core's CPUs, by hwloc logical index; none if unknown
};

const Cores& cores() {
  static const Cores read = [] {
    Cores c;
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0) return c;
    if (hwloc_topology_load(t) == 0) {
      const int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
      for (int i = 0; i < n; ++i) {
        hwloc_obj_t core = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, static_cast<unsigned>(i));
        cpu_set_t cpus;
        CPU_ZERO(&cpus);
        if (!core || hwloc_cpuset_to_glibc_sched_affinity(t, core->cpuset, &cpus, sizeof cpus) != 0) {
          c.cpus.clear();
          break;
        }
        c.cpus.push_back(cpus);
      }
    }
    hwloc_topology_destroy(t);
    return c;
  }();
  return read;
}

// Binds the calling thread to hwloc logical core `core`; false if that fails.
bool bind_to_core(int core) {
  const Cores& c = cores();
  return core >= 0 && static_cast<size_t>(core) < c.cpus.size() &&
         pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &c.cpus[static_cast<size_t>(core)]) == 0;
}

// For a thread without a core of its own, started by a PE that a launcher bound to some of
// the node's cores (mpirun binds each process to a core by default in small jobs; srun with
// --cpu-bind): the thread inherits that binding, so it would wake behind its PE whenever the
// PE computes, and the kernel lets a woken thread preempt a running one only once the
// running one's slice ends (gets and fetch_adds on a computing PE across 2 virtual nodes
// under mpirun: median 70-135 us against 27-57, worst up to 4.7 ms against 0.27;
// perf/README.md, "A bound PE's progress thread").  The machine's CPUs beside those of the
// PE's binding, where a PE that waits in the library yields to it: of a thread's affinity
// the kernel keeps the CPUs that the process's cpuset allows, and refuses one that leaves
// none (so where the PE's binding covers every CPU the process may use, the thread keeps
// it).  False where the PE is bound to every CPU.  No topology needed, which takes
// milliseconds to read.
bool cpus_beside_pe(cpu_set_t* others) {
  cpu_set_t pe;
  if (sched_getaffinity(0, sizeof pe, &pe) != 0) return false;
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  CPU_ZERO(others);
  for (int cpu = 0; cpu < CPU_SETSIZE && cpu < configured; ++cpu)
    if (!CPU_ISSET(cpu, &pe)) CPU_SET(cpu, others);
  return CPU_COUNT(others) > 0;
}

// What the thread finds to do without sleeping (one thread per process): Ops the scheduler
// gives it, and with a core of its own, writes in flight to push.
ofi::Transport* busy_network = nullptr;
bool busy_own_core = false;
bool busy() { return scheduler().proxy_work() || (busy_own_core && busy_network->maybe_in_flight()); }

// A PE's bell on one node: a word of its symmetric memory, which node peers map too (the
// heap is a shared mapping of a file or a memfd, so a futex on it is shared between the
// processes: no FUTEX_PRIVATE_FLAG).  A ring adds one and wakes the sleeper; a sleep returns
// at once where the word has moved since `seen`, so no ring is lost.
void bell_sleep(uint32_t* word, uint32_t seen, int64_t timeout_ns) {
  timespec t{static_cast<time_t>(timeout_ns / 1000000000), static_cast<long>(timeout_ns % 1000000000)};
  (void)syscall(SYS_futex, word, FUTEX_WAIT, seen, timeout_ns >= 0 ? &t : nullptr, nullptr, 0);
}
void bell_ring(uint32_t* word) {
  __atomic_fetch_add(word, 1, __ATOMIC_RELEASE);
  (void)syscall(SYS_futex, word, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}
std::atomic<uint64_t> rings_sent{0};

}  // namespace

void ring_node_peer(int pe) {
  const Runtime& r = rt();
  const size_t at = static_cast<size_t>(reinterpret_cast<char*>(r.bell) - r.heap.base);
  r.each_node_peer(pe, [&](int p) {
    char* base = r.heap.peer_base[static_cast<size_t>(p)];
    if (!base) return;
    bell_ring(reinterpret_cast<uint32_t*>(base + at));
    rings_sent.fetch_add(1, std::memory_order_relaxed);
  });
}

uint64_t node_rings_sent() { return rings_sent.load(std::memory_order_relaxed); }

int core_count() {
  const size_t n = cores().cpus.size();
  return n > 0 ? static_cast<int>(n) : 1;
}

int spare_core_for(int machine_index, int machine_pes, int cores) {
  const int spare = cores - machine_pes;
  if (spare <= 0) return -1;
  return cores - 1 - machine_index % spare;
}

void ProgressThread::start(ofi::Transport* network, int core) {
  network_ = network;
  core_ = core;
  busy_network = network;
  busy_own_core = core >= 0;
  stopping_ = false;
  cpu_set_t others;
  const bool move = core < 0 && cpus_beside_pe(&others);
  thread_ = std::thread([this] { run(); });
  if (move) pthread_setaffinity_np(thread_.native_handle(), sizeof others, &others);
}

void ProgressThread::start_node(uint32_t* bell) {
  network_ = nullptr;
  bell_ = bell;
  core_ = -1;
  stopping_ = false;
  thread_ = std::thread([this] { run_node(); });
}

void ProgressThread::run_node() {
  on_progress_thread() = true;
  // Where a launcher bound the PE to its core, the thread goes to the others (where its
  // node peers wait for it): a woken thread preempts its computing PE only once the PE's
  // slice ends (see cpus_beside_pe()).  The thread's own binding is its PE's, inherited.
  cpu_set_t others;
  if (cpus_beside_pe(&others)) pthread_setaffinity_np(pthread_self(), sizeof others, &others);
  // While it serves, it resumes the requests every kServeGapNs: a request that waits for
  // node peers' memory, which nothing announces, as the network's thread looks again after
  // its kLocalWaitUs.
  constexpr int64_t kServeGapNs = 50000;
  uint32_t seen = __atomic_load_n(bell_, __ATOMIC_ACQUIRE);
  while (!stopping_.load(std::memory_order_acquire)) {
    bell_sleep(bell_, seen, -1);
    const uint32_t now = __atomic_load_n(bell_, __ATOMIC_ACQUIRE);
    if (now == seen) continue;
    seen = now;
    if (stopping_.load(std::memory_order_acquire)) break;
    rings_heard_.fetch_add(1, std::memory_order_relaxed);
    // A node peer has waited a while for this PE's part: serve until the requests are done,
    // or the PE is back in the library for them (a post, a test, a wait), where it resumes
    // them itself.
    const uint64_t calls = background_calls.load(std::memory_order_relaxed);
    while (!stopping_.load(std::memory_order_acquire) && background_requests.load(std::memory_order_relaxed) > 0 &&
           background_waiters.load(std::memory_order_relaxed) == 0 &&
           background_calls.load(std::memory_order_relaxed) == calls) {
      serves_.fetch_add(1, std::memory_order_relaxed);
      (void)run_background();
      bell_sleep(bell_, seen, kServeGapNs);
      seen = __atomic_load_n(bell_, __ATOMIC_ACQUIRE);
    }
  }
}

void ProgressThread::run() {
  // A core without a PE (even if binding to it failed, the node leaves it free): poll while
  // there is work.
  const bool own_core = core_ >= 0;
  if (own_core) bind_to_core(core_);
  // On a core it shares with a PE, each timed wake of the thread (its pauses while the PE
  // drives, man 7 tandem) costs the PE far more than the thread's own few microseconds: a
  // ping-pong between PEs that wait in the library lost 6-10% to one pause per 400 us on 2
  // cores.  A timer slack of 200 us lets the kernel fold those wakes into other interrupts:
  // 3.5-5% (perf/README.md, "What the progress thread costs").
  constexpr unsigned long kSharedCoreTimerSlackNs = 200000;
  if (!own_core) prctl(PR_SET_TIMERSLACK, kSharedCoreTimerSlackNs);
  on_progress_thread() = true;
  // While nonblocking collectives are in flight (run_background, core/backoff.h) the thread
  // resumes them after each wake.  Where one waits for this node's memory, which no traffic
  // announces, it looks again after kLocalWaitUs; where all wait for other nodes their
  // traffic wakes it, and kNetworkWaitUs bounds the sleep that follows a wake whose
  // completion its own progress read just before sleeping.
  constexpr int kLocalWaitUs = 50, kNetworkWaitUs = 1000, kIdleUs = 100000;
  // On a core that a PE needs, what the thread does for the requests while the PEs compute
  // is taken from a computation, and each of its wakes costs that core 10-20 us: with
  // requests in flight it rests instead, for kRestNs after its PE was last in the library,
  // unless a peer rings to say that it has waited for this PE's part (core/backoff.h), and
  // then serves until its PE is back.  Where the PEs compute in step, each does its part in
  // its own wait; where one computes long, the peers that wait for it ring and its thread
  // does its part.  perf/nbc, 2 PEs on 2 virtual nodes of 2 cores, 10 alternating rounds
  // against resuming the requests after each of the thread's pauses: the worst PE's Overlap
  // at 64 KiB-4 MiB -58 to 10% against -120 to 3% (better in 26 of 28 cells), a request
  // alone 0.91-1.08 times the blocking routine against 0.90-1.09; a peer's wait for a PE
  // that computes 1 ms after its post (NAME_late_us) 6-23 us against 16-48 up to 16 KiB (5
  // rounds), less for broadcast at every size, but 280-670 us against 60-530 for fcollect,
  // alltoall and sum_reduce at 32-512 KiB (the first ring comes after 200 us) and 1.2-3.1
  // ms against 0.76-3.1 from 1 MiB.  A rest of 1 ms instead hid less (-84 to 4%, 5 rounds).
  constexpr int64_t kRestNs = 3000000;
  // Not with duties of its own (TANDEM_PROXY_*=on on a shared core), which the PE hands it
  // by waking it from its sleep on traffic.
  const bool rests = !own_core && !scheduler().proxy_writes() && !scheduler().proxy_copies();
  while (!stopping_.load(std::memory_order_acquire)) {
    if (scheduler().proxy_work()) scheduler().run_held("the progress thread");
    int sleep_us = kIdleUs;
    // The requests are resumed by the PE itself while it waits for them: the thread would
    // only take the lock from it.
    const bool requests = background_requests.load(std::memory_order_relaxed) > 0 &&
                          background_waiters.load(std::memory_order_relaxed) == 0;
    if (requests && rests && network_->rest_while_present(kRestNs)) continue;
    if (requests) sleep_us = run_background() ? kLocalWaitUs : kNetworkWaitUs;
    // Writes in flight (a large one that the provider sends piece by piece as the socket
    // takes it) move only with progress, which no traffic of theirs asks for: pushed every
    // kLocalWaitUs too.
    if (requests && network_->maybe_in_flight()) sleep_us = kLocalWaitUs;
    if (own_core && network_->maybe_in_flight()) {
      // Push while the PE computes or copies; a PE that waits in the library pushes itself.
      if (!network_->pe_driving()) {
        network_->flush_if_idle();
        network_->push();
      }
      for (int i = 0; i < 64; ++i) cpu_relax();  // a few us, so the PE's posts get the lock
    } else {
      network_->wait_for_activity(sleep_us, busy, requests);
    }
  }
}

void ProgressThread::stop() {
  if (!thread_.joinable()) return;
  stopping_.store(true, std::memory_order_release);
  if (network_) network_->wake();
  else bell_ring(bell_);
  thread_.join();
}

}  // namespace tandem
