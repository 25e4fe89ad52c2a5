// How a PE waits for memory that another PE will change: poll with a CPU pause, then, once
// polling has gone on for a while (at once when PEs outnumber cores), yield the core so that
// the PE we wait for can run.  Every poll also drives the network's progress, which
// manual-progress providers need for incoming operations to land.
#pragma once

#include <sched.h>

#include <atomic>
#include <cstdint>

#include "core/clock.h"
#include "core/fiber.h"
#include "core/runtime.h"
#include "core/spin_lock.h"

namespace tandem {

// Work that the PE's waits drive besides the network: the nonblocking collectives' requests
// (coll/nbc.h).  `background_requests` counts those not yet complete; while there are any, a
// wait of the PE calls run_background(), which resumes the ones that can go on (unless
// another thread is resuming them), so that a PE that waits for something else (a flag a
// peer sets once its own collective completes) still does its part; so does the progress
// thread.  It returns true while one of them waits for this node's memory, which no
// traffic announces.
inline std::atomic<int> background_requests{0};
inline bool (*run_background)() = nullptr;
// PE threads in a wait for requests (shmemx_req_wait, or a blocking collective that first
// completes its team's): they resume the requests themselves, and the progress thread keeps
// off them meanwhile.
inline std::atomic<int> background_waiters{0};
// The PE threads' calls of the requests' routines (posts, tests, waits): the progress thread
// of a node without network, which serves the requests once a node peer rang, stops when
// the PE is back (nbi/progress_thread.cc).
inline std::atomic<uint64_t> background_calls{0};

// A nonblocking collective's wait for a PE (on its fiber, coll/nbc.h) that the PE's own wait
// has resumed for a while without that PE's part rings that PE's doorbell (Runtime::nudge):
// the PE may have posted its part and gone off to compute, and its progress thread, which
// shares a core with a computing PE, rests then (nbi/progress_thread.cc) until a peer says it
// waits or the rest ends.  A wait for a node peer rings it through Runtime::ring_node.  Then
// again after twice as long each time, up to kLateMaxNs, for a part that takes that PE more
// than one turn.  due() is asked at each of the wait's pauses, and says true when a ring is
// due.
//
// Across nodes the first ring comes after kLateNs.  Each ring costs a wake of that PE's
// thread, on a core that may be this PE's: kLateNs is long enough that a collective whose
// data is merely on its way rings seldom (perf/nbc, 2 PEs on 2 virtual nodes: rings after
// 50 us took a request alone to 1.1-2.1 times the blocking routine at 256 KiB-4 MiB), and as
// long as the progress thread kept off a PE that had just been in the library before it
// rested (Engine::wait_for_activity).  A node peer's doorbell is rung too (perf/nbc -n 4
// --nodes 2, the last PE asleep for 1 ms after its post, 6 alternating rounds against the
// library that rang none: the others' waits took 737-863 us for fcollect at 16-256 KiB
// against 1090-1177, 603-778 for sum_reduce at 16-128 KiB against 1090-1092; a broadcast at
// 512 KiB-1 MiB 6-13% longer; geometric mean over the sizes from 16 KiB 0.88).
//
// On a node that holds every PE a ring is a futex wake of a node peer's progress thread,
// which sleeps until rung (nbi/progress_thread.cc): no network to watch, and a wake that
// finds its PE in the library sleeps again at once, so the first comes after kNodeLateNs
// (perf/nbc, 2 PEs on one node of 2 cores, 4 alternating rounds: a PE's wait for a peer that
// computes 1 ms after its post 28-44 us at 2-128 KiB with 20 us, 49-72 us with 50 us,
// 122-204 us with 200 us, 458-904 us without; a request alone within the rounds' noise of
// each).
//
// Only the time the fiber is resumed without a gap of kResumedGapNs counts: between a post
// and its wait the PE computes, the fiber stays where it yielded, and no one waits.
class LateWait {
 public:
  bool due() {
    constexpr int64_t kLateNs = 200000, kNodeLateNs = 20000, kLateMaxNs = 3200000, kResumedGapNs = 20000;
    const int64_t now = monotonic_ns();
    if (since_ns_ == 0 || now - last_ns_ > kResumedGapNs) {
      since_ns_ = now;
      next_ns_ = rt().spans_nodes ? kLateNs : kNodeLateNs;
    }
    last_ns_ = now;
    if (now - since_ns_ < next_ns_) return false;
    since_ns_ = now;
    next_ns_ = next_ns_ * 2 > kLateMaxNs ? kLateMaxNs : next_ns_ * 2;
    return true;
  }

