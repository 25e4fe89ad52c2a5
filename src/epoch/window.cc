#include "epoch/window.h"

#include <algorithm>
#include <cstring>

#include "core/backoff.h"
#include "core/runtime.h"
#include "epoch/window_slot.h"
#include "mem/symmetric.h"
#include "mem/target.h"
#include "nbi/scheduler.h"
#include "transport/shm.h"

using tandem::Op;
using tandem::scheduler;
namespace shm = tandem::shm;

namespace tandem::epoch {

namespace {

constexpr size_t kStagedMost = 16;                // larger accumulates are queued whole
char* area = nullptr;  // TANDEM_WINDOWS slots, symmetric
size_t slot_bytes = 0;
SlotSet used_slots;

using Strategy = Config::EpochStrategy;
Strategy strategy() { return rt().config.epoch_strategy; }

// Adaptive issue to a target whose atomics are CPU atomics (a node peer, PEs on one node):
// small accumulates go at once; every kRetry of them, the next kFoldSample element updates
// are staged instead, and staging goes on while they fold at least kFoldGain updates into
// each element issued (folding saves both the atomics and the cache lines that PEs updating
// the same words pass back and forth).
constexpr uint64_t kFoldSample = 64;
constexpr uint64_t kFoldGain = 2;
constexpr uint64_t kRetry = 4096;

// Whether accumulates to `remote` are folded whatever the trials say: to other nodes (a
// message of microseconds against queueing of tens of nanoseconds), and to node peers too
// once PEs span nodes, where a node peer's update is the provider's atomic if the type is
// the provider's, and even as a CPU atomic measured better folded (bfs -S 12, 4 PEs on 2
// virtual nodes: 1.44 ms against 1.68 ms when they went through the trials; an accumulate
// of elements that do not fold then pays 0.2-0.6 us where eager's takes 0.15).
bool network_atomic(const tandem::Target& remote) { return !remote.mapped || rt().spans_nodes; }

uint64_t* posts(int slot) { return reinterpret_cast<uint64_t*>(header(slot) + 1); }

uint64_t load(const uint64_t* word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }

// `word` of this PE's slot as it is on world PE `pe`.
tandem::Target word_on(const char* call, const uint64_t* word, int pe) {
  return locate(call, "window word", word, sizeof(uint64_t), pe);
}

}  // namespace

WindowHeader* header(int slot) {
  return reinterpret_cast<WindowHeader*>(area + static_cast<size_t>(slot) * slot_bytes);
}

uint64_t window_atomic(const char* call, const uint64_t* word, int pe, shm::AmoOp op, uint64_t operand,
                       uint64_t compare) {
  return scheduler().atomic<uint64_t>(call, word_on(call, word, pe), op, operand, compare, true);
}

size_t window_area_bytes(size_t windows, int n_pes) {
  return windows * ((sizeof(WindowHeader) + static_cast<size_t>(n_pes) * sizeof(uint64_t) + 63) & ~size_t{63});
}

void windows_init(const char* call) {
  const size_t windows = rt().config.windows;
  slot_bytes = window_area_bytes(1, rt().n_pes);
  // The heap is fresh (zero-filled) at init: every slot starts at 0 on every PE.
  area = static_cast<char*>(heap_allocate(call, window_area_bytes(windows, rt().n_pes), 64));
  if (area == nullptr) fatal(call, "no room for the windows' counters in the symmetric heap");
  used_slots.reset(windows);
}

}  // namespace tandem::epoch

using namespace tandem;
using namespace tandem::epoch;

tandem_win::tandem_win(Team& team, int slot, char* base, size_t size)
    : team_(&team), slot_(slot), base_(base), size_(size), targets_(static_cast<size_t>(team.size())) {}

bool tandem_win::at_once() const { return strategy() == Strategy::Eager || strategy() == Strategy::Adaptive; }

tandem_win* tandem_win::create(const char* call, Team& team, void* base, size_t size) {
  // The lowest slot free on every PE of the team, as a team split picks its slot.
  Group group(call, team);
  const std::vector<int> slots = group.free_everywhere(used_slots, 1, "windows", "TANDEM_WINDOWS");
  group.sync();  // every PE has read the offers: the exchange word may serve again
  if (slots.empty()) return nullptr;
  used_slots.take(slots[0]);
  return new tandem_win(team, slots[0], static_cast<char*>(base), size);
}

