// Point-to-point synchronisation: wait_until and test with their _all, _any, _some and
// _vector variants for every synchronisation type, plus the deprecated forms.
#include "api/api.h"
#include "api/compare.h"
#include "core/backoff.h"

using namespace tandem;

namespace {

template <typename T>
T load(const T* ivar) {
  return __atomic_load_n(ivar, __ATOMIC_ACQUIRE);
}

template <typename T>
bool satisfied(const char* call, const T* ivars, size_t i, int cmp, const T* operands, bool vector) {
  return compare_values(call, load(&ivars[i]), cmp, operands[vector ? i : 0]);
}

// The common engine: tests the elements that `status` does not mask out.  All is done when
// every one is satisfied, Any at the first satisfied one, Some when at least one is (and
// records every satisfied index).
enum class Mode { All, Any, Some };
struct Outcome {
  bool done;
  size_t first;   // an index that satisfied (Any), or SIZE_MAX
  size_t count;   // satisfied elements recorded in indices (Some)
};

// Where the next _any search of this thread starts: just after the index it returned last,
// so that a program that keeps calling it on a set whose elements all satisfy the condition
// is handed each of them in turn instead of the lowest one for ever.
thread_local size_t any_start = 0;

template <typename T>
Outcome test_set(const char* call, T* ivars, size_t nelems, size_t* indices, const int* status,
                 int cmp, const T* operands, bool vector, Mode mode) {
  check_cmp(call, cmp);
  size_t active = 0, hits = 0, first = SIZE_MAX;
  const size_t start = mode == Mode::Any && any_start < nelems ? any_start : 0;
  for (size_t k = 0; k < nelems; ++k) {
    const size_t i = start + k < nelems ? start + k : start + k - nelems;
    if (status && status[i]) continue;
    ++active;
    if (!satisfied(call, ivars, i, cmp, operands, vector)) continue;
    ++hits;
    if (first == SIZE_MAX) first = i;
    if (mode == Mode::Any) {
      any_start = i + 1;
      return {true, i, 1};
    }
    if (mode == Mode::Some) {
      if (indices) indices[hits - 1] = i;
    }
  }
  if (mode == Mode::All) return {hits == active, first, hits};
  if (active == 0) return {true, SIZE_MAX, 0};  // everything masked: nothing to wait for
  return {hits > 0, first, hits};
}

// What every _all, _any and _some form checks first.
template <typename T>
void check_set(const char* call, const T* ivars, size_t nelems) {
  check_ready(call);
  check_buffer(call, "ivars", ivars, nelems * sizeof(T));
}

// The test_ forms: one look, after one turn of progress.
template <typename T>
Outcome test_once(const char* call, T* ivars, size_t nelems, size_t* indices, const int* status,
                  int cmp, const T* operands, bool vector, Mode mode) {
  check_set(call, ivars, nelems);
  drive_progress_in_spin();
  return test_set(call, ivars, nelems, indices, status, cmp, operands, vector, mode);
}

template <typename T>
Outcome wait_set(const char* call, T* ivars, size_t nelems, size_t* indices, const int* status,
                 int cmp, const T* operands, bool vector, Mode mode) {
  check_set(call, ivars, nelems);
  Outcome outcome{};
  wait_until_ready(call, [&] {
    outcome = test_set(call, ivars, nelems, indices, status, cmp, operands, vector, mode);
    return outcome.done;
  });
  return outcome;
}

template <typename T>
void wait_until(const char* call, T* ivar, int cmp, T value) {
  check_ready(call);
  check_buffer(call, "ivar", ivar, sizeof(T));
  check_cmp(call, cmp);
  wait_until_ready(call, [&] { return compare_values(call, load(ivar), cmp, value); });
}

template <typename T>
int test(const char* call, T* ivar, int cmp, T value) {
  check_ready(call);
  check_buffer(call, "ivar", ivar, sizeof(T));
  drive_progress_in_spin();
  return compare_values(call, load(ivar), cmp, value) ? 1 : 0;
}

}  // namespace

