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

#include <algorithm>
#include <cstddef>
#include <cstring>
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

// Working memory of this thread's collectives, kept from call to call and grown as needed:
// a fresh large buffer would cost a page fault per page on every call (the allocator gives
// such buffers back to the system when they are freed).  `which` names one of two buffers.
void* scratch(size_t bytes, int which);

// Reductions of at least this many bytes are sliced (reduce_sliced): each PE folds only its
// own slice, so each input is read once on the node instead of once per PE, and crosses the
// network twice (a slice in, the result out) instead of once to each PE.  Below it every PE
// folds every element itself: no sync on one node (stamps) and, across nodes, one network
// phase less.  Set by measurement with perf/collectives (sum_reduce_us): on one node, with
// 2 PEs both take the same time at 2 KiB and slicing is 1.1-2x faster from 4 KiB, with 4
// PEs (on 2 cores) folding everything is faster up to 8 KiB (1.4x at 2 KiB).  Across nodes,
// where slicing goes direct (Group::direct) up to kDirect bytes, it is faster from 64 KiB:
// 4 PEs on 4 nodes (on 2 cores) 145-274 us against 172-535 us at 64-256 KiB, on 2 nodes
// 102-186 against 122-399 us; 2 PEs 32-70 against 33-82 us; at 32 KiB within 10% either way.
inline constexpr size_t kSlicedReduce = 4096;
inline constexpr size_t kSlicedReduceNetwork = 64 * 1024;

// Bytes folded at a time: the partial result stays in the first-level cache while every
// rank's input streams through it.
inline constexpr size_t kFoldChunkBytes = 8192;

// out[i] = fold(a[i], b[i]); out may be a.  A loop the compiler can vectorise, unrolled:
// one vector a turn was 1.15-1.25x slower (sum_reduce of 8-64 KiB, 2 PEs on one node)
// wherever the linker happened to place the loop across a 64-byte boundary, which any change
// elsewhere in the library could bring about; four a turn run alike wherever they land.
template <typename T, typename Fold>
inline void fold_into(T* out, const T* a, const T* __restrict b, size_t n, Fold fold) {
#pragma GCC unroll 4
  for (size_t i = 0; i < n; ++i) out[i] = fold(a[i], b[i]);
}