void tandem_win::free(const char* call) {
  if (access_) fatal(call, "an access epoch is still open: call shmemx_win_complete first");
  if (exposure_) fatal(call, "an exposure epoch is still open: call shmemx_win_wait first");
  if (locks_ > 0) fatal(call, "%d target(s) are still locked: call shmemx_win_unlock first", locks_);
  for (size_t r = 0; r < targets_.size(); ++r)
    if (targets_[r].touched)
      fatal(call, "operations to pe = %zu were never completed: call shmemx_win_fence first", r);
  // Every signal this PE sent has landed, and no PE will touch the slot again: zeroed, it
  // is ready for the next window that takes it.
  scheduler().quiet(call);
  team_sync(call, *team_);
  memset(static_cast<void*>(header(slot_)), 0, slot_bytes);
  used_slots.give(slot_);
  delete this;
}

void tandem_win::check_rank(const char* call, int rank) const {
  if (rank < 0 || rank >= team_->size())
    fatal(call, "pe = %d is out of range: expected a rank 0 <= pe < %d of the window's team", rank, team_->size());
}

bool tandem_win::fence_open() const { return fenced_ && at_once(); }

tandem_win::Epoch tandem_win::epoch_of(int rank) const {
  const Target& t = targets_[static_cast<size_t>(rank)];
  if (t.lock != LockType::None) return Epoch::Lock;
  if (access_ && t.in_access) return Epoch::Access;
  if (fenced_) return Epoch::Fence;
  return Epoch::None;
}

tandem::Target tandem_win::in_window(const char* call, const char* what, const void* remote, size_t bytes,
                                     int rank) const {
  const auto* at = static_cast<const char*>(remote);
  if (at < base_ || at > base_ + size_ || bytes > static_cast<size_t>(base_ + size_ - at))
    fatal(call, "%s = %p (%zu bytes) is not inside the window [%p, +%zu)", what, remote, bytes,
          static_cast<void*>(base_), size_);
  return locate(call, what, remote, bytes, team_->pes[static_cast<size_t>(rank)]);
}

void tandem_win::transfer(const char* call, Op::Kind kind, void* local, const void* remote, size_t bytes, int rank) {
  const bool put = kind == Op::Kind::Put;
  check_rank(call, rank);
  check_buffer(call, put ? "source" : "dest", local, bytes);
  submit(call, Pending{Op{kind, in_window(call, put ? "dest" : "source", remote, bytes, rank), local, bytes}}, rank);
}

void tandem_win::accumulate(const char* call, AccumulateFn apply, CombineFn combine, shm::AmoOp op, void* dest,
                            const void* source, size_t nelems, size_t element_bytes, int rank) {
  check_rank(call, rank);
  if (nelems > SIZE_MAX / element_bytes) fatal(call, "nelems = %zu is larger than any object", nelems);
  const size_t bytes = nelems * element_bytes;
  check_buffer(call, "source", source, bytes);
  if (reinterpret_cast<uintptr_t>(dest) % element_bytes != 0)
    fatal(call, "dest = %p is not aligned to its %zu-byte elements", dest, element_bytes);
  const tandem::Target object = in_window(call, "dest", dest, bytes, rank);
  submit(call, Pending{Op{Op::Kind::Put, object, const_cast<void*>(source), bytes}, apply, combine, op, nelems}, rank);
}

void tandem_win::submit(const char* call, const Pending& pending, int rank) {
  const Epoch kind = epoch_of(rank);
  if (kind == Epoch::None)
    fatal(call, "no epoch is open towards pe = %d: open one with shmemx_win_fence, shmemx_win_start or shmemx_win_lock",
          rank);
  if (pending.op.bytes == 0) return;
  Target& t = targets_[static_cast<size_t>(rank)];
  t.touched = true;
  t.quiet_first |= pending.apply != nullptr || pending.op.kind == Op::Kind::Get;
  if (t.open) {
    // Adaptive issue differs from eager only for accumulates and what is staged before.
    if (strategy() == Strategy::Adaptive && (pending.apply || !t.queued.empty() || !t.staged.empty()))
      return adapt(call, pending, rank);
    return issue(call, pending, rank);
  }
  if (pending.apply) stage(pending, rank);
  else t.queued.push_back(pending);
  if ((strategy() == Strategy::Hybrid || strategy() == Strategy::Adaptive) &&
      t.queued.size() + t.staged.size() >= rt().config.epoch_queue)
    open(call, rank, kind);
}

