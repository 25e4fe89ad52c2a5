#include "coll/nbc.h"

#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "coll/collectives.h"
#include "core/backoff.h"
#include "core/error.h"
#include "core/fiber.h"
#include "core/handle_table.h"
#include "core/spin_lock.h"

// shmemx_req_h points to a tandem_req: the Request that a post made.
struct tandem_req {
  long reserved;
};

namespace tandem::coll {

namespace {

struct Request {
  Request(const char* call, const Body& body, Span dest, Span source)
      : call(call), body(body), dest(dest), source(source) {}
  const char* call;
  Body body;
  Span dest, source;
  std::atomic<bool> done{false};
};

// The handles: a completed request's slot is free again, so a handle tested or waited after
// its completion is no live request (unless a later post took the slot meanwhile).
using RequestTable = HandleTable<Request, 1 << 20>;
RequestTable& requests() { return Singleton<RequestTable>::get(); }

// A team's requests, in the order posted; the first runs on `fiber` once begun.  A lane
// and its fiber outlive the team's requests, for the next team's: a request takes no stack
// of its own.
struct Lane {
  Lane() { fiber.set_data(&scratch); }
  Team* team = nullptr;
  std::deque<Request*> queue;
  Fiber fiber;  // done() until the front request begins on it, and once it has returned
  Scratch scratch;  // the running request's working memory (coll::scratch)
};

// Guards the lanes and the fibers: the thread that holds it resumes them.  A spin lock, as
// the request table's: a post takes it once and a test or wait once per turn, and a std::mutex
// cost a request alone 0.012 us more (an 8 B fcollect posted and waited on 1 PE, 2M calls, 6
// alternating jobs: 0.170-0.183 us against 0.180-0.200).  A thread that finds it taken while
// another resumes the fibers waits as long either way.
SpinLock lanes_mutex;
std::vector<std::unique_ptr<Lane>> lanes;

Lane& lane_of(Team& team) {
  for (auto& lane : lanes)
    if (lane->team == &team) return *lane;
  for (auto& lane : lanes)
    if (!lane->team) {
      lane->team = &team;
      return *lane;
    }
  lanes.push_back(std::make_unique<Lane>());
  lanes.back()->team = &team;
  return *lanes.back();
}

// Runs the lane's first request until it waits; a request that completes makes way for the
// next, which starts at once.  Returns true where the running one waits for this node's
// memory.  `lanes_mutex` held.
bool run_lane(Lane& lane) {
  while (!lane.queue.empty()) {
    Request* r = lane.queue.front();
    if (lane.fiber.done()) lane.fiber.start(&Body::run, &r->body);
    if (!lane.fiber.resume()) return !lane.fiber.waits_on_network();
    lane.queue.pop_front();
    r->done.store(true, std::memory_order_release);
    background_requests.fetch_sub(1, std::memory_order_relaxed);
  }
  lane.team = nullptr;  // free for another team
  return false;
}

// Runs every lane; `lanes_mutex` held.
bool run_lanes() {
  bool local = false;
  for (auto& lane : lanes)
    if (lane->team) local |= run_lane(*lane);
  return local;
}

// A PE thread's call of the requests' routines: on one node, its progress thread stops
// serving them (background_calls).  What matters is that the count moves, so no locked
// add: two threads' calls at once may count one.
void count_call() {
  background_calls.store(background_calls.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

// A call that found its work done, or posted without waiting: the progress thread keeps off
// (Runtime::present).
void note_present() {
  if (void (*present)() = rt().present) present();
}

bool resume_if_free() {
  std::unique_lock<SpinLock> lock(lanes_mutex, std::try_to_lock);
  return lock.owns_lock() && run_lanes();
}

bool overlaps(Span a, Span b) {
  if (a.bytes == 0 || b.bytes == 0) return false;
  const auto* x = static_cast<const char*>(a.start);
  const auto* y = static_cast<const char*>(b.start);
  return x < y + b.bytes && y < x + a.bytes;
}

// SHMEM_DEBUG: a request's buffers must not overlap what a request in flight writes, nor
// its dest what one reads.  `lanes_mutex` held.
void check_overlaps(const char* call, const Request& r) {
  for (auto& lane : lanes)
    for (const Request* other : lane->queue) {
      const char* what = overlaps(r.dest, other->dest)     ? "dest overlaps the dest"
                         : overlaps(r.source, other->dest) ? "source overlaps the dest"
                         : overlaps(r.dest, other->source) ? "dest overlaps the source"
                                                           : nullptr;
      if (what)
        fatal(call, "%s of a %s still in flight (its buffers belong to it until it completes)", what, other->call);
    }
}

Request* live_request(const char* call, shmemx_req_h req) {
  if (!requests().live(req))
    fatal(call, "req = %p is no request in flight: completed already (a request is waited or tested complete once), "
          "or never made by a nonblocking collective", static_cast<void*>(req));
  return reinterpret_cast<Request*>(req);
}

// Completes the requests that `done` waits for, resuming them meanwhile.
template <typename Done>
void wait_until(const char* call, Done done) {
  count_call();
  if (done()) return note_present();
  background_waiters.fetch_add(1, std::memory_order_relaxed);
  Backoff backoff(call);  // its pauses resume the requests (run_background)
  while (!done()) backoff.pause();
  background_waiters.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace

shmemx_req_h post(const char* call, Team& team, const Body& body, Span dest, Span source) {
  if (Fiber::current()) fatal(call, "internal error: a collective posted from a collective's fiber");
  if (void (*posted)() = rt().posted) posted();
  count_call();
  Request* r = requests().create(call, body, dest, source);
  if (!r) fatal(call, "more than %d requests in flight", 1 << 20);
  {
    std::lock_guard<SpinLock> lock(lanes_mutex);
    if (rt().config.debug) check_overlaps(call, *r);
    Lane& lane = lane_of(team);
    lane.queue.push_back(r);
    background_requests.fetch_add(1, std::memory_order_relaxed);
    if (lane.queue.size() == 1) (void)run_lane(lane);
  }
  note_present();
  return reinterpret_cast<shmemx_req_h>(r);
}

int test(const char* call, shmemx_req_h* req) {
  if (!req) fatal(call, "req = NULL");
  if (*req == SHMEMX_REQ_NULL) return 1;
  Request* r = live_request(call, *req);
  count_call();
  if (r->done.load(std::memory_order_acquire)) {
    note_present();
  } else {
    // The look of drive_progress_in_spin, where it looks, resumes the requests after it;
    // otherwise they are resumed here, once.
    if (!drive_progress_in_spin()) (void)resume_if_free();
    if (!r->done.load(std::memory_order_acquire)) return 0;
  }
  requests().destroy(r);
  *req = SHMEMX_REQ_NULL;
  return 1;
}

void wait(const char* call, shmemx_req_h* req) {
  if (!req) fatal(call, "req = NULL");
  if (*req == SHMEMX_REQ_NULL) return;
  Request* r = live_request(call, *req);
  wait_until(call, [&] { return r->done.load(std::memory_order_acquire); });
  requests().destroy(r);
  *req = SHMEMX_REQ_NULL;
}

void wait_all(const char* call, size_t count, shmemx_req_h* reqs) {
  if (count > 0 && !reqs) fatal(call, "reqs = NULL with count = %zu", count);
  for (size_t i = 0; i < count; ++i)
    if (reqs[i] != SHMEMX_REQ_NULL) live_request(call, reqs[i]);
  for (size_t i = 0; i < count; ++i) wait(call, &reqs[i]);
}

void settle(const char* call, Team& team) {
  wait_until(call, [&] {
    std::lock_guard<SpinLock> lock(lanes_mutex);
    for (auto& lane : lanes)
      if (lane->team == &team) return false;
    return true;
  });
}

void settle_all(const char* call) {
  wait_until(call, [] { return background_requests.load(std::memory_order_relaxed) == 0; });
}

// Every wait of the PE resumes the requests.
[[maybe_unused]] const bool registered = [] {
  run_background = resume_if_free;
  return true;
}();

}  // namespace tandem::coll