// A reduction in slices (reduce-scatter, then allgather by push).  The elements are cut into
// one slice per rank, whole cache lines each; after a sync that makes every source ready,
// each PE folds its slice from every rank's source in rank order (mapped memory read in
// place, a network get per piece otherwise) and writes the result into that slice of every
// PE's dest (a copy into mapped memory, a network put otherwise).  A second sync makes every
// slice present everywhere.  Writing another PE's dest is safe here: every PE has entered
// the call, so dest belongs to the collective, and no PE reads dest's slice r of a source that
// is also its dest except its owner r, before it writes it.  Each element is folded once, by
// one PE, so every PE gets the same bits.
template <typename T, typename Fold>
void reduce_sliced(Group& g, T* dest, const T* source, size_t count, Fold fold) {
  const char* call = g.call();
  const size_t ranks = static_cast<size_t>(g.size());
  const size_t me = static_cast<size_t>(g.rank());
  const size_t line = std::max<size_t>(1, 64 / sizeof(T));
  const size_t per = ((count + ranks - 1) / ranks + line - 1) / line * line;
  const size_t lo = std::min(count, per * me), hi = std::min(count, lo + per);
  // Direct (Group::direct): every PE joined instead of the first sync, and every slice
  // delivered, stamped, instead of the second (a PE has read this PE's source once it
  // delivers its slice here).
  const bool direct = g.direct(count * sizeof(T));
  if (direct) {
    for (size_t k = 1; k < ranks; ++k) g.join(static_cast<int>((me + k) % ranks));
    for (size_t k = 1; k < ranks; ++k) g.await_joined(static_cast<int>((me + k) % ranks));
  } else {
    g.sync();
  }
  bool network = false;
  if (hi > lo) {
    constexpr size_t chunk = std::max<size_t>(1, kFoldChunkBytes / sizeof(T));
    std::vector<const T*> inputs(ranks);
    // The peers' dest + lo that are mapped here, me first (direct: mine alone; every other
    // PE's is delivered to).
    std::vector<T*> mapped_dest;
    for (size_t k = 0; k < (direct ? 1 : ranks); ++k) {
      const int pe = g.pe(static_cast<int>((me + k) % ranks));
      const Target to = locate(call, "dest", dest + lo, (hi - lo) * sizeof(T), pe);
      if (to.mapped) mapped_dest.push_back(reinterpret_cast<T*>(to.mapped));
    }
    // The whole slice is kept for the network puts (direct: for every other PE); with none,
    // one chunk (in cache) will do.
    network = direct || mapped_dest.size() < ranks;
    T* result = static_cast<T*>(scratch((network ? hi - lo : chunk) * sizeof(T), 0));
    // Network inputs arrive in pieces of about 1 MiB for all ranks together.
    const size_t piece = std::min(hi - lo, std::max<size_t>(chunk, (size_t{1} << 20) / (sizeof(T) * ranks)));
    T* fetched = nullptr;
    for (size_t first = lo; first < hi; first += piece) {
      const size_t n = std::min(piece, hi - first);
      bool gets = false;
      for (size_t r = 0; r < ranks; ++r) {
        const Target from = locate(call, "source", source + first, n * sizeof(T), g.pe(static_cast<int>(r)));
        if (from.mapped) {
          inputs[r] = reinterpret_cast<const T*>(from.mapped);
          continue;
        }
        if (!fetched) fetched = static_cast<T*>(scratch(piece * ranks * sizeof(T), 1));
        T* slot = &fetched[r * piece];
        scheduler().submit_nbi(call, Op{Op::Kind::Get, from, slot, n * sizeof(T)});
        inputs[r] = slot;
        gets = true;
      }
      if (gets) scheduler().quiet(call);
      for (size_t c = 0; c < n; c += chunk) {
        const size_t m = std::min(chunk, n - c);
        T* out = network ? &result[first - lo + c] : result;
        if (ranks == 1) {
          memcpy(static_cast<void*>(out), inputs[0] + c, m * sizeof(T));
        } else {
          fold_into(out, inputs[0] + c, inputs[1] + c, m, fold);
          for (size_t r = 2; r < ranks; ++r) fold_into(out, out, inputs[r] + c, m, fold);
        }
        for (T* to : mapped_dest) memcpy(static_cast<void*>(to + (first - lo) + c), out, m * sizeof(T));
      }
    }
    for (size_t k = 1; direct && k < ranks; ++k) g.deliver(static_cast<int>((me + k) % ranks), dest + lo, result, (hi - lo) * sizeof(T));
    for (size_t k = 0; network && !direct && k < ranks; ++k) {
      const int pe = g.pe(static_cast<int>((me + k) % ranks));
      const Target to = locate(call, "dest", dest + lo, (hi - lo) * sizeof(T), pe);
      if (!to.mapped) scheduler().submit_nbi(call, Op{Op::Kind::Put, to, result, (hi - lo) * sizeof(T)});
    }
  } else if (direct) {
    // An empty slice (more ranks than lines): the stamp alone.
    for (size_t k = 1; k < ranks; ++k) g.deliver(static_cast<int>((me + k) % ranks), dest, nullptr, 0);
  }
  if (direct) {
    for (size_t k = 1; k < ranks; ++k) g.await_delivered(static_cast<int>((me + ranks - k) % ranks));
    return;
  }
  if (network) scheduler().quiet(call);
  g.sync();
  g.finish();
}

