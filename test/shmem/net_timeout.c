/* A network failure ends the job (TANDEM_NET_TIMEOUT) rather than hanging it; a slow peer
 * does not.  Run on 2 PEs on 2 nodes (stop: also on more, every PE its own node):
 *   net_timeout stop   the last PE stops itself (SIGSTOP) after a barrier; PE 0 keeps putting
 *                      to every other PE, each round followed by shmem_quiet, which then
 *                      waits forever for the puts to the stopped PE to land; the PEs in
 *                      between wait for a flag that never comes (and answer).  The job must
 *                      end with the timeout's message naming the stopped PE.
 *   net_timeout wait   PE 1 stops itself after a barrier; once it is stopped (its state in
 *                      /proc: the virtual nodes share a machine), PE 0 puts to it, then
 *                      waits with shmem_long_wait_until for a flag that never comes: the
 *                      wait's progress must end the job with the message naming that call.
 *                      (Putting before PE 1 is stopped could let PE 1's progress thread
 *                      complete the put, and then no network operation is outstanding.)
 *   net_timeout link   both PEs print "ready on PE <pe> pid <pid>"; PE 0 then puts to PE 1
 *                      with a quiet after each put, while PE 1 waits for a flag that never
 *                      comes, until the caller takes the link between their nodes down
 *                      (test/netns/link_down.sh) or resets their connection (test/hostile/
 *                      connection_reset.sh).  The job must end with PE 0's message.
 *   net_timeout slow   PE 0 puts to PE 1 and quiets, ROUNDS times; PE 1 calls the library
 *                      only every 100 ms (a shmem_test).  Each quiet then waits up to that
 *                      long, far less than the timeout the test sets: the job must pass.
 *   net_timeout compute  PE 1 takes a lock, then computes without calling the library for
 *                      COMPUTE_MS, gives the lock back and computes as long again; PE 0
 *                      waits for the lock, then in a barrier, with nothing outstanding, each
 *                      wait longer than the timeout the test sets.  PE 1's progress thread
 *                      answers PE 0's probes meanwhile: the job must pass. */
#include <signal.h>
#include <time.h>

#include "common.h"

#define WORDS 1024
#define ROUNDS 20
#define COMPUTE_MS 2500

static long box[WORDS];
static long done_flag;
static long pid_of_1;
static long lock;

/* Waits until process `pid` is stopped; false after 20 s. */
static int stopped(long pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  for (int i = 0; i < 20000; ++i) {
    char state = 0;
    FILE *f = fopen(path, "r");
    if (f) {
      if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1) state = 0;
      fclose(f);
    }
    if (state == 'T' || state == 't') return 1;
    const struct timespec t = {0, 1000000L};
    nanosleep(&t, NULL);
  }
  return 0;
}

static void nap_ms(long ms) {
  const struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* Keeps the CPU busy for `ms` without calling the library. */
static void compute_ms(long ms) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  CHECK(npes >= 2 && (npes == 2 || strcmp(mode, "stop") == 0), "runs on 2 PEs, not %d", npes);
  long source[WORDS];
  for (int i = 0; i < WORDS; ++i) source[i] = me * 100000 + i;
  if (me == 1) shmem_long_p(&pid_of_1, (long)getpid(), 0);
  shmem_barrier_all();

  if (strcmp(mode, "stop") == 0) {
    if (me == npes - 1) raise(SIGSTOP);
    if (me != 0) shmem_long_wait_until(&done_flag, SHMEM_CMP_EQ, 1); /* never set */
    for (;;) { /* ended by the timeout */
      for (int pe = 1; pe < npes; ++pe) shmem_long_put(box, source, WORDS, pe);
      shmem_quiet();
    }
  } else if (strcmp(mode, "wait") == 0) {
    if (me == 1) raise(SIGSTOP);
    CHECK(stopped(pid_of_1), "PE 1 (pid %ld) did not stop", pid_of_1);
    shmem_long_put_nbi(box, source, WORDS, 1);
    shmem_long_wait_until(&done_flag, SHMEM_CMP_EQ, 1); /* never set: ended by the timeout */
  } else if (strcmp(mode, "link") == 0) {
    printf("ready on PE %d pid %ld\n", me, (long)getpid());
    fflush(stdout);
    if (me == 1) shmem_long_wait_until(&done_flag, SHMEM_CMP_EQ, 1); /* never set */
    for (;;) { /* ended by the timeout, once the link is down */
      shmem_long_put(box, source, WORDS, 1);
      shmem_quiet();
      nap_ms(1);
    }
  } else if (strcmp(mode, "slow") == 0) {
    if (me == 0) {
      for (int r = 0; r < ROUNDS; ++r) {
        source[0] = r;
        shmem_long_put(box, source, WORDS, 1);
        shmem_quiet();
      }
      shmem_long_atomic_set(&done_flag, 1, 1);
    } else {
      while (!shmem_long_test(&done_flag, SHMEM_CMP_EQ, 1)) nap_ms(100);
      CHECK(box[0] == ROUNDS - 1 && box[WORDS - 1] == WORDS - 1, "the last put did not land: %ld %ld", box[0],
            box[WORDS - 1]);
    }
  } else if (strcmp(mode, "compute") == 0) {
    if (me == 1) shmem_set_lock(&lock);
    shmem_barrier_all();
    if (me == 1) {
      compute_ms(COMPUTE_MS);
      shmem_clear_lock(&lock);
      compute_ms(COMPUTE_MS);
    } else {
      shmem_set_lock(&lock);
      shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
  } else {
    CHECK(0, "usage: net_timeout stop|wait|link|slow|compute");
  }
  return test_finish("net_timeout");
}
