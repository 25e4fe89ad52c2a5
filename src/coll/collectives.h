// The data movement of the collectives, over a Group (a team or an active set).
//
// Every collective pulls: between two syncs of the group each PE reads what it needs from
// the others' symmetric source objects (a copy from mapped memory for node peers, network
// gets otherwise) and writes only its own dest.  The first sync makes sure every source is
// ready; the second that no PE still reads a source when its owner returns and may reuse
// it.  Because no PE writes another's memory, dest needs no preparation, dest may be the
// source object in the reductions, and one PE's next collective cannot disturb a slower
// PE's current one.  All PEs combine reduction inputs in rank order, so floating-point
// results agree bit for bit on every PE.
//
// Small collectives on a team (the whole team's data fits a bank, Group::bank) push
// instead: each PE writes its part into every PE's bank, then one sync, then each PE reads
// its own bank.  One sync instead of two; dest is still written only by its owner.  Where
// writes land in order (one node; a network that keeps them in order), a stamp written
// behind each part replaces the sync (Group::push_stamped; a part of at most
// Group::kCellBytes from another node travels with its stamp in one write, into a cell);
// across nodes reductions and fcollect gather the parts through one leader per node where
// nodes hold several PEs of the team (Group::gather_by_node), else, on 2^k PEs, in rounds
// of recursive doubling, log2(n) messages a PE (Group::doubles; integer reductions swap
// partial results of one part's size, where the gather's messages double each round).  A
// small broadcast on a team needs no sync at all there: the data goes down a tree
// (binomial, by node where nodes hold several PEs: crossing between nodes once a node) into
// each PE's boxes, and a PE only waits for a child that is a whole ring of boxes behind
// (Group::box_broadcast).  A larger one across nodes goes down the same tree straight into
// each dest, once its owner has said it entered (Group::tree_broadcast).
// Larger ones on a team within one node still pull, but stamps replace the two syncs
// (Group::stamped): a PE waits only for the PEs it reads from to enter, and for the PEs
// that read from it to be done.
//
// Large reductions are the exception to both (reduce_sliced): each PE folds one slice and
// writes the result into that slice of every PE's dest, between the same two syncs.
// Across nodes, the collectives too large for the banks and boxes but up to Group::kDirect
// bytes a write go direct: a PE writes into another's dest once that PE has said it entered,
// stamped, with no sync (broadcast down a binomial tree, fcollect by recursive doubling or
// to every PE, alltoall to every PE, integer reductions on 2^k PEs by recursive doubling,
// sliced reductions with every PE joined and every slice delivered instead of the two
// syncs); where nodes hold several PEs of the team, fcollect and integer reductions go
// through one leader per node instead (node_member).
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "coll/team.h"
#include "mem/target.h"
#include "nbi/scheduler.h"

namespace tandem::coll {

// The reads of a collective that pulls, in one body whether or not the team is stamped
// (Group::stamped): with stamps, await(r) waits for rank r to have entered, release(r) counts
// this PE's reads of rank r done there, and end() waits for this PE's `readers`; without
// them the PEs sync before the reads and after, and end() first completes the reads that
// went over the network (`network`).
class Reads {
 public:
  explicit Reads(Group& g) : g_(g), stamped_(g.stamped()) {
    if (!stamped_) g.sync();
  }
  void await(int r) {
    if (stamped_) g_.await(r);
  }
  void release(int r) {
    if (stamped_) g_.release(r);
  }
  void end(int readers, bool network) {
    if (stamped_) {
      if (readers > 0) g_.await_readers(readers);
      return;
    }
    if (network) scheduler().quiet(g_.call());
    g_.sync();
    g_.finish();
  }

