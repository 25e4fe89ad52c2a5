// Teams and the groups that collectives run over.
//
// A team is an ordered list of world PEs plus one slot of the symmetric team area, which
// holds the team's barrier counters and one exchange word per PE.  A PE belongs to at most
// one live team per slot, so teams whose members are disjoint (the rows of a 2-D split, the
// SHMEM_TEAM_SHARED team of each node) share a slot.  A split picks the lowest slot that is
// free on every PE of the parent team.
//
// The barrier is a dissemination barrier on counters that only grow while the team lives: in
// round k each PE counts the barrier on the counter k of the PE 2^k ranks ahead (adds 1, or
// over an ordered network writes the count) and waits for its own counter k to reach the
// number of barriers so far.  A team starts its counters from 0 at its creation; then a
// barrier costs one remote update per round and nothing else.  A team that spans nodes with
// more than one of its PEs on some node syncs in three steps instead: the PEs of each node
// count their arrival at the node's leader (its member of lowest rank) with CPU atomics, the
// leaders alone run the dissemination across nodes, and each leader releases its node with
// one store; so only log2(nodes) rounds cross the network, not log2(PEs).
//
// The deprecated active-set collectives name their PEs with (PE_start, logPE_stride,
// PE_size) and bring their own pSync array, which must hold SHMEM_SYNC_VALUE again between
// calls; their barrier adds 1, waits for its counter to be positive and takes 1 back.
#pragma once

#include <shmem.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/backoff.h"
#include "core/peer_pages.h"
#include "core/slot_set.h"

// shmem_team_t points to a tandem_team.  SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED are the two
// exported ones, whose size the ABI fixes (a program holds a copy of them, as large as at its
// link); they stand for the records team_world and team_shared.  A team made by a split has
// the address of its Team as its handle.
struct tandem_team {
  long reserved;
};

extern "C" tandem_team tandem_team_world;
extern "C" tandem_team tandem_team_shared;

namespace tandem {

struct Team {
  static constexpr int kRounds = 32;  // enough rounds for 2^32 PEs

  int slot = -1;
  int rank = -1;             // this PE's rank in the team
  std::vector<int> pes;      // rank -> world PE
  std::vector<int> rank_of;  // world PE -> rank, or -1
  shmem_team_config_t config{};
  uint64_t epoch = 0;        // barriers so far
  uint64_t bank_calls = 0;   // collectives that used the slot's banks (Group::bank)
  uint64_t boxes_used = 0;   // boxes that broadcasts took in turn, all told (Group::box_broadcast)
  std::vector<uint64_t> box_until;  // box -> the boxes_used at the end of the last broadcast in it
  PeerPages<uint64_t> box_read;  // rank -> the boxes_used that rank was last seen done with
  uint64_t box_told = 0;     // the boxes_used when this PE last told its parent (Group::box_broadcast)
  std::vector<uint64_t> box_told_due;  // rank -> the count that child owes this PE last (0: none)
  uint64_t stamp_calls = 0;  // collectives that used the slot's stamps (Group::stamped)
  uint64_t stamp_reads = 0;  // reads of this PE's memory that those calls waited for, all told
  uint64_t direct_calls = 0;  // collectives that used Group::direct
  uint64_t direct_pieces = 0;  // the pieces that they delivered, all told
  bool one_node = true;      // every PE of the team on this node (its memory mapped here)
  // The barrier by node (see above); `leaders` is empty where the team syncs as one.
  std::vector<int> leaders;  // the team rank of each node's leader, ascending
  int leader = -1;           // the team rank of this node's leader
  int leader_index = -1;     // this PE's place in `leaders`, or -1
  int node_members = 0;      // the team's PEs on this node, this one included
  // Where `leaders` is not empty, whether each node's PEs hold consecutive ranks (a node's
  // run from its leader up to the next leader's rank): then the broadcasts, reductions and
  // fcollects go by node too (Group::by_node).
  bool node_blocks = false;

