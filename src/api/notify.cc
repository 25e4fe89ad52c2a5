// Notified access (shmemx_*_notify, man 7 tandem_notify): a put or get that also notifies
// the PE whose memory it touches, and the persistent requests that match notifications.
// One template per direction; the typed routines are one-line calls expanded from the type
// tables.
#include "api/api.h"
#include "mem/target.h"
#include "nbi/scheduler.h"
#include "notify/notify.h"

using namespace tandem;

namespace {

template <typename T>
void notified(const char* call, Op::Kind kind, shmem_ctx_t ctx, T* dest, const T* source, size_t nelems, int pe,
              int tag, bool nbi) {
  pe = ctx_pe(call, ctx, pe);
  if (tag < 0) fatal(call, "tag = %d is negative: tags are non-negative ints", tag);
  const size_t bytes = nelems * sizeof(T);
  check_buffer(call, "dest", dest, bytes);
  check_buffer(call, "source", source, bytes);
  const bool put = kind == Op::Kind::Put;
  const Target remote = put ? locate(call, "dest", dest, bytes, pe) : locate(call, "source", source, bytes, pe);
  scheduler().notified(call, Op{kind, remote, put ? const_cast<T*>(source) : dest, bytes}, tag, nbi);
}

}  // namespace

#define CTX SHMEM_CTX_DEFAULT
#define TANDEM_NOTIFY_PARAMS(T) (T * d, const T* s, size_t n, int pe, int tag)
#define TANDEM_CTX_NOTIFY_PARAMS(T) (shmem_ctx_t c, T * d, const T* s, size_t n, int pe, int tag)
// One family: the put and get, blocking and nbi, with and without a context.  NAME is the
// routine's name up to "put"/"get" ("int_", "" ), E the element type, P the pointer type of
// the parameters (E, or void for the sized forms).
#define TANDEM_NOTIFY_FAMILY(NAME, PUT, GET, E, P)                                                              \
  TANDEM_APIX(void, NAME##PUT##_notify, TANDEM_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Put, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, false); } \
  TANDEM_APIX(void, ctx_##NAME##PUT##_notify, TANDEM_CTX_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Put, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, false); } \
  TANDEM_APIX(void, NAME##PUT##_notify_nbi, TANDEM_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Put, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, true); } \
  TANDEM_APIX(void, ctx_##NAME##PUT##_notify_nbi, TANDEM_CTX_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Put, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, true); } \
  TANDEM_APIX(void, NAME##GET##_notify, TANDEM_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Get, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, false); } \
  TANDEM_APIX(void, ctx_##NAME##GET##_notify, TANDEM_CTX_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Get, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, false); } \
  TANDEM_APIX(void, NAME##GET##_notify_nbi, TANDEM_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Get, CTX, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, true); } \
  TANDEM_APIX(void, ctx_##NAME##GET##_notify_nbi, TANDEM_CTX_NOTIFY_PARAMS(P)) { notified(TANDEM_CALL, Op::Kind::Get, c, static_cast<E*>(d), static_cast<const E*>(s), n, pe, tag, true); }

// Typed (shmemx_int_put_notify ...), sized (shmemx_put64_notify ...) and bytes
// (shmemx_putmem_notify ...).
#define TANDEM_DEFINE_NOTIFY(T, N) TANDEM_NOTIFY_FAMILY(N##_, put, get, T, T)
TANDEM_RMA_TYPES(TANDEM_DEFINE_NOTIFY)
#define TANDEM_DEFINE_NOTIFY_SIZED(BITS, E) TANDEM_NOTIFY_FAMILY(, put##BITS, get##BITS, E, void)
TANDEM_RMA_SIZES(TANDEM_DEFINE_NOTIFY_SIZED)
TANDEM_DEFINE_NOTIFY_SIZED(mem, char)

TANDEM_APIX(int, notify_init, (int source_pe, int tag, int expected_count, shmemx_notify_t* req)) {
  return notify::request_init(source_pe, tag, expected_count, req);
}
TANDEM_APIX(int, notify_start, (shmemx_notify_t req)) { return notify::request_start(req); }
// A PE about to wait for notifications first carries out what the scheduler holds: the
// notification another PE waits for before it answers may be among it.
TANDEM_APIX(int, notify_wait, (shmemx_notify_t req, shmemx_notify_status_t* status)) {
  if (rt().initialized) scheduler().run_all_held(TANDEM_CALL);
  return notify::request_wait(req, status);
}
TANDEM_APIX(int, notify_test, (shmemx_notify_t req, int* flag, shmemx_notify_status_t* status)) {
  if (rt().initialized) scheduler().run_all_held(TANDEM_CALL);
  return notify::request_test(req, flag, status);
}
TANDEM_APIX(int, notify_waitany, (int n, shmemx_notify_t reqs[], int* index, shmemx_notify_status_t* status)) {
  if (rt().initialized) scheduler().run_all_held(TANDEM_CALL);
  return notify::request_waitany(n, reqs, index, status);
}
TANDEM_APIX(int, notify_free, (shmemx_notify_t* req)) { return notify::request_free(req); }