void tandem_win::adapt(const char* call, const Pending& pending, int rank) {
  Target& t = targets_[static_cast<size_t>(rank)];
  if (pending.apply && pending.combine && pending.nelems <= kStagedMost) {
    if (network_atomic(pending.op.remote)) return stage(pending, rank);
    if (t.fold_locally) {
      t.fold_updates += pending.nelems;
      return stage(pending, rank);
    }
    if (++t.calls_at_once >= kRetry) {
      t.fold_locally = true;
      t.calls_at_once = 0;
    }
  }
  // Issued at once, after the queued updates of the elements it touches.
  const uint64_t first = pending.op.remote.offset, end = first + pending.op.bytes;
  if (!t.queued.empty() || (!t.staged.empty() && first < t.staged_end && end > t.staged_first)) flush(call, rank);
  issue(call, pending, rank);
}

void tandem_win::stage(const Pending& pending, int rank) {
  Target& t = targets_[static_cast<size_t>(rank)];
  const Op& op = pending.op;
  const auto element_bytes = static_cast<uint32_t>(op.bytes / pending.nelems);
  const uint64_t first = op.remote.offset, end = first + op.bytes;
  if (pending.combine == nullptr || pending.nelems > kStagedMost) {
    // Queued whole; staged updates of its elements go first.
    bool overlaps = false;
    if (t.staged.size() < pending.nelems) {
      for (const Staged& s : t.staged) overlaps |= s.element.offset >= first && s.element.offset < end;
    } else {
      for (uint64_t at = first; at < end && !overlaps; at += element_bytes) overlaps = t.staged_at.find(at) != nullptr;
    }
    if (overlaps) unstage(rank);
    t.queued.push_back(pending);
    return;
  }
  for (size_t i = 0; i < pending.nelems; ++i) {
    const uint64_t offset = first + i * element_bytes;
    const char* from = static_cast<const char*>(op.local) + i * element_bytes;
    if (const size_t* found = t.staged_at.find(offset)) {
      Staged& earlier = t.staged[*found];
      if (earlier.apply == pending.apply && earlier.op == pending.amo) {
        pending.combine(&earlier.operand, from, earlier.op);
        continue;
      }
      unstage(rank);  // another operation on the element: the earlier one goes first
    }
    if (t.staged.empty() || offset < t.staged_first) t.staged_first = offset;
    if (t.staged.empty() || offset + element_bytes > t.staged_end) t.staged_end = offset + element_bytes;
    tandem::Target element = op.remote;
    element.offset = offset;
    if (element.mapped) element.mapped += i * element_bytes;
    Staged staged{element, pending.apply, pending.amo, element_bytes, 0};
    memcpy(&staged.operand, from, element_bytes);
    *t.staged_at.find_or_add(offset) = t.staged.size();
    t.staged.push_back(staged);
  }
}

void tandem_win::unstage(int rank) {
  Target& t = targets_[static_cast<size_t>(rank)];
  if (t.staged.empty()) return;
  if (t.fold_updates > 0) {
    t.fold_elements += t.staged.size();
    if (t.fold_updates >= kFoldSample) {
      t.fold_locally = t.fold_updates >= kFoldGain * t.fold_elements;
      t.fold_updates = t.fold_elements = 0;
    }
  }
  std::sort(t.staged.begin(), t.staged.end(),
            [](const Staged& a, const Staged& b) { return a.element.offset < b.element.offset; });
  size_t total = 0;
  for (const Staged& s : t.staged) total += s.bytes;
  std::vector<char>& operands = t.operands.emplace_back(total);
  size_t at = 0;
  for (size_t i = 0; i < t.staged.size();) {
    const Staged& head = t.staged[i];
    size_t j = i + 1;
    while (j < t.staged.size() && t.staged[j].apply == head.apply && t.staged[j].op == head.op &&
           t.staged[j].element.offset == t.staged[j - 1].element.offset + head.bytes)
      ++j;
    char* run = operands.data() + at;
    for (size_t k = i; k < j; ++k, at += head.bytes) memcpy(operands.data() + at, &t.staged[k].operand, head.bytes);
    t.queued.push_back(
        Pending{Op{Op::Kind::Put, head.element, run, (j - i) * head.bytes}, head.apply, nullptr, head.op, j - i});
    i = j;
  }
  for (const Staged& s : t.staged) t.staged_at.erase(s.element.offset);
  t.staged.clear();
}