// A reduction by recursive doubling, direct (Group::direct), for folds whose result does
// not depend on the order of the inputs (integers): in round j each PE writes its partial
// result into the dest of the rank 2^j away once that PE has joined the round (it has
// folded the round before out of its dest), and folds what arrives in its own dest into
// its partial result.  log2(n) writes of the whole data a PE, where a sliced reduction
// writes n - 1 slices and reads as many, and the pull syncs twice.  Returns false, doing
// nothing, where it does not apply (another fold, a group of other than 2^k PEs, more than
// kDoublingReduce bytes, direct() does not apply).
//
// perf/collectives (sum of longs) against the pull (16-32 KiB) and the sliced reduction
// (64 KiB on): 4 PEs on 4 nodes (on 2 cores) 67-149 us against 109-177 us at 16-128 KiB, on
// 2 nodes 36-102 against 71-118 us; 2 PEs 17-39 against 23-46 us at 32-128 KiB.  At 256
// KiB within 10% either way, at 512 KiB 1.05-1.5x slower: each round's whole write waits
// for the round before.
inline constexpr size_t kDoublingReduce = 128 * 1024;
template <typename T, typename Fold>
bool reduce_doubling(Group& g, T* dest, const T* source, size_t count, Fold fold) {
  const int n = g.size(), me = g.rank();
  if (!std::is_integral_v<T> || n < 2 || (n & (n - 1)) != 0 || count * sizeof(T) > kDoublingReduce ||
      !g.direct(count * sizeof(T)))
    return false;
  T* partial = static_cast<T*>(scratch(count * sizeof(T), 0));
  memcpy(static_cast<void*>(partial), source, count * sizeof(T));  // dest may be source
  for (int distance = 1; distance < n; distance <<= 1) {
    const int partner = me ^ distance;
    g.join(partner);
    g.await_joined(partner);
    g.deliver(partner, dest, partial, count * sizeof(T));
    g.await_delivered(partner);
    fold_into(partial, partial, dest, count, fold);
  }
  memcpy(static_cast<void*>(dest), partial, count * sizeof(T));
  return true;
}

// A reduction by node (node_member), for folds whose result does not depend on the order of
// the inputs (integers), on 2^k nodes: the leader folds its node's sources, then the leaders
// fold their partial results by recursive doubling (as reduce_doubling does).  Returns false,
// doing nothing, where it does not apply.
template <typename T, typename Fold>
bool reduce_by_node(Group& g, T* dest, const T* source, size_t count, Fold fold) {
  const size_t bytes = count * sizeof(T);
  if (!std::is_integral_v<T> || !g.by_node() || (g.nodes() & (g.nodes() - 1)) != 0 || bytes > kDoublingReduce ||
      !g.direct(bytes, 2))
    return false;
  if (node_member(g, dest, bytes)) return true;
  const int node = g.my_node(), me = g.rank(), end = g.node_start(node + 1);
  T* partial = static_cast<T*>(scratch(bytes, 0));
  memcpy(static_cast<void*>(partial), source, bytes);  // dest may be source
  for (int r = me + 1; r < end; ++r) {
    g.await_joined(r);
    const T* in = reinterpret_cast<const T*>(locate(g.call(), "source", source, bytes, g.pe(r)).mapped);
    fold_into(partial, partial, in, count, fold);
  }
  for (int distance = 1; distance < g.nodes(); distance <<= 1) {
    const int partner = g.node_start(node ^ distance);
    g.join(partner);
    g.await_joined(partner);
    g.deliver(partner, dest, partial, bytes);
    g.await_delivered(partner);
    fold_into(partial, partial, dest, count, fold);
  }
  memcpy(static_cast<void*>(dest), partial, bytes);
  release_node(g, dest);
  return true;
}

