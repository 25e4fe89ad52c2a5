// The layout of one slot of the symmetric team area, shared by the teams (team.cc: the
// barrier counters, the exchange word, the reset at a team's creation) and by the stamped
// channels of the collectives (stamps.cc: banks, boxes and the words of direct calls).
#pragma once

#include <cstdint>

#include "coll/team.h"
#include "core/config.h"

namespace tandem {

// What one slot of the symmetric team area holds.
struct alignas(64) SlotFields {
  uint64_t counters[Team::kRounds];
  uint64_t exchange;
  alignas(64) char banks[2][Group::kBankNetwork];
  alignas(64) uint64_t bank_stamps[2][Group::kBankStamps];  // by bank and writer's rank: its last bank call there
  // The cells (Group::kCellBytes), where a part of at most kCellBytes that comes from another
  // node arrives in one write with its stamp: by bank and writer's rank, as bank_stamps, and
  // by box, as box_stamps (stamps.cc, Cell).
  alignas(64) uint64_t bank_cells[2][Group::kBankStamps][Group::kCellWords];
  alignas(64) uint64_t box_cells[Group::kBoxes][Group::kCellWords];
  // By box: the boxes_used at the end of the broadcast whose last box it is.
  alignas(64) uint64_t box_stamps[Group::kBoxes];
  alignas(64) char boxes[Group::kBoxes][Group::kBox];
  alignas(64) uint64_t box_done;  // the boxes_used at the end of the last broadcast this PE finished with
  // By child's rank, below kBankStamps: the box_done that the child on another node last
  // told this PE, its parent in a broadcast's tree (Group::box_broadcast).
  alignas(64) uint64_t box_done_told[Group::kBankStamps];
  alignas(64) uint64_t entered;   // the last stamped collective this PE entered (stamp_calls)
  alignas(64) uint64_t reads;     // the reads of this PE's memory that peers have released, all told
  // Group::direct: by rank, the last direct collective that PE has entered, and the last
  // whose data that PE has delivered here.
  alignas(64) uint64_t joined[Group::kBankStamps];
  alignas(64) uint64_t delivered[Group::kBankStamps];
  // team_sync by node: the arrivals of the node's other PEs at its leader, all told, and the
  // last barrier the leader has released its node from.
  alignas(64) uint64_t node_arrivals;
  alignas(64) uint64_t node_released;
  // Group::gather_by_node within a node, at its leader: by bank and place on the node (the
  // rank less the leader's), the last bank call whose part that PE copied in; place 0, the
  // leader's own, says the bank is whole.
  alignas(64) uint64_t node_stamps[2][Group::kBankStamps];
};
// One slot: its fields and the spare bytes that bring it to kTeamSlotBytes, the size that
// TANDEM_TEAMS's description gives.
struct Slot : SlotFields {
  char spare[kTeamSlotBytes - sizeof(SlotFields)];
};
static_assert(sizeof(Slot) == kTeamSlotBytes);

// TANDEM_TEAMS slots, symmetric (teams_init).
extern Slot* team_slots;

}  // namespace tandem