  int size() const { return static_cast<int>(pes.size()); }
};

// The teams behind SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED.
extern Team team_world, team_shared;

// During shmem_init, right after the heap is made: takes the team area (TANDEM_TEAMS slots)
// from the symmetric heap.
void teams_allocate(const char* call);
// Collective over all PEs, during shmem_init: makes SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED.
void teams_init(const char* call);
// The bytes of symmetric heap that the area of `teams` slots takes.
size_t team_area_bytes(size_t teams);

// The team behind a handle, or a fatal error naming `call` and `what` when it is
// SHMEM_TEAM_INVALID or no live team (destroyed, or never made by a split).
Team& team_of(const char* call, const char* what, shmem_team_t team);
// For the routines that accept SHMEM_TEAM_INVALID (and return -1 or do nothing): nullptr
// for it, the team for a live one, a fatal error for anything else.
Team* team_given(const char* call, const char* what, shmem_team_t team);
// The handle of a team.
shmem_team_t handle_of(const Team& team);

// The world PE of `rank` in `team`, or a fatal error when the rank is out of range.
int team_world_pe(const char* call, const Team& team, int rank);

// Returns once every PE of `team` has called it (no completion of communication).
void team_sync(const char* call, Team& team);

// A split of `parent`: this PE's new teams (up to two, from split_2d) are given by their
// members as parent ranks (an empty list: this PE is not in that team).  Every PE of the
// parent calls it with the same number of teams.  Returns false, with every handle
// SHMEM_TEAM_INVALID, when the parent's PEs have no slot free in common.
bool team_split(const char* call, Team& parent, int count, const std::vector<int>* members,
                const shmem_team_config_t* const* configs, const long* masks, shmem_team_t* out);

// Frees a team made by a split.
void team_destroy(const char* call, Team& team);

// Before `team`'s slot goes back (team_destroy): waits until the children of this PE's
// broadcasts on other nodes have told it all they owe (Group::box_broadcast), so that none
// of their words lands in the slot's next team.
void await_boxes_told(const char* call, Team& team);

// A stamp of the team area that rode on a write as its notification word (Group's stamps
// across nodes): sets the stamp and returns true, or returns false for any other
// notification (those name a PE below 2^31 in their top half, so their top bit is clear).
bool stamp_landed(uint64_t data);

namespace coll {
// Completes every nonblocking collective in flight on `team` (nbc.h).
void settle(const char* call, Team& team);
}  // namespace coll

// Before a blocking collective, sync, split or destruction of `team` (not one that runs as a
// nonblocking collective's request, on its fiber): the team's requests complete first, in
// the order they were posted, as on every other PE of the team.
inline void settle_requests(const char* call, Team& team) {
  if (background_requests.load(std::memory_order_relaxed) > 0 && !Fiber::current()) coll::settle(call, team);
}

// The PEs of one collective call: a team, or an active set with its pSync array.
class Group {
 public:
  Group(const char* call, Team& team) : call_(call), team_(&team), size_(team.size()), rank_(team.rank) {
    settle_requests(call, team);
  }
  Group(const char* call, int start, int log_stride, int size, long* psync, size_t psync_len);

