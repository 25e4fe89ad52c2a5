#include "notify/notify.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/backoff.h"
#include "core/flat_table.h"
#include "core/peer_pages.h"
#include "core/runtime.h"
#include "core/spin_lock.h"
#include "mem/symmetric.h"

struct shmemx_notify_req {
  enum class State { Inactive, Active, Complete };
  static constexpr uint32_t kLive = 0x6e6f7469;  // made and not freed
  uint32_t magic = kLive;
  int source;    // a PE or SHMEMX_ANY_PE
  int tag;       // a tag or SHMEMX_ANY_TAG
  int expected;  // notifications that complete it
  int counted = 0;
  int last_source = -1;
  int last_tag = -1;
  int lane = -1;  // the lane of `source` at this PE, if it is a node peer
  // Set to Active and Complete under the target's lock; a wait or test takes a Complete
  // request back to Inactive without it (the fields above are final by then).
  std::atomic<State> state{State::Inactive};
  uint64_t started = 0;  // its place in the start order
  shmemx_notify_req* next = nullptr;  // the request started after it for the same pair

  bool matches(int from, int with) const {
    return (source == SHMEMX_ANY_PE || source == from) && (tag == SHMEMX_ANY_TAG || tag == with);
  }
};

namespace tandem::notify {

namespace {

using Request = shmemx_notify_req;
using State = Request::State;

// A PE's notification lanes, in its symmetric heap at the same offset on every PE: one per
// node peer (its place in the node's ascending list of PEs, this PE's own included), written
// by that peer alone, so that publishing takes no atomic read-modify-write: no contended
// tail when many peers notify one PE (a tree's fan-in), and no locked instruction that would
// hold the publisher until its data store reached the target (a pipeline's every step).
// Slot t % kLaneSlots of a lane holds the peer's t-th notification to this PE as one word
// (slot_word(t, tag)); the owner consumes from `head`.  `joined` has a bit per peer that has
// ever published here: the owner looks at those lanes only.
// A fuller lane holds its publisher back, and that costs far more than the wait for one
// slot: the publisher's progress and the owner's drain fall into step, a slot at a time, and
// where PEs outnumber cores the publisher yields its core at every step, which may go to a
// PE that keeps it for a scheduler slice (a pipeline of 1023 rows along 3 and 4 PEs on 2
// cores, a notification a row: 2.0-3.6 times as long as with signals with 64 slots, 1.4-2.2
// with 1024).  So 1024 slots (8 KiB a peer): the lanes are the largest node's PEs times that
// of the heap's room (2 MiB at 256 PEs a node), which is fresh (zero-filled) at init, so a
// lane's pages are used only once notifications pass through it (a PE that hears from 15
// node peers: 120 KiB).
constexpr uint64_t kLaneSlots = 1024;
struct Lane {
  alignas(64) std::atomic<uint64_t> head;
  alignas(64) std::atomic<uint64_t> slots[kLaneSlots];
};
static_assert(std::atomic<uint64_t>::is_always_lock_free, "the lanes are shared between processes");
// The t-th notification with `tag` (not negative): the low 32 bits of t + 1 over the tag, so
// that the word a slot held a round before (t - kLaneSlots), or 0 if never written, differs.
inline uint64_t slot_word(uint64_t t, int tag) {
  return ((t + 1) << 32) | static_cast<uint32_t>(tag);
}

size_t lanes_offset = 0;  // in the heap, the same on every PE
size_t lane_count = 0;    // the largest node's PEs: the same on every PE
std::atomic<uint64_t>* my_joined = nullptr;  // this PE's bitmap of peers that published here
Lane* my_lanes = nullptr;
int my_lane = -1;  // rt().local_index: its lane at each node peer
// Per PE, for publish(): the notifications sent to it (the first one joins the lane there),
// and the lowest head the sender may assume there.
struct Sent {
  std::atomic<uint64_t> count{0};
  std::atomic<uint64_t> head_seen{0};
};
PeerPages<Sent> sent;

// A lane area: the bitmap, then the lanes from the next cache line.
size_t joined_words() { return (lane_count + 63) / 64; }
size_t lanes_start() { return (joined_words() * sizeof(uint64_t) + 63) / 64 * 64; }
std::atomic<uint64_t>* joined_at(char* area) { return reinterpret_cast<std::atomic<uint64_t>*>(area); }
Lane* lanes_at(char* area) { return reinterpret_cast<Lane*>(area + lanes_start()); }
// Whether a slot's word holds notification h of its lane.
bool holds(uint64_t word, uint64_t h) { return (word >> 32) == ((h + 1) & 0xffffffffu); }

// The target side, one per process: guarded by `mutex` where another thread may use it
// (StateLock), a lock that spins (every section it guards is short, and a waiter's turn is
// on the path of every notification).  Started requests wait in start order: those for one
// (source, tag) in a queue of their own, in the pair's entry of a table and linked through
// the requests themselves (an arrival touches no memory but the pair's entry and its
// request), and those with a wildcard in a list that every arrival scans.  An arrival goes
// to the earlier started of the first request in its queue and the first wildcard request
// that matches; one that matches none is counted in its pair's entry, until a request
// started later takes it.
SpinLock mutex;
uint64_t starts = 0;  // start order
struct Queue {
  Request* first = nullptr;
  Request* last = nullptr;
  void push(Request* r) {
    r->next = nullptr;
    (last ? last->next : first) = r;
    last = r;
  }
  void pop() {
    first = first->next;
    if (!first) last = nullptr;
  }
};
struct Pair {
  Queue queue;
  uint64_t unexpected = 0;  // arrivals that no started request took
};
// A pair is idle once it has no started request and no count.  Its entry stays for the
// pair's next request (a persistent request restarted every round: no erase and insert on
// the path of each notification) and goes when the table would otherwise grow.
bool idle(const Pair& p) { return !p.queue.first && !p.unexpected; }
FlatTable<Pair> pairs;
Pair* pair_entry(uint64_t key) {
  return pairs.find_or_add(key, [](const Pair& p) { return idle(p); });
}
std::vector<Request*> wildcard;
uint64_t unexpected = 0;  // the sum of the pairs' counts

// Whether another thread may use the matching state at the same time: the program's own
// (SHMEM_THREAD_MULTIPLE) or a progress thread (it delivers the notifications that come
// over the network).  Otherwise `mutex` is left alone and a request is taken back with a
// plain store: an uncontended lock and a compare-and-swap still cost a locked instruction
// each, a good part of a notification's cost on a node.
bool shared_state() {
  const Runtime& r = rt();
  return r.thread_level == SHMEM_THREAD_MULTIPLE || r.progress_thread;
}

// `mutex`, held for the scope where shared_state(); with `if_free`, taken only if no other
// thread holds it (owns() says whether the state is this thread's for the scope).  Where the
// state is not shared, a progress thread never takes it if free: on one node the thread that
// resumes the PE's collectives (one of their waits that holds at once looks for
// notifications, notify::poll) leaves it to the PE's threads.
class StateLock {
 public:
  explicit StateLock(bool if_free = false) {
    if (!shared_state()) {
      if (if_free) owns_ = !on_progress_thread();
      return;
    }
    if (!if_free) mutex.lock();
    else if (!mutex.try_lock()) owns_ = false;
    held_ = owns_;
  }
  ~StateLock() {
    if (held_) mutex.unlock();
  }
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;
  bool owns() const { return owns_; }

