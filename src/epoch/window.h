// MPI-style epochs over symmetric memory (shmemx_win_*, man 7 tandem_epochs).
//
// A window is a symmetric object and a team.  Its puts, gets and accumulates (each element
// updated atomically, as by an AMO of its type, so concurrent accumulates to one element
// all count) happen inside epochs: fence epochs (collective over the team), access epochs
// towards the targets named by shmemx_win_start, each opened by the target's
// shmemx_win_post, and lock epochs towards one target.  A fence completes the epoch's
// operations and then waits at a barrier of the team.  Closing an access or lock epoch completes its operations, then updates a word on each
// target: its count of completed access epochs (shmemx_win_wait waits for it) or its lock.
//
// When an operation is carried out is the issue strategy's choice (TANDEM_EPOCH_STRATEGY;
// perf/README.md has the figures):
//   adaptive (the default) eager, except that an access epoch opens a target as hybrid does
//           (an epoch of a few operations waits for the post once, at its end, and the last
//           put of those that waited carries the target's update, as under lazy), and that
//           accumulates of up to 16 elements that fold are staged as under lazy where each
//           would be a network message (a message of microseconds against tens of
//           nanoseconds of queueing) and, to CPU atomics, while trials show that they fold.
//           On the networks measured here lazy and hybrid save no message on puts and start
//           their transfers later;
//   lazy    every operation is queued and issued by the closing call, which holds back the
//           last put to each target to carry that target's update: no message of its own,
//           but nothing overlaps the caller's computation.  Small queued accumulates are
//           folded per element (staged) and issued as runs of neighbouring elements: one
//           network atomic for many calls;
//   eager   every operation is issued at once, once its target is open (the fence passed,
//           the target's post arrived, the lock granted), and each update travels alone;
//   hybrid  lazy until TANDEM_EPOCH_QUEUE operations wait for one target, then that target
//           is opened and served at once for the rest of the epoch, its last put still
//           carrying the update.
// Every issued operation is an nbi Op of the scheduler, so large copies to node peers are
// held and run while the network carries the rest.
//
// Locks prefer writers: while an exclusive request waits (counted in the lock word), shared
// requests are not granted, so the exclusive one waits only for the shared holders of the
// moment, never for a stream of new ones.
//
// The symmetric part of a window is one slot of the window area (taken from the heap at
// shmem_init): a count of completed access epochs, a lock word, and per PE the exposure
// epochs it opened to this one.  A window takes the lowest slot free on every PE of its
// team (none free: shmemx_win_create returns non-zero); freeing it zeroes the slot again.
#pragma once

#include <shmem.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "coll/team.h"
#include "core/flat_table.h"
#include "nbi/op.h"
#include "transport/shm.h"

namespace tandem::epoch {

enum class LockType { None = 0, Exclusive = 1, Shared = 2 };  // SHMEMX_WIN_LOCK_*

// Applies an accumulate: `op` with source[i] on element i of the array at `remote`, for
// `nelems` elements of one type.
using AccumulateFn = void (*)(const char* call, const tandem::Target& remote, tandem::shm::AmoOp op,
                              const void* source, size_t nelems);
// Folds a later accumulate's operand into an earlier one's for the same element (`op` on
// one type), so that one update carries both; nullptr where the type and operation do not
// fold (a floating-point sum, whose rounding would change).
using CombineFn = void (*)(void* into, const void* later, tandem::shm::AmoOp op);

// Collective over all PEs, during shmem_init: takes the window area (TANDEM_WINDOWS slots)
// from the heap.
void windows_init(const char* call);
// The bytes of symmetric heap that the area of `windows` slots takes with `n_pes` PEs.
size_t window_area_bytes(size_t windows, int n_pes);

}  // namespace tandem::epoch

struct tandem_win {
  using LockType = tandem::epoch::LockType;

  // Collective over `team`: a window on [base, base + size), or nullptr (every PE of the
  // team) when no slot is free on all of them.
  static tandem_win* create(const char* call, tandem::Team& team, void* base, size_t size);
  // Collective over the team; no epoch may be open.
  void free(const char* call);

  // A put (from `local` to `remote`) or get (the other way) with the window's object on team
  // rank `rank`.
  void transfer(const char* call, tandem::Op::Kind kind, void* local, const void* remote, size_t bytes, int rank);
  // An accumulate of `nelems` elements of `element_bytes` each from `source` into `dest` on
  // team rank `rank`, carried out by `apply`.
  void accumulate(const char* call, tandem::epoch::AccumulateFn apply, tandem::epoch::CombineFn combine,
                  tandem::shm::AmoOp op, void* dest, const void* source, size_t nelems, size_t element_bytes,
                  int rank);

  void fence(const char* call);
  void post(const char* call, const int* ranks, int count);
  void start(const char* call, const int* ranks, int count);
  void complete(const char* call);
  // Whether every access epoch towards this PE that its exposure epoch expects has been
  // completed; `wait`: until it has.  True closes the exposure epoch.
  bool end_exposure(const char* call, bool wait);
  void lock(const char* call, LockType type, int rank);
  void unlock(const char* call, int rank);

