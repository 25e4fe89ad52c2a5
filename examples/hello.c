/* Every PE puts its number into the next PE's symmetric variable, then all PEs add one to a
 * counter on PE 0; PE 0 checks both results. */
#include <shmem.h>
#include <stdio.h>

static int from_left = -1; /* a global: symmetric, like the heap */

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  long *counter = shmem_calloc(1, sizeof(long));

  shmem_int_p(&from_left, me, (me + 1) % n);
  shmem_long_atomic_inc(counter, 0);
  shmem_barrier_all();

  int ok = from_left == (me + n - 1) % n;
  if (me == 0) ok = ok && *counter == n;
  printf("Hello from PE %d of %d: my left neighbour is %d%s\n", me, n, from_left,
         ok ? "" : " (WRONG)");
  shmem_free(counter);
  shmem_finalize();
  return ok ? 0 : 1;
}
