// MPI-style epochs (shmemx_win_*, man 7 tandem_epochs): argument checks, then the window.
// The typed put, get and accumulate are one-line calls expanded from the type tables.
#include <cstring>
#include <type_traits>

#include "api/api.h"
#include "epoch/window.h"
#include "mem/target.h"
#include "nbi/scheduler.h"

using namespace tandem;

namespace {

tandem_win& win_of(const char* call, shmemx_win_t win) {
  check_ready(call);
  if (__builtin_expect(win == SHMEMX_WIN_INVALID, 0)) fatal(call, "win = SHMEMX_WIN_INVALID is not a window");
  return *win;
}

template <typename T>
void put(const char* call, shmemx_win_t win, T* dest, const T* source, size_t nelems, int pe) {
  win_of(call, win).transfer(call, Op::Kind::Put, const_cast<T*>(source), dest, nelems * sizeof(T), pe);
}

template <typename T>
void get(const char* call, shmemx_win_t win, T* dest, const T* source, size_t nelems, int pe) {
  win_of(call, win).transfer(call, Op::Kind::Get, dest, source, nelems * sizeof(T), pe);
}

template <typename T>
void apply_accumulate(const char* call, const Target& remote, shm::AmoOp op, const void* source, size_t nelems) {
  scheduler().atomic_array<T>(call, remote, op, static_cast<const T*>(source), nelems);
}

// The atomic that an accumulate's `op` applies to each element: all of them on integers,
// the bitwise ones excepted on floating-point types.
template <typename T>
shm::AmoOp accumulate_op(const char* call, int op) {
  switch (op) {
    case SHMEMX_WIN_REPLACE: return shm::AmoOp::Set;
    case SHMEMX_WIN_SUM: return shm::AmoOp::Add;
    case SHMEMX_WIN_MIN: return shm::AmoOp::Min;
    case SHMEMX_WIN_MAX: return shm::AmoOp::Max;
    case SHMEMX_WIN_BAND: if (std::is_integral_v<T>) return shm::AmoOp::And; break;
    case SHMEMX_WIN_BOR: if (std::is_integral_v<T>) return shm::AmoOp::Or; break;
    case SHMEMX_WIN_BXOR: if (std::is_integral_v<T>) return shm::AmoOp::Xor; break;
    default:
      fatal(call,
            "op = %d is not an accumulate operation: expected SHMEMX_WIN_REPLACE, _SUM, _MIN, _MAX, _BAND, _BOR or "
            "_BXOR",
            op);
  }
  fatal(call, "op = %d: a bitwise operation on a floating-point window element", op);
}

// Folds two operands of `op` on one element: the update by the result is the two updates,
// as the atomic applies them.
template <typename T>
void combine(void* into, const void* later, shm::AmoOp op) {
  T folded, operand;
  memcpy(&folded, into, sizeof folded);
  memcpy(&operand, later, sizeof operand);
  shm::amo(op, &folded, operand);
  memcpy(into, &folded, sizeof folded);
}

template <typename T>
void accumulate(const char* call, shmemx_win_t win, T* dest, const T* source, size_t nelems, int op, int pe) {
  tandem_win& w = win_of(call, win);
  const shm::AmoOp amo = accumulate_op<T>(call, op);
  // A floating-point sum does not fold: adding the operands first would round differently.
  const epoch::CombineFn fold = std::is_floating_point_v<T> && amo == shm::AmoOp::Add ? nullptr : combine<T>;
  w.accumulate(call, apply_accumulate<T>, fold, amo, dest, source, nelems, sizeof(T), pe);
}

}  // namespace

TANDEM_APIX(int, win_create, (shmem_team_t team, void* base, size_t size, shmemx_win_t* win)) {
  const char* call = TANDEM_CALL;
  Team& t = team_of(call, "team", team);
  if (win == nullptr) fatal(call, "win = NULL: expected where to store the window");
  if (size > 0) locate(call, "base", base, size, rt().my_pe);  // symmetric
  *win = tandem_win::create(call, t, base, size);
  return *win == SHMEMX_WIN_INVALID ? 1 : 0;
}

