// Teams (split, translate, destroy), team and active-set barriers; contexts on a team are
// in context.cc.
#include "api/api.h"
#include "coll/team.h"
#include "nbi/scheduler.h"

using namespace tandem;

TANDEM_API(int, team_my_pe, (shmem_team_t team)) {
  const Team* t = team_given(TANDEM_CALL, "team", team);
  return t ? t->rank : -1;
}

TANDEM_API(int, team_n_pes, (shmem_team_t team)) {
  const Team* t = team_given(TANDEM_CALL, "team", team);
  return t ? t->size() : -1;
}

TANDEM_API(int, team_get_config, (shmem_team_t team, long config_mask, shmem_team_config_t* config)) {
  const Team* t = team_given(TANDEM_CALL, "team", team);
  if (!t) return -1;
  if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) {
    check_buffer(TANDEM_CALL, "config", config, sizeof *config);
    config->num_contexts = t->config.num_contexts;
  }
  return 0;
}

TANDEM_API(int, team_translate_pe, (shmem_team_t src_team, int src_pe, shmem_team_t dest_team)) {
  const Team* from = team_given(TANDEM_CALL, "src_team", src_team);
  const Team* to = team_given(TANDEM_CALL, "dest_team", dest_team);
  if (!from || !to) return -1;
  if (src_pe < 0 || src_pe >= from->size()) return -1;
  return to->rank_of[static_cast<size_t>(from->pes[static_cast<size_t>(src_pe)])];
}

TANDEM_API(int, team_split_strided, (shmem_team_t parent_team, int start, int stride, int size,
                                     const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  check_buffer(call, "new_team", new_team, sizeof *new_team);
  *new_team = SHMEM_TEAM_INVALID;
  Team* given = team_given(call, "parent_team", parent_team);
  if (!given) return -1;
  Team& parent = *given;
  const int n = parent.size();
  // An invalid triplet is not an error: the split fails on every PE of the parent (they all
  // see the same arguments), as the specification asks.
  const long last = start + static_cast<long>(stride) * (size - 1);
  if (size < 1 || size > n || start < 0 || start >= n || (stride == 0 && size > 1) || last < 0 || last >= n) {
    if (rt().config.debug)
      warn(call, "start = %d, stride = %d, size = %d is no set of the parent's %d PEs: the split fails", start,
           stride, size, n);
    return -1;
  }
  std::vector<int> members;
  for (int i = 0; i < size; ++i) members.push_back(start + i * stride);
  bool in = false;
  for (int rank : members) in |= rank == parent.rank;
  if (!in) members.clear();
  return team_split(call, parent, 1, &members, &config, &config_mask, new_team) ? 0 : -1;
}

TANDEM_API(int, team_split_2d, (shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config,
                                long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config,
                                long yaxis_mask, shmem_team_t* yaxis_team)) {
  const char* call = TANDEM_CALL;
  check_ready(call);
  check_buffer(call, "xaxis_team", xaxis_team, sizeof *xaxis_team);
  check_buffer(call, "yaxis_team", yaxis_team, sizeof *yaxis_team);
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  Team* given = team_given(call, "parent_team", parent_team);
  if (!given) return -1;
  Team& parent = *given;
  if (xrange < 1) {
    if (rt().config.debug) warn(call, "xrange = %d is not a positive number of PEs: the split fails", xrange);
    return -1;
  }
  const int n = parent.size();
  if (xrange > n) xrange = n;
  // The parent's ranks fill a grid row by row, xrange to a row (the last may be short).
  const int row = parent.rank / xrange, column = parent.rank % xrange;
  std::vector<int> members[2];
  for (int r = row * xrange; r < n && r < (row + 1) * xrange; ++r) members[0].push_back(r);
  for (int r = column; r < n; r += xrange) members[1].push_back(r);
  const shmem_team_config_t* configs[2] = {xaxis_config, yaxis_config};
  const long masks[2] = {xaxis_mask, yaxis_mask};
  shmem_team_t made[2];
  const bool ok = team_split(call, parent, 2, members, configs, masks, made);
  *xaxis_team = made[0];
  *yaxis_team = made[1];
  return ok ? 0 : -1;
}

TANDEM_API(void, team_destroy, (shmem_team_t team)) {
  // A PE outside a split's new team holds SHMEM_TEAM_INVALID and may pass it here.
  if (Team* t = team_given(TANDEM_CALL, "team", team)) team_destroy(TANDEM_CALL, *t);
}

TANDEM_API(int, team_sync, (shmem_team_t team)) {
  team_sync(TANDEM_CALL, team_of(TANDEM_CALL, "team", team));
  return 0;
}

TANDEM_API(void*, team_ptr, (shmem_team_t team, const void* dest, int pe)) {
  const Team* t = team_given(TANDEM_CALL, "team", team);
  if (!t || pe < 0 || pe >= t->size()) return nullptr;
  return pshmem_ptr(dest, t->pes[static_cast<size_t>(pe)]);
}

TANDEM_API(void, barrier, (int PE_start, int logPE_stride, int PE_size, long* pSync)) {
  Group group(TANDEM_CALL, PE_start, logPE_stride, PE_size, pSync, SHMEM_BARRIER_SYNC_SIZE);
  if (!group.member()) return;
  scheduler().quiet(TANDEM_CALL);
  group.sync();
}

TANDEM_API(void, sync, (int PE_start, int logPE_stride, int PE_size, long* pSync)) {
  Group group(TANDEM_CALL, PE_start, logPE_stride, PE_size, pSync, SHMEM_BARRIER_SYNC_SIZE);
  if (group.member()) group.sync();
}

// A session changes no semantics.  Small nbi puts to other nodes are coalesced anyway; the
// end of a session writes out what is held, so that a PE that computes after it (as the
// specification advises) leaves nothing of its batch waiting for the next quiet.
TANDEM_API(void, ctx_session_start, (shmem_ctx_t ctx, long, const shmem_ctx_session_config_t*, long)) {
  check_ready(TANDEM_CALL);
  if (Context* context = ctx_given(TANDEM_CALL, ctx)) context->in_session = true;
}

TANDEM_API(void, ctx_session_stop, (shmem_ctx_t ctx)) {
  check_ready(TANDEM_CALL);
  Context* context = ctx_given(TANDEM_CALL, ctx);
  if (!context || !context->in_session) return;
  context->in_session = false;
  scheduler().push_held(TANDEM_CALL);
}

// The profiling interface's control routine has no effect of its own.
TANDEM_API(void, pcontrol, (const int, ...)) {}