 private:
  bool held_ = false;
  bool owns_ = true;
};

// Counts one notification for `r`; true if that completed it.
bool count(Request* r, int source, int tag) {
  r->last_source = source;
  r->last_tag = tag;
  if (++r->counted < r->expected) return false;
  r->state.store(State::Complete, std::memory_order_release);
  return true;
}

// Records one arrival; true if it completed a request.
bool deliver_locked(int source, int tag) {
  const uint64_t key = pack(source, tag);
  Pair* pair = pairs.find(key);
  Request* first = pair ? pair->queue.first : nullptr;
  auto w = wildcard.begin();
  while (w != wildcard.end() && !(*w)->matches(source, tag)) ++w;
  if (w != wildcard.end() && (!first || (*w)->started < first->started)) {
    if (!count(*w, source, tag)) return false;
    wildcard.erase(w);
    return true;
  }
  if (first) {
    if (!count(first, source, tag)) return false;
    pair->queue.pop();
    return true;
  }
  ++(pair ? pair : pair_entry(key))->unexpected;
  ++unexpected;
  return false;
}

// Whether lane `l` holds a notification not yet delivered.
bool ready(int l) {
  const Lane& lane = my_lanes[l];
  const uint64_t h = lane.head.load(std::memory_order_relaxed);
  return holds(lane.slots[h % kLaneSlots].load(std::memory_order_relaxed), h);
}

// Whether any lane holds a notification not yet delivered: a look from lane 0.
bool any_ready() {
  if (!my_lanes) return false;
  for (size_t w = 0, words = joined_words(); w < words; ++w)
    for (uint64_t bits = my_joined[w].load(std::memory_order_acquire); bits; bits &= bits - 1)
      if (ready(static_cast<int>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits))))) return true;
  return false;
}

