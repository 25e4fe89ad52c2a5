/* Rank and size as the launcher gave them: every PE adds 1 << my_pe into a counter on PE 0,
 * which must then hold 2^n_pes - 1 (ranks distinct and 0 .. n-1).  With an argument N, every
 * PE also checks that shmem_n_pes() is N; with a second, K, that the launcher's nodes are
 * Tandem's: SHMEM_TEAM_SHARED holds K PEs, this PE's block of K consecutive ones (the
 * launcher placing K PEs on each node in turn).  Used for the Open MPI and Slurm tests. */
#include "common.h"

static long census;

int main(int argc, char **argv) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (argc > 1) {
    const int expected = atoi(argv[1]);
    CHECK(npes == expected, "shmem_n_pes() = %d, the launcher started %d", npes, expected);
  }
  if (argc > 2) {
    const int per_node = atoi(argv[2]), shared = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    const int first = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
    CHECK(shared == per_node && first == me / per_node * per_node,
          "SHMEM_TEAM_SHARED holds %d PEs from PE %d; the launcher placed %d on each node, this "
          "PE's from PE %d", shared, first, per_node, me / per_node * per_node);
  }
  CHECK(me >= 0 && me < npes && npes <= 62, "shmem_my_pe() = %d of %d", me, npes);
  if (me >= 0 && me < 62) shmem_long_atomic_add(&census, 1L << me, 0);
  shmem_barrier_all();
  if (me == 0 && npes <= 62)
    CHECK(census == (1L << npes) - 1, "census %#lx, expected %#lx: ranks are not 0 .. %d", census,
          (1L << npes) - 1, npes - 1);
  shmem_barrier_all(); /* PE 0 has looked before the ring below overwrites the census */
  /* And a put ring, so that every PE reaches every neighbour's memory. */
  shmem_long_p(&census, me, (me + 1) % npes);
  shmem_barrier_all();
  CHECK(census == (me + npes - 1) % npes, "ring put gave %ld", census);
  return test_finish("ranks");
}
