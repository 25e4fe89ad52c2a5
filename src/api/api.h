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

// shmem_ctx_t points to a tandem_ctx.  SHMEM_CTX_DEFAULT is the exported one, whose size the
// ABI fixes (as tandem_team's); it stands for the record default_context.  A context made by
// shmem_ctx_create or shmem_team_create_ctx has the address of its Context as its handle.
struct tandem_ctx {
  long reserved;
};

namespace tandem {

struct Context {
  long options = 0;
  const Team* team = nullptr;  // PE numbers are ranks in this team; nullptr: world PEs
  bool in_session = false;     // between shmem_ctx_session_start and _stop
};

// The context behind SHMEM_CTX_DEFAULT.
extern Context default_context;

// The contexts made by shmem_ctx_create and shmem_team_create_ctx.
using ContextTable = HandleTable<Context, 65536>;
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

// The context behind a handle that check_ctx() accepts.
inline Context& context_of(shmem_ctx_t ctx) {
  return ctx == SHMEM_CTX_DEFAULT ? default_context : *reinterpret_cast<Context*>(ctx);
}

// For the routines that accept SHMEM_CTX_INVALID and do nothing with it: nullptr for it, the
// context for a live one, an error for anything else.
inline Context* ctx_given(const char* call, shmem_ctx_t ctx) {
  if (ctx == SHMEM_CTX_INVALID) return nullptr;
  check_ctx(call, ctx);
  return &context_of(ctx);
}

// The handle of a context made by contexts().create(), or SHMEM_CTX_INVALID for nullptr.
inline shmem_ctx_t handle_of(Context* context) {
  return context ? reinterpret_cast<shmem_ctx_t>(context) : SHMEM_CTX_INVALID;
}

// Checks the context and turns `pe`, a rank in the context's team, into a world PE.
inline int ctx_pe(const char* call, shmem_ctx_t ctx, int pe) {
  check_ctx(call, ctx);
  const Team* team = context_of(ctx).team;
  return team ? team_world_pe(call, *team, pe) : pe;
}

}  // namespace tandem