// Delivers what lane `l` holds, in order; with `until_complete`, only until an arrival
// completes a request, and then returns true.
bool drain_lane(int l, bool until_complete) {
  Lane& lane = my_lanes[l];
  const int source = rt().local_pes[static_cast<size_t>(l)];
  for (uint64_t h = lane.head.load(std::memory_order_relaxed);;) {
    const uint64_t word = lane.slots[h % kLaneSlots].load(std::memory_order_acquire);
    if (!holds(word, h)) return false;
    lane.head.store(++h, std::memory_order_release);  // the slot may be reused now
    if (deliver_locked(source, static_cast<int>(static_cast<uint32_t>(word))) && until_complete) return true;
  }
}

// Delivers what the joined lanes hold, the lanes in turn from the one after the last that
// completed a request (so that a busy lane does not starve the others); with
// `until_complete`, only until an arrival completes a request.  A waiter then takes its
// request at once: looking whether the next slot is filled means reading a line that its
// publisher is about to write, a transfer between cores on the path of every notification.
// The waits' progress drains on (every pause), so a full lane still empties.
int last_lane = -1;  // guarded as the matching state
void drain_locked(bool until_complete) {
  const size_t words = joined_words();
  const size_t from = static_cast<size_t>(last_lane + 1) < lane_count ? static_cast<size_t>(last_lane + 1) : 0;
  // The word holding `from` from that lane on, the words after it, then that word's lanes
  // before `from`.
  for (size_t k = 0, w = from / 64; k <= words; ++k, w = w + 1 < words ? w + 1 : 0) {
    uint64_t bits = my_joined[w].load(std::memory_order_acquire);
    if (k == 0) bits &= ~0ull << (from % 64);
    else if (k == words) bits &= (1ull << (from % 64)) - 1;
    for (; bits; bits &= bits - 1) {
      const int l = static_cast<int>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
      if (drain_lane(l, until_complete)) {
        last_lane = l;
        return;
      }
    }
  }
}

// A request that was made and not freed (a freed one is found only while its memory has not
// been reused: freeing sets the caller's handle to NULL, which is always found).
bool valid(const Request* r) { return r && r->magic == Request::kLive; }

// Takes a completed request back to Inactive and reports it; false if it was not complete
// (or another thread took it first).
bool take(Request* r, shmemx_notify_status_t* status) {
  State complete = State::Complete;
  if (r->state.load(std::memory_order_acquire) != complete) return false;
  if (!shared_state()) r->state.store(State::Inactive, std::memory_order_relaxed);
  else if (!r->state.compare_exchange_strong(complete, State::Inactive, std::memory_order_acquire)) return false;
  if (status) *status = shmemx_notify_status_t{r->last_source, r->last_tag, r->counted};
  return true;
}

