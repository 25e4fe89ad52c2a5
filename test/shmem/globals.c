/* Symmetric global and static variables (.data and .bss, file scope and function scope) as
 * targets of put, get, p, g, strided and nbi RMA, atomics, signals and waits.  Initial
 * values given in the source must survive shmem_init. */
#include "common.h"

#define N 1000

int global_bss[N];                       /* .bss */
long global_data[4] = {11, 22, 33, 44};  /* .data */
double global_doubles[N];
static int static_bss[N];
static unsigned long long static_data[3] = {0x1111ULL, 0x2222ULL, 0x3333ULL};
static long counter;
static uint64_t signal_word;
static char big_global[1 << 20]; /* 1 MiB, spanning many pages */

static int *function_static(void) {
  static int inside[16] = {5, 6, 7};
  return inside;
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = test_right(), left = test_left();

  CHECK(global_data[0] == 11 && global_data[3] == 44, "initialised global lost its values: %ld %ld",
        global_data[0], global_data[3]);
  CHECK(static_data[1] == 0x2222ULL, "initialised static lost its value: %#llx", static_data[1]);
  CHECK(function_static()[2] == 7, "function-scope static lost its value: %d", function_static()[2]);
  CHECK(global_bss[N - 1] == 0 && static_bss[0] == 0, "zero-initialised globals are not zero");

  /* put into a global and a static of the right neighbour. */
  int source[N];
  for (int i = 0; i < N; ++i) source[i] = me * 100000 + i;
  shmem_barrier_all();
  shmem_int_put(global_bss, source, N, right);
  shmem_int_put_nbi(static_bss, source, N, right);
  shmem_quiet();
  shmem_barrier_all();
  int bad = 0;
  for (int i = 0; i < N; ++i) bad += global_bss[i] != left * 100000 + i;
  CHECK(bad == 0, "%d elements of a global int array wrong after put", bad);
  bad = 0;
  for (int i = 0; i < N; ++i) bad += static_bss[i] != left * 100000 + i;
  CHECK(bad == 0, "%d elements of a static int array wrong after put_nbi", bad);

  /* get of the right neighbour's globals. */
  int fetched[N];
  shmem_int_get(fetched, global_bss, N, right); /* right's copy holds my values */
  bad = 0;
  for (int i = 0; i < N; ++i) bad += fetched[i] != me * 100000 + i;
  CHECK(bad == 0, "%d elements wrong after get of a global", bad);
  long data_copy[4];
  shmem_long_get(data_copy, global_data, 4, right);
  CHECK(data_copy[1] == 22, "get of an initialised global gave %ld", data_copy[1]);
  CHECK(shmem_ulonglong_g(&static_data[2], right) == 0x3333ULL, "g of a static gave %#llx",
        shmem_ulonglong_g(&static_data[2], right));
  shmem_barrier_all();

  /* p/g and strided RMA on doubles and a function-scope static. */
  for (int i = 0; i < 10; ++i) shmem_double_p(&global_doubles[i], me + i / 10.0, right);
  shmem_int_p(&function_static()[15], me, right);
  double strided[20];
  for (int i = 0; i < 20; ++i) strided[i] = me * 1000.0 + i;
  shmem_double_iput(&global_doubles[100], strided, 3, 2, 10, right); /* dst stride 3, src 2 */
  shmem_barrier_all();
  for (int i = 0; i < 10; ++i)
    CHECK(global_doubles[i] == left + i / 10.0, "global_doubles[%d] = %g", i, global_doubles[i]);
  for (int i = 0; i < 10; ++i)
    CHECK(global_doubles[100 + 3 * i] == left * 1000.0 + 2 * i, "strided global_doubles[%d] = %g",
          100 + 3 * i, global_doubles[100 + 3 * i]);
  CHECK(global_doubles[101] == 0.0, "iput wrote between the strides");
  CHECK(function_static()[15] == left, "function-scope static got %d, expected %d",
        function_static()[15], left);
  CHECK(shmem_double_g(&global_doubles[3], right) == me + 0.3, "g of a global double gave %g",
        shmem_double_g(&global_doubles[3], right));
  double gathered[10];
  shmem_double_iget(gathered, &global_doubles[100], 1, 3, 10, right);
  for (int i = 0; i < 10; ++i)
    CHECK(gathered[i] == me * 1000.0 + 2 * i, "iget of a global gave %g at %d", gathered[i], i);

  /* Atomics on a static counter of PE 0; signals and waits on globals. */
  for (int i = 0; i < 100; ++i) shmem_long_atomic_inc(&counter, 0);
  shmem_long_atomic_fetch_add(&counter, me, 0);
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter == 100L * npes + (long)npes * (npes - 1) / 2, "static counter %ld, expected %ld",
          counter, 100L * npes + (long)npes * (npes - 1) / 2);
  shmem_barrier_all();

  /* A 1 MiB global: a large put with a signal, waited on by the receiver. */
  char *chunk = malloc(sizeof big_global);
  for (size_t i = 0; i < sizeof big_global; ++i) chunk[i] = (char)(me + i * 3);
  shmem_putmem_signal(big_global, chunk, sizeof big_global, &signal_word, 1, SHMEM_SIGNAL_ADD, right);
  shmem_signal_wait_until(&signal_word, SHMEM_CMP_EQ, 1);
  size_t wrong = 0;
  for (size_t i = 0; i < sizeof big_global; ++i) wrong += big_global[i] != (char)(left + i * 3);
  CHECK(wrong == 0, "%zu bytes of a 1 MiB global wrong after put_signal", wrong);
  free(chunk);

  shmem_long_atomic_set(&global_data[2], 1000 + me, right);
  shmem_long_wait_until(&global_data[2], SHMEM_CMP_EQ, 1000 + left);
  CHECK(global_data[2] == 1000 + left, "global_data[2] = %ld after wait", global_data[2]);
  return test_finish("globals");
}
