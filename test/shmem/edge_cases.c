/* Edge cases public programs meet: every transfer, collective and reduction of zero
 * elements is a no-op that looks at none of its buffers (NULL and non-symmetric addresses
 * will do), a zero-length put-with-signal still signals, and a PE that calls a deprecated
 * active-set collective outside its active set returns at once and changes nothing. */
#include "common.h"

static int me, npes;
static long psync[SHMEM_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static uint64_t sig;
static long value[4];

static void zero_length(void) {
  const int pe = test_right();
  long local[2];
  int not_symmetric;
  void *bad = &not_symmetric; /* not symmetric: must not be looked at */
  shmem_putmem(NULL, NULL, 0, pe);
  shmem_getmem(NULL, NULL, 0, pe);
  shmem_putmem_nbi(NULL, bad, 0, pe);
  shmem_getmem_nbi(bad, NULL, 0, pe);
  shmem_long_put(NULL, NULL, 0, pe);
  shmem_long_get(local, bad, 0, pe);
  shmem_ctx_long_put(SHMEM_CTX_DEFAULT, bad, local, 0, pe);
  shmem_int_put_nbi(NULL, NULL, 0, pe);
  shmem_double_get_nbi(NULL, NULL, 0, pe);
  shmem_put64(NULL, NULL, 0, pe);
  shmem_get128(NULL, NULL, 0, pe);
  shmem_long_iput(NULL, NULL, 1, 1, 0, pe);
  shmem_long_iget(NULL, NULL, 1, 1, 0, pe);
  shmem_iput32(NULL, NULL, 1, 1, 0, pe);
  shmem_long_ibput(NULL, NULL, 1, 1, 4, 0, pe);
  shmem_long_ibget(NULL, NULL, 1, 1, 0, 3, pe);
  shmem_quiet();

  /* No data, but the signal is updated all the same. */
  sig = 0;
  shmem_barrier_all();
  shmem_long_put_signal(NULL, NULL, 0, &sig, 1, SHMEM_SIGNAL_ADD, pe);
  shmem_putmem_signal_nbi(bad, NULL, 0, &sig, 1, SHMEM_SIGNAL_ADD, pe);
  shmem_quiet();
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 2) == 2, "zero-length put_signal did not signal");

  /* Collectives on teams and active sets, and reductions, of zero elements. */
  CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0) == 0, "zero-length broadcast");
  CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0) == 0, "zero-length broadcastmem");
  CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length collect");
  CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length fcollect");
  CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length alltoall");
  CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, NULL, NULL, 1, 1, 0) == 0, "zero-length alltoalls");
  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length sum_reduce");
  CHECK(shmem_int_max_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length max_reduce");
  CHECK(shmem_long_sum_inscan(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length sum_inscan");
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  shmem_broadcast32(NULL, NULL, 0, 0, 0, 0, npes, psync);
  shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, npes, psync);
  shmem_collect64(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_fcollect32(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_alltoall64(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_alltoalls32(NULL, NULL, 1, 1, 0, 0, 0, npes, psync);
  shmem_long_sum_to_all(NULL, NULL, 0, 0, 0, npes, pwrk, psync);

  /* The heap and the globals are intact and the PEs still agree: a real collective works. */
  value[0] = me + 1;
  shmem_barrier_all();
  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &value[1], &value[0], 1) == 0 &&
            value[1] == (long)npes * (npes + 1) / 2,
        "sum_reduce after zero-length calls gave %ld", value[1]);
}

/* The active set holds the PEs of even number; the odd ones call every routine too. */
static void outside_active_set(void) {
  const int size = (npes + 1) / 2;
  value[0] = 100 + me;
  value[1] = value[2] = -1;
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  shmem_broadcast64(&value[1], &value[0], 1, 0, 0, 1, size, psync);
  shmem_barrier(0, 1, size, psync);
  shmem_long_max_to_all(&value[2], &value[0], 1, 0, 1, size, pwrk, psync);
  shmem_sync(0, 1, size, psync);
  if (me % 2 == 0) {
    CHECK(value[1] == (me == 0 ? -1 : 100), "broadcast64 in the active set gave %ld", value[1]);
    CHECK(value[2] == 100 + 2 * (size - 1), "max_to_all in the active set gave %ld", value[2]);
  } else {
    CHECK(value[1] == -1 && value[2] == -1, "a PE outside the active set was changed: %ld %ld", value[1],
          value[2]);
  }
  shmem_barrier_all();
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  zero_length();
  outside_active_set();
  return test_finish("edge_cases");
}