#define TANDEM_DEFINE_P2P(T, N)                                                                                   \
  TANDEM_API(void, N##_wait_until, (T * v, int cmp, T x)) { wait_until(TANDEM_CALL, v, cmp, x); }               \
  TANDEM_API(void, N##_wait_until_all, (T * v, size_t n, const int* st, int cmp, T x)) {                         \
    wait_set(TANDEM_CALL, v, n, nullptr, st, cmp, &x, false, Mode::All);                                          \
  }                                                                                                               \
  TANDEM_API(size_t, N##_wait_until_any, (T * v, size_t n, const int* st, int cmp, T x)) {                       \
    return wait_set(TANDEM_CALL, v, n, nullptr, st, cmp, &x, false, Mode::Any).first;                             \
  }                                                                                                               \
  TANDEM_API(size_t, N##_wait_until_some, (T * v, size_t n, size_t* idx, const int* st, int cmp, T x)) {         \
    return wait_set(TANDEM_CALL, v, n, idx, st, cmp, &x, false, Mode::Some).count;                                \
  }                                                                                                               \
  TANDEM_API(void, N##_wait_until_all_vector, (T * v, size_t n, const int* st, int cmp, T* x)) {                 \
    wait_set(TANDEM_CALL, v, n, nullptr, st, cmp, x, true, Mode::All);                                            \
  }                                                                                                               \
  TANDEM_API(size_t, N##_wait_until_any_vector, (T * v, size_t n, const int* st, int cmp, T* x)) {               \
    return wait_set(TANDEM_CALL, v, n, nullptr, st, cmp, x, true, Mode::Any).first;                               \
  }                                                                                                               \
  TANDEM_API(size_t, N##_wait_until_some_vector, (T * v, size_t n, size_t* idx, const int* st, int cmp, T* x)) { \
    return wait_set(TANDEM_CALL, v, n, idx, st, cmp, x, true, Mode::Some).count;                                  \
  }                                                                                                               \
  TANDEM_API(int, N##_test, (T * v, int cmp, T x)) { return test(TANDEM_CALL, v, cmp, x); }                     \
  TANDEM_API(int, N##_test_all, (T * v, size_t n, const int* st, int cmp, T x)) {                                \
    return test_once(TANDEM_CALL, v, n, nullptr, st, cmp, &x, false, Mode::All).done ? 1 : 0;             \
  }                                                                                                               \
  TANDEM_API(size_t, N##_test_any, (T * v, size_t n, const int* st, int cmp, T x)) {                             \
    return test_once(TANDEM_CALL, v, n, nullptr, st, cmp, &x, false, Mode::Any).first;                    \
  }                                                                                                               \
  TANDEM_API(size_t, N##_test_some, (T * v, size_t n, size_t* idx, const int* st, int cmp, T x)) {               \
    return test_once(TANDEM_CALL, v, n, idx, st, cmp, &x, false, Mode::Some).count;                       \
  }                                                                                                               \
  TANDEM_API(int, N##_test_all_vector, (T * v, size_t n, const int* st, int cmp, T* x)) {                        \
    return test_once(TANDEM_CALL, v, n, nullptr, st, cmp, x, true, Mode::All).done ? 1 : 0;               \
  }                                                                                                               \
  TANDEM_API(size_t, N##_test_any_vector, (T * v, size_t n, const int* st, int cmp, T* x)) {                     \
    return test_once(TANDEM_CALL, v, n, nullptr, st, cmp, x, true, Mode::Any).first;                      \
  }                                                                                                               \
  TANDEM_API(size_t, N##_test_some_vector, (T * v, size_t n, size_t* idx, const int* st, int cmp, T* x)) {       \
    return test_once(TANDEM_CALL, v, n, idx, st, cmp, x, true, Mode::Some).count;                         \
  }
TANDEM_P2P_TYPES(TANDEM_DEFINE_P2P)

#define TANDEM_DEFINE_WAIT_DEPRECATED(T, N) \
  TANDEM_API(void, N##_wait, (T * v, T x)) { wait_until(TANDEM_CALL, v, SHMEM_CMP_NE, x); }
TANDEM_WAIT_DEPRECATED_TYPES(TANDEM_DEFINE_WAIT_DEPRECATED)

TANDEM_API(void, wait, (long* v, long x)) { wait_until(TANDEM_CALL, v, SHMEM_CMP_NE, x); }
TANDEM_API(void, wait_until, (long* v, int cmp, long x)) { wait_until(TANDEM_CALL, v, cmp, x); }