// dest[i] = source[i] of the ranks in range (all, up to and including this PE, or before
// it) folded with `fold` in rank order; an exclusive scan gives rank 0 T() (zero).
template <typename T, typename Fold>
void reduce(Group& g, T* dest, const T* source, size_t count, Fold fold, Scan scan = Scan::None) {
  const char* call = g.call();
  check_buffer(call, "dest", dest, count * sizeof(T));
  check_buffer(call, "source", source, count * sizeof(T));
  if (count == 0) return;  // as a broadcast of nothing (collectives.cc)
  if (scan == Scan::None && count * sizeof(T) * static_cast<size_t>(g.size()) > Group::kBankNetwork &&
      (reduce_by_node(g, dest, source, count, fold) || reduce_doubling(g, dest, source, count, fold)))
    return;
  if (scan == Scan::None && g.size() > 1 && count * sizeof(T) >= kSlicedReduce &&
      (count * sizeof(T) >= kSlicedReduceNetwork || g.on_one_node()))
    return reduce_sliced(g, dest, source, count, fold);
  const int ranks = scan == Scan::None ? g.size() : scan == Scan::Inclusive ? g.rank() + 1 : g.rank();
  T* result = static_cast<T*>(scratch(count * sizeof(T), 0));
  if (ranks == 0) std::fill(result, result + count, T());
  if (char* bank = g.bank(count * sizeof(T))) {
    if (scan == Scan::None && std::is_integral_v<T> && !g.by_node() && g.doubles()) {
      // Integers, whose fold does not depend on the order of the inputs: in round j each PE
      // swaps its partial result with the rank 2^j away (through place j of the banks) and
      // folds in the one it gets, so every message carries `count` elements, where a gather
      // of every part (as below) doubles them each round.  perf/collectives (sum of longs),
      // 3 alternating runs against the gather: 8 PEs on 8 nodes (on 2 cores) 0.74-0.96 of its
      // time at 32 B-4 KiB (92-141 us against 118-170), 0.97-1.13 at 8-16 B; 4 PEs on 4 nodes
      // 25.5 against 30.4 us at 32 B (both rounds now fit a cell), within 15% either way at
      // the other sizes.
      const size_t bytes = count * sizeof(T);
      memcpy(static_cast<void*>(result), source, bytes);  // dest may be source
      size_t round = 0;
      for (int distance = 1; distance < g.size(); distance <<= 1, ++round) {
        char* at = bank + round * bytes;
        g.swap_stamped(bank, at, at, bytes, result, g.rank() ^ distance);
        fold_into(result, result, reinterpret_cast<const T*>(at), count, fold);
      }
      memcpy(static_cast<void*>(dest), result, bytes);
      return;
    }
    // Small: every PE's source in every PE's bank, then a fold of local memory.
    const char* whole = gather_all(g, bank, count * sizeof(T), source);
    if (ranks > 0) {
      const T* in = reinterpret_cast<const T*>(whole);
      memcpy(static_cast<void*>(result), in, count * sizeof(T));
      for (int r = 1; r < ranks; ++r) {
        in += count;
        fold_into(result, result, in, count, fold);
      }
    }
    memcpy(static_cast<void*>(dest), result, count * sizeof(T));
    return;
  }
  // Every input read where it is (node peers' in place, others' fetched in pieces small
  // enough that every rank's part of one fits in about 1 MiB), folded in chunks that keep
  // the result in cache.
  Reads reads(g);
  for (int r = 0; r < ranks; ++r) reads.await(r);
  if (ranks > 0) {
    const size_t piece = std::min(count, std::max<size_t>(1, (size_t{1} << 20) / (sizeof(T) * static_cast<size_t>(ranks))));
    T* fetched = static_cast<T*>(scratch(piece * static_cast<size_t>(ranks) * sizeof(T), 1));
    std::vector<const T*> inputs(static_cast<size_t>(ranks));
    constexpr size_t chunk = std::max<size_t>(1, kFoldChunkBytes / sizeof(T));
    for (size_t first = 0; first < count; first += piece) {
      const size_t n = std::min(piece, count - first);
      bool network = false;
      for (int r = 0; r < ranks; ++r) {
        const Target from = locate(call, "source", source + first, n * sizeof(T), g.pe(r));
        T* slot = &fetched[static_cast<size_t>(r) * piece];
        if (from.mapped) {
          inputs[static_cast<size_t>(r)] = reinterpret_cast<const T*>(from.mapped);
        } else {
          scheduler().submit_nbi(call, Op{Op::Kind::Get, from, slot, n * sizeof(T)});
          inputs[static_cast<size_t>(r)] = slot;
          network = true;
        }
      }
      if (network) scheduler().quiet(call);
      for (size_t c = 0; c < n; c += chunk) {
        const size_t m = std::min(chunk, n - c);
        T* out = &result[first + c];
        memcpy(static_cast<void*>(out), inputs[0] + c, m * sizeof(T));
        for (int r = 1; r < ranks; ++r) fold_into(out, out, inputs[static_cast<size_t>(r)] + c, m, fold);
      }
    }
  }
  for (int r = 0; r < ranks; ++r) reads.release(r);
  // Those that read this PE's source (every other rank, or in a scan the ranks after it)
  // are done before dest, which may be the source, changes.
  reads.end(scan == Scan::None ? g.size() - 1 : g.size() - 1 - g.rank(), false);
  memcpy(static_cast<void*>(dest), result, count * sizeof(T));
}

}  // namespace tandem::coll
