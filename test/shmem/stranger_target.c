/* The job a stranger attacks (test/hostile/stranger.sh): every PE fills a heap block and a
 * global array with a pattern of its own and prints "ready on PE n heap ADDR globals ADDR"
 * (what a stranger that knows the layout would guess), then until the file STOP exists
 * (checked by PE 0 each round, at most 120 s) puts into its neighbour, adds to a counter on
 * PE 0 and meets the others in a barrier, checking what it received.  At the end every PE
 * checks that its block and array still hold its pattern and PE 0 that the counter holds
 * every PE's additions: a stranger's write that landed anywhere in them fails the test.
 *   stranger_target STOP */
#include <time.h>

#include "common.h"

#define WORDS 4096

static uint64_t globals[WORDS];
static uint64_t inbox[64];
static long counter;
static int stop, stop_all;

static uint64_t pattern(int pe, int i) { return 0x5a5a000000000000ull ^ ((uint64_t)pe << 32) ^ (uint64_t)i; }

int main(int argc, char **argv) {
  const char *stop_file = argc > 1 ? argv[1] : "/nonexistent";
  test_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  uint64_t *block = shmem_malloc(WORDS * sizeof(uint64_t));
  for (int i = 0; i < WORDS; ++i) block[i] = globals[i] = pattern(me, i);
  shmem_barrier_all();
  printf("ready on PE %d heap %p globals %p\n", me, (void *)block, (void *)globals);
  fflush(stdout);
  const time_t start = time(NULL);
  long rounds = 0;
  for (;; ++rounds) {
    stop = me == 0 && (access(stop_file, F_OK) == 0 || time(NULL) - start > 120);
    shmem_int_max_reduce(SHMEM_TEAM_WORLD, &stop_all, &stop, 1);
    if (stop_all) break;
    uint64_t out[64];
    for (int i = 0; i < 64; ++i) out[i] = ((uint64_t)rounds << 16) | ((uint64_t)me << 8) | (uint64_t)i;
    shmem_putmem(inbox, out, sizeof out, test_right());
    shmem_long_atomic_add(&counter, 1, 0);
    shmem_barrier_all();
    for (int i = 0; i < 64; ++i)
      if (inbox[i] != (((uint64_t)rounds << 16) | ((uint64_t)test_left() << 8) | (uint64_t)i)) {
        CHECK(0, "round %ld: word %d received from PE %d is %llx", rounds, i, test_left(), (unsigned long long)inbox[i]);
        break;
      }
    shmem_barrier_all();
    struct timespec pause = {0, 2000000};
    nanosleep(&pause, NULL);
  }
  shmem_barrier_all();
  int changed = 0;
  for (int i = 0; i < WORDS; ++i) changed += (block[i] != pattern(me, i)) + (globals[i] != pattern(me, i));
  CHECK(changed == 0, "%d words of the heap block and the globals changed", changed);
  if (me == 0) CHECK(counter == rounds * n, "the counter is %ld after %ld rounds of %d PEs", counter, rounds, n);
  shmem_free(block);
  return test_finish("stranger_target");
}