TANDEM_APIX(void, win_free, (shmemx_win_t * win)) {
  const char* call = TANDEM_CALL;
  if (win == nullptr) fatal(call, "win = NULL: expected the address of a window");
  win_of(call, *win).free(call);
  *win = SHMEMX_WIN_INVALID;
}

#define TANDEM_WIN_PARAMS(T) (shmemx_win_t w, T * d, const T* s, size_t n, int pe)
#define TANDEM_DEFINE_WIN_RMA(T, N)                                                                  \
  TANDEM_APIX(void, win_##N##_put, TANDEM_WIN_PARAMS(T)) { put(TANDEM_CALL, w, d, s, n, pe); } \
  TANDEM_APIX(void, win_##N##_get, TANDEM_WIN_PARAMS(T)) { get(TANDEM_CALL, w, d, s, n, pe); }
TANDEM_RMA_TYPES(TANDEM_DEFINE_WIN_RMA)
#define TANDEM_DEFINE_WIN_RMA_SIZED(BITS, E)                                                                                     \
  TANDEM_APIX(void, win_put##BITS, TANDEM_WIN_PARAMS(void)) { put(TANDEM_CALL, w, static_cast<E*>(d), static_cast<const E*>(s), n, pe); } \
  TANDEM_APIX(void, win_get##BITS, TANDEM_WIN_PARAMS(void)) { get(TANDEM_CALL, w, static_cast<E*>(d), static_cast<const E*>(s), n, pe); }
TANDEM_RMA_SIZES(TANDEM_DEFINE_WIN_RMA_SIZED)
TANDEM_DEFINE_WIN_RMA_SIZED(mem, char)
#define TANDEM_DEFINE_WIN_ACCUMULATE(T, N)                                                   \
  TANDEM_APIX(void, win_##N##_accumulate, (shmemx_win_t w, T * d, const T* s, size_t n, int op, int pe)) { \
    accumulate(TANDEM_CALL, w, d, s, n, op, pe);                                             \
  }
TANDEM_AMO_EXTENDED_TYPES(TANDEM_DEFINE_WIN_ACCUMULATE)

TANDEM_APIX(void, win_fence, (shmemx_win_t win)) { win_of(TANDEM_CALL, win).fence(TANDEM_CALL); }

TANDEM_APIX(void, win_post, (shmemx_win_t win, const int* pes, int npes)) {
  win_of(TANDEM_CALL, win).post(TANDEM_CALL, pes, npes);
}

TANDEM_APIX(void, win_start, (shmemx_win_t win, const int* pes, int npes)) {
  win_of(TANDEM_CALL, win).start(TANDEM_CALL, pes, npes);
}

TANDEM_APIX(void, win_complete, (shmemx_win_t win)) { win_of(TANDEM_CALL, win).complete(TANDEM_CALL); }

TANDEM_APIX(void, win_wait, (shmemx_win_t win)) { win_of(TANDEM_CALL, win).end_exposure(TANDEM_CALL, true); }

TANDEM_APIX(int, win_test, (shmemx_win_t win)) {
  return win_of(TANDEM_CALL, win).end_exposure(TANDEM_CALL, false) ? 1 : 0;
}

TANDEM_APIX(void, win_lock, (shmemx_win_t win, int lock_type, int pe)) {
  const char* call = TANDEM_CALL;
  tandem_win& w = win_of(call, win);
  if (lock_type != SHMEMX_WIN_LOCK_EXCLUSIVE && lock_type != SHMEMX_WIN_LOCK_SHARED)
    fatal(call, "lock_type = %d is neither SHMEMX_WIN_LOCK_EXCLUSIVE nor SHMEMX_WIN_LOCK_SHARED", lock_type);
  w.lock(call, static_cast<epoch::LockType>(lock_type), pe);
}

TANDEM_APIX(void, win_unlock, (shmemx_win_t win, int pe)) { win_of(TANDEM_CALL, win).unlock(TANDEM_CALL, pe); }