// After a poll(), the look at the network that a call a program may spin on makes
// (drive_progress_in_spin()); on one node that look is a poll() too, so it is left out.
void look_after_poll() {
  if (rt().spans_nodes) drive_progress_in_spin();
}

}  // namespace

void init(const char* call) {
  const Runtime& r = rt();
  std::vector<size_t> per_node(static_cast<size_t>(r.nodes), 0);
  for (int node : r.node_of) ++per_node[static_cast<size_t>(node)];
  lane_count = *std::max_element(per_node.begin(), per_node.end());
  const size_t bytes = lanes_start() + lane_count * sizeof(Lane);
  void* memory = heap_allocate(call, bytes, 64);
  if (!memory) fatal(call, "no room in the symmetric heap for the notification lanes (%zu bytes)", bytes);
  char* area = static_cast<char*>(memory);
  my_joined = joined_at(area);
  my_lanes = lanes_at(area);
  // Zero-filled, as the heap is at init: heads and slots at 0, bitmap empty.
  lanes_offset = static_cast<size_t>(area - r.heap.base);
  my_lane = r.local_index;
  sent.reset(static_cast<size_t>(r.n_pes));
}

void deliver(int source, int tag) {
  StateLock lock;
  deliver_locked(source, tag);
}

void publish(const char* call, int pe, int tag) {
  char* base = rt().heap.peer_base[static_cast<size_t>(pe)];
  if (!base) fatal(call, "internal error: PE %d shares no memory with this PE", pe);
  char* area = base + lanes_offset;
  Lane& lane = lanes_at(area)[my_lane];
  Sent& to = sent.at(static_cast<size_t>(pe));
  // Another thread of this PE may publish to the same PE (SHMEM_THREAD_MULTIPLE, or the
  // progress thread's held copies): then the count is claimed atomically, in this process's
  // own memory.
  uint64_t t;
  if (shared_state()) {
    t = to.count.fetch_add(1, std::memory_order_relaxed);
  } else {
    t = to.count.load(std::memory_order_relaxed);
    to.count.store(t + 1, std::memory_order_relaxed);
  }
  // The first notification sets this PE's bit there; one that another thread claimed after
  // it and stores first waits in its slot until the bit is set, as the target drains a lane
  // in order from slot 0.
  if (t == 0)
    joined_at(area)[static_cast<size_t>(my_lane) / 64].fetch_or(1ull << (my_lane % 64), std::memory_order_release);
  // The head last read from the lane: a lower bound, so reading the real one (a line the
  // target writes) is needed only when it says the slot may still be in use.
  if (t - to.head_seen.load(std::memory_order_relaxed) >= kLaneSlots) {
    uint64_t head = lane.head.load(std::memory_order_acquire);
    if (t - head >= kLaneSlots) {
      Backoff backoff(call);  // its progress drains this PE's own lanes, which may hold the target back
      while (t - (head = lane.head.load(std::memory_order_acquire)) >= kLaneSlots) backoff.pause();
    }
    uint64_t old = to.head_seen.load(std::memory_order_relaxed);
    while (old < head && !to.head_seen.compare_exchange_weak(old, head, std::memory_order_relaxed)) {
    }
  }
  lane.slots[t % kLaneSlots].store(slot_word(t, tag), std::memory_order_release);
}

void poll() {
  // Its own look, inline, not any_ready(): every wait's every turn comes here, mostly to find
  // nothing, and with any_ready() (inline or not) the waits of other kinds saw their word
  // change later once notifications had joined the lanes (signal, fence and flag ping-pongs
  // on 2 cores: 0.30-0.33 us a half round trip against 0.24-0.29 with this loop, the
  // instructions the same but for their order).
  if (!my_lanes) return;
  for (size_t w = 0, words = joined_words(); w < words; ++w) {
    for (uint64_t bits = my_joined[w].load(std::memory_order_acquire); bits; bits &= bits - 1) {
      if (!ready(static_cast<int>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits))))) continue;
      const StateLock lock(true);  // a drain already under way delivers this one too
      if (lock.owns()) drain_locked(true);
      return;
    }
  }
}

