// The PE's runtime state, made once by shmem_init.  Reads on the hot path (resolving a
// symmetric address on a peer) are inline and lock-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/awaited_pe.h"
#include "core/config.h"
#include "core/error.h"
#include "core/singleton.h"

namespace tandem {

// One symmetric segment (the heap, or the executable's globals): this PE's copy and the
// mapped copies of node peers (nullptr for PEs on other nodes).
struct Segment {
  char* base = nullptr;
  size_t size = 0;
  std::vector<char*> peer_base;

  bool contains(const void* p) const {
    return static_cast<size_t>(static_cast<const char*>(p) - base) < size;
  }
};

struct Runtime {
  bool initialized = false;
  bool finalized = false;
  int init_count = 0;
  int thread_level = 0;
  int my_pe = -1;
  int n_pes = 0;
  int node = 0;                 // this PE's node index
  std::vector<int> node_of;     // node index of every PE
  int nodes = 1;                // how many nodes the PEs span
  std::vector<int> local_pes;   // PEs of this node, ascending
  int local_index = 0;          // this PE's place in local_pes
  int machine_pes = 0;          // PEs on this machine (virtual nodes share it)
  int my_machine_index = 0;     // this PE's rank among them
  bool oversubscribed = false;  // more PEs on this machine than cores for them
  Config config;

  Segment heap;
  Segment data;
  uint64_t* agreement = nullptr;  // symmetric scratch for SHMEM_DEBUG's collective checks
  bool spans_nodes = false;       // some PEs are reached only through the network
  // Drives the network's progress while a PE waits in `call` for `awaited` (set when the
  // network is in use; the network timeout's message names `call`).
  void (*progress)(const char* call, AwaitedPe* awaited) = nullptr;
  // One cheap look for calls that look at memory once (see drive_progress()): the
  // notification ring's head, and with PEs on other nodes one read of the network's
  // completion queue.  Null before init.
  void (*look)() = nullptr;
  // A call in the library that neither waits nor looks: the progress thread keeps off
  // (ofi::Transport::note_present()).  Null without one.
  void (*present)() = nullptr;
  // Rings the doorbell of world PE `pe` on another node (ofi::Transport::nudge()): a
  // nonblocking collective of this PE has waited a while for that PE's part, which its
  // progress thread then serves.  Null without a progress thread.
  void (*nudge)(int pe) = nullptr;
  bool progress_thread = false;  // a progress thread serves the network when the PE does not
  // The same for node peer `pe` (-1: every node peer), ring_node: across nodes it rings the
  // peer's doorbell too; on a node that holds every PE its bell, a word of symmetric memory
  // (this PE's: `bell`) on which the progress thread that `posted` starts at a PE's first
  // nonblocking collective sleeps (nbi/progress_thread.h).  Null with the thread off.
  uint32_t* bell = nullptr;
  void (*ring_node)(int pe) = nullptr;
  void (*posted)() = nullptr;

  bool is_local(int pe) const { return heap.peer_base[static_cast<size_t>(pe)] != nullptr; }
  // Calls f(p) for node peer `pe`, or for every node peer where `pe` is -1 (ring_node's
  // argument); never for this PE.
  template <typename F>
  void each_node_peer(int pe, F f) const {
    if (pe >= 0) {
      if (pe != my_pe) f(pe);
      return;
    }
    for (int p : local_pes)
      if (p != my_pe) f(p);
  }
};

inline Runtime& rt() { return Singleton<Runtime>::get(); }

// Whether the calling thread is the PE's progress thread (nbi/progress_thread.h), which sets
// it as it starts: its turns of progress are not the PE's (ofi::PeActivity), and on one node
// it leaves the PE's unlocked state alone (notify.cc).
inline bool& on_progress_thread() {
  thread_local bool is = false;
  return is;
}

// Checks common to every communication call: initialised, pe in range.
inline void check_ready(const char* call) {
  if (__builtin_expect(!rt().initialized, 0))
    fatal(call, "called before shmem_init (or after shmem_finalize)");
}
inline void check_pe(const char* call, int pe) {
  if (__builtin_expect(pe < 0 || pe >= rt().n_pes, 0))
    fatal(call, "pe = %d is out of range: expected 0 <= pe < %d", pe, rt().n_pes);
}

// A transfer of zero bytes moves nothing and looks at no buffer (the specification asks for
// no check of them, so NULL or any address will do); the PE must still exist.  Returns true
// when there is nothing to move.
inline bool nothing_to_move(const char* call, size_t bytes, int pe) {
  if (__builtin_expect(bytes != 0, 1)) return false;
  check_ready(call);
  check_pe(call, pe);
  return true;
}

// A NULL buffer with a non-zero length is an error.
inline void check_buffer(const char* call, const char* what, const void* p, size_t len) {
  if (__builtin_expect(p == nullptr && len != 0, 0))
    fatal(call, "%s is NULL with a transfer of %zu bytes", what, len);
}

}  // namespace tandem
