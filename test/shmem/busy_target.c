/* Progress while the target computes: PE 1 computes for 2 s without calling the library,
 * and meanwhile PE 0 does puts, gets and atomics on PE 1's memory.  With a progress thread
 * (TANDEM_PROGRESS_THREAD=auto, the default, or on) they
 * must all complete while PE 1 is still computing: PE 0 checks that PE 1's "computing" flag,
 * which PE 1 clears only after its compute phase, is still set when its last operation has
 * completed.  Without one (off) they must still complete correctly once PE 1 calls the
 * library again; whether they waited for it is only printed.
 *
 * Then, ten times, PE 1 goes from a run of barriers (waits in the library) straight to 50 ms
 * of computing, and PE 0 puts and quiets at once: with a progress thread the put must
 * complete while PE 1 still computes (the thread learns that its PE stopped waiting when
 * PE 0's wait rings its doorbell, or at its next look, 0.6 ms at most). */
#include <time.h>

#include "common.h"

static long computing = 1;
static long target[4];
static long round_computing; /* PE 1: the round it computes in, 0 once done */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const char *proxy = getenv("TANDEM_PROGRESS_THREAD");
  const int expect_progress = !proxy || strcmp(proxy, "off") != 0;
  shmem_barrier_all();
  if (npes >= 2 && me == 1) {
    const double start = now();
    volatile double x = 0;
    while (now() - start < 2.0) x += 1; /* no library call in here */
    computing = 0;                      /* a plain store: PE 0 reads it with shmem_g */
  } else if (npes >= 2 && me == 0) {
    for (long i = 1; i <= 50; ++i) {
      shmem_long_p(&target[0], i, 1);
      CHECK(shmem_long_g(&target[0], 1) == i, "get after put read a stale value");
      shmem_long_atomic_fetch_add(&target[1], 1, 1);
    }
    shmem_quiet();
    const long still = shmem_long_g(&computing, 1);
    if (expect_progress)
      CHECK(still == 1, "the operations completed only after the target stopped computing");
    printf("busy_target: operations %s the target's compute phase\n", still ? "completed during" : "waited for");
  }
  shmem_barrier_all();
  if (npes >= 2 && me == 1) CHECK(target[1] == 50, "fetch_add count %ld, expected 50", target[1]);
  for (long round = 1; round <= 10; ++round) {
    if (me == 1) round_computing = round;
    for (int k = 0; k < 20; ++k) shmem_barrier_all();
    if (npes >= 2 && me == 1) {
      const double start = now();
      volatile double x = 0;
      while (now() - start < 0.05) x += 1; /* no library call in here */
      round_computing = 0;
    } else if (npes >= 2 && me == 0) {
      shmem_long_p(&target[2], round, 1);
      shmem_quiet();
      const long still = shmem_long_g(&round_computing, 1);
      if (expect_progress)
        CHECK(still == round, "round %ld: the put completed only after the target stopped computing", round);
    }
    shmem_barrier_all();
    if (npes >= 2 && me == 1) CHECK(target[2] == round, "round %ld: target holds %ld", round, target[2]);
  }
  return test_finish("busy_target");
}