void tandem_win::issue(const char* call, const Pending& pending, int rank) {
  const Op& op = pending.op;
  if (pending.apply) return pending.apply(call, op.remote, pending.amo, op.local, pending.nelems);
  Target& t = targets_[static_cast<size_t>(rank)];
  // A fence completes everything with one quiet and a barrier: no update to carry.  Over a
  // network that does not keep writes in order, a put carrying an update would wait for
  // its own completion before sending it: no better than the update alone.  What waited
  // for the epoch's end (closing_) keeps its last put under every strategy: the update
  // comes next.
  if ((at_once() && !closing_) || op.kind != Op::Kind::Put || epoch_of(rank) == Epoch::Fence ||
      !scheduler().signal_rides(op.remote))
    return scheduler().submit_nbi(call, op);
  if (t.has_kept) scheduler().submit_nbi(call, t.kept);
  t.kept = op;
  t.has_kept = true;
}

void tandem_win::open(const char* call, int rank, Epoch kind) {
  Target& t = targets_[static_cast<size_t>(rank)];
  const int pe = team_->pes[static_cast<size_t>(rank)];
  if (kind == Epoch::Fence) {
    // Every PE has passed the fence that opened this epoch: nothing to wait for.
  } else if (kind == Epoch::Access) {
    wait_at_least(call, &posts(slot_)[pe], t.accesses, pe);
  } else {
    acquire(call, rank);
  }
  t.open = true;
  flush(call, rank);
}

void tandem_win::flush(const char* call, int rank) {
  unstage(rank);
  Target& t = targets_[static_cast<size_t>(rank)];
  for (const Pending& pending : t.queued) issue(call, pending, rank);
  t.queued.clear();  // keeps its capacity: a long queue is not allocated anew each epoch
}

template <typename Word, typename Value>
void tandem_win::close(const char* call, const std::vector<int>& ranks, Word signal_word, Value signal_value) {
  // What waited for the epoch's end goes now, its last put to each target kept to carry
  // the update (issue()).
  closing_ = true;
  bool quiet = false;
  for (int rank : ranks) {
    if (!targets_[static_cast<size_t>(rank)].open) open(call, rank, epoch_of(rank));
    flush(call, rank);
    quiet |= targets_[static_cast<size_t>(rank)].quiet_first;
  }
  // A signal tells the target that its object holds this epoch's data and is no longer
  // read: the puts before the last one to each target land first (a fence orders them),
  // and the gets and accumulates (atomics, which a fence need not order) must be complete.
  if (quiet) scheduler().quiet(call);
  else scheduler().fence(call);
  for (int rank : ranks) {
    Target& t = targets_[static_cast<size_t>(rank)];
    const tandem::Target word = word_on(call, signal_word(rank), team_->pes[static_cast<size_t>(rank)]);
    if (t.has_kept) scheduler().put_signal(call, t.kept, word, signal_value(rank), true, true);
    else scheduler().atomic<uint64_t>(call, word, shm::AmoOp::Add, signal_value(rank), 0, false);
    t.has_kept = t.touched = t.quiet_first = t.open = false;
  }
  closing_ = false;
  // The sources of the puts may be reused, and the signals have landed.
  scheduler().quiet(call);
  for (int rank : ranks) targets_[static_cast<size_t>(rank)].operands.clear();
}

void tandem_win::fence(const char* call) {
  if (access_) fatal(call, "an access epoch is open: call shmemx_win_complete first");
  // The epoch's operations, issued now where they waited, are complete on every PE before
  // any PE leaves the barrier: the next epoch may write anywhere at once.
  const int n = team_->size();
  for (int r = 0; r < n; ++r) {
    if (epoch_of(r) != Epoch::Fence) continue;
    flush(call, r);
    targets_[static_cast<size_t>(r)].touched = targets_[static_cast<size_t>(r)].quiet_first = false;
  }
  scheduler().quiet(call);
  for (int r = 0; r < n; ++r)
    if (epoch_of(r) == Epoch::Fence) targets_[static_cast<size_t>(r)].operands.clear();
  team_sync(call, *team_);
  fenced_ = true;
  for (int r = 0; r < n; ++r)
    if (epoch_of(r) == Epoch::Fence) targets_[static_cast<size_t>(r)].open = fence_open();
}