 private:
  int64_t since_ns_ = 0;  // resumed without a gap since, or since the last ring
  int64_t last_ns_ = 0;   // the last pause
  int64_t next_ns_ = 0;   // the wait before the next ring
};

class Backoff {
 public:
  // A wait in `call`: each pause drives the network's progress (a network timeout names
  // `call`).  `from`: the world PE whose write the wait is for, where one is (-1: none, or
  // not known); one on another node that stops answering ends the wait within the network
  // timeout even while this PE has nothing outstanding.
  explicit Backoff(const char* call, int from = -1) : Backoff(call, rt().progress) {
    if (from >= 0 && progress_ && rt().node_of[static_cast<size_t>(from)] != rt().node) awaited_.pe = from;
    else node_peer_ = from;
  }
  // For code that drives progress itself between pauses (the transport), so that a turn of
  // its loop costs one progress.
  static Backoff without_progress() { return Backoff(nullptr, nullptr); }
  // The progress comes last: what it completes (a notification drained from the ring, a
  // network completion) is seen by the caller's next look at once, not after the CPU pause
  // (about 40 ns on recent x86 cores, the gap a notification had to a signal on a node).
  //
  // On a fiber (a nonblocking collective's) a pause is a yield: the thread that resumed it
  // goes on, and drives the progress (coll/nbc.cc).  Elsewhere the requests that wait are
  // resumed after the progress, so that what it landed moves them on before the caller
  // looks: a shmemx_req_wait sees its request complete in the turn whose progress brought
  // the last data, not one turn (with tcp a system call, 0.7-3 us) later.  Neither in the
  // transport's own waits (without_progress()), which may hold its lock.
  void pause() {
    // A fiber runs only while its request counts as in flight: no other wait pays the call.
    const bool requests = background_ && background_requests.load(std::memory_order_relaxed) > 0;
    if (requests) {
      if (Fiber* fiber = Fiber::current()) {
        // A PE of another node rings through the network; node peers ring each other
        // through Runtime::ring_node.
        void (*ring)(int) = awaited_.pe >= 0 ? rt().nudge : rt().ring_node;
        if (ring && late_.due()) ring(awaited_.pe >= 0 ? awaited_.pe : node_peer_);
        fiber->yield(awaited_.pe >= 0);
        return;
      }
    }
    if (polls_ < limit_) {
      polls_ += requests ? resume_polls_ : 1;
      cpu_relax();
    } else {
      sched_yield();
    }
    if (progress_) progress_(call_, &awaited_);
    if (requests) (void)run_background();
  }

 private:
  Backoff(const char* call, void (*progress)(const char*, AwaitedPe*))
      : call_(call), progress_(progress), background_(call != nullptr) {
    const Config& c = rt().config;
    if (c.yield == Config::Yield::Always) limit_ = 0;
    else if (c.yield == Config::Yield::Never) limit_ = ~0ull;
    // With more PEs than cores, a few polls, then the core goes to the PE we wait for; at
    // once when PEs span nodes, where each poll is also a look at the network (with tcp a
    // system call, as long as 16 polls of memory).  Otherwise TANDEM_SPIN polls of memory,
    // or as long in looks at the network: a thread that serves the network for a peer (a
    // progress thread without a core of its own) may wait on this core meanwhile, and the
    // kernel does not always let it preempt a PE that polls (2000 looks at tcp took 1.3 ms).
    else if (rt().oversubscribed) limit_ = rt().spans_nodes ? 0 : 16;
    else limit_ = rt().spans_nodes ? c.spin_before_yield / kPollsPerLook : c.spin_before_yield;
    // On one node a turn that resumes the requests counts as kPollsPerResume polls: with
    // more PEs than cores a wait for nonblocking collectives that counted it as one spun 16
    // turns, each a look at every request, before it gave the core to the PEs it waited
    // for.  perf/nbc -n 4 on 2 cores, 8 B-16 KiB, 3 alternating rounds: a request alone
    // took 1.61, 1.61 and 1.55 times the blocking fcollect, alltoall and sum_reduce (means
    // over the sizes) counting 1, 1.24, 1.19 and 1.28 counting 4, 1.14, 1.11 and 1.09
    // counting 16; with 2 PEs (no yield before TANDEM_SPIN polls) no change.  Across nodes
    // each turn's look at the network costs more than the resume.
    resume_polls_ = rt().spans_nodes ? 1 : kPollsPerResume;
  }
  static constexpr unsigned long long kPollsPerLook = 32;
  static constexpr unsigned long long kPollsPerResume = 16;

