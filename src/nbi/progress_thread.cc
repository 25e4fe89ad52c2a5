#include "nbi/progress_thread.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include "core/backoff.h"
#include "nbi/scheduler.h"
#include "transport/ofi.h"

namespace tandem {

namespace {

// The node's topology, loaded once per process and kept (hwloc dlopens its plugins for the
// first topology of a process and reads sysfs: 20-30 ms on a 2-core virtual machine, on
// every PE's way through shmem_init); nullptr if hwloc failed.
// hwloc allows lookups and bindings on a loaded topology from any thread.
hwloc_topology_t topology() {
  struct Loaded {
    hwloc_topology_t topology = nullptr;
    Loaded() {
      if (hwloc_topology_init(&topology) != 0) {
        topology = nullptr;
      } else if (hwloc_topology_load(topology) != 0) {
        hwloc_topology_destroy(topology);
        topology = nullptr;
      }
    }
    ~Loaded() {
      if (topology) hwloc_topology_destroy(topology);
    }
  };
  static const Loaded loaded;
  return loaded.topology;
}

// Binds the calling thread to hwloc logical core `core`; false if that fails.
bool bind_to_core(int core) {
  hwloc_topology_t t = topology();
  hwloc_obj_t obj = t ? hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, static_cast<unsigned>(core)) : nullptr;
  return obj && hwloc_set_cpubind(t, obj->cpuset, HWLOC_CPUBIND_THREAD) == 0;
}

// For a thread without a core of its own, started by a PE that a launcher bound to some of
// the node's cores (mpirun binds each process to a core by default in small jobs; srun with
// --cpu-bind): the thread inherits that binding, so it would wake behind its PE whenever the
// PE computes, and the kernel lets a woken thread preempt a running one only once the
// running one's slice ends (gets and fetch_adds on a computing PE across 2 virtual nodes
// under mpirun: median 70-135 us against 27-57, worst up to 4.7 ms against 0.27;
// perf/README.md, "A bound PE's progress thread").  The other CPUs the process may use,
// where a PE that waits in the library yields to it; false where the PE's binding covers
// them all.  Asked on the PE's thread before the thread starts: hwloc opens and closes
// descriptors, which the thread's socket watch may be reading.
bool cpus_beside_pe(cpu_set_t* others) {
  hwloc_topology_t t = topology();
  cpu_set_t pe;
  if (!t || sched_getaffinity(0, sizeof pe, &pe) != 0 ||
      hwloc_cpuset_to_glibc_sched_affinity(t, hwloc_topology_get_allowed_cpuset(t), others, sizeof *others) != 0)
    return false;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &pe)) CPU_CLR(cpu, others);
  return CPU_COUNT(others) > 0;
}

// What the thread finds to do without sleeping (one thread per process): Ops the scheduler
// gives it, and with a core of its own, writes in flight to push.
ofi::Transport* busy_network = nullptr;
bool busy_own_core = false;
bool busy() { return scheduler().proxy_work() || (busy_own_core && busy_network->maybe_in_flight()); }

}  // namespace

int core_count() {
  hwloc_topology_t t = topology();
  const int cores = t ? hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) : 1;
  return cores > 0 ? cores : 1;
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
  ofi::Transport::mark_helper_thread();
  while (!stopping_.load(std::memory_order_acquire)) {
    if (scheduler().proxy_work()) scheduler().run_held("the progress thread");
    if (own_core && network_->maybe_in_flight()) {
      // Push while the PE computes or copies; a PE that waits in the library pushes itself.
      if (!network_->pe_driving()) {
        network_->flush_if_idle();
        network_->push();
      }
      for (int i = 0; i < 64; ++i) cpu_relax();  // a few us, so the PE's posts get the lock
    } else {
      network_->wait_for_activity(100000, busy);
    }
  }
}

void ProgressThread::stop() {
  if (!thread_.joinable()) return;
  stopping_.store(true, std::memory_order_release);
  network_->wake();
  thread_.join();
}

}  // namespace tandem
