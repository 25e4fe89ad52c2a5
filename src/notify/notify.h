// Notified access: the target side (matching notifications with persistent requests) and
// the intra-node delivery (lanes in shared memory: one per node peer at each PE).
//
// A notification is (source PE, tag).  A node peer publishes its own into its lane at the
// target: one word stored into the next slot, which only that peer writes; no atomic
// read-modify-write (but once, when a peer first notifies a PE), no lock, no system call.  A
// full lane holds its publisher back until the target drains it (back-pressure: nothing is
// dropped).  PEs on other nodes deliver theirs as the remote CQ data of a network write,
// which the target's progress hands to deliver().  The target drains its lanes whenever it
// waits for anything (every wait's progress), so a publisher cannot be held back by a target
// that waits on it.
//
// Arrivals are matched against the started requests in the order they were started; one
// that matches none is counted in the unexpected table, per (source, tag), until a request
// started later takes it.  Counts, not entries: the table holds one line per pair seen.
#pragma once

#include <cstdint>

#include <shmemx.h>

namespace tandem::notify {

// At shmem_init, on every PE before the barrier that ends it: this PE's lanes in the
// symmetric heap, at the same offset on every PE.
void init(const char* call);
// Records a notification from `source` with `tag` that has arrived at this PE.
void deliver(int source, int tag);
// Publishes a notification from this PE with `tag` into its lane at node peer `pe` (this PE
// itself included), after the data it covers is visible there.
void publish(const char* call, int pe, int tag);
// Drains this PE's lanes, if they hold anything and no other thread is at it.  Cheap when
// empty: every wait calls it.
void poll();

// The 8 bytes of remote CQ data that carry a notification over the network, and back.
inline uint64_t pack(int source, int tag) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(source)) << 32) | static_cast<uint32_t>(tag);
}
inline int source_of(uint64_t data) { return static_cast<int>(static_cast<uint32_t>(data >> 32)); }
inline int tag_of(uint64_t data) { return static_cast<int>(static_cast<uint32_t>(data)); }

// The request routines (shmemx_notify_*): argument checks, then matching.
int request_init(int source_pe, int tag, int expected_count, shmemx_notify_t* req);
int request_start(shmemx_notify_t req);
int request_wait(shmemx_notify_t req, shmemx_notify_status_t* status);
int request_test(shmemx_notify_t req, int* flag, shmemx_notify_status_t* status);
int request_waitany(int n, shmemx_notify_t reqs[], int* index, shmemx_notify_status_t* status);
int request_free(shmemx_notify_t* req);

}  // namespace tandem::notify
