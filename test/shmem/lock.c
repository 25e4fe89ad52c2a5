/* Distributed locks: shmem_set_lock/shmem_clear_lock protect a non-atomic read-modify-write
 * (get, then put) of a counter on PE 0, 1000 times per PE: the count must be exact, and an
 * occupancy counter shows that no two PEs are ever inside at once.  shmem_test_lock is used
 * as a spin lock on a heap lock, mixed with set_lock on a third, and must report a held
 * lock without taking it. */
#include <sched.h>

#include "common.h"

#define ITERATIONS 1000

static long global_lock;
static long counter;
static long inside;
static long counter2;
static long counter3;

static int me, npes;

/* The critical section: read, pause now and then, write back. */
static void increment_under_lock(long *target, int i) {
  const long occupants = shmem_long_atomic_fetch_inc(&inside, 0);
  CHECK(occupants == 0, "%ld other PE(s) inside the critical section", occupants);
  const long v = shmem_long_g(target, 0);
  if (i % 16 == 0) sched_yield(); /* let a competitor run while we hold the lock */
  shmem_long_p(target, v + 1, 0);
  shmem_long_atomic_add(&inside, -1, 0);
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  long *heap_lock = shmem_calloc(1, sizeof(long));
  long *mixed_lock = shmem_calloc(1, sizeof(long));

  /* set_lock / clear_lock on a global lock */
  for (int i = 0; i < ITERATIONS; ++i) {
    shmem_set_lock(&global_lock);
    increment_under_lock(&counter, i);
    shmem_clear_lock(&global_lock);
  }
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter == (long)ITERATIONS * npes, "counter is %ld after %d locked increments on %d PEs",
          counter, ITERATIONS, npes);

  /* test_lock as a spin lock on a heap lock */
  long failed_attempts = 0;
  for (int i = 0; i < ITERATIONS / 2; ++i) {
    while (shmem_test_lock(heap_lock)) {
      ++failed_attempts;
      sched_yield();
    }
    increment_under_lock(&counter2, i);
    shmem_clear_lock(heap_lock);
  }
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter2 == (long)(ITERATIONS / 2) * npes, "counter2 is %ld after test_lock increments",
          counter2);

  /* even PEs queue with set_lock, odd PEs spin with test_lock, on one lock */
  for (int i = 0; i < ITERATIONS / 2; ++i) {
    if (me % 2 == 0) {
      shmem_set_lock(mixed_lock);
    } else {
      while (shmem_test_lock(mixed_lock)) sched_yield();
    }
    increment_under_lock(&counter3, i);
    shmem_clear_lock(mixed_lock);
  }
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter3 == (long)(ITERATIONS / 2) * npes, "counter3 is %ld after mixed locking", counter3);

  /* test_lock on a lock held by the last PE returns non-zero and does not take it. */
  const int holder = npes - 1;
  if (me == holder) shmem_set_lock(&global_lock);
  shmem_barrier_all();
  if (me != holder) {
    for (int k = 0; k < 3; ++k)
      CHECK(shmem_test_lock(&global_lock) != 0, "shmem_test_lock on a lock held by PE %d returned 0",
            holder);
  }
  shmem_barrier_all();
  if (me == holder) shmem_clear_lock(&global_lock);
  shmem_barrier_all();
  /* Now free: the first PE takes it with test_lock, the others find it held. */
  if (me == 0) CHECK(shmem_test_lock(&global_lock) == 0, "shmem_test_lock on a free lock failed");
  shmem_barrier_all();
  if (me != 0) CHECK(shmem_test_lock(&global_lock) != 0, "shmem_test_lock took a lock PE 0 holds");
  shmem_barrier_all();
  if (me == 0) shmem_clear_lock(&global_lock);
  shmem_barrier_all();
  if (me == 0) printf("lock: %ld failed test_lock attempts on PE 0\n", failed_attempts);
  shmem_free(mixed_lock);
  shmem_free(heap_lock);
  return test_finish("lock");
}
