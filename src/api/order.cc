// Ordering, completion and barriers.
#include "api/api.h"
#include "coll/team.h"
#include "nbi/scheduler.h"

using namespace tandem;

TANDEM_API(void, fence, (void)) {
  check_ready(TANDEM_CALL);
  scheduler().fence(TANDEM_CALL);
}

TANDEM_API(void, ctx_fence, (shmem_ctx_t ctx)) {
  check_ready(TANDEM_CALL);
  if (ctx_given(TANDEM_CALL, ctx)) scheduler().fence(TANDEM_CALL);
}

TANDEM_API(void, quiet, (void)) {
  check_ready(TANDEM_CALL);
  scheduler().quiet(TANDEM_CALL);
}

TANDEM_API(void, ctx_quiet, (shmem_ctx_t ctx)) {
  check_ready(TANDEM_CALL);
  if (ctx_given(TANDEM_CALL, ctx)) scheduler().quiet(TANDEM_CALL);
}

namespace {
void pe_quiet(const char* call, const int* target_pes, size_t npes) {
  check_ready(call);
  check_buffer(call, "target_pes", target_pes, npes);
  for (size_t i = 0; i < npes; ++i) check_pe(call, target_pes[i]);
  // Completing everything completes what went to these PEs.
  scheduler().quiet(call);
}
}  // namespace

TANDEM_API(void, pe_quiet, (const int* target_pes, size_t npes)) { pe_quiet(TANDEM_CALL, target_pes, npes); }

TANDEM_API(void, ctx_pe_quiet, (shmem_ctx_t ctx, const int* target_pes, size_t npes)) {
  check_ctx(TANDEM_CALL, ctx);
  check_buffer(TANDEM_CALL, "target_pes", target_pes, npes);
  for (size_t i = 0; i < npes; ++i) ctx_pe(TANDEM_CALL, ctx, target_pes[i]);  // ranks of the ctx's team
  pe_quiet(TANDEM_CALL, target_pes, npes);
}

TANDEM_API(void, barrier_all, (void)) {
  check_ready(TANDEM_CALL);
  scheduler().quiet(TANDEM_CALL);
  team_sync(TANDEM_CALL, team_world);
}

TANDEM_API(void, sync_all, (void)) {
  check_ready(TANDEM_CALL);
  team_sync(TANDEM_CALL, team_world);
}
