/* Polling with the test routines must let other PEs' operations land.  Each PE in turn puts
 * 4 MiB to its right neighbour with a blocking shmem_putmem and then raises a flag there;
 * the neighbour polls the flag with shmem_test (and once with shmem_test_any, _all, _some),
 * sleeping between polls and calling nothing else.  With a manual-progress network and no
 * progress thread, a test that only reads memory leaves the blocking put waiting for the
 * target forever (the job then times out); with progress driven by the test the data and
 * the flag arrive.  The data is checked too. */
#include <time.h>

#include "common.h"

#define BYTES (4u << 20)

static long flag[4];

static void nap(void) {
  const struct timespec t = {0, 100000};
  nanosleep(&t, NULL);
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  unsigned char *buffer = shmem_malloc(BYTES);
  unsigned char *source = malloc(BYTES);
  CHECK(buffer != NULL && source != NULL, "allocation failed");
  for (size_t i = 0; i < BYTES; ++i) source[i] = (unsigned char)(i * 7 + (size_t)me);
  shmem_barrier_all();

  /* Round r: PE r sends, its right neighbour polls; the others wait in the barrier. */
  for (int r = 0; r < npes && npes > 1; ++r) {
    const int receiver = (r + 1) % npes;
    if (me == r) {
      shmem_putmem(buffer, source, BYTES, receiver);
      shmem_fence();
      for (int k = 0; k < 4; ++k) shmem_long_p(&flag[k], r + 1, receiver);
      shmem_quiet();
    } else if (me == receiver) {
      const long want = r + 1;
      while (!shmem_long_test(&flag[0], SHMEM_CMP_EQ, want)) nap();
      while (shmem_long_test_any(&flag[1], 1, NULL, SHMEM_CMP_EQ, want) == SIZE_MAX) nap();
      while (!shmem_long_test_all(&flag[2], 1, NULL, SHMEM_CMP_EQ, want)) nap();
      size_t index;
      while (shmem_long_test_some(&flag[3], 1, &index, NULL, SHMEM_CMP_EQ, want) == 0) nap();
      size_t bad = 0;
      for (size_t i = 0; i < BYTES; ++i) bad += buffer[i] != (unsigned char)(i * 7 + (size_t)r);
      CHECK(bad == 0, "%zu of %u bytes from PE %d are wrong", bad, BYTES, r);
    }
    shmem_barrier_all();
  }

  shmem_free(buffer);
  free(source);
  return test_finish("test_progress");
}
