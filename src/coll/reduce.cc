// The reductions (coll::reduce and the algorithms it chooses from), compiled once for every
// element type and operation: they move and fold bytes, and call the operation's loop
// (Fold::apply) on runs of whole elements.
#include <algorithm>
#include <cstring>
#include <vector>

#include "coll/collectives.h"

namespace tandem::coll {
namespace {

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
constexpr size_t kSlicedReduce = 4096;
constexpr size_t kSlicedReduceNetwork = 64 * 1024;

// Bytes folded at a time: the partial result stays in the first-level cache while every
// rank's input streams through it.
constexpr size_t kFoldChunkBytes = 8192;

// Element i of the array at `base`, of elements of `size` bytes.
inline char* at(void* base, size_t i, size_t size) { return static_cast<char*>(base) + i * size; }
inline const char* at(const void* base, size_t i, size_t size) { return static_cast<const char*>(base) + i * size; }

// A reduction in slices (reduce-scatter, then allgather by push).  The elements are cut into
// one slice per rank, whole cache lines each; after a sync that makes every source ready,
// each PE folds its slice from every rank's source in rank order (mapped memory read in
// place, a network get per piece otherwise) and writes the result into that slice of every
// PE's dest (a copy into mapped memory, a network put otherwise).  A second sync makes every
// slice present everywhere.  Writing another PE's dest is safe here: every PE has entered
// the call, so dest belongs to the collective, and no PE reads dest's slice r of a source that
// is also its dest except its owner r, before it writes it.  Each element is folded once, by
// one PE, so every PE gets the same bits.
void reduce_sliced(Group& g, void* dest, const void* source, size_t count, const Fold& fold) {
  const char* call = g.call();
  const size_t size = fold.size;
  const size_t ranks = static_cast<size_t>(g.size());
  const size_t me = static_cast<size_t>(g.rank());
  const size_t line = std::max<size_t>(1, 64 / size);
  const size_t per = ((count + ranks - 1) / ranks + line - 1) / line * line;
  const size_t lo = std::min(count, per * me), hi = std::min(count, lo + per);
  // Direct (Group::direct): every PE joined instead of the first sync, and every slice
  // delivered, stamped, instead of the second (a PE has read this PE's source once it
  // delivers its slice here).
  const bool direct = g.direct(count * size);
  if (direct) {
    for (size_t k = 1; k < ranks; ++k) g.join(static_cast<int>((me + k) % ranks));
    for (size_t k = 1; k < ranks; ++k) g.await_joined(static_cast<int>((me + k) % ranks));
  } else {
    g.sync();
  }
  bool network = false;
  if (hi > lo) {
    const size_t chunk = std::max<size_t>(1, kFoldChunkBytes / size);
    std::vector<const char*> inputs(ranks);
    // The peers' dest + lo that are mapped here, me first (direct: mine alone; every other
    // PE's is delivered to).
    std::vector<char*> mapped_dest;
    for (size_t k = 0; k < (direct ? 1 : ranks); ++k) {
      const int pe = g.pe(static_cast<int>((me + k) % ranks));
      const Target to = locate(call, "dest", at(dest, lo, size), (hi - lo) * size, pe);
      if (to.mapped) mapped_dest.push_back(static_cast<char*>(to.mapped));
    }
    // The whole slice is kept for the network puts (direct: for every other PE); with none,
    // one chunk (in cache) will do.
    network = direct || mapped_dest.size() < ranks;
    char* result = static_cast<char*>(scratch((network ? hi - lo : chunk) * size, 0));
    // Network inputs arrive in pieces of about 1 MiB for all ranks together.
    const size_t piece = std::min(hi - lo, std::max<size_t>(chunk, (size_t{1} << 20) / (size * ranks)));
    char* fetched = nullptr;
    for (size_t first = lo; first < hi; first += piece) {
      const size_t n = std::min(piece, hi - first);
      bool gets = false;
      for (size_t r = 0; r < ranks; ++r) {
        const Target from = locate(call, "source", at(source, first, size), n * size, g.pe(static_cast<int>(r)));
        if (from.mapped) {
          inputs[r] = static_cast<const char*>(from.mapped);
          continue;
        }
        if (!fetched) fetched = static_cast<char*>(scratch(piece * ranks * size, 1));
        char* slot = fetched + r * piece * size;
        scheduler().submit_nbi(call, Op{Op::Kind::Get, from, slot, n * size});
        inputs[r] = slot;
        gets = true;
      }
      if (gets) scheduler().quiet(call);
      for (size_t c = 0; c < n; c += chunk) {
        const size_t m = std::min(chunk, n - c);
        char* out = network ? result + (first - lo + c) * size : result;
        if (ranks == 1) {
          memcpy(out, inputs[0] + c * size, m * size);
        } else {
          fold.apply(out, inputs[0] + c * size, inputs[1] + c * size, m);
          for (size_t r = 2; r < ranks; ++r) fold.apply(out, out, inputs[r] + c * size, m);
        }
        for (char* to : mapped_dest) memcpy(to + (first - lo + c) * size, out, m * size);
      }
    }
    for (size_t k = 1; direct && k < ranks; ++k)
      g.deliver(static_cast<int>((me + k) % ranks), at(dest, lo, size), result, (hi - lo) * size);
    for (size_t k = 0; network && !direct && k < ranks; ++k) {
      const int pe = g.pe(static_cast<int>((me + k) % ranks));
      const Target to = locate(call, "dest", at(dest, lo, size), (hi - lo) * size, pe);
      if (!to.mapped) scheduler().submit_nbi(call, Op{Op::Kind::Put, to, result, (hi - lo) * size});
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
constexpr size_t kDoublingReduce = 128 * 1024;

// A round of recursive doubling with rank `partner`: once it has joined the round, this PE's
// partial result goes into its dest, and the partner's, arrived in this PE's dest, is folded in.
void doubling_round(Group& g, int partner, void* dest, void* partial, size_t count, const Fold& fold) {
  g.join(partner);
  g.await_joined(partner);
  g.deliver(partner, dest, partial, count * fold.size);
  g.await_delivered(partner);
  fold.apply(partial, partial, dest, count);
}

bool reduce_doubling(Group& g, void* dest, const void* source, size_t count, const Fold& fold) {
  const int n = g.size(), me = g.rank();
  const size_t bytes = count * fold.size;
  if (!fold.integral || n < 2 || (n & (n - 1)) != 0 || bytes > kDoublingReduce || !g.direct(bytes)) return false;
  void* partial = scratch(bytes, 0);
  memcpy(partial, source, bytes);  // dest may be source
  for (int distance = 1; distance < n; distance <<= 1) doubling_round(g, me ^ distance, dest, partial, count, fold);
  memcpy(dest, partial, bytes);
  return true;
}

// A reduction by node (node_member), for folds whose result does not depend on the order of
// the inputs (integers), on 2^k nodes: the leader folds its node's sources, then the leaders
// fold their partial results by recursive doubling (as reduce_doubling does).  Returns false,
// doing nothing, where it does not apply.
bool reduce_by_node(Group& g, void* dest, const void* source, size_t count, const Fold& fold) {
  const size_t bytes = count * fold.size;
  if (!fold.integral || !g.by_node() || (g.nodes() & (g.nodes() - 1)) != 0 || bytes > kDoublingReduce ||
      !g.direct(bytes, 2))
    return false;
  if (node_member(g, dest, bytes)) return true;
  const int node = g.my_node(), me = g.rank(), end = g.node_start(node + 1);
  void* partial = scratch(bytes, 0);
  memcpy(partial, source, bytes);  // dest may be source
  for (int r = me + 1; r < end; ++r) {
    g.await_joined(r);
    fold.apply(partial, partial, locate(g.call(), "source", source, bytes, g.pe(r)).mapped, count);
  }
  for (int distance = 1; distance < g.nodes(); distance <<= 1)
    doubling_round(g, g.node_start(node ^ distance), dest, partial, count, fold);
  memcpy(dest, partial, bytes);
  release_node(g, dest);
  return true;
}

}  // namespace

void reduce(Group& g, void* dest, const void* source, size_t count, const Fold& fold, Scan scan) {
  const char* call = g.call();
  const size_t size = fold.size;
  const size_t bytes = count * size;
  check_buffer(call, "dest", dest, bytes);
  check_buffer(call, "source", source, bytes);
  if (count == 0) return;  // as a broadcast of nothing (collectives.cc)
  if (scan == Scan::None && bytes * static_cast<size_t>(g.size()) > Group::kBankNetwork &&
      (reduce_by_node(g, dest, source, count, fold) || reduce_doubling(g, dest, source, count, fold)))
    return;
  if (scan == Scan::None && g.size() > 1 && bytes >= kSlicedReduce &&
      (bytes >= kSlicedReduceNetwork || g.on_one_node()))
    return reduce_sliced(g, dest, source, count, fold);
  const int ranks = scan == Scan::None ? g.size() : scan == Scan::Inclusive ? g.rank() + 1 : g.rank();
  char* result = static_cast<char*>(scratch(bytes, 0));
  if (ranks == 0) memset(result, 0, bytes);  // zero of every element type: all bits clear
  if (char* bank = g.bank(bytes)) {
    if (scan == Scan::None && fold.integral && !g.by_node() && g.doubles()) {
      // Integers, whose fold does not depend on the order of the inputs: in round j each PE
      // swaps its partial result with the rank 2^j away (through place j of the banks) and
      // folds in the one it gets, so every message carries `count` elements, where a gather
      // of every part (as below) doubles them each round.  perf/collectives (sum of longs),
      // 3 alternating runs against the gather: 8 PEs on 8 nodes (on 2 cores) 0.74-0.96 of its
      // time at 32 B-4 KiB (92-141 us against 118-170), 0.97-1.13 at 8-16 B; 4 PEs on 4 nodes
      // 25.5 against 30.4 us at 32 B (both rounds now fit a cell), within 15% either way at
      // the other sizes.
      memcpy(result, source, bytes);  // dest may be source
      size_t round = 0;
      for (int distance = 1; distance < g.size(); distance <<= 1, ++round) {
        char* place = bank + round * bytes;
        g.swap_stamped(bank, place, place, bytes, result, g.rank() ^ distance);
        fold.apply(result, result, place, count);
      }
      memcpy(dest, result, bytes);
      return;
    }
    // Small: every PE's source in every PE's bank, then a fold of local memory.
    const char* whole = gather_all(g, bank, bytes, source);
    if (ranks > 0) {
      memcpy(result, whole, bytes);
      for (int r = 1; r < ranks; ++r) fold.apply(result, result, whole + static_cast<size_t>(r) * bytes, count);
    }
    memcpy(dest, result, bytes);
    return;
  }
  // Every input read where it is (node peers' in place, others' fetched in pieces small
  // enough that every rank's part of one fits in about 1 MiB), folded in chunks that keep
  // the result in cache.
  Reads reads(g);
  for (int r = 0; r < ranks; ++r) reads.await(r);
  if (ranks > 0) {
    const size_t piece = std::min(count, std::max<size_t>(1, (size_t{1} << 20) / (size * static_cast<size_t>(ranks))));
    char* fetched = static_cast<char*>(scratch(piece * static_cast<size_t>(ranks) * size, 1));
    std::vector<const char*> inputs(static_cast<size_t>(ranks));
    const size_t chunk = std::max<size_t>(1, kFoldChunkBytes / size);
    for (size_t first = 0; first < count; first += piece) {
      const size_t n = std::min(piece, count - first);
      bool network = false;
      for (int r = 0; r < ranks; ++r) {
        const Target from = locate(call, "source", at(source, first, size), n * size, g.pe(r));
        char* slot = fetched + static_cast<size_t>(r) * piece * size;
        if (from.mapped) {
          inputs[static_cast<size_t>(r)] = static_cast<const char*>(from.mapped);
        } else {
          scheduler().submit_nbi(call, Op{Op::Kind::Get, from, slot, n * size});
          inputs[static_cast<size_t>(r)] = slot;
          network = true;
        }
      }
      if (network) scheduler().quiet(call);
      for (size_t c = 0; c < n; c += chunk) {
        const size_t m = std::min(chunk, n - c);
        char* out = result + (first + c) * size;
        memcpy(out, inputs[0] + c * size, m * size);
        for (int r = 1; r < ranks; ++r) fold.apply(out, out, inputs[static_cast<size_t>(r)] + c * size, m);
      }
    }
  }
  for (int r = 0; r < ranks; ++r) reads.release(r);
  // Those that read this PE's source (every other rank, or in a scan the ranks after it)
  // are done before dest, which may be the source, changes.
  reads.end(scan == Scan::None ? g.size() - 1 : g.size() - 1 - g.rank(), false);
  memcpy(dest, result, bytes);
}

}  // namespace tandem::coll