  int size() const { return size_; }
  int rank() const { return rank_; }
  // False for a PE that calls an active-set collective without being in the active set:
  // the call returns at once and changes nothing there (what Open MPI's OSHMEM does; the
  // specification leaves it undefined).
  bool member() const { return rank_ >= 0; }
  int pe(int rank) const { return team_ ? team_->pes[static_cast<size_t>(rank)] : start_ + rank * stride_; }
  // True when every PE of the group is on this node (its memory mapped here).
  bool on_one_node() const;
  // `root` when it is a rank of the group, else a fatal error naming `what`.
  int rank_of_root(int root, const char* what) const;
  // Returns once every PE of the group has called it.
  void sync();
  // Each PE offers one word; after a sync that follows every offer, offers() reads them
  // all, in rank order, until the next sync.
  void offer(uint64_t word);
  std::vector<uint64_t> offers() const;
  // Collective: the `count` lowest slots that no PE of the group has in `used`, compared 64
  // at a time (gathered through a team's banks, else with a sync each and the exchange
  // words, read until the caller's next sync); fewer when there are not as many, and then
  // one PE of the group says why in one line: the live `what` (teams, windows) that the
  // `setting` allows.
  std::vector<int> free_everywhere(const SlotSet& used, size_t count, const char* what, const char* setting);
  // Small collectives on a team push their data instead of pulling it: each PE writes its
  // part into its own place (rank * bytes_per_rank) of every PE's bank, and one sync later
  // every PE finds all parts in its own memory.  The banks alternate between two per slot:
  // a PE can only write into a bank again after every PE has passed the next collective's
  // sync, that is, has finished reading that bank.  Returns the bank of this call, or
  // nullptr (an active set, or more bytes for the whole team than the bank takes: kBank on
  // one node, kBankNetwork across nodes).
  //
  // On one node a push copies each part twice (into the banks, then out of one's own) where
  // a pull with stamps (Group::stamped) copies it once but waits for its peers twice, so
  // pulls take over from kBank bytes: with perf/collectives, reductions, fcollect and
  // alltoall on 4 PEs (on 2 cores) take 2.4-3.5 us pushed and 4.3-6.8 us pulled at 256-512 B
  // per PE; on 2 PEs pushes are 1.2-1.4x faster at 512 B per PE, as fast at 1 KiB and 2x
  // slower at 2 KiB.
  // Across nodes a pull costs two syncs and a round trip per PE where a push costs one
  // message per PE, and perf/collectives finds the push faster at every size tried: with 2
  // PEs on 2 nodes, reductions, fcollect and alltoall of 512 B to 32 KiB per PE take 13-25 us
  // pushed and 42-48 us pulled; with 4 PEs on 4 nodes (on 2 cores), 1-16 KiB per PE 79-108
  // us pushed and 204-263 us pulled.  The limit weighs that against memory: the banks take
  // 2 * kBankNetwork bytes per team slot (TANDEM_TEAMS of them), most of them in pages that
  // only a push across nodes touches.
  static constexpr size_t kBank = 2048;
  static constexpr size_t kBankNetwork = 32768;
  char* bank(size_t bytes_per_rank);
  // The push of a collective in which every PE writes into every PE's bank (Group::bank),
  // without the sync, where a stamp can follow the data (on one node; across nodes, a
  // network that keeps writes in order or carries the stamp on the data's write as its
  // notification word): each PE writes its part and then its stamp, the bank call's
  // number, into the stamps beside the bank, and waits until every PE's stamp has reached
  // this call.  The banks still alternate safely: a PE writes into a bank again only after
  // every PE's stamp of the call in between, which a PE writes only once it is done reading
  // the bank.  Returns false, doing nothing, where it does not apply (a network that can
  // do neither, a team of more than kBankStamps PEs).
  static constexpr int kBankStamps = 64;
  bool push_stamped(char* bank, size_t bytes, const void* data, size_t stride);
  // Whether a collective that gathers every PE's part into every bank may do it in rounds
  // of recursive doubling (swap_stamped): on a team of 4 or more PEs, a power of two, that
  // spans nodes over a network where stamps travel.  Each PE then sends log2(n) messages
  // instead of n - 1, one after the other.  perf/collectives, reductions and fcollect of
  // 8 B-8 KiB, 3 alternating runs: 4 PEs on 4 nodes (on 2 cores) 61-85 us against 68-119 us
  // pushed to every PE at once (1.1x at 8 B, 1.3x from 128 B); 4 PEs on 2 nodes 34-55 us
  // against 47-86 (1.3-1.6x).
  bool doubles() const;
  // One round of recursive doubling through the bank of this call: writes `bytes` from
  // `data` into `place` of the bank of rank `partner` and stamps it, then waits for that
  // rank's stamp in this PE's bank, where its `bytes` are at `theirs` (the place it wrote
  // into).  The banks alternate as with push_stamped: a PE's last round brings parts that
  // every PE sent once it had entered the call, so every PE is done with the call before,
  // and thus with the other bank.
  void swap_stamped(char* bank, char* place, char* theirs, size_t bytes, const void* data, int partner);
  // The gather of every PE's part into the bank of this call (reductions, fcollect) by node,
  // on a team that syncs by node whose nodes hold consecutive ranks (Team::node_blocks): each
  // PE copies its part into its place of its leader's bank and stamps it there; the leader,
  // once its node's parts are in, writes them in one stamped write into the bank of every
  // other node's leader, waits for theirs, then stamps its own bank whole; the node's other
  // PEs wait for that stamp and read the leader's bank, which they map.  So one message a
  // pair of nodes crosses the network, where a gather by recursive doubling (doubles) sends
  // one a PE in each round that crosses, and a push to every PE one a pair of PEs.  The banks
  // still alternate safely: a PE of a node writes into its leader's bank again two bank calls
  // later, after its leader has heard from every PE of the node in the call in between,
  // which they start once done reading; another leader likewise, after this leader's write
  // of that call.  Returns the bank that holds every part for this PE (its leader's), or
  // nullptr, doing nothing, where it does not apply (more than kBankStamps nodes, or PEs on
  // one node; the team's size is bounded only by its bank).  perf/collectives, sum_reduce and
  // fcollect of 8 B-8 KiB on 2 nodes (on 2 cores), alternating runs against the gathers it
  // replaced: 4 PEs 71-106 us against 86-125 us (doubling), 6 PEs 144-159 against 254-307
  // (a push to every PE), 8 PEs 182-246 against 281-375 (doubling).
  const char* gather_by_node(char* bank, size_t bytes, const void* data);
  // A small broadcast on a team, with no sync: the data goes into the boxes of every PE but
  // the root, each write stamped in the last box (across nodes, as push_stamped); each PE
  // waits for the stamp in its own memory, copies the data out and counts the broadcast done
  // there.  The PEs form a tree (tree_links: binomial, by node across nodes), and a PE passes
  // the data on from its own boxes to its children's once it has it.  On one node too: a root
  // that wrote into every PE's boxes paid a store that misses per PE on every broadcast, and
  // back-to-back broadcasts went at its pace (perf/collectives -A on a node of 16 cores, two
  // alternating runs, 8-256 B: 16 PEs 1.32-1.84 us against 0.49-1.10 down the tree, where
  // Open MPI's OSHMEM took 0.89-1.68; 8 PEs 0.56-0.89 against 0.30-0.59; 4 PEs alike).  The
  // boxes of kBox bytes of the slot form a ring that the broadcasts take in turn, as many
  // boxes each as their data fills and never across the ring's end (every PE of the team
  // counts the same boxes, as it makes the same calls).  So the root runs ahead until it
  // comes back to a box: before a PE writes into another's box it waits until that PE has
  // finished with the broadcast that last took it.  Returns false, doing nothing, where it
  // does not apply (an active set other than all PEs, more than kBox bytes on one node or
  // kBoxNetwork across nodes, PEs on other nodes over a network that cannot stamp).
  //
  // On one node a PE copies larger data straight from the root (Group::stamped): one copy
  // instead of two.  Across nodes a broadcast through the boxes costs each PE a message per
  // child and no sync, where a push through the banks or a pull costs a sync: with
  // perf/collectives, 2-16 KiB on 2 PEs of 2 nodes take 10-21 us through the boxes and 22-25
  // us otherwise, on 4 PEs of 4 nodes (on 2 cores) 33-67 us and 83-155 us.  The tree against
  // the root writing to every PE: 4 PEs on 2 nodes 2.7-3.5 us against 5.1-7.2 us at 8 B-1
  // KiB, 18.5 against 22 us at 16 KiB (one message crosses the network instead of two); on 4
  // PEs of 4 nodes (on 2 cores, which every message keeps busy) as fast.  Up to half the
  // ring, so that the root can still run a broadcast ahead.
  //
  // The ring of a team on one node takes kBoxesNode boxes, of a team across nodes all
  // kBoxes: where a PE reads another node's count, a deeper ring makes the read rarer (once
  // per turn of the ring, every 2 broadcasts of 16 KiB with 32 boxes) and lets more
  // broadcasts be on their way.  perf/collectives, 4 PEs on 2 nodes (on 2 cores), two
  // alternating runs: 128 boxes against 32, 18-20 us against 30-32 us at 4 KiB, 24-26
  // against 53 at 8 KiB, 39-42 against 86-91 at 16 KiB; 32 KiB, now through the boxes,
  // 56-60 against 91-108 us down the direct tree; 2 PEs on 2 nodes, 13-20 against 19-30 us
  // at 8-16 KiB, 24-27 against 31-37 at 32 KiB.  On one node the boxes take broadcasts of
  // at most kBox bytes, and a team there keeps to the first 32 KiB of them.
  //
  // A parent that reads a child's count with a get waits for the child's own progress, a
  // round trip that a child busy computing (a nonblocking broadcast's) answers only in its
  // next call: once per turn of the ring, which at 64 KiB is every other broadcast.  So a
  // broadcast of at least kBoxesTold / 2 boxes that reaches the next kBoxesTold boxes (the
  // same broadcasts on every PE) has the child on another node write its count to its
  // parent (SlotFields::box_done_told), and the parent gets it only where that word is too
  // old (the child lags, or told another parent, a broadcast from another root).  Smaller
  // ones keep to the get: a child's write costs it as much as serving a get, and they turn
  // the ring seldom.  perf/nbc, broadcast, alternating runs against the gets alone (on 2
  // cores): 2 PEs of 2 nodes, the blocking routine 16.7-17.5 us against 20.5-21.5 at 64 KiB,
  // 10.6-11.6 against 11.9-13.3 at 32 KiB, as before at 16 KiB; 4 PEs of 4 nodes 55-57
  // against 68-71 at 64 KiB; 2 nodes of 2, 32-36 against 34-36 (with the progress threads
  // off 31-32 against 35-36; the nonblocking one, where 4 PEs and their threads share the 2
  // cores, 39-57 against 35-50).
  static constexpr size_t kBox = 1024;
  static constexpr uint64_t kBoxes = 128;
  static constexpr uint64_t kBoxesNode = 32;
  static constexpr size_t kBoxNetwork = kBoxes / 2 * kBox;
  static constexpr uint64_t kBoxesTold = kBoxes / 2;
  // Parts of at most kCellBytes from another node's PE to the banks and boxes come in one
  // write of the data and its stamp behind it, into a cell (SlotFields::bank_cells,
  // box_cells), where the network lands a write's bytes in their order
  // (Scheduler::writes_land_in_order): on tcp a write that carries its stamp as a
  // notification word costs its target a wake of the provider's wait set (system calls), a
  // plain write nothing beyond its bytes.  A cell is kCellWords words, one write of at most
  // the provider's inject size (64 bytes with tcp;ofi_rxm).
  static constexpr size_t kCellBytes = 56;
  static constexpr size_t kCellWords = kCellBytes / sizeof(uint64_t) + 1;
  bool box_broadcast(void* dest, const void* source, size_t bytes, int root, bool to_root);
  // Collectives too large for the banks and boxes on a team that spans nodes write straight
  // into the dests, with no sync: a PE writes into another's dest only once that PE has said
  // it entered the call (its dest is free), with a stamp behind the data.  direct() starts
  // such a call (returns false, doing nothing, where it does not apply: an active set other
  // than all PEs, one node, more than kBankStamps PEs, a network that does not keep writes
  // in order); join(r) tells rank r that this PE has entered, await_joined(r) waits until r
  // has; deliver(r, place, data, bytes) writes `bytes` from `data` to the symmetric `place`
  // on rank r, stamped, and await_delivered(r) waits until rank r's data has arrived here.
  // The stamps count the direct calls, which every PE of the team makes in the same order.
  // `bytes`: the most one PE writes into another's dest at once in the call (a reduction:
  // the whole data), `pieces` the pieces a writer delivers one after the other (deliver's
  // and await_delivered's `piece`, from 0); beyond kDirect the pulls, which post every read before they wait, are faster (a
  // write this large waits until it has left before the next one starts).  perf/collectives
  // against the pulls with two syncs, 4 PEs on 4 nodes (on 2 cores): broadcast (in one
  // piece) 40-214 us against 70-241 us at 32-512 KiB, 670 against 709 us at 1 MiB;
  // alltoall 77-810 us against 104-849 us at 16-512 KiB each, 2536 against 2376 at 1 MiB;
  // on 2 nodes broadcast 19-138 us against 55-165 us, alltoall 53-630 against 80-664; 2 PEs
  // on 2 nodes broadcast 14-38 us against 22-46 us at 32-256 KiB, as fast at 512 KiB, 1.35x
  // slower at 1 MiB.
  static constexpr size_t kDirect = 512 * 1024;
  bool direct(size_t bytes, uint64_t pieces = 1);
  void join(int rank);
  void await_joined(int rank);
  void deliver(int rank, void* place, const void* data, size_t bytes, uint64_t piece = 0);
  void await_delivered(int rank, uint64_t piece = 0);
  // The nodes of a team that goes by node (Team::node_blocks; by_node() false otherwise):
  // how many, the first rank of node i, its leader (node_start(nodes()) is the team's size),
  // the node of a rank, this PE's node and its leader's rank.  The collectives by node use
  // them.
  bool by_node() const { return team_ && team_->node_blocks; }
  int leader() const { return team_->leader; }
  int nodes() const { return static_cast<int>(team_->leaders.size()); }
  int node_start(int node) const { return node < nodes() ? team_->leaders[static_cast<size_t>(node)] : size_; }
  int node_of(int rank) const;
  int my_node() const { return node_of(rank_); }
  // The tree of a broadcast from rank `root` across nodes (box_broadcast, tree_broadcast):
  // returns this PE's parent (-1 for the root) and sets its children, the farthest first.
  // A binomial tree of the ranks counted from the root; on a team that goes by node, a
  // binomial tree of the nodes' heads (the root on its node, the leader on the others), each
  // head the root of a binomial tree of its node's PEs, so that the data crosses between
  // nodes once a node, whatever the root and however many PEs a node holds (a binomial
  // tree of the ranks crosses more often where a node's PEs are not 2^k ranks aligned on
  // the root).  perf/collectives, broadcast from rank 0, 6 PEs on 2 nodes (on 2 cores),
  // alternating runs: 17-19 us against 27-39 us at 8 B, 155-250 against 196-320 at 64-256
  // KiB, as fast at 8 KiB.
  int tree_links(int root, std::vector<int>& children) const;
  // A broadcast too large for the boxes, direct, down the tree of tree_links: each PE but
  // the root joins its parent, then for each piece of kTreePiece bytes waits for it and
  // delivers it to each of its children that has joined, so that a piece goes down the tree
  // while the next arrives.  One copy per PE and no wait for PEs
  // outside one's own branch, where a pull costs two syncs.  Returns false, doing nothing,
  // where direct() does not apply or beyond kTreeBroadcast bytes.
  //
  // perf/collectives, two alternating runs: at 1 MiB, in pieces 4 PEs on 4 nodes (on 2
  // cores) take 425-449 us against 670-715 us pulled, on 2 nodes 291-294 against 395-408 us,
  // 2 PEs 132-133 against 143-149 us; at 512 KiB within 15% either way (one piece or two);
  // at 2-4 MiB the pull is as fast or faster.
  static constexpr size_t kTreePiece = 256 * 1024;
  static constexpr size_t kTreeBroadcast = 1024 * 1024;
  bool tree_broadcast(void* dest, const void* source, size_t bytes, int root, bool to_root);
  // A collective that pulls (its PEs read each other's sources, never their dests) syncs
  // twice: every source ready, then every read done.  On a team whose PEs share this node,
  // stamps do both between the PEs concerned only: stamped() marks this PE's memory ready
  // for this call; a reader waits for the owner's mark (await) and, done reading, counts one
  // read in the owner's memory (release); the owner returns once its readers have all
  // counted (await_readers).  A PE that reads from no one and that no one reads from waits
  // for no one.  Returns false, doing nothing, where it does not apply (an active set other
  // than all PEs, PEs on other nodes).
  bool stamped();
  // Returns once rank `rank` has entered this stamped call.
  void await(int rank);
  // This PE has finished reading rank `rank`'s memory in this stamped call.
  void release(int rank);
  // Returns once `readers` peers have released this PE in this stamped call.
  void await_readers(int readers);
  // After the collective's last sync: what the group lent from pSync is given back.
  void finish();
  const char* call() const { return call_; }

 private:
  uint64_t* exchange() const;  // the symmetric word behind offer()
  // The one way a part moves under a stamp of this team's slot (stamps.cc: the banks, the
  // boxes, the dests of direct calls): send_part writes `bytes` from `data` into `place` (its
  // address on every PE; `what` names it in errors) on rank `rank`, then stamp number `stamp`
  // there set to `value` behind it; await_part waits until rank `rank`'s part under stamp
  // `stamp` has reached `value` here, in `place`.  A part of at most kCellBytes from another
  // node comes through the stamp's cell, in one write with its stamp, and await_part copies it
  // into `place`.
  void send_part(int stamp, const char* what, void* place, int rank, const void* data, size_t bytes, uint64_t value);
  void await_part(int stamp, void* place, int rank, size_t bytes, uint64_t value);

  const char* call_;
  Team* team_ = nullptr;
  int start_ = 0, stride_ = 1, size_ = 1, rank_ = -1;
  long* psync_ = nullptr;
  uint64_t pieces_before_ = 0;  // Team::direct_pieces before this direct call
};

}  // namespace tandem
