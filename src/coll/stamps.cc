// The stamped channels through which collectives on a team move data without syncs, every
// part sent and awaited one way (Group::send_part, Group::await_part): the banks
// (push_stamped, swap_stamped, gather_by_node), the ring of broadcast boxes, the direct
// writes into the dests (direct, join, deliver and their waits, tree_broadcast, and the tree
// of both broadcasts, tree_links), the stamps of pulls within a node (stamped, await,
// release), the stamps that ride on a write across nodes as its notification word
// (stamp_landed), and the cells in which small parts come from another node in one write
// with their stamp (through_cell, put_cell, take_cell).
#include <algorithm>
#include <cstring>
#include <optional>

#include "coll/slot.h"
#include "core/backoff.h"
#include "core/runtime.h"
#include "mem/target.h"
#include "nbi/scheduler.h"

namespace tandem {

namespace {

// The stamps that may ride on a write as its notification word: the bank stamps (word
// b * kBankStamps + rank), then the boxes' (2 * kBankStamps + box), then the joined and the
// delivered words of direct collectives (kJoined + rank, kDelivered + rank).  The word: top
// bit set, 12 bits of slot (TANDEM_TEAMS is at most 4096), 9 of stamp, 42 of value (a count
// of collective calls or pieces, which would take 2^42 of them to wrap).
constexpr int kStampBits = 9, kSlotBits = 12, kValueBits = 63 - kSlotBits - kStampBits;
constexpr int kJoined = 2 * Group::kBankStamps + Group::kBoxes, kDelivered = kJoined + Group::kBankStamps;
static_assert(kDelivered + Group::kBankStamps <= (1 << kStampBits), "every stamp has a number");

uint64_t* stamp_word(Slot& s, int stamp) {
  if (stamp < 2 * Group::kBankStamps) return &s.bank_stamps[stamp / Group::kBankStamps][stamp % Group::kBankStamps];
  if (stamp < kJoined) return &s.box_stamps[stamp - 2 * Group::kBankStamps];
  if (stamp < kDelivered) return &s.joined[stamp - kJoined];
  return &s.delivered[stamp - kDelivered];
}

uint64_t stamp_data(int slot, int stamp, uint64_t value) {
  return uint64_t{1} << 63 | static_cast<uint64_t>(slot) << (kStampBits + kValueBits) |
         static_cast<uint64_t>(stamp) << kValueBits | (value & ((uint64_t{1} << kValueBits) - 1));
}

// Whether data and a stamp behind it can go to another node's PE (Group::send_part).
bool stamps_travel() { return scheduler().writes_in_order() || scheduler().writes_carry_data(); }

// The cell of stamp number `stamp` (Group::kCellBytes): the bank and box stamps have one
// each, the words of direct calls none.
uint64_t* stamp_cell(Slot& s, int stamp) {
  if (stamp < 2 * Group::kBankStamps) return s.bank_cells[stamp / Group::kBankStamps][stamp % Group::kBankStamps];
  if (stamp < kJoined) return s.box_cells[stamp - 2 * Group::kBankStamps];
  return nullptr;
}

// Whether a part of `bytes` between this PE and world PE `pe` goes through a cell: one
// write of the data with its stamp behind it, which the target reads with
// Scheduler::load_landed.
bool through_cell(size_t bytes, int pe) {
  return bytes <= Group::kCellBytes && !rt().is_local(pe) && scheduler().writes_land_in_order();
}

// Writes `bytes` from `source`, then `value`, into the cell `cell` (its address here) of PE
// `pe`, in one write: the data ends where the cell's last word, the stamp, begins.
void put_cell(const char* call, uint64_t* cell, int pe, const void* source, size_t bytes, uint64_t value) {
  char staged[Group::kCellWords * sizeof(uint64_t)];
  char* start = staged + Group::kCellBytes - bytes;
  memcpy(start, source, bytes);
  memcpy(staged + Group::kCellBytes, &value, sizeof value);
  char* at = reinterpret_cast<char*>(cell) + Group::kCellBytes - bytes;
  scheduler().put_unconfirmed(call, locate(call, "collective cell", at, bytes + sizeof value, pe), start,
                              bytes + sizeof value);
}

// Waits until this PE's cell `cell` holds the stamp `value` (written by PE `from`), then
// copies its `bytes` of data to `dest`.  A stamp only grows from write to write of a cell,
// and the bytes of a write land in order, so a stamp that the network has written only in
// part (a prefix of its bytes, the low ones) never equals a new value: it reads `value` only
// once the whole write is there.
void take_cell(const char* call, const uint64_t* cell, void* dest, size_t bytes, uint64_t value, int from) {
  const uint64_t* stamp = cell + Group::kCellWords - 1;
  wait_until_ready(
      call,
      [&] {
        const std::optional<uint64_t> landed = scheduler().load_landed(stamp);
        return landed && *landed == value;
      },
      from);
  memcpy(dest, reinterpret_cast<const char*>(stamp) - bytes, bytes);
}

// Calls `visit(k)` for each child v + k of relative rank v (ranks counted from a root) in
// a binomial tree of `size` ranks: v passes data on to v + 2^j for each 2^j below v's lowest
// set bit (every one for the root, v = 0), the farthest first.
template <typename Visit>
void tree_children(int v, int size, Visit visit) {
  int low = 1;
  while (low < size && (v & low) == 0) low <<= 1;
  for (int k = low >> 1; k >= 1; k >>= 1)
    if (v + k < size) visit(k);
}

}  // namespace

bool stamp_landed(uint64_t data) {
  if (!(data >> 63)) return false;
  const int slot = static_cast<int>((data >> (kStampBits + kValueBits)) & ((1u << kSlotBits) - 1));
  const int stamp = static_cast<int>((data >> kValueBits) & ((1u << kStampBits) - 1));
  __atomic_store_n(stamp_word(team_slots[slot], stamp), data & ((uint64_t{1} << kValueBits) - 1), __ATOMIC_RELEASE);
  return true;
}

void Group::send_part(int stamp, const char* what, void* place, int rank, const void* data, size_t bytes,
                      uint64_t value) {
  Slot& slot = team_slots[team_->slot];
  const int to = pe(rank);
  uint64_t* cell = stamp_cell(slot, stamp);
  if (cell && through_cell(bytes, to)) return put_cell(call_, cell, to, data, bytes, value);
  const Target place_there = locate(call_, what, place, bytes, to);
  const Target word = locate(call_, "collective stamp", stamp_word(slot, stamp), sizeof(uint64_t), to);
  if (place_there.mapped) {
    memcpy(place_there.mapped, data, bytes);
    __atomic_store_n(reinterpret_cast<uint64_t*>(word.mapped), value, __ATOMIC_RELEASE);
  } else if (bytes > 0 && scheduler().writes_carry_data()) {
    const uint64_t stamp_and_value = stamp_data(team_->slot, stamp, value);
    scheduler().put_unconfirmed(call_, place_there, data, bytes, &stamp_and_value);
  } else {
    scheduler().put_unconfirmed(call_, place_there, data, bytes);
    scheduler().set_word_in_order(call_, word, value);
  }
}

void Group::await_part(int stamp, void* place, int rank, size_t bytes, uint64_t value) {
  Slot& slot = team_slots[team_->slot];
  const uint64_t* cell = stamp_cell(slot, stamp);
  const int from = pe(rank);
  if (cell && through_cell(bytes, from)) return take_cell(call_, cell, place, bytes, value, from);
  wait_at_least(call_, stamp_word(slot, stamp), value, from);
}

char* Group::bank(size_t bytes_per_rank) {
  if (!team_ || bytes_per_rank * static_cast<size_t>(size_) > (team_->one_node ? kBank : kBankNetwork)) return nullptr;
  return team_slots[team_->slot].banks[team_->bank_calls++ & 1];
}

bool Group::push_stamped(char* bank, size_t bytes, const void* data, size_t stride) {
  if (!team_ || size_ > kBankStamps || !stamps_travel()) return false;
  Slot& slot = team_slots[team_->slot];
  const uint64_t now = team_->bank_calls;  // this call's number, counted by bank()
  const int b = bank == slot.banks[0] ? 0 : 1;
  char* place = bank + static_cast<size_t>(rank_) * bytes;
  for (int k = 1; k <= size_; ++k) {  // the next rank first, this PE's own place last
    const int r = (rank_ + k) % size_;
    const char* from = static_cast<const char*>(data) + static_cast<size_t>(r) * stride;
    if (r == rank_) {
      memcpy(place, from, bytes);
      continue;
    }
    send_part(b * kBankStamps + rank_, "bank", place, r, from, bytes, now);
  }
  for (int r = 0; r < size_; ++r)
    if (r != rank_) await_part(b * kBankStamps + r, bank + static_cast<size_t>(r) * bytes, r, bytes, now);
  return true;
}

bool Group::doubles() const {
  return team_ && !team_->one_node && size_ >= 4 && (size_ & (size_ - 1)) == 0 && size_ <= kBankStamps &&
         stamps_travel();
}

void Group::swap_stamped(char* bank, char* place, char* theirs, size_t bytes, const void* data, int partner) {
  Slot& slot = team_slots[team_->slot];
  const uint64_t now = team_->bank_calls;
  const int b = bank == slot.banks[0] ? 0 : 1;
  send_part(b * kBankStamps + rank_, "bank", place, partner, data, bytes, now);
  await_part(b * kBankStamps + partner, theirs, partner, bytes, now);
}

const char* Group::gather_by_node(char* bank, size_t bytes, const void* data) {
  if (!by_node() || nodes() > kBankStamps || !stamps_travel()) return nullptr;
  for (int i = 0; i < nodes(); ++i)
    if (node_start(i + 1) - node_start(i) > kBankStamps) return nullptr;
  Slot& slot = team_slots[team_->slot];
  const uint64_t now = team_->bank_calls;  // this call's number, counted by bank()
  const int b = bank == slot.banks[0] ? 0 : 1;
  const int leader = team_->leader;  // the node's first rank
  if (rank_ != leader) {
    Slot& at_leader = *reinterpret_cast<Slot*>(locate(call_, "team slot", &slot, sizeof(Slot), pe(leader)).mapped);
    memcpy(at_leader.banks[b] + static_cast<size_t>(rank_) * bytes, data, bytes);
    __atomic_store_n(&at_leader.node_stamps[b][rank_ - leader], now, __ATOMIC_RELEASE);
    wait_at_least(call_, &at_leader.node_stamps[b][0], now, pe(leader));
    return at_leader.banks[b];
  }
  // The leader: its node's ranks [rank_, end), then those of the other nodes, each run
  // stamped by its leader's number: its rank where every rank has a bank stamp (so that
  // each stamp keeps one writer, push_stamped's), else its node.
  const int n = nodes(), node = my_node(), end = node_start(node + 1);
  auto stamp_of = [&](int i) { return b * kBankStamps + (size_ <= kBankStamps ? node_start(i) : i); };
  char* run = bank + static_cast<size_t>(rank_) * bytes;
  memcpy(run, data, bytes);
  for (int r = rank_ + 1; r < end; ++r) wait_at_least(call_, &slot.node_stamps[b][r - rank_], now, pe(r));
  const size_t run_bytes = static_cast<size_t>(end - rank_) * bytes;
  for (int k = 1; k < n; ++k)  // the next node first
    send_part(stamp_of(node), "bank", run, node_start((node + k) % n), run, run_bytes, now);
  for (int k = 1; k < n; ++k) {
    const int o = (node + k) % n, first = node_start(o);
    const size_t their_bytes = static_cast<size_t>(node_start(o + 1) - first) * bytes;
    await_part(stamp_of(o), bank + static_cast<size_t>(first) * bytes, first, their_bytes, now);
  }
  __atomic_store_n(&slot.node_stamps[b][0], now, __ATOMIC_RELEASE);
  return bank;
}

bool Group::box_broadcast(void* dest, const void* source, size_t bytes, int root, bool to_root) {
  if (!team_ || size_ == 1 || bytes > (team_->one_node ? kBox : kBoxNetwork) || (!stamps_travel() && !team_->one_node))
    return false;
  Team& t = *team_;
  // The boxes of this broadcast, [first, end) counted over the ring's turns.
  const uint64_t count = std::max<uint64_t>(1, (bytes + kBox - 1) / kBox);
  uint64_t first = t.boxes_used;
  const uint64_t ring = t.one_node ? kBoxesNode : kBoxes;
  if (first % ring + count > ring) first += ring - first % ring;
  const uint64_t end = t.boxes_used = first + count;
  // Every PE must be done with the broadcasts that last took these boxes.
  uint64_t before = 0;
  for (uint64_t b = first; b < end; ++b) {
    uint64_t& until = t.box_until[b % ring];
    before = std::max(before, until);
    until = end;
  }
  Slot& slot = team_slots[t.slot];
  char* data = slot.boxes[first % ring];
  const int last = static_cast<int>((end - 1) % ring);
  std::vector<int> children;
  const int parent = tree_links(root, children);
  if (parent >= 0) await_part(2 * kBankStamps + last, data, parent, bytes, end);
  // Writes the data into the boxes of rank r, after that PE has finished with the
  // broadcasts that last took them.
  auto pass_on = [&](int r) {
    const int pe = t.pes[static_cast<size_t>(r)];
    // Another node's count is what that PE last told (below), or where that is too old
    // (the PE lags, or told another parent) read with a get.
    uint64_t& seen = t.box_read.at(static_cast<size_t>(r));
    if (seen < before && r < kBankStamps)
      seen = std::max(seen, __atomic_load_n(&slot.box_done_told[r], __ATOMIC_ACQUIRE));  // told
    if (seen < before) {
      const Target done = locate(call_, "broadcast box", &slot.box_done, sizeof(uint64_t), pe);
      if (done.mapped) {
        const auto* word = reinterpret_cast<const uint64_t*>(done.mapped);
        wait_until_ready(call_, [&] { return (seen = __atomic_load_n(word, __ATOMIC_ACQUIRE)) >= before; });
      } else {
        Backoff backoff(call_);
        for (;;) {
          scheduler().submit(call_, Op{Op::Kind::Get, done, &seen, sizeof seen});
          if (seen >= before) break;
          backoff.pause();
        }
      }
    }
    // The data, then the stamp in the last box (or the cell) that says it is there.
    const void* from = rank_ == root ? source : data;
    send_part(2 * kBankStamps + last, "broadcast box", data, r, from, bytes, end);
  };
  for (int r : children) pass_on(r);
  if (rank_ != root) memcpy(dest, data, bytes);
  else if (to_root && dest != source) memcpy(dest, source, bytes);
  __atomic_store_n(&slot.box_done, end, __ATOMIC_RELEASE);
  // A broadcast of half kBoxesTold boxes or more that reaches the next kBoxesTold boxes (the
  // same broadcasts on every PE) tells the parent on another node how far this PE is done,
  // and the parent counts on the word.
  if (count >= kBoxesTold / 2 && end / kBoxesTold != t.box_told / kBoxesTold && scheduler().writes_in_order()) {
    t.box_told = end;
    const Runtime& run = rt();  // a node peer's count is read in its memory: nothing to tell
    if (parent >= 0 && rank_ < kBankStamps && !run.is_local(pe(parent)))
      scheduler().set_word_in_order(
          call_, locate(call_, "broadcast box", &slot.box_done_told[rank_], sizeof(uint64_t), pe(parent)), end);
    for (int r : children)
      if (r < kBankStamps && !run.is_local(pe(r))) t.box_told_due[static_cast<size_t>(r)] = end;
  }
  return true;
}

void await_boxes_told(const char* call, Team& team) {
  Slot& slot = team_slots[team.slot];
  for (size_t r = 0; r < team.box_told_due.size(); ++r)
    if (team.box_told_due[r] > 0) wait_at_least(call, &slot.box_done_told[r], team.box_told_due[r], team.pes[r]);
}

bool Group::direct(size_t bytes, uint64_t pieces) {
  if (!team_ || team_->one_node || size_ > kBankStamps || bytes > kDirect || !scheduler().writes_in_order())
    return false;
  ++team_->direct_calls;
  pieces_before_ = team_->direct_pieces;
  team_->direct_pieces += pieces;
  return true;
}

void Group::join(int rank) {
  const Target word = locate(call_, "collective stamp", &team_slots[team_->slot].joined[rank_], sizeof(uint64_t), pe(rank));
  if (word.mapped) __atomic_store_n(reinterpret_cast<uint64_t*>(word.mapped), team_->direct_calls, __ATOMIC_RELEASE);
  else scheduler().set_word_in_order(call_, word, team_->direct_calls);
}

void Group::await_joined(int rank) {
  wait_at_least(call_, &team_slots[team_->slot].joined[rank], team_->direct_calls, pe(rank));
}

void Group::deliver(int rank, void* place, const void* data, size_t bytes, uint64_t piece) {
  send_part(kDelivered + rank_, "dest", place, rank, data, bytes, pieces_before_ + piece + 1);
}

void Group::await_delivered(int rank, uint64_t piece) {
  await_part(kDelivered + rank, nullptr, rank, 0, pieces_before_ + piece + 1);
}

int Group::node_of(int rank) const {
  return static_cast<int>(std::upper_bound(team_->leaders.begin(), team_->leaders.end(), rank) - team_->leaders.begin()) - 1;
}

int Group::tree_links(int root, std::vector<int>& children) const {
  children.clear();
  if (!by_node()) {
    const int v = (rank_ - root + size_) % size_;
    tree_children(v, size_, [&](int k) { children.push_back((v + k + root) % size_); });
    return v == 0 ? -1 : ((v & (v - 1)) + root) % size_;
  }
  const int n = nodes(), node = my_node(), root_node = node_of(root);
  auto head = [&](int i) { return i == root_node ? root : node_start(i); };
  // This PE's place among its node's PEs counted from the node's head, and back.
  const int first = node_start(node), count = node_start(node + 1) - first, from = head(node) - first;
  const int m = (rank_ - first - from + count) % count;
  auto member = [&](int j) { return first + (j + from) % count; };
  int parent = -1;
  if (m == 0) {
    const int h = (node - root_node + n) % n;  // among the heads, counted from the root's node
    tree_children(h, n, [&](int k) { children.push_back(head((h + k + root_node) % n)); });
    if (h != 0) parent = head(((h & (h - 1)) + root_node) % n);
  } else {
    parent = member(m & (m - 1));
  }
  tree_children(m, count, [&](int k) { children.push_back(member(m + k)); });
  return parent;
}

bool Group::tree_broadcast(void* dest, const void* source, size_t bytes, int root, bool to_root) {
  const size_t piece = kTreePiece;
  const uint64_t pieces = (bytes + piece - 1) / piece;
  if (bytes > kTreeBroadcast || !direct(std::min(bytes, piece), pieces)) return false;
  // Tell the parent that dest is free; then the pieces in turn, each passed on as soon as it
  // is here.
  std::vector<int> children;
  const int parent = tree_links(root, children);
  if (parent >= 0) join(parent);
  for (uint64_t c = 0; c < pieces; ++c) {
    const size_t at = c * piece, n = std::min(piece, bytes - at);
    if (parent >= 0) await_delivered(parent, c);
    for (int r : children) {
      if (c == 0) await_joined(r);
      deliver(r, static_cast<char*>(dest) + at, static_cast<const char*>(parent < 0 ? source : dest) + at, n, c);
    }
  }
  if (parent < 0 && to_root && dest != source) memcpy(dest, source, bytes);
  return true;
}

bool Group::stamped() {
  if (!team_ || !on_one_node()) return false;
  __atomic_store_n(&team_slots[team_->slot].entered, ++team_->stamp_calls, __ATOMIC_RELEASE);
  return true;
}

void Group::await(int rank) {
  if (rank == rank_) return;
  const uint64_t now = team_->stamp_calls;
  const auto* entered = reinterpret_cast<const uint64_t*>(
      locate(call_, "collective stamp", &team_slots[team_->slot].entered, sizeof(uint64_t), pe(rank)).mapped);
  wait_at_least(call_, entered, now, pe(rank));
}

void Group::release(int rank) {
  if (rank == rank_) return;
  auto* reads = reinterpret_cast<uint64_t*>(
      locate(call_, "collective stamp", &team_slots[team_->slot].reads, sizeof(uint64_t), pe(rank)).mapped);
  __atomic_fetch_add(reads, 1, __ATOMIC_RELEASE);
}

void Group::await_readers(int readers) {
  const uint64_t goal = team_->stamp_reads += static_cast<uint64_t>(readers);
  wait_at_least(call_, &team_slots[team_->slot].reads, goal);
}

}  // namespace tandem