int request_init(int source_pe, int tag, int expected_count, shmemx_notify_t* req) {
  check_ready("shmemx_notify_init");
  if (!req) return SHMEMX_NOTIFY_ERR_REQUEST;
  if (source_pe != SHMEMX_ANY_PE && (source_pe < 0 || source_pe >= rt().n_pes)) return SHMEMX_NOTIFY_ERR_PE;
  if (tag != SHMEMX_ANY_TAG && tag < 0) return SHMEMX_NOTIFY_ERR_TAG;
  if (expected_count < 1) return SHMEMX_NOTIFY_ERR_COUNT;
  Request* r = new Request;
  r->source = source_pe;
  r->tag = tag;
  r->expected = expected_count;
  const std::vector<int>& local = rt().local_pes;
  const auto at = std::lower_bound(local.begin(), local.end(), source_pe);
  if (source_pe != SHMEMX_ANY_PE && at != local.end() && *at == source_pe) r->lane = static_cast<int>(at - local.begin());
  *req = r;
  return SHMEMX_NOTIFY_SUCCESS;
}

int request_start(shmemx_notify_t r) {
  check_ready("shmemx_notify_start");
  if (!valid(r)) return SHMEMX_NOTIFY_ERR_REQUEST;
  StateLock lock;
  if (r->state != State::Inactive) return SHMEMX_NOTIFY_ERR_ACTIVE;
  if (any_ready()) drain_locked(false);  // a look first: a start mostly finds the lanes empty
  r->counted = 0;
  r->state.store(State::Active, std::memory_order_relaxed);
  // Notifications that arrived before the start: no started request matched them.  A request
  // without a wildcard looks at its own pair only.
  const bool exact_pair = r->source != SHMEMX_ANY_PE && r->tag != SHMEMX_ANY_TAG;
  auto take_unexpected = [r](uint64_t key, Pair& p) {
    if (p.unexpected == 0 || r->counted == r->expected || !r->matches(source_of(key), tag_of(key))) return;
    const uint64_t n = std::min<uint64_t>(p.unexpected, static_cast<uint64_t>(r->expected - r->counted));
    r->counted += static_cast<int>(n);
    r->last_source = source_of(key);
    r->last_tag = tag_of(key);
    p.unexpected -= n;
    unexpected -= n;
  };
  // One lookup serves an exact pair both ways: its count, then its queue.
  const uint64_t key = exact_pair ? pack(r->source, r->tag) : 0;
  Pair* pair = exact_pair ? pair_entry(key) : nullptr;
  if (unexpected > 0 && pair) take_unexpected(key, *pair);
  else if (unexpected > 0) pairs.for_each(take_unexpected);
  if (r->counted < r->expected) {
    r->started = ++starts;
    if (pair) pair->queue.push(r);
    else wildcard.push_back(r);
    return SHMEMX_NOTIFY_SUCCESS;
  }
  r->state.store(State::Complete, std::memory_order_release);
  return SHMEMX_NOTIFY_SUCCESS;
}

int request_test(shmemx_notify_t r, int* flag, shmemx_notify_status_t* status) {
  check_ready("shmemx_notify_test");
  if (!flag || !valid(r)) return SHMEMX_NOTIFY_ERR_REQUEST;
  if (r->state.load(std::memory_order_acquire) == State::Inactive) return SHMEMX_NOTIFY_ERR_INACTIVE;
  poll();
  look_after_poll();
  *flag = take(r, status);
  return SHMEMX_NOTIFY_SUCCESS;
}

