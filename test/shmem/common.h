/* Helpers shared by the SHMEM test programs: checks that record failures with the PE and
 * the source line, and a common start and finish.  A program calls test_init() (or records
 * its pid with test_record_pid() and initialises itself), checks with CHECK(), and returns
 * test_finish(): 0 when every check on this PE held, 1 otherwise.
 *
 * When TANDEM_TEST_PIDDIR names a directory, every PE creates an empty file named after its
 * process id there before it initialises; the test scripts use these to find the job's
 * processes and their /dev/shm files. */
#ifndef TANDEM_TEST_COMMON_H
#define TANDEM_TEST_COMMON_H

#include <shmem.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Failures on this PE; only the first few are printed. */
static int test_failures;
enum { TEST_MAX_PRINTED = 20 };

static inline void test_fail(const char *file, int line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static inline void test_fail(const char *file, int line, const char *format, ...) {
  ++test_failures;
  if (test_failures > TEST_MAX_PRINTED) return;
  int initialized = 0;
  shmem_query_initialized(&initialized);
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  fprintf(stderr, "FAIL on PE %d: %s:%d: %s\n", initialized ? shmem_my_pe() : -1, file, line,
          message);
  fflush(stderr);
}

/* CHECK(condition, printf-style description of what was wrong). */
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) test_fail(__FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

static inline void test_record_pid(void) {
  const char *dir = getenv("TANDEM_TEST_PIDDIR");
  if (dir == NULL || *dir == '\0') return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%ld", dir, (long)getpid());
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) close(fd);
}

static inline void test_init(void) {
  test_record_pid();
  shmem_init();
}

/* Ends the test on this PE: reports, finalizes, gives the exit status. */
static inline int test_finish(const char *name) {
  shmem_barrier_all();
  const int me = shmem_my_pe();
  if (test_failures)
    fprintf(stderr, "%s: PE %d: %d check(s) failed\n", name, me, test_failures);
  else if (me == 0)
    printf("%s: passed on %d PE(s)\n", name, shmem_n_pes());
  fflush(stdout);
  fflush(stderr);
  shmem_finalize();
  return test_failures ? 1 : 0;
}

/* The neighbours in a ring of all PEs (the PE itself when it is alone). */
static inline int test_right(void) { return (shmem_my_pe() + 1) % shmem_n_pes(); }
static inline int test_left(void) { return (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes(); }

#endif
