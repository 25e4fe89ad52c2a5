// The SHMEM_CMP_ comparisons of wait_until, test and signal_wait_until.
#pragma once

#include <shmem.h>

#include "core/error.h"

namespace tandem {

[[noreturn]] inline void bad_cmp(const char* call, int cmp) {
  fatal(call, "cmp = %d is not a comparison (SHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE)", cmp);
}

inline void check_cmp(const char* call, int cmp) {
  if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE) bad_cmp(call, cmp);
}

template <typename T>
inline bool compare_values(const char* call, T value, int cmp, T operand) {
  switch (cmp) {
    case SHMEM_CMP_EQ: return value == operand;
    case SHMEM_CMP_NE: return value != operand;
    case SHMEM_CMP_GT: return value > operand;
    case SHMEM_CMP_GE: return value >= operand;
    case SHMEM_CMP_LT: return value < operand;
    case SHMEM_CMP_LE: return value <= operand;
    default:
      bad_cmp(call, cmp);
  }
}

}  // namespace tandem