namespace {

// A wait for one request from a node peer looks at that peer's lane first: what it holds is
// delivered in the lane's order, as a drain would, without the walk over every lane (with
// the backoff made only at the first pause, a wait that finds its notification ran 328
// instructions instead of 408).  An empty lane gets the whole poll, so the other lanes
// still drain at every turn of a wait.
void poll_lane_first(const Request* r) {
  if (!my_lanes || !ready(r->lane)) return poll();
  const StateLock lock(true);
  if (lock.owns()) drain_lane(r->lane, true);
}

// shmemx_notify_waitany (`index` given) and shmemx_notify_wait (one request, no index).
// Requests complete in the lanes' drain (poll(), also at every pause) and in the network's
// progress (every pause); the loop takes a completed one back without the lock.  A request
// complete at once gets the look of a wait whose condition already holds (look_after_poll()).
int wait_any(const char* call, int n, shmemx_notify_t reqs[], int* index, shmemx_notify_status_t* status) {
  const bool any = index != nullptr;
  // One request from a node peer, on a node: each turn looks at its lane first, in place of
  // the pause's progress (which is poll() there).  Otherwise each pause drains the lanes.
  const Request* lane_first = n == 1 && valid(reqs[0]) && reqs[0]->lane >= 0 && !rt().spans_nodes ? reqs[0] : nullptr;
  lane_first ? poll_lane_first(lane_first) : poll();
  std::optional<Backoff> backoff;  // made at the first pause: most waits on a node need none
  for (bool at_once = true;; at_once = false) {
    bool waiting = false;
    for (int i = 0; i < n; ++i) {
      Request* r = reqs[i];
      if (!r && any) continue;  // waitany skips null entries, as inactive ones
      if (!valid(r)) return SHMEMX_NOTIFY_ERR_REQUEST;
      if (take(r, status)) {
        if (any) *index = i;
        if (at_once) look_after_poll();
        return SHMEMX_NOTIFY_SUCCESS;
      }
      waiting |= r->state.load(std::memory_order_relaxed) != State::Inactive;
    }
    if (!waiting) {
      if (!any) return SHMEMX_NOTIFY_ERR_INACTIVE;
      *index = SHMEMX_NOTIFY_UNDEFINED;
      return SHMEMX_NOTIFY_SUCCESS;
    }
    if (!backoff) lane_first ? backoff.emplace(Backoff::without_progress()) : backoff.emplace(call);
    backoff->pause();
    if (lane_first) poll_lane_first(lane_first);
  }
}

}  // namespace

int request_wait(shmemx_notify_t r, shmemx_notify_status_t* status) {
  check_ready("shmemx_notify_wait");
  return wait_any("shmemx_notify_wait", 1, &r, nullptr, status);
}

int request_waitany(int n, shmemx_notify_t reqs[], int* index, shmemx_notify_status_t* status) {
  check_ready("shmemx_notify_waitany");
  if (n < 0) return SHMEMX_NOTIFY_ERR_COUNT;
  if (n > 0 && (!reqs || !index)) return SHMEMX_NOTIFY_ERR_REQUEST;
  if (n == 0) {
    if (index) *index = SHMEMX_NOTIFY_UNDEFINED;
    return index ? SHMEMX_NOTIFY_SUCCESS : SHMEMX_NOTIFY_ERR_REQUEST;
  }
  return wait_any("shmemx_notify_waitany", n, reqs, index, status);
}

int request_free(shmemx_notify_t* req) {
  check_ready("shmemx_notify_free");
  if (!req) return SHMEMX_NOTIFY_ERR_REQUEST;
  StateLock lock;
  Request* r = *req;
  if (!valid(r)) return SHMEMX_NOTIFY_ERR_REQUEST;
  if (r->state == State::Active) return SHMEMX_NOTIFY_ERR_ACTIVE;
  r->magic = 0;
  delete r;
  *req = nullptr;
  return SHMEMX_NOTIFY_SUCCESS;
}

}  // namespace tandem::notify