 private:
  // How an operation to one target travels in the current epoch.
  enum class Epoch { None, Fence, Access, Lock };
  // An operation waiting for its target: a put or get for the scheduler, or an accumulate
  // (`apply` set, with `combine` where it folds; op.local is the source and op.bytes its
  // size).
  struct Pending {
    tandem::Op op;
    tandem::epoch::AccumulateFn apply = nullptr;
    tandem::epoch::CombineFn combine = nullptr;
    tandem::shm::AmoOp amo = tandem::shm::AmoOp::Set;
    size_t nelems = 0;
  };
  // A queued accumulate's element, folded with the later ones to it until the queue is
  // issued (lazy, hybrid): the element, its operation and its operand.
  struct Staged {
    tandem::Target element;
    tandem::epoch::AccumulateFn apply;  // also names the type: elements fold with its combine
    tandem::shm::AmoOp op;
    uint32_t bytes;
    uint64_t operand;  // the element's bytes
  };
  struct Target {
    std::vector<Pending> queued;  // not issued yet
    std::vector<Staged> staged;   // queued accumulates, by element; they follow `queued`
    tandem::FlatTable<size_t> staged_at;  // staged's index by element offset
    uint64_t staged_first = 0, staged_end = 0;      // the offsets staged spans (when not empty)
    // Adaptive issue to CPU atomics: whether small accumulates are staged, the element
    // updates staged and the elements they were folded into since the last verdict, and
    // the calls issued at once since the last trial.
    bool fold_locally = false;
    uint64_t fold_updates = 0, fold_elements = 0;
    uint64_t calls_at_once = 0;
    std::deque<std::vector<char>> operands;  // of unstaged accumulates, until the epoch's end
    tandem::Op kept{};            // issued last: the signal rides on it (lazy, hybrid)
    bool has_kept = false;
    bool touched = false;  // an operation went (or goes) to it in this epoch
    bool quiet_first = false;  // a get or an accumulate went to it: its close quiets first
    bool open = false;     // issue at once: the target is ready for this epoch's operations
    bool in_access = false;          // in the group of the current shmemx_win_start
    uint64_t accesses = 0;           // access epochs towards it so far (matches its posts)
    LockType lock = LockType::None;  // the lock this PE holds, or asked for, on it
  };

  tandem_win(tandem::Team& team, int slot, char* base, size_t size);
  Epoch epoch_of(int rank) const;
  void check_rank(const char* call, int rank) const;
  // Whether a target goes back to an open fence epoch when its access or lock epoch ends:
  // with eager issue, every target of a fence epoch is open.
  bool fence_open() const;
  // Whether targets are opened, and operations issued, as soon as the epoch allows.
  bool at_once() const;
  // Checks that [remote, remote + bytes) lies in the window, and says where it is on `rank`.
  tandem::Target in_window(const char* call, const char* what, const void* remote, size_t bytes, int rank) const;
  // Issues `pending` at once where its target is open, else queues it (an accumulate is
  // staged).
  void submit(const char* call, const Pending& pending, int rank);
  // Adaptive issue to an open target: stages a small accumulate that folds and would cost a
  // network message (or folded in the last trial), issues anything else at once (after what
  // is queued or staged for the elements it touches).
  void adapt(const char* call, const Pending& pending, int rank);
  // Queues an accumulate that is not issued at once: folded element by element where it
  // folds, as a Pending otherwise.
  void stage(const Pending& pending, int rank);
  // Appends `rank`'s staged elements to its queue as accumulates of contiguous runs, their
  // operands in its `operands`.
  void unstage(int rank);
  // Issues `pending` now: a put becomes the kept one (the earlier kept put is issued) unless
  // the strategy is eager.
  void issue(const char* call, const Pending& pending, int rank);
  // Makes `rank` ready for this epoch's operations (waits for its fence, its post, or its
  // lock), then issues what waits for it.
  void open(const char* call, int rank, Epoch kind);
  // Issues what is queued for `rank`.
  void flush(const char* call, int rank);
  // Closes the epoch towards `ranks`: opens those not open yet (the post awaited, the lock
  // taken), issues what waits, completes it, then adds
  // signal_value(rank) to each rank's word at signal_word(rank), on the last put to it when
  // there is one.
  template <typename Word, typename Value>
  void close(const char* call, const std::vector<int>& ranks, Word signal_word, Value signal_value);
  void acquire(const char* call, int rank);

  tandem::Team* team_;
  int slot_;
  char* base_;
  size_t size_;
  std::vector<Target> targets_;  // by team rank
  bool fenced_ = false;          // a fence opened a fence epoch
  bool access_ = false;              // between start and complete
  std::vector<int> access_group_;    // the ranks named by start
  bool exposure_ = false;            // between post and wait
  uint64_t completes_expected_ = 0;  // access epochs that exposure epochs opened to this PE
  int locks_ = 0;                    // targets locked
  bool closing_ = false;             // close() issues what waited for it (issue())
};
