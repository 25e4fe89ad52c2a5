/* The deprecated start_pes/_my_pe/_num_pes, and a program that never calls shmem_finalize:
 * the library finalizes at exit, and the job ends with status 0. */
#include "common.h"

static int from_left;
static int count;

int main(void) {
  test_record_pid();
  start_pes(0);
  int initialized = 0;
  shmem_query_initialized(&initialized);
  CHECK(initialized == 1, "shmem_query_initialized after start_pes gave %d", initialized);
  const int me = _my_pe(), npes = _num_pes();
  CHECK(me == shmem_my_pe(), "_my_pe() = %d, shmem_my_pe() = %d", me, shmem_my_pe());
  CHECK(npes == shmem_n_pes(), "_num_pes() = %d, shmem_n_pes() = %d", npes, shmem_n_pes());
  CHECK(me >= 0 && me < npes, "_my_pe() = %d with %d PEs", me, npes);

  shmem_int_p(&from_left, me + 100, (me + 1) % npes);
  shmem_int_atomic_inc(&count, 0);
  shmem_barrier_all();
  CHECK(from_left == (me + npes - 1) % npes + 100, "from_left = %d, expected %d", from_left,
        (me + npes - 1) % npes + 100);
  if (me == 0) CHECK(count == npes, "count = %d on PE 0, expected %d", count, npes);
  shmem_barrier_all();
  if (test_failures) {
    fprintf(stderr, "start_pes: PE %d: %d check(s) failed\n", me, test_failures);
    return 1;
  }
  if (me == 0) printf("start_pes: passed on %d PE(s)\n", npes);
  return 0; /* no shmem_finalize: the library does it at exit */
}