namespace {

// Checks a group of ranks (no repeats, in range) for post and start.
std::vector<int> check_group(const char* call, const int* ranks, int count, int team_size) {
  if (count < 0) fatal(call, "npes = %d is negative", count);
  if (count > 0) check_buffer(call, "pes", ranks, static_cast<size_t>(count) * sizeof(int));
  std::vector<int> group(ranks, ranks + count);
  std::vector<bool> seen(static_cast<size_t>(team_size));
  for (int i = 0; i < count; ++i) {
    const int r = group[static_cast<size_t>(i)];
    if (r < 0 || r >= team_size)
      fatal(call, "pes[%d] = %d is out of range: expected a rank 0 <= pe < %d of the window's team", i, r, team_size);
    if (seen[static_cast<size_t>(r)]) fatal(call, "pes[%d] = %d appears twice", i, r);
    seen[static_cast<size_t>(r)] = true;
  }
  return group;
}

}  // namespace

void tandem_win::post(const char* call, const int* ranks, int count) {
  if (exposure_) fatal(call, "an exposure epoch is already open: call shmemx_win_wait first");
  const std::vector<int> group = check_group(call, ranks, count, team_->size());
  exposure_ = true;
  completes_expected_ += static_cast<uint64_t>(count);
  // This PE's own stores to the object come before any origin's puts.
  shm::order_stores();
  const uint64_t* mine = &posts(slot_)[rt().my_pe];
  for (int rank : group)
    scheduler().atomic<uint64_t>(call, word_on(call, mine, team_->pes[static_cast<size_t>(rank)]), shm::AmoOp::Add, 1,
                                 0, false);
  drive_progress();
}

void tandem_win::start(const char* call, const int* ranks, int count) {
  if (access_) fatal(call, "an access epoch is already open: call shmemx_win_complete first");
  const std::vector<int> group = check_group(call, ranks, count, team_->size());
  for (int rank : group) {
    Target& t = targets_[static_cast<size_t>(rank)];
    if (t.touched || t.lock != LockType::None)
      fatal(call, "pe = %d is the target of another open epoch: close it first", rank);
    t.in_access = true;
    t.open = false;
    ++t.accesses;
  }
  access_ = true;
  access_group_ = group;
  if (strategy() == Strategy::Eager)
    for (int rank : group) open(call, rank, Epoch::Access);
}

void tandem_win::complete(const char* call) {
  if (!access_) fatal(call, "no access epoch is open: call shmemx_win_start first");
  // Every target of the group is signalled, written to or not: its shmemx_win_wait counts
  // this PE.
  close(call, access_group_, [&](int) { return &header(slot_)->completes; }, [](int) { return uint64_t{1}; });
  for (int rank : access_group_) {
    Target& t = targets_[static_cast<size_t>(rank)];
    t.in_access = false;
    t.open = fence_open();
  }
  access_ = false;
  access_group_.clear();
}

bool tandem_win::end_exposure(const char* call, bool wait) {
  if (!exposure_) fatal(call, "no exposure epoch is open: call shmemx_win_post first");
  const uint64_t* completes = &header(slot_)->completes;
  if (wait) {
    wait_at_least(call, completes, completes_expected_);
  } else {
    drive_progress();
    if (load(completes) < completes_expected_) return false;
  }
  exposure_ = false;
  return true;
}

void tandem_win::lock(const char* call, LockType type, int rank) {
  check_rank(call, rank);
  Target& t = targets_[static_cast<size_t>(rank)];
  if (t.lock != LockType::None) fatal(call, "pe = %d is already locked by this PE", rank);
  if (t.touched || (access_ && t.in_access))
    fatal(call, "pe = %d is the target of another open epoch: close it first", rank);
  t.lock = type;
  t.open = false;
  ++locks_;
  if (at_once()) open(call, rank, Epoch::Lock);
}

void tandem_win::unlock(const char* call, int rank) {
  check_rank(call, rank);
  Target& t = targets_[static_cast<size_t>(rank)];
  if (t.lock == LockType::None) fatal(call, "pe = %d is not locked by this PE", rank);
  // The release rides on the last put.
  const uint64_t release = lock_release(t.lock);
  close(call, {rank}, [&](int) { return &header(slot_)->lock; }, [&](int) { return release; });
  t.lock = LockType::None;
  t.open = fence_open();  // lock() refused a rank of the access group
  --locks_;
}
