// Communication contexts: the table behind their handles, and shmem_ctx_create,
// shmem_team_create_ctx, shmem_ctx_destroy and shmem_ctx_get_team.
#include "api/api.h"
#include "coll/team.h"
#include "nbi/scheduler.h"

using namespace tandem;

tandem_ctx tandem_ctx_default;

namespace tandem {
Context default_context;

ContextTable& contexts() {
  static ContextTable table;
  return table;
}
}  // namespace tandem

TANDEM_API(int, ctx_create, (long options, shmem_ctx_t* ctx)) {
  check_ready(TANDEM_CALL);
  check_buffer(TANDEM_CALL, "ctx", ctx, 1);
  *ctx = handle_of(contexts().create(Context{options, nullptr}));
  return *ctx == SHMEM_CTX_INVALID ? -1 : 0;
}

TANDEM_API(int, team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t* ctx)) {
  check_ready(TANDEM_CALL);
  check_buffer(TANDEM_CALL, "ctx", ctx, sizeof *ctx);
  *ctx = SHMEM_CTX_INVALID;
  const Team* t = team_given(TANDEM_CALL, "team", team);
  if (!t) return -1;
  *ctx = handle_of(contexts().create(Context{options, t == &team_world ? nullptr : t}));
  return *ctx == SHMEM_CTX_INVALID ? -1 : 0;
}

TANDEM_API(void, ctx_destroy, (shmem_ctx_t ctx)) {
  check_ready(TANDEM_CALL);
  if (ctx == SHMEM_CTX_DEFAULT) fatal(TANDEM_CALL, "ctx = SHMEM_CTX_DEFAULT cannot be destroyed");
  Context* context = ctx_given(TANDEM_CALL, ctx);
  if (!context) return;
  scheduler().quiet(TANDEM_CALL);
  contexts().destroy(context);
}

TANDEM_API(int, ctx_get_team, (shmem_ctx_t ctx, shmem_team_t* team)) {
  check_ready(TANDEM_CALL);
  check_buffer(TANDEM_CALL, "team", team, sizeof *team);
  const Context* context = ctx_given(TANDEM_CALL, ctx);
  if (!context) {
    *team = SHMEM_TEAM_INVALID;
    return -1;
  }
  *team = context->team ? handle_of(*context->team) : SHMEM_TEAM_WORLD;
  return 0;
}