  unsigned long long polls_ = 0;
  unsigned long long limit_;
  unsigned long long resume_polls_;  // what a turn that resumes the requests counts
  const char* call_;
  void (*progress_)(const char*, AwaitedPe*);  // the network's progress, when PEs span nodes
  bool background_;  // pauses yield on a fiber and resume the requests elsewhere
  AwaitedPe awaited_;
  int node_peer_ = -1;  // the node peer the wait is for (-1: not known, any node peer)
  LateWait late_;  // a fiber's wait for awaited_.pe, or for node_peer_
};

// The updates that the network engine's own code makes to this PE's memory for other PEs
// (the software path's atomics, applied by whichever thread reads the completion queue,
// often the progress thread) reach the program through the network: the answer goes back,
// and the PE that got it tells this one (a barrier, a signal).  That chain crosses
// processes, where ThreadSanitizer cannot follow it, so the engine publishes each such
// update here with a release (publish_network_update()), and every wait and test that
// returns acquires it (see_network_updates()): one load on the way out.
inline std::atomic<uint64_t> network_updates{0};
inline void publish_network_update() { network_updates.fetch_add(1, std::memory_order_release); }
inline void see_network_updates() { (void)network_updates.load(std::memory_order_acquire); }
// The other way round: what a PE's program read or wrote in its memory before it let the
// other PEs go on (its arrival at a barrier) comes before the updates they then send it,
// which the engine applies, often on the progress thread; that chain crosses processes too.
// The syncs publish each arrival with a release (publish_program_turn()), and the engine
// acquires it before it applies an update (see_program_turns()).
inline std::atomic<uint64_t> program_turns{0};
inline void publish_program_turn() { program_turns.fetch_add(1, std::memory_order_release); }
inline void see_program_turns() { (void)program_turns.load(std::memory_order_acquire); }

// One look at the network, for calls that look at memory once without waiting (the test
// routines, shmem_signal_fetch, a wait whose condition already holds): a PE may spin on them,
// or poll with them and sleep in between, and with a manual-progress provider the operations
// that peers aim at this PE (and its own queued ones) move only when it calls into the
// network; without this, a correct program starves the PEs that write to it.  Cheap: without
// a network, a look at the notification ring's head; with one, one read of its completion
// queue, skipped when another thread is inside the provider.
inline void drive_progress() {
  if (void (*look)() = rt().look) look();
  see_network_updates();
}

// drive_progress() for calls that a program may make back to back without waiting: the test
// routines, which it calls in a spin, and the waits whose condition already holds (a PE that
// runs behind its peers finds the data of each wait there).  With a progress thread, which
// serves the network whenever its PE stops looking (within ProgressSleep's longest pause),
// only every kSpinLookEvery-th call of a thread looks: with tcp a look is a system call of
// 0.3-2 us, where a test or a wait that holds takes a few ns.  Without one, every call looks:
// a PE that leaves a wait at once may stop calling the library (a barrier, then a long
// computation) while a provider that sends only when driven (sockets) still holds what it
// posted, such as its own arrival at that barrier.  Returns whether it resumed the
// nonblocking collectives (after its look).
inline bool drive_progress_in_spin() {
  const Runtime& r = rt();
  bool resumed = false;
  if (void (*look)() = r.look) {
    constexpr unsigned kSpinLookEvery = 16;
    thread_local unsigned calls = 0;
    if (!r.progress_thread || calls++ % kSpinLookEvery == 0) {
      look();
      // A PE that spins on a test moves its nonblocking collectives as a wait does (with what
      // the look landed): its progress thread rests while the PE is in the library
      // (nbi/progress_thread.cc).  Not from a collective's fiber, whose resumer holds them.
      if (background_requests.load(std::memory_order_relaxed) > 0 && run_background && !Fiber::current()) {
        (void)run_background();
        resumed = true;
      }
    }
  }
  see_network_updates();
  return resumed;
}

// For accesses to node-local memory that a program may spin on as well (shmem_g of a flag in
// its own memory, a copy to a node peer): with PEs on other nodes, a look at the network now
// and then.  A thread reads the clock once every kLocalAccessesPerClockRead such accesses
// and looks when kLocalLookIntervalUs have passed since its last such look: a spin on
// shmem_g lets the network move every few tens of microseconds, while a stream of local
// accesses pays a clock read per 32 of them and a look (a few microseconds with tcp) per
// 50 us.  Without a network, one load and a branch.
void look_if_due();
inline void look_now_and_then() {
  if (rt().spans_nodes) look_if_due();
}

// Polls `ready()` until it returns true, waiting in `call` (for PE `from`'s write, where
// known: Backoff).  A condition that already holds still gets its look at the network now
// and then (drive_progress_in_spin()).
template <typename Ready>
inline void wait_until_ready(const char* call, Ready ready, int from = -1) {
  if (ready()) {
    (void)drive_progress_in_spin();
    return;
  }
  Backoff backoff(call, from);
  while (!ready()) backoff.pause();
  see_network_updates();
}

// wait_until_ready() for a counter or stamp that only grows: returns once `word` (read with
// acquire) has reached `goal`.
inline void wait_at_least(const char* call, const uint64_t* word, uint64_t goal, int from = -1) {
  wait_until_ready(call, [&] { return __atomic_load_n(word, __ATOMIC_ACQUIRE) >= goal; }, from);
}

}  // namespace tandem
