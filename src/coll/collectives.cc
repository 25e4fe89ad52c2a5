#include "coll/collectives.h"

#include <utility>

#include "core/fiber.h"

namespace tandem::coll {

void* scratch(size_t bytes, int which) {
  thread_local Scratch own;
  Fiber* fiber = Fiber::current();
  std::vector<std::max_align_t>& buffer = (fiber ? *static_cast<Scratch*>(fiber->data()) : own).buffers[which];
  const size_t words = (bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
  if (buffer.size() < words) buffer.resize(words);
  return buffer.data();
}

bool pull(const char* call, void* dest, const void* source, size_t bytes, int pe) {
  if (bytes == 0) return false;
  const Target from = locate(call, "source", source, bytes, pe);
  if (from.mapped) {
    if (from.mapped != dest) memcpy(dest, from.mapped, bytes);
    return false;
  }
  scheduler().submit_nbi(call, Op{Op::Kind::Get, from, dest, bytes});
  return true;
}

void push_and_sync(Group& g, char* bank, size_t bytes, const void* data, size_t stride, bool pushes) {
  const char* call = g.call();
  bool network = false;
  for (int r = 0; pushes && r < g.size(); ++r) {
    const void* from = static_cast<const char*>(data) + static_cast<size_t>(r) * stride;
    const Target at = locate(call, "bank", bank + static_cast<size_t>(g.rank()) * bytes, bytes, g.pe(r));
    if (at.mapped) {
      memcpy(at.mapped, from, bytes);
    } else {
      scheduler().submit_nbi(call, Op{Op::Kind::Put, at, const_cast<void*>(from), bytes});
      network = true;
    }
  }
  if (network) scheduler().quiet(call);
  g.sync();
}

namespace {

// Reads `count` elements of `elem` bytes, `from_stride` elements apart at `from` (symmetric)
// on world PE `pe`, into `to` here, `to_stride` apart, as an iget reads them
// (Scheduler::submit_strided).  Returns true when a network get was posted.
bool get_elements(const char* call, void* to, ptrdiff_t to_stride, const void* from, ptrdiff_t from_stride,
                  size_t elem, size_t count, int pe) {
  const size_t from_bytes = ((count - 1) * static_cast<size_t>(from_stride) + 1) * elem;
  const Target at = locate(call, "source", from, from_bytes, pe);
  return scheduler().submit_strided(call, Op::Kind::Get, at, static_cast<char*>(to), from_stride, to_stride, elem, 1,
                                    count);
}

// Block `rank` of rank r's source into block r of dest (see alltoall).  Returns true when a
// network get was posted.  Strided blocks go as an iget's (get_elements()): read
// an element at a time, each a network read, an alltoalls of 120000 ints took 1.0-1.2 s on 2
// PEs of 2 virtual nodes where the alltoall took 0.3-0.5 ms (now 0.9 ms).
bool pull_block(Group& g, void* dest, const void* source, size_t count, size_t elem, ptrdiff_t dst, ptrdiff_t sst, int r) {
  char* to = static_cast<char*>(dest) + static_cast<size_t>(r) * count * static_cast<size_t>(dst) * elem;
  const char* from = static_cast<const char*>(source) + static_cast<size_t>(g.rank()) * count * static_cast<size_t>(sst) * elem;
  if (dst == 1 && sst == 1) return pull(g.call(), to, from, count * elem, g.pe(r));
  return get_elements(g.call(), to, dst, from, sst, elem, count, g.pe(r));
}

// Calls `pull_rank(r)` for every rank r of the group: the ranks on other nodes first, from
// the next rank on, then those of this node (this PE among them) in rank order.  The
// network reads are on their way while this PE copies from its node; on one node the
// stamped reads go in rank order, which perf/collectives measured 7-20% faster at 4-16 KiB
// (2 PEs) than this PE first or last.  Returns whether any call posted a network read.
template <typename Pull>
bool pull_network_first(Group& g, Pull pull_rank) {
  const Runtime& runtime = rt();
  bool network = false;
  for (int k = 1; runtime.spans_nodes && k < g.size(); ++k) {
    const int r = (g.rank() + k) % g.size();
    if (!runtime.is_local(g.pe(r))) network |= pull_rank(r);
  }
  for (int r = 0; r < g.size(); ++r)
    if (!runtime.spans_nodes || runtime.is_local(g.pe(r))) network |= pull_rank(r);
  return network;
}

// A direct exchange (Group::direct) in which every PE writes into every other PE's dest:
// joins every other PE, calls `write(r)` for each rank r once it has joined (the next rank
// first), then waits for every other PE's data.
template <typename Write>
void exchange_direct(Group& g, Write write) {
  const int n = g.size(), me = g.rank();
  for (int k = 1; k < n; ++k) g.join((me + k) % n);
  for (int k = 1; k < n; ++k) {
    const int r = (me + k) % n;
    g.await_joined(r);
    write(r);
  }
  for (int k = 1; k < n; ++k) g.await_delivered((me + n - k) % n);
}

}  // namespace

bool node_member(Group& g, void* dest, size_t bytes) {
  const int leader = g.leader();
  if (g.rank() == leader) return false;
  g.join(leader);
  g.await_delivered(leader);
  memcpy(dest, locate(g.call(), "dest", dest, bytes, g.pe(leader)).mapped, bytes);
  g.deliver(leader, dest, dest, 0, 1);
  return true;
}

void release_node(Group& g, void* dest) {
  const int end = g.node_start(g.my_node() + 1);
  for (int r = g.rank() + 1; r < end; ++r) g.deliver(r, dest, dest, 0);
  for (int r = g.rank() + 1; r < end; ++r) g.await_delivered(r, 1);
}

void push_all(Group& g, char* bank, size_t bytes, const void* data, size_t stride) {
  if (!g.push_stamped(bank, bytes, data, stride)) push_and_sync(g, bank, bytes, data, stride);
}

const char* gather_all(Group& g, char* bank, size_t bytes, const void* data) {
  if (const char* whole = g.gather_by_node(bank, bytes, data)) return whole;
  if (!g.doubles()) {
    push_all(g, bank, bytes, data, 0);
    return bank;
  }
  // In round j each PE sends the 2^j blocks it has to the rank 2^j away, into their places
  // in that PE's bank.
  memcpy(bank + static_cast<size_t>(g.rank()) * bytes, data, bytes);
  for (int distance = 1; distance < g.size(); distance <<= 1) {
    const int partner = g.rank() ^ distance;
    char* place = bank + static_cast<size_t>(g.rank() & ~(distance - 1)) * bytes;  // the blocks this PE has
    char* theirs = bank + static_cast<size_t>(partner & ~(distance - 1)) * bytes;
    g.swap_stamped(bank, place, theirs, static_cast<size_t>(distance) * bytes, place, partner);
  }
  return bank;
}

void broadcast(Group& g, void* dest, const void* source, size_t bytes, int root, bool to_root) {
  const char* call = g.call();
  check_buffer(call, "dest", dest, bytes);
  check_buffer(call, "source", source, bytes);
  // Nothing to move: every PE passes the same size and none needs another's data, so each
  // returns at once (a sync would cost the team a barrier for nothing).
  if (bytes == 0) return;
  locate(call, "dest", dest, bytes, rt().my_pe);  // symmetric, whole
  if (g.box_broadcast(dest, source, bytes, root, to_root)) return;
  if (char* bank = g.bank(bytes)) {
    // Small, where the boxes do not apply: the root pushes into every bank (its own place
    // there), one sync.
    push_and_sync(g, bank, bytes, source, 0, g.rank() == root);
    if (g.rank() != root || to_root) memcpy(dest, bank + static_cast<size_t>(root) * bytes, bytes);
    return;
  }
  if (g.tree_broadcast(dest, source, bytes, root, to_root)) return;
  Reads reads(g);
  bool network = false;
  if (g.rank() != root || to_root) {
    reads.await(root);
    network = pull(call, dest, source, bytes, g.pe(root));
    reads.release(root);
  }
  reads.end(g.rank() == root ? g.size() - 1 : 0, network);
}

void collect(Group& g, void* dest, const void* source, size_t bytes, bool same_size) {
  const char* call = g.call();
  check_buffer(call, "source", source, bytes);
  // fcollect of nothing: as a broadcast of nothing (collect's sizes may differ between PEs).
  if (same_size && bytes == 0) return;
  if (!same_size) g.offer(bytes);
  if (char* bank = same_size ? g.bank(bytes) : nullptr) {
    // Small fcollect: every PE's block in every bank, one sync.
    check_buffer(call, "dest", dest, bytes * static_cast<size_t>(g.size()));
    locate(call, "dest", dest, bytes * static_cast<size_t>(g.size()), rt().my_pe);
    memcpy(dest, gather_all(g, bank, bytes, source), bytes * static_cast<size_t>(g.size()));
    return;
  }
  if (same_size && g.by_node()) {
    size_t widest = 0;  // the most ranks on one node
    for (int node = 0; node < g.nodes(); ++node)
      widest = std::max(widest, static_cast<size_t>(g.node_start(node + 1) - g.node_start(node)));
    if (g.direct(widest * bytes, 2)) {
      // By node (node_member): the leader gathers its node's blocks, then writes them in one
      // piece into every other leader's dest.
      const size_t total = bytes * static_cast<size_t>(g.size());
      check_buffer(call, "dest", dest, total);
      locate(call, "dest", dest, total, rt().my_pe);
      if (node_member(g, dest, total)) return;
      const int nodes = g.nodes(), node = g.my_node(), me = g.rank(), end = g.node_start(node + 1);
      char* run = static_cast<char*>(dest) + static_cast<size_t>(me) * bytes;
      memcpy(run, source, bytes);
      for (int r = me + 1; r < end; ++r) {
        g.await_joined(r);
        memcpy(run + static_cast<size_t>(r - me) * bytes, locate(call, "source", source, bytes, g.pe(r)).mapped, bytes);
      }
      for (int k = 1; k < nodes; ++k) g.join(g.node_start((node + k) % nodes));
      for (int k = 1; k < nodes; ++k) {
        const int other = g.node_start((node + k) % nodes);
        g.await_joined(other);
        g.deliver(other, run, run, static_cast<size_t>(end - me) * bytes);
      }
      for (int k = 1; k < nodes; ++k) g.await_delivered(g.node_start((node + k) % nodes));
      release_node(g, dest);
      return;
    }
  }
  if (same_size && g.direct(bytes)) {
    // Each PE's block into its place of every dest, once that dest's owner has joined.
    const size_t place = static_cast<size_t>(g.rank()) * bytes;
    check_buffer(call, "dest", dest, bytes * static_cast<size_t>(g.size()));
    locate(call, "dest", dest, bytes * static_cast<size_t>(g.size()), rt().my_pe);
    memcpy(static_cast<char*>(dest) + place, source, bytes);
    const size_t n = static_cast<size_t>(g.size());
    if (n >= 4 && (n & (n - 1)) == 0 && n / 2 * bytes <= Group::kDirect) {
      // In rounds of recursive doubling: in round j the 2^j blocks this PE has go to the
      // same place of the dest of the rank 2^j away.  log2(n) writes a PE instead of n - 1:
      // perf/collectives, 4 PEs, 16-256 KiB each: on 4 nodes (on 2 cores) 58-320 us against
      // 84-389 us with a write to every PE, on 2 nodes 36-223 against 55-282 us.
      for (int distance = 1; distance < g.size(); distance <<= 1) g.join(g.rank() ^ distance);
      for (int distance = 1; distance < g.size(); distance <<= 1) {
        const int partner = g.rank() ^ distance;
        char* have = static_cast<char*>(dest) + static_cast<size_t>(g.rank() & ~(distance - 1)) * bytes;
        g.await_joined(partner);
        g.deliver(partner, have, have, static_cast<size_t>(distance) * bytes);
        g.await_delivered(partner);
      }
      return;
    }
    exchange_direct(g, [&](int r) { g.deliver(r, static_cast<char*>(dest) + place, source, bytes); });
    return;
  }
  // Every rank entered first: its offer is in.
  Reads reads(g);
  for (int r = 0; r < g.size(); ++r) reads.await(r);
  // Rank r's block goes to offset[r] of dest, up to offset[r + 1] (collect); fcollect's
  // blocks are `bytes` apart.
  std::vector<uint64_t> offset;
  if (!same_size) {
    offset = g.offers();
    offset.push_back(0);
    uint64_t sum = 0;
    for (uint64_t& o : offset) sum += std::exchange(o, sum);
  }
  const auto start = [&](int r) { return same_size ? static_cast<size_t>(r) * bytes : offset[static_cast<size_t>(r)]; };
  const size_t total = start(g.size());
  check_buffer(call, "dest", dest, total);
  if (total > 0) locate(call, "dest", dest, total, rt().my_pe);  // symmetric, large enough for everything
  const bool network = pull_network_first(g, [&](int r) {
    const bool posted = pull(call, static_cast<char*>(dest) + start(r), source, start(r + 1) - start(r), g.pe(r));
    reads.release(r);
    return posted;
  });
  reads.end(g.size() - 1, network);
}

void alltoall(Group& g, void* dest, const void* source, size_t count, size_t elem, ptrdiff_t dst, ptrdiff_t sst) {
  const char* call = g.call();
  if (dst < 1) fatal(call, "dst = %td is not a positive stride", dst);
  if (sst < 1) fatal(call, "sst = %td is not a positive stride", sst);
  if (count == 0) return;  // as a broadcast of nothing
  const size_t n = static_cast<size_t>(g.size());
  // The last element of the last block, plus one.
  const size_t dest_elems = (n * count - 1) * static_cast<size_t>(dst) + 1;
  const size_t source_elems = (n * count - 1) * static_cast<size_t>(sst) + 1;
  check_buffer(call, "dest", dest, dest_elems * elem);
  check_buffer(call, "source", source, source_elems * elem);
  locate(call, "dest", dest, dest_elems * elem, rt().my_pe);
  const bool contiguous = dst == 1 && sst == 1;
  const size_t block = count * elem;
  if (char* bank = g.bank(block)) {
    // Small: block r of my source into my place of rank r's bank, one sync; strided elements
    // packed here first, and placed from the bank (pulled instead, as larger blocks are, an
    // 8-byte block took 25-37 us on 2 PEs of 2 virtual nodes, where this takes 5.3-7.5).
    const void* from = source;
    if (sst != 1) {
      void* packed = scratch(block * n, 0);
      (void)get_elements(call, packed, 1, source, sst, elem, n * count, rt().my_pe);
      from = packed;
    }
    push_all(g, bank, block, from, block);
    (void)get_elements(call, dest, dst, bank, 1, elem, n * count, rt().my_pe);
    return;
  }
  if (contiguous && g.direct(block)) {
    // Block r of the source into this PE's place of rank r's dest, once r has joined.
    const size_t place = static_cast<size_t>(g.rank()) * block;
    exchange_direct(g, [&](int r) {
      g.deliver(r, static_cast<char*>(dest) + place, static_cast<const char*>(source) + static_cast<size_t>(r) * block, block);
    });
    memcpy(static_cast<char*>(dest) + place, static_cast<const char*>(source) + place, block);
    return;
  }
  Reads reads(g);
  const bool network = pull_network_first(g, [&](int r) {
    reads.await(r);
    const bool posted = pull_block(g, dest, source, count, elem, dst, sst, r);
    reads.release(r);
    return posted;
  });
  reads.end(g.size() - 1, network);
}

}  // namespace tandem::coll
