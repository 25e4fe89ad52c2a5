// How the C API is defined: TANDEM_API(RET, NAME, PARAMS) { body } defines pshmem_NAME with
// the body and makes shmem_NAME a weak alias of it, so that a profiling tool can define
// shmem_NAME itself and call pshmem_NAME.
#pragma once

#include <shmem.h>
#include <pshmem.h>
#include <shmemx.h>

#include "coll/team.h"
#include "core/handle_table.h"
#include "core/runtime.h"

#define TANDEM_API(RET, NAME, PARAMS)                                                 \
  extern "C" RET shmem_##NAME PARAMS __attribute__((weak, alias("pshmem_" #NAME))); \
  extern "C" RET pshmem_##NAME PARAMS

// The same for Tandem's extensions: shmemx_NAME, a weak alias of pshmemx_NAME.
#define TANDEM_APIX(RET, NAME, PARAMS)                                                   \
  extern "C" RET pshmemx_##NAME PARAMS;                                                 \
  extern "C" RET shmemx_##NAME PARAMS __attribute__((weak, alias("pshmemx_" #NAME))); \
  extern "C" RET pshmemx_##NAME PARAMS

struct tandem_ctx {
  long options;
  const tandem_team* team;  // PE numbers are ranks in this team; nullptr: world PEs
  bool in_session = false;  // between shmem_ctx_session_start and _stop
};

namespace tandem {

// The contexts made by shmem_ctx_create and shmem_team_create_ctx.
using ContextTable = HandleTable<tandem_ctx, 65536>;
ContextTable& contexts();

// SHMEM_CTX_INVALID is an error; so is a handle that is no live context.
inline void check_ctx(const char* call, shmem_ctx_t ctx) {
  if (__builtin_expect(ctx == SHMEM_CTX_DEFAULT, 1)) return;
  if (__builtin_expect(ctx == SHMEM_CTX_INVALID, 0))
    fatal(call, "ctx = SHMEM_CTX_INVALID is not a usable context");
  if (__builtin_expect(!contexts().live(ctx), 0))
    fatal(call, "ctx = %p is not a context: destroyed, or never made by shmem_ctx_create",
          static_cast<void*>(ctx));
}

// For the routines that accept SHMEM_CTX_INVALID and do nothing with it: false for it, true
// for a live context, an error for anything else.
inline bool ctx_given(const char* call, shmem_ctx_t ctx) {
  if (ctx == SHMEM_CTX_INVALID) return false;
  check_ctx(call, ctx);
  return true;
}

// Checks the context and turns `pe`, a rank in the context's team, into a world PE.
inline int ctx_pe(const char* call, shmem_ctx_t ctx, int pe) {
  check_ctx(call, ctx);
  return ctx->team ? team_world_pe(call, *ctx->team, pe) : pe;
}

}  // namespace tandem
