/* Setup and query routines: shmem_init twice and shmem_finalize twice (reference counting),
 * query_initialized, query_thread, my_pe/n_pes, info_get_version/name and the version
 * constants; shmem_init leaves the program's signal handlers (and the default ones) as they
 * were, also when it loads the network libraries (every PE on its own node). */
#include <signal.h>

#include "common.h"

static long counter;

static void on_usr1(int sig) { (void)sig; }

int main(void) {
  int initialized = -1;
  shmem_query_initialized(&initialized);
  CHECK(initialized == 0, "shmem_query_initialized before init gave %d, expected 0", initialized);

  struct sigaction mine = {0}, before[32], after;
  mine.sa_handler = on_usr1;
  sigaction(SIGUSR1, &mine, NULL);
  sigaction(SIGINT, &mine, NULL);
  /* The standard signals: the C library keeps the first real-time ones for itself. */
  for (int sig = 1; sig < 32; ++sig) sigaction(sig, NULL, &before[sig]);

  test_init();
  shmem_query_initialized(&initialized);
  CHECK(initialized == 1, "shmem_query_initialized after init gave %d, expected 1", initialized);
  for (int sig = 1; sig < 32; ++sig) {
    sigaction(sig, NULL, &after);
    CHECK(after.sa_handler == before[sig].sa_handler, "shmem_init changed the handler of signal %d (%s)",
          sig, strsignal(sig));
  }

  /* A second init only counts. */
  shmem_init();
  shmem_query_initialized(&initialized);
  CHECK(initialized == 1, "shmem_query_initialized after the second init gave %d", initialized);

  const int me = shmem_my_pe();
  const int npes = shmem_n_pes();
  CHECK(npes >= 1, "shmem_n_pes() = %d", npes);
  CHECK(me >= 0 && me < npes, "shmem_my_pe() = %d with %d PEs", me, npes);

  int provided = -1;
  shmem_query_thread(&provided);
  CHECK(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE,
        "shmem_query_thread after shmem_init gave %d", provided);

  int major = -1, minor = -1;
  shmem_info_get_version(&major, &minor);
  CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION,
        "shmem_info_get_version gave %d.%d, the header says %d.%d", major, minor,
        SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
  CHECK(major == 1 && minor >= 5, "version %d.%d is not OpenSHMEM 1.5 or later", major, minor);
  CHECK(_SHMEM_MAJOR_VERSION == SHMEM_MAJOR_VERSION && _SHMEM_MINOR_VERSION == SHMEM_MINOR_VERSION,
        "the deprecated _SHMEM_ version constants differ");

  char name[SHMEM_MAX_NAME_LEN];
  memset(name, 'x', sizeof name);
  shmem_info_get_name(name);
  CHECK(memchr(name, '\0', sizeof name) != NULL, "shmem_info_get_name did not terminate the name");
  name[SHMEM_MAX_NAME_LEN - 1] = '\0';
  CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "shmem_info_get_name gave \"%s\", expected \"%s\"",
        name, SHMEM_VENDOR_STRING);
  CHECK(strlen(SHMEM_VENDOR_STRING) < SHMEM_MAX_NAME_LEN, "SHMEM_VENDOR_STRING too long");

  /* Every PE counts itself on every PE: ranks are distinct and cover 0..npes-1. */
  for (int pe = 0; pe < npes; ++pe) shmem_long_atomic_add(&counter, 1L << (me % 62), pe);
  shmem_barrier_all();
  long expected = 0;
  for (int pe = 0; pe < npes; ++pe) expected += 1L << (pe % 62);
  if (npes <= 62) CHECK(counter == expected, "rank census gave %#lx, expected %#lx", counter, expected);
  shmem_barrier_all(); /* everyone has looked before PE 0's counter changes again */

  /* The first finalize only counts: communication still works. */
  shmem_finalize();
  shmem_query_initialized(&initialized);
  CHECK(initialized == 1, "after one of two finalizes, shmem_query_initialized gave %d", initialized);
  shmem_long_atomic_add(&counter, 1, 0);
  shmem_barrier_all();
  if (me == 0) CHECK(counter == expected + npes, "counter %ld after the first finalize, expected %ld",
                     counter, expected + npes);
  shmem_barrier_all();

  if (test_failures) fprintf(stderr, "setup: PE %d: %d check(s) failed\n", me, test_failures);
  else if (me == 0) printf("setup: passed on %d PE(s)\n", npes);
  fflush(stdout);
  shmem_finalize();
  shmem_query_initialized(&initialized);
  if (initialized != 0) {
    fprintf(stderr, "FAIL on PE %d: shmem_query_initialized after the last finalize gave %d\n", me,
            initialized);
    return 1;
  }
  return test_failures ? 1 : 0;
}
