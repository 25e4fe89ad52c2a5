/* The deprecated active-set collectives: shmem_barrier, shmem_sync (four arguments),
 * broadcast32/64, collect, fcollect, alltoall(s) and the *_to_all reductions, on every PE
 * and on the even PEs (logPE_stride 1).  pSync must hold SHMEM_SYNC_VALUE again once every
 * PE is done, so one array serves every call here.  The active set of every PE is
 * SHMEM_TEAM_WORLD: its calls interleave with the team's. */
#include <complex.h>

#include "common.h"

static long psync[SHMEM_SYNC_SIZE];
static long pwrk_long[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static double pwrk_double[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static float _Complex pwrk_complex[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static int pwrk_int[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static long lsrc[256], ldst[256];
static int isrc[256], idst[256];
static double dsrc[4], ddst[4];
static float _Complex csrc[2], cdst[2];
static long barrier_count;
#define LARGE 3001
static long lbig[LARGE], lbig_out[LARGE], pwrk_big[LARGE / 2 + 1];

static void run(int start, int log_stride, int size) {
  const int me = shmem_my_pe(), stride = 1 << log_stride;
  if (me < start || (me - start) % stride != 0 || (me - start) / stride >= size) return;
  const int rank = (me - start) / stride;

  for (int i = 0; i < 30; ++i) {
    shmem_barrier(start, log_stride, size, psync);
    shmem_sync(start, log_stride, size, psync);
  }
  /* barrier completes puts: each PE adds 1 to the next member's counter, 10 times */
  for (int i = 0; i < 10; ++i) {
    shmem_long_atomic_add(&barrier_count, 1, start + ((rank + 1) % size) * stride);
    shmem_barrier(start, log_stride, size, psync);
    CHECK(barrier_count == i + 1, "barrier %d: counter %ld", i, barrier_count);
    shmem_barrier(start, log_stride, size, psync); /* the next add waits for the check */
  }

  for (int root = 0; root < size; ++root) {
    for (int i = 0; i < 100; ++i) lsrc[i] = rank * 1000 + i, ldst[i] = -1;
    shmem_broadcast64(ldst, lsrc, 100, root, start, log_stride, size, psync);
    int bad = 0;
    for (int i = 0; i < 100; ++i) bad += ldst[i] != (rank == root ? -1 : root * 1000 + i);
    CHECK(bad == 0, "broadcast64 from %d: %d wrong (the root's dest must stay)", root, bad);
    for (int i = 0; i < 7; ++i) isrc[i] = rank * 100 + i, idst[i] = -1;
    shmem_broadcast32(idst, isrc, 7, root, start, log_stride, size, psync);
    bad = 0;
    for (int i = 0; i < 7; ++i) bad += idst[i] != (rank == root ? -1 : root * 100 + i);
    CHECK(bad == 0, "broadcast32 from %d: %d wrong", root, bad);
  }

  for (int i = 0; i < 2; ++i) isrc[i] = rank * 10 + i;
  shmem_fcollect32(idst, isrc, 2, start, log_stride, size, psync);
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < 2; ++i) CHECK(idst[r * 2 + i] == r * 10 + i, "fcollect32 [%d][%d] = %d", r, i, idst[r * 2 + i]);
  for (int i = 0; i <= rank; ++i) lsrc[i] = rank * 10 + i;
  shmem_collect64(ldst, lsrc, (size_t)rank + 1, start, log_stride, size, psync);
  int at = 0;
  for (int r = 0; r < size; ++r)
    for (int i = 0; i <= r; ++i, ++at) CHECK(ldst[at] == r * 10 + i, "collect64 [%d][%d] = %ld", r, i, ldst[at]);
  for (int j = 0; j < size; ++j) lsrc[j] = rank * 100 + j;
  shmem_alltoall64(ldst, lsrc, 1, start, log_stride, size, psync);
  for (int j = 0; j < size; ++j) CHECK(ldst[j] == j * 100 + rank, "alltoall64 [%d] = %ld", j, ldst[j]);
  for (int j = 0; j < 2 * size; ++j) isrc[j] = rank * 100 + j, idst[j] = -1;
  shmem_alltoalls32(idst, isrc, 2, 2, 1, start, log_stride, size, psync);
  for (int j = 0; j < size; ++j) CHECK(idst[2 * j] == j * 100 + 2 * rank, "alltoalls32 [%d] = %d", j, idst[2 * j]);

  isrc[0] = rank + 1;
  shmem_int_sum_to_all(idst, isrc, 1, start, log_stride, size, pwrk_int, psync);
  CHECK(idst[0] == size * (size + 1) / 2, "int_sum_to_all %d", idst[0]);
  lsrc[0] = 1L << rank;
  shmem_long_xor_to_all(ldst, lsrc, 1, start, log_stride, size, pwrk_long, psync);
  CHECK(ldst[0] == (1L << size) - 1, "long_xor_to_all %#lx", ldst[0]);
  dsrc[0] = rank, dsrc[1] = -rank;
  shmem_double_max_to_all(ddst, dsrc, 2, start, log_stride, size, pwrk_double, psync);
  CHECK(ddst[0] == size - 1 && ddst[1] == 0, "double_max_to_all %g %g", ddst[0], ddst[1]);
  /* Large enough to be folded in slices, and an odd count. */
  for (int i = 0; i < LARGE; ++i) lbig[i] = (long)rank * 100003 + i, lbig_out[i] = -1;
  shmem_long_sum_to_all(lbig_out, lbig, LARGE, start, log_stride, size, pwrk_big, psync);
  int wrong = 0;
  for (int i = 0; i < LARGE; ++i) wrong += lbig_out[i] != 100003L * size * (size - 1) / 2 + (long)size * i;
  CHECK(wrong == 0, "long_sum_to_all of %d: %d wrong", LARGE, wrong);
  shmem_long_max_to_all(lbig, lbig, LARGE, start, log_stride, size, pwrk_big, psync); /* in place */
  wrong = 0;
  for (int i = 0; i < LARGE; ++i) wrong += lbig[i] != (long)(size - 1) * 100003 + i;
  CHECK(wrong == 0, "in-place long_max_to_all of %d: %d wrong", LARGE, wrong);
  csrc[0] = 1.0f * I;
  shmem_complexf_prod_to_all(cdst, csrc, 1, start, log_stride, size, pwrk_complex, psync);
  const float _Complex powers[4] = {1, 1.0f * I, -1, -1.0f * I};
  CHECK(cdst[0] == powers[size % 4], "complexf_prod_to_all %g%+gi for %d PEs", crealf(cdst[0]), cimagf(cdst[0]), size);
}

int main(void) {
  test_init();
  const int npes = shmem_n_pes();
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  run(0, 0, npes);
  barrier_count = 0;
  shmem_barrier_all();
  run(0, 1, (npes + 1) / 2);
  shmem_barrier_all();
  /* The active set of every PE and SHMEM_TEAM_WORLD interleaved, back to back with no
   * barrier in between: each result must be its own round's. */
  const int me = shmem_my_pe();
  for (long round = 0; round < 100; ++round) {
    lsrc[0] = round * 10 + me;
    shmem_long_sum_to_all(ldst, lsrc, 1, 0, 0, npes, pwrk_long, psync);
    CHECK(ldst[0] == round * 10 * npes + (long)npes * (npes - 1) / 2, "round %ld: sum_to_all %ld", round, ldst[0]);
    lsrc[1] = round + me;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &ldst[1], &lsrc[1], 1);
    CHECK(ldst[1] == round * npes + (long)npes * (npes - 1) / 2, "round %ld: sum_reduce %ld", round, ldst[1]);
    const int root = (int)(round % npes);
    lsrc[2] = round * 100 + me;
    ldst[2] = -1;
    shmem_broadcast64(&ldst[2], &lsrc[2], 1, root, 0, 0, npes, psync);
    CHECK(ldst[2] == (me == root ? -1 : round * 100 + root), "round %ld: broadcast64 %ld", round, ldst[2]);
    shmem_long_broadcast(SHMEM_TEAM_WORLD, &ldst[3], &lsrc[2], 1, root);
    CHECK(ldst[3] == round * 100 + root, "round %ld: team broadcast %ld", round, ldst[3]);
    if (round % 10 == 0) shmem_barrier(0, 0, npes, psync);
  }
  int dirty = 0;
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) dirty += psync[i] != SHMEM_SYNC_VALUE;
  CHECK(dirty == 0, "%d pSync elements do not hold SHMEM_SYNC_VALUE after the collectives", dirty);
  return test_finish("collectives_legacy");
}
