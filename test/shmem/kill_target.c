/* A PE for the launcher tests (kill_cleanup.sh): records its pid (TANDEM_TEST_PIDDIR),
 * optionally holds before shmem_init until a file "<dir>/release.<pid>" appears
 * (TANDEM_TEST_HOLD=1), allocates symmetric memory, then loops on barriers and short
 * sleeps for up to 60 seconds.  Killing one PE must bring the whole job down. */
#include <time.h>

#include "common.h"

int main(void) {
  test_record_pid();
  const char *dir = getenv("TANDEM_TEST_PIDDIR");
  const char *hold = getenv("TANDEM_TEST_HOLD");
  if (dir && hold && strcmp(hold, "1") == 0) {
    char release[4096];
    snprintf(release, sizeof release, "%s/release.%ld", dir, (long)getpid());
    for (int i = 0; i < 60 * 100 && access(release, F_OK) != 0; ++i) usleep(10000);
  }
  shmem_init();
  char *block = shmem_malloc(8 << 20);
  memset(block, shmem_my_pe(), 8 << 20);
  if (dir) {
    /* "<dir>/running.<pid>": this PE is initialised and in its loop. */
    char running[4096];
    snprintf(running, sizeof running, "%s/running.%ld", dir, (long)getpid());
    FILE *f = fopen(running, "w");
    if (f) fclose(f);
  }
  const time_t end = time(NULL) + 60;
  while (time(NULL) < end) {
    shmem_barrier_all();
    shmem_putmem(block, block, 4096, (shmem_my_pe() + 1) % shmem_n_pes());
    usleep(20000);
  }
  shmem_free(block);
  shmem_finalize();
  return 0;
}
