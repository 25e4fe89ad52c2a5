/* shmem_barrier_all and shmem_sync_all.  In each round every PE writes the round number
 * into its slot on every PE, then synchronises; after the barrier every slot on every PE
 * must hold the round.  Slots alternate between two banks by round parity, so one barrier
 * per round is enough: a PE can only start writing bank b again after every PE has passed
 * the next barrier, that is, after it checked bank b.
 * barrier_all must complete the puts itself (here nbi puts, held back with
 * TANDEM_DEFER_THRESHOLD); sync_all is preceded by shmem_quiet. */
#include "common.h"

#define ROUNDS 300

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  long *slots = shmem_calloc(2 * (size_t)npes, sizeof(long));
  for (int use_sync = 0; use_sync < 2; ++use_sync) {
    for (long r = 1; r <= ROUNDS; ++r) {
      const long round = use_sync * ROUNDS + r;
      long *bank = slots + (round % 2) * npes;
      for (int pe = 0; pe < npes; ++pe) {
        if ((pe + r) % 2) shmem_long_put_nbi(&bank[me], &round, 1, pe);
        else shmem_long_p(&bank[me], round, pe);
      }
      if (use_sync) {
        shmem_quiet();
        shmem_sync_all();
      } else {
        shmem_barrier_all();
      }
      int bad = 0;
      for (int pe = 0; pe < npes; ++pe) bad += bank[pe] != round;
      CHECK(bad == 0, "%s round %ld: %d of %d slots not written before the barrier returned",
            use_sync ? "sync_all" : "barrier_all", round, bad, npes);
    }
    shmem_barrier_all();
  }
  shmem_free(slots);
  return test_finish("barrier");
}
