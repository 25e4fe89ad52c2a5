#include "coll/team.h"
#include "core/handle_table.h"
#include "coll/collectives.h"
#include "coll/slot.h"

#include <algorithm>
#include <cstring>

#include "core/backoff.h"
#include "core/runtime.h"
#include "mem/symmetric.h"
#include "mem/target.h"
#include "nbi/scheduler.h"

extern "C" {
tandem_team tandem_team_world;
tandem_team tandem_team_shared;
}

namespace tandem {

Team team_world, team_shared;

Slot* team_slots = nullptr;

namespace {

SlotSet used_slots;  // those of the teams this PE is in

// `fresh`: the slot is still 0 everywhere (at init), and a faster peer may already be
// counting on it, so it must not be touched.
void make_team(const char* call, Team& team, int slot, std::vector<int> pes, const shmem_team_config_t* config,
               bool fresh) {
  const Runtime& r = rt();
  team.slot = slot;
  team.pes = std::move(pes);
  team.rank_of.assign(static_cast<size_t>(r.n_pes), -1);
  for (size_t i = 0; i < team.pes.size(); ++i) team.rank_of[static_cast<size_t>(team.pes[i])] = static_cast<int>(i);
  team.rank = team.rank_of[static_cast<size_t>(r.my_pe)];
  team.config = config ? *config : shmem_team_config_t{};
  team.epoch = 0;
  team.bank_calls = 0;
  team.boxes_used = 0;
  team.box_until.assign(Group::kBoxes, 0);
  team.box_read.reset(team.pes.size());
  team.box_told = 0;
  team.box_told_due.assign(std::min<size_t>(team.pes.size(), Group::kBankStamps), 0);
  team.stamp_calls = 0;
  team.stamp_reads = 0;
  team.direct_calls = 0;
  team.direct_pieces = 0;
  team.one_node = std::all_of(team.pes.begin(), team.pes.end(), [&](int pe) { return r.is_local(pe); });
  // A leader per node: the member of lowest rank there.
  std::vector<int> leader_of(static_cast<size_t>(r.nodes), -1);  // by node
  team.leaders.clear();
  team.node_members = 0;
  bool mapped_node = true;  // the node's members map each other's memory
  for (size_t i = 0; i < team.pes.size(); ++i) {
    const int node = r.node_of[static_cast<size_t>(team.pes[i])];
    if (leader_of[static_cast<size_t>(node)] < 0) {
      leader_of[static_cast<size_t>(node)] = static_cast<int>(i);
      team.leaders.push_back(static_cast<int>(i));
    }
    if (node == r.node) {
      ++team.node_members;
      mapped_node = mapped_node && r.is_local(team.pes[i]);
    }
  }
  team.leader = team.rank < 0 ? -1 : leader_of[static_cast<size_t>(r.node)];
  const auto mine = std::find(team.leaders.begin(), team.leaders.end(), team.rank);
  team.leader_index = mine == team.leaders.end() ? -1 : static_cast<int>(mine - team.leaders.begin());
  // By node only where it saves rounds across the network: on one node, or with one PE a
  // node, the team syncs as one.
  if (team.one_node || team.leaders.size() == team.pes.size() || !mapped_node) team.leaders.clear();
  size_t runs = team.pes.empty() ? 0 : 1;  // of consecutive ranks on one node
  for (size_t i = 1; i < team.pes.size(); ++i)
    runs += r.node_of[static_cast<size_t>(team.pes[i])] != r.node_of[static_cast<size_t>(team.pes[i - 1])];
  team.node_blocks = !team.leaders.empty() && runs == team.leaders.size();
  // The counters, boxes and stamps count from 0 again.  Nothing of the slot's previous team
  // is still on its way here: this PE waited for every count, every broadcast sent to it and
  // every read of its memory before it left that team; and no PE of the new team writes here before the split's last
  // sync.
  if (!fresh) {
    Slot& s = team_slots[slot];
    if (!heap_reserve(call, &s, sizeof s)) fatal(call, "no room in /dev/shm for a new team's counters");
    for (uint64_t& counter : s.counters) __atomic_store_n(&counter, 0, __ATOMIC_RELAXED);
    for (uint64_t& stamp : s.box_stamps) __atomic_store_n(&stamp, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s.box_done, 0, __ATOMIC_RELAXED);
    for (uint64_t& told : s.box_done_told) __atomic_store_n(&told, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s.entered, 0, __ATOMIC_RELAXED);
    for (auto& stamps : s.bank_stamps)
      for (uint64_t& stamp : stamps) __atomic_store_n(&stamp, 0, __ATOMIC_RELAXED);
    for (auto& stamps : s.node_stamps)
      for (uint64_t& stamp : stamps) __atomic_store_n(&stamp, 0, __ATOMIC_RELAXED);
    for (auto& cells : s.bank_cells)
      for (uint64_t* cell : cells) __atomic_store_n(&cell[Group::kCellWords - 1], 0, __ATOMIC_RELAXED);
    for (uint64_t* cell : s.box_cells) __atomic_store_n(&cell[Group::kCellWords - 1], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s.reads, 0, __ATOMIC_RELAXED);
    for (uint64_t& joined : s.joined) __atomic_store_n(&joined, 0, __ATOMIC_RELAXED);
    for (uint64_t& delivered : s.delivered) __atomic_store_n(&delivered, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s.node_arrivals, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s.node_released, 0, __ATOMIC_RELAXED);
  }
  used_slots.take(slot);
}

}  // namespace

size_t team_area_bytes(size_t teams) { return teams * sizeof(Slot); }

void teams_allocate(const char* call) {
  // The heap is fresh (zero-filled) at init, so every counter starts at 0 on every PE.
  // The pages of the two predefined teams' slots are reserved now, before any peer can
  // reach them; the others' when a split takes them (make_team).
  team_slots = static_cast<Slot*>(heap_allocate(call, team_area_bytes(rt().config.teams), alignof(Slot), Reserve::Later));
  if (team_slots == nullptr || !heap_reserve(call, team_slots, 2 * sizeof(Slot)))
    fatal(call, "no room for the teams' counters in the symmetric heap");
}

void teams_init(const char* call) {
  Runtime& r = rt();
  used_slots.reset(r.config.teams);
  std::vector<int> world(static_cast<size_t>(r.n_pes));
  for (int pe = 0; pe < r.n_pes; ++pe) world[static_cast<size_t>(pe)] = pe;
  make_team(call, team_world, 0, std::move(world), nullptr, true);
  make_team(call, team_shared, 1, r.local_pes, nullptr, true);
}

// The teams made by splits (the predefined ones are statics).
HandleTable<Team, 4096>& teams() {
  static HandleTable<Team, 4096> table;
  return table;
}

Team* team_given(const char* call, const char* what, shmem_team_t team) {
  check_ready(call);
  if (team == SHMEM_TEAM_WORLD) return &team_world;
  if (team == SHMEM_TEAM_SHARED) return &team_shared;
  if (team == SHMEM_TEAM_INVALID) return nullptr;
  if (__builtin_expect(!teams().live(team), 0))
    fatal(call, "%s = %p is not a team: destroyed, or never made by a split", what, static_cast<void*>(team));
  return reinterpret_cast<Team*>(team);
}

Team& team_of(const char* call, const char* what, shmem_team_t team) {
  Team* given = team_given(call, what, team);
  if (__builtin_expect(!given, 0)) fatal(call, "%s = SHMEM_TEAM_INVALID is not a team this PE belongs to", what);
  return *given;
}

shmem_team_t handle_of(const Team& team) {
  if (&team == &team_world) return SHMEM_TEAM_WORLD;
  if (&team == &team_shared) return SHMEM_TEAM_SHARED;
  return reinterpret_cast<shmem_team_t>(const_cast<Team*>(&team));
}

int team_world_pe(const char* call, const Team& team, int rank) {
  if (__builtin_expect(rank < 0 || rank >= team.size(), 0))
    fatal(call, "pe = %d is out of range for the context's team: expected 0 <= pe < %d", rank, team.size());
  return team.pes[static_cast<size_t>(rank)];
}

namespace {

// The dissemination barrier `epoch` of `n` parties on the counters of `team`'s slot: this PE
// is party `me`, and party i is world PE pe_of(i).
template <typename PeOf>
void disseminate(const char* call, Team& team, int n, int me, uint64_t epoch, PeOf pe_of) {
  Slot& slot = team_slots[team.slot];
  bool network = false;
  for (int k = 0, distance = 1; distance < n; ++k, distance <<= 1) {
    const int partner = pe_of((me + distance) % n);
    const Target remote = locate(call, "barrier counter", &slot.counters[k], sizeof(uint64_t), partner);
    // Each counter has one sender for the team's life (the rank 2^k behind), so a node
    // peer's is bumped with a CPU atomic even where atomics go through the network, and
    // another node's is set to the count with a write where the network keeps writes in
    // order (a network atomic would cost an answer on the way of every round).
    network |= !remote.mapped;
    if (remote.mapped) __atomic_fetch_add(reinterpret_cast<uint64_t*>(remote.mapped), 1, __ATOMIC_RELEASE);
    else if (!scheduler().set_word_in_order(call, remote, epoch))
      scheduler().atomic<uint64_t>(call, remote, shm::AmoOp::Add, 1, 0, false);
    wait_at_least(call, &slot.counters[k], epoch, pe_of((me - distance + n) % n));
  }
  // A wait that held at once looks at the network only now and then (drive_progress_in_spin),
  // and a provider that sends only when driven (sockets) would keep this PE's last arrival
  // until the next look: its progress thread takes it within a pause, but a PE stopped right
  // after the barrier (SIGSTOP, a debugger) would leave its peers waiting there for good,
  // with nothing outstanding for the network timeout to see.
  if (network) drive_progress();
}

}  // namespace

void team_sync(const char* call, Team& team) {
  settle_requests(call, team);
  const int n = team.size();
  if (n == 1) return;
  publish_program_turn();
  const uint64_t epoch = ++team.epoch;
  if (team.leaders.empty())
    return disseminate(call, team, n, team.rank, epoch, [&](int i) { return team.pes[static_cast<size_t>(i)]; });
  Slot& mine = team_slots[team.slot];
  if (team.leader_index < 0) {
    // Arrive at the leader, then wait for its release.
    const int leader = team.pes[static_cast<size_t>(team.leader)];
    Slot* at_leader = reinterpret_cast<Slot*>(locate(call, "team slot", &mine, sizeof(Slot), leader).mapped);
    __atomic_fetch_add(&at_leader->node_arrivals, 1, __ATOMIC_RELEASE);
    wait_at_least(call, &at_leader->node_released, epoch);
    return;
  }
  wait_at_least(call, &mine.node_arrivals, epoch * static_cast<uint64_t>(team.node_members - 1));
  disseminate(call, team, static_cast<int>(team.leaders.size()), team.leader_index, epoch,
              [&](int i) { return team.pes[static_cast<size_t>(team.leaders[static_cast<size_t>(i)])]; });
  __atomic_store_n(&mine.node_released, epoch, __ATOMIC_RELEASE);
}

bool team_split(const char* call, Team& parent, int count, const std::vector<int>* members,
                const shmem_team_config_t* const* configs, const long* masks, shmem_team_t* out) {
  // Every PE of the parent offers the slots it has free; the new teams take the lowest
  // slots free on all of them.
  Group group(call, parent);
  const std::vector<int> slots = group.free_everywhere(used_slots, static_cast<size_t>(count), "teams", "TANDEM_TEAMS");
  const bool ok = slots.size() == static_cast<size_t>(count);
  for (int t = 0; t < count; ++t) {
    out[t] = SHMEM_TEAM_INVALID;
    if (!ok || members[t].empty()) continue;
    std::vector<int> pes;
    pes.reserve(members[t].size());
    for (int rank : members[t]) pes.push_back(parent.pes[static_cast<size_t>(rank)]);
    Team* team = teams().create();
    if (team == nullptr) fatal(call, "this PE holds 4096 teams, as many as it can");
    const bool use_config = configs[t] && (masks[t] & SHMEM_TEAM_NUM_CONTEXTS);
    make_team(call, *team, slots[static_cast<size_t>(t)], std::move(pes), use_config ? configs[t] : nullptr, false);
    out[t] = handle_of(*team);
  }
  // No PE may count on a new team's counters before every PE has set them to 0.
  group.sync();
  return ok;
}

void team_destroy(const char* call, Team& team) {
  if (&team == &team_world || &team == &team_shared)
    fatal(call, "team = %s cannot be destroyed", &team == &team_world ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED");
  settle_requests(call, team);
  await_boxes_told(call, team);
  scheduler().quiet(call);
  used_slots.give(team.slot);
  teams().destroy(&team);
}

Group::Group(const char* call, int start, int log_stride, int size, long* psync, size_t psync_len)
    : call_(call), start_(start), size_(size), psync_(psync) {
  check_ready(call);
  const Runtime& r = rt();
  if (log_stride < 0 || log_stride > 30) fatal(call, "logPE_stride = %d is out of range: expected 0 <= logPE_stride <= 30", log_stride);
  stride_ = 1 << log_stride;
  if (size < 1) fatal(call, "PE_size = %d is not a positive number of PEs", size);
  if (start < 0 || start >= r.n_pes) fatal(call, "PE_start = %d is out of range: expected 0 <= PE_start < %d", start, r.n_pes);
  const long last = start + static_cast<long>(size - 1) * stride_;
  if (last >= r.n_pes)
    fatal(call, "the active set (PE_start = %d, logPE_stride = %d, PE_size = %d) runs past the last PE, %d", start,
          log_stride, size, r.n_pes - 1);
  const int offset = r.my_pe - start;
  // A PE outside the active set has no part in the call (see member()).
  if (offset < 0 || offset % stride_ != 0 || offset / stride_ >= size) return;
  rank_ = offset / stride_;
  check_buffer(call, "pSync", psync, psync_len * sizeof(long));
  locate(call, "pSync", psync, psync_len * sizeof(long), r.my_pe);  // symmetric
  // Every PE in order (the usual active set) is SHMEM_TEAM_WORLD: its barrier counters need
  // no reset after each round (across nodes the reset of a pSync word is a network atomic on
  // one's own memory, a round trip), and its banks give small collectives one sync instead
  // of two.  Every PE makes its collective calls in the same order whichever form it uses, so
  // the team's counters stay in step; pSync is left untouched, holding SHMEM_SYNC_VALUE.
  if (start == 0 && size == r.n_pes) team_ = &team_world;
}

int Group::rank_of_root(int root, const char* what) const {
  if (root < 0 || root >= size_)
    fatal(call_, "%s = %d is out of range: expected a rank 0 <= %s < %d of the %s", what, root, what, size_,
          team_ ? "team" : "active set");
  return root;
}

void Group::sync() {
  if (team_) return team_sync(call_, *team_);
  publish_program_turn();
  for (int k = 0, distance = 1; distance < size_; ++k, distance <<= 1) {
    const Target remote = locate(call_, "pSync", &psync_[k], sizeof(long), pe((rank_ + distance) % size_));
    scheduler().atomic<long>(call_, remote, shm::AmoOp::Add, 1, 0, false);
    long* mine = &psync_[k];
    wait_until_ready(call_, [&] { return __atomic_load_n(mine, __ATOMIC_ACQUIRE) > SHMEM_SYNC_VALUE; },
                     pe((rank_ - distance + size_) % size_));
    // Fetching, so that it has taken effect before the next look (over the network a
    // non-fetching atomic completes only at the next quiet).
    const Target self = locate(call_, "pSync", mine, sizeof(long), rt().my_pe);
    scheduler().atomic<long>(call_, self, shm::AmoOp::Add, -1, 0, true);
  }
  if (rt().spans_nodes) drive_progress();  // this PE's last arrival leaves (disseminate())
}

bool Group::on_one_node() const {
  if (team_) return team_->one_node;
  if (!rt().spans_nodes) return true;
  for (int r = 0; r < size_; ++r)
    if (!rt().is_local(pe(r))) return false;
  return true;
}

uint64_t* Group::exchange() const {
  if (team_) return &team_slots[team_->slot].exchange;
  return reinterpret_cast<uint64_t*>(&psync_[SHMEM_SYNC_SIZE - 1]);
}

void Group::offer(uint64_t word) { __atomic_store_n(exchange(), word, __ATOMIC_RELEASE); }

std::vector<uint64_t> Group::offers() const {
  std::vector<uint64_t> words(static_cast<size_t>(size_));
  bool network = false;
  for (int r = 0; r < size_; ++r) {
    const Target from = locate(call_, "exchange word", exchange(), sizeof(uint64_t), pe(r));
    if (from.mapped) {
      words[static_cast<size_t>(r)] = __atomic_load_n(reinterpret_cast<uint64_t*>(from.mapped), __ATOMIC_ACQUIRE);
    } else {
      scheduler().submit_nbi(call_, Op{Op::Kind::Get, from, &words[static_cast<size_t>(r)], sizeof(uint64_t)});
      network = true;
    }
  }
  if (network) scheduler().quiet(call_);
  return words;
}

std::vector<int> Group::free_everywhere(const SlotSet& used, size_t count, const char* what, const char* setting) {
  std::vector<int> found;
  std::vector<size_t> free_on(static_cast<size_t>(size_));  // by rank
  for (size_t w = 0; w < used.words() && found.size() < count; ++w) {
    std::vector<uint64_t> words;
    if (char* bank = this->bank(sizeof(uint64_t))) {
      // A team's: through its banks, which across nodes go between leaders only, no sync.
      const uint64_t offered = used.free_bits(w);
      const auto* all = reinterpret_cast<const uint64_t*>(coll::gather_all(*this, bank, sizeof offered, &offered));
      words.assign(all, all + size_);
    } else {
      if (w > 0) sync();  // every PE has read the offers of the last word
      offer(used.free_bits(w));
      sync();
      words = offers();
    }
    uint64_t common = ~uint64_t{0};
    for (size_t r = 0; r < words.size(); ++r) {
      common &= words[r];
      free_on[r] += static_cast<size_t>(__builtin_popcountll(words[r]));
    }
    for (; common != 0 && found.size() < count; common &= common - 1)
      found.push_back(static_cast<int>(64 * w + static_cast<size_t>(__builtin_ctzll(common))));
  }
  if (found.size() == count) return found;
  // Every word was compared: one line, from the first PE that has too few slots free, or
  // from rank 0 when each has enough but not the same ones.
  const auto short_of = std::find_if(free_on.begin(), free_on.end(), [&](size_t n) { return n < count; });
  const int reporter = short_of == free_on.end() ? 0 : static_cast<int>(short_of - free_on.begin());
  if (rank_ != reporter) return found;
  if (short_of == free_on.end())
    warn(call_, "no slot is free on every PE of the team, though none holds the %zu live %s that %s allows: the call "
         "returns non-zero on every PE",
         used.size(), what, setting);
  else
    warn(call_, "this PE holds %zu of the %zu live %s that %s allows: the call returns non-zero on every PE of the team",
         used.used(), used.size(), what, setting);
  return found;
}

void Group::finish() {
  if (!team_) __atomic_store_n(&psync_[SHMEM_SYNC_SIZE - 1], SHMEM_SYNC_VALUE, __ATOMIC_RELEASE);
}

}  // namespace tandem
