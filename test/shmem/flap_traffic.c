/* Traffic of every kind between nodes, checked, for as long as a link may flap:
 *   flap_traffic SECONDS
 * every PE prints "ready on PE n" once initialised, then for SECONDS (PE 0's clock; the
 * decision travels with a max-reduction each round) puts a round-tagged block into the next
 * PE, adds to a counter on PE 0 with a fetching atomic and a non-fetching one, and meets the
 * others in a barrier, a broadcast and a reduction; each round checks the block it received
 * and what the collectives gave.  At the end PE 0's counters must hold every PE's additions.
 * Run by test/netns/link_flap.sh while it takes a node's link down and up. */
#include <time.h>

#include "common.h"

#define WORDS 512

static long block[WORDS];
static long fetched_total, added_total;
static long go;      /* PE 0's decision to run another round */
static long go_all;  /* its max over the PEs */
static long root_word, root_source, sum_in, sum_out;

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  const double seconds = argc > 1 ? atof(argv[1]) : 4;
  test_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  long *source = shmem_malloc(WORDS * sizeof(long));
  shmem_barrier_all();
  printf("ready on PE %d\n", me);
  fflush(stdout);
  const double start = seconds_now();
  long rounds = 0;
  for (;; ++rounds) {
    go = me == 0 && seconds_now() - start < seconds;
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &go_all, &go, 1);
    if (!go_all) break;
    for (int i = 0; i < WORDS; ++i) source[i] = (rounds << 20) | ((long)me << 10) | i;
    shmem_long_put(block, source, WORDS, test_right());
    (void)shmem_long_atomic_fetch_add(&fetched_total, 1, 0);
    shmem_long_atomic_add(&added_total, 2, 0);
    shmem_barrier_all();
    const long from = test_left();
    for (int i = 0; i < WORDS; ++i)
      if (block[i] != ((rounds << 20) | (from << 10) | i)) {
        CHECK(0, "round %ld: word %d from PE %ld is %ld", rounds, i, from, block[i]);
        break;
      }
    root_source = me == 0 ? rounds : -1;
    shmem_long_broadcast(SHMEM_TEAM_WORLD, &root_word, &root_source, 1, 0);
    CHECK(root_word == rounds, "round %ld: the broadcast gave %ld", rounds, root_word);
    sum_in = me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum_out, &sum_in, 1);
    CHECK(sum_out == (long)n * (n + 1) / 2, "round %ld: the sum is %ld", rounds, sum_out);
    shmem_barrier_all();  /* no PE overwrites a block its neighbour has not checked yet */
  }
  shmem_barrier_all();
  if (me == 0) {
    CHECK(fetched_total == rounds * n, "fetch_add total %ld after %ld rounds of %d PEs", fetched_total, rounds, n);
    CHECK(added_total == 2 * rounds * n, "add total %ld after %ld rounds of %d PEs", added_total, rounds, n);
    printf("flap_traffic: %ld rounds in %.1f s\n", rounds, seconds_now() - start);
  }
  shmem_free(source);
  return test_finish("flap_traffic");
}