 private:
  Group& g_;
  const bool stamped_;
};

// Copies `bytes` of the symmetric object at `source` on world PE `pe` into local `dest`.
// Returns true when a network get was posted (completed by the caller's quiet).
bool pull(const char* call, void* dest, const void* source, size_t bytes, int pe);

// The push path: writes `bytes` into place `g.rank()` of `bank` on every PE of the group
// (from `data + r * stride` for rank r), completes the writes, then syncs.  A PE with
// nothing to give (`pushes` false: not a broadcast's root) only syncs.
void push_and_sync(Group& g, char* bank, size_t bytes, const void* data, size_t stride, bool pushes = true);
// The push of a collective in which every PE has a part for every PE: with stamps instead of
// the sync where writes land in order (Group::push_stamped), else push_and_sync.
void push_all(Group& g, char* bank, size_t bytes, const void* data, size_t stride);
// Every PE's `bytes` from `data` into its place of a bank that this PE reads: its node
// leader's where the group gathers by node (Group::gather_by_node), else its own, filled in
// rounds of recursive doubling where the group doubles (Group::doubles), else by push_all.
// Returns that bank.
const char* gather_all(Group& g, char* bank, size_t bytes, const void* data);

// dest on every PE of the group receives `bytes` from source on the root (rank `root`); the
// root's own dest too when `to_root`.
void broadcast(Group& g, void* dest, const void* source, size_t bytes, int root, bool to_root);
// dest receives the blocks of every PE in rank order: `bytes` each (fcollect), or each PE's
// own count (collect, `same_size` false).
void collect(Group& g, void* dest, const void* source, size_t bytes, bool same_size);
// Block j of dest receives block `rank` of PE j's source, blocks of `count` elements of
// `elem` bytes placed `dst` and `sst` elements apart element by element.
void alltoall(Group& g, void* dest, const void* source, size_t count, size_t elem, ptrdiff_t dst, ptrdiff_t sst);

// The direct collectives by node (fcollect, integer reductions), on a team that goes by node
// (Group::by_node) where Group::direct applies, in two pieces: the PEs of each node enter at
// their leader (Group::join), the leader reads their sources in shared memory, exchanges its
// node's part with the other leaders, straight into their dests (piece 0), then tells its
// node that its dest holds the result (piece 0); each PE copies it into its own dest and
// tells the leader it is done (piece 1), and the leader returns once all have.  So the data
// crosses the network once a pair of nodes instead of once a pair of PEs (fcollect) or once
// a PE in a round of recursive doubling (reductions), and every PE of a node reads its
// leader's result in place.  node_member() runs the part of a PE other than its node's leader
// (returns true) and returns false on the leader, which then reads, exchanges, and ends with
// release_node().  perf/collectives on 2 nodes (on 2 cores), alternating runs against the
// direct paths of every PE: sum_reduce with 8 PEs 303-405 us against 467-620 us at 8-64 KiB,
// with 4 PEs 129-214 against 155-268 at 16-128 KiB; fcollect with 8 PEs 325-491 against
// 391-636 at 8-64 KiB, with 4 PEs within 5% at 16-128 KiB and 359-376 against 333-341 at 256
// KiB, where the leader sends alone what two PEs sent side by side (half as many bytes
// cross between the nodes).
bool node_member(Group& g, void* dest, size_t bytes);
void release_node(Group& g, void* dest);

enum class Scan { None, Inclusive, Exclusive };

// Working memory of a thread's collectives, kept from call to call and grown as needed: a
// fresh large buffer would cost a page fault per page on every call (the allocator gives
// such buffers back to the system when they are freed).  `which` names one of two buffers.
// A collective that runs on a fiber (nbc.h) uses the Scratch its fiber carries (its data()):
// it may be resumed by another thread, and another collective may run on this one meanwhile.
struct Scratch {
  std::vector<std::max_align_t> buffers[2];
};
void* scratch(size_t bytes, int which);

// out[i] = fold(a[i], b[i]); out may be a.  A loop the compiler can vectorise, unrolled:
// one vector a turn was 1.15-1.25x slower (sum_reduce of 8-64 KiB, 2 PEs on one node)
// wherever the linker happened to place the loop across a 64-byte boundary, which any change
// elsewhere in the library could bring about; four a turn run alike wherever they land.
template <typename T, typename Op>
void fold_elements(void* out, const void* a, const void* __restrict b, size_t n) {
  T* o = static_cast<T*>(out);
  const T* x = static_cast<const T*>(a);
  const T* __restrict y = static_cast<const T*>(b);
  const Op fold{};
#pragma GCC unroll 4
  for (size_t i = 0; i < n; ++i) o[i] = fold(x[i], y[i]);
}

// A reduction's operation on one element type.  The algorithms (reduce() and what it
// chooses from, reduce.cc) are compiled once and work on bytes; only this loop is compiled
// for each type and operation of the API (some hundred of them), which keeps the library's
// build short and its code small.  Its indirect call costs a few ns a fold of up to 8 KiB.
struct Fold {
  size_t size;    // of an element
  bool integral;  // the result does not depend on the order of the inputs
  void (*apply)(void* out, const void* a, const void* b, size_t n);  // out[i] = a[i] op b[i]; out may be a
};
template <typename T, typename Op>
inline constexpr Fold fold_of{sizeof(T), std::is_integral_v<T>, fold_elements<T, Op>};

// dest[i] = source[i] of the ranks in range (all, up to and including this PE, or before
// it) folded with `fold` in rank order, over `count` elements; an exclusive scan gives rank
// 0 zero.
void reduce(Group& g, void* dest, const void* source, size_t count, const Fold& fold, Scan scan = Scan::None);

}  // namespace tandem::coll
