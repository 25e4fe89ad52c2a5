/* shmem.h in a C99 program (compiled with -std=c99): the typed routines and the constants
 * are usable without C11 _Generic. */
#include "common.h"

static double values[8];

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  double mine[8];
  int i;
  for (i = 0; i < 8; ++i) mine[i] = me + i * 0.5;
  shmem_double_put(values, mine, 8, right);
  shmem_barrier_all();
  for (i = 0; i < 8; ++i)
    CHECK(values[i] == left + i * 0.5, "values[%d] = %g, expected %g", i, values[i], left + i * 0.5);
  CHECK(shmem_double_g(&values[7], right) == me + 3.5, "shmem_double_g");
  {
    long *counter = shmem_calloc(1, sizeof(long));
    shmem_long_atomic_add(counter, 2, 0);
    shmem_barrier_all();
    if (me == 0) CHECK(*counter == 2L * npes, "counter %ld", *counter);
    shmem_barrier_all();
    shmem_free(counter);
  }
  return test_finish("header_c99");
}
