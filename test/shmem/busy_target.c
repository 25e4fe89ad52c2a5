/* Progress while the target computes: PE 1 computes for 2 s without calling the library,
 * and meanwhile PE 0 does puts, gets and atomics on PE 1's memory.  With a progress thread
 * (TANDEM_PROGRESS_THREAD=auto, the default, or on) they
 * must all complete while PE 1 is still computing: PE 0 checks that PE 1's "computing" flag,
 * which PE 1 clears only after its compute phase, is still set when its last operation has
 * completed.  Without one (off) they must still complete correctly once PE 1 calls the
 * library again; whether they waited for it is only printed. */
#include <time.h>

#include "common.h"

static long computing = 1;
static long target[4];

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
  return test_finish("busy_target");
}
