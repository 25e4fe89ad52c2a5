/* Progress for a PE that spins on its memory without calling the library.  The first half
 * of the PEs are initiators, each paired with a target in the second half (on another node
 * in every multi-node placement).  The initiator puts data, fences, puts a flag and quiets;
 * then it gets from the target, does a fetching atomic on it, and finally puts a "done"
 * flag.  Meanwhile the target spins on plain loads of its flags and makes no library call
 * until "done" arrives, so every one of these operations must complete without the target's
 * help (OpenSHMEM 1.6, Progress of OpenSHMEM Operations).  With the default settings the
 * library must provide that progress; the spin gives up after kGiveUpSeconds only so that a
 * library without it fails with a message instead of a hang (no timing is asserted). */
#include <time.h>

#include "common.h"

static volatile int flag;
static volatile int done;
static int data;
static long counter;
static int source = 7;

enum { kGiveUpSeconds = 30 };

/* Spins on `*word` until it is nonzero, with no library call; 0 if it gave up. */
static int spin_on(volatile int *word) {
  const time_t start = time(NULL);
  while (!*word)
    if (time(NULL) - start > kGiveUpSeconds) return 0;
  return 1;
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int half = npes / 2;
  shmem_barrier_all();
  if (me < half) {
    const int target = me + half;
    shmem_int_p(&data, 42, target);
    shmem_fence();
    shmem_int_p((int *)&flag, 1, target);
    shmem_quiet(); /* completes only if the target's side progresses */
    int got = 0;
    shmem_int_get(&got, &source, 1, target);
    CHECK(got == 7, "get from a spinning PE read %d, expected 7", got);
    const long old = shmem_long_atomic_fetch_add(&counter, 1, target);
    CHECK(old == 0, "fetch_add on a spinning PE returned %ld, expected 0", old);
    shmem_int_p((int *)&done, 1, target);
    shmem_quiet();
  } else if (me >= half && me - half < half) {
    const int arrived = spin_on(&flag) && spin_on(&done);
    CHECK(arrived, "the initiator's operations did not complete while this PE spun (flag %d, done %d)",
          flag, done);
    CHECK(data == 42, "data %d after the flag, expected 42", data);
    CHECK(counter == 1, "counter %ld after done, expected 1", counter);
  }
  shmem_barrier_all();
  return test_finish("spin_target");
}
