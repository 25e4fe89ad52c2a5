// The nonblocking collectives (man 7 tandem_nbc): each is a request that runs the blocking
// collective's own algorithm on a fiber (core/fiber.h), which yields wherever the algorithm
// would wait for a peer.  So every algorithm of collectives.cc, node-aware, stamped and
// direct, serves both forms, and a request alone takes the blocking routine's time.
//
// A team's requests run one at a time, in the order they were posted: every PE of the team
// posts them in the same order, and one at a time each takes the team's stamps and banks in
// that order as the blocking routines do.  Requests on different teams run side by side.  A
// blocking collective on a team (or its sync, split or destruction) first completes the
// team's requests; finalize completes every request.
//
// What resumes them: the request's test and wait, any wait of the PE in the library
// (Backoff::pause calls run_background(), core/backoff.h), and the progress thread while no
// PE thread waits for them, which sleeps on the network's traffic while every fiber waits
// for another node and polls briefly while one waits for this node's memory; on a node that
// holds every PE, the thread that a PE's first post starts, once a node peer's wait rang it
// (nbi/progress_thread.cc).  The fibers are resumed under one lock, by one thread at a
// time; a thread that finds it taken goes on with its own work.
#pragma once

#include <shmemx.h>

#include <cstddef>
#include <new>
#include <type_traits>

#include "coll/team.h"

namespace tandem::coll {

// A byte range that a request writes or reads, for SHMEM_DEBUG's overlap check.
struct Span {
  const void* start = nullptr;
  size_t bytes = 0;
};

// What a request runs: the collective with its arguments (a lambda that builds its Group on
// the fiber), kept inside the request, so that a post allocates nothing.  A copy of its bytes
// is a copy of it: lambdas of pointers and sizes.
class Body {
 public:
  static constexpr size_t kBytes = 96;
  template <typename F>
  explicit Body(F f) : run_([](void* bytes) { (*static_cast<F*>(bytes))(); }) {
    static_assert(sizeof(F) <= kBytes && alignof(F) <= alignof(std::max_align_t), "a request's body is too large");
    static_assert(std::is_trivially_copyable_v<F> && std::is_trivially_destructible_v<F>,
                  "a request's body holds only values and references");
    new (bytes_) F(f);
  }
  // Runs the body at `body` (a Body*): a fiber's entry.
  static void run(void* body) {
    Body* b = static_cast<Body*>(body);
    b->run_(b->bytes_);
  }

 private:
  void (*run_)(void*);
  alignas(std::max_align_t) unsigned char bytes_[kBytes];
};

// Posts `body` as a request on `team`; `dest` is what it writes, `source` what it reads.
// Runs it until its first wait, and returns its handle.
shmemx_req_h post(const char* call, Team& team, const Body& body, Span dest, Span source);

// shmemx_req_test, shmemx_req_wait, shmemx_req_waitall.
int test(const char* call, shmemx_req_h* req);
void wait(const char* call, shmemx_req_h* req);
void wait_all(const char* call, size_t count, shmemx_req_h* reqs);

// Completes every request (finalize); settle() in team.h, a team's.
void settle_all(const char* call);

}  // namespace tandem::coll
