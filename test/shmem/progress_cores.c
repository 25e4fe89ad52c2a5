/* Where a PE's progress thread runs when a launcher bound the PE to some of the machine's
 * cores and the PEs leave no core free (tests.cmake starts the job as `taskset -c 0 oshrun`,
 * across nodes and on one node: every PE bound to CPU 0 of several): the thread is bound to
 * the other CPUs the process may use, so that it does not wait behind its PE while the PE
 * computes.  On one node the thread starts with the PE's first nonblocking collective and
 * binds itself as it starts.  Checked on every PE through the kernel's affinity masks of the
 * process's threads: exactly one thread (the progress thread) runs on CPUs disjoint from the
 * PE's, and those are the machine's others.  With the argument "none"
 * (TANDEM_PROGRESS_THREAD=off) no thread has left the PE's CPUs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <shmemx.h>
#include <time.h>

#include "common.h"

/* How many of the process's threads run on CPUs disjoint from `mine`; with `check`, each of
 * them must run on all the CPUs of `all` that `mine` leaves. */
static int threads_outside(const cpu_set_t *mine, const cpu_set_t *all, int check) {
  int outside = 0;
  DIR *tasks = opendir("/proc/self/task");
  CHECK(tasks != NULL, "cannot list /proc/self/task");
  for (struct dirent *e; tasks && (e = readdir(tasks)) != NULL;) {
    const pid_t tid = (pid_t)atol(e->d_name);
    if (tid <= 0) continue;
    cpu_set_t set, common, rest;
    if (sched_getaffinity(tid, sizeof set, &set) != 0) continue;  /* a thread that ended */
    CPU_AND(&common, &set, mine);
    if (CPU_COUNT(&common) != 0) continue;
    ++outside;
    CPU_XOR(&rest, all, mine);
    if (check)
      CHECK(CPU_EQUAL(&set, &rest), "thread %d runs on %d CPUs, not on the %d the PE leaves", (int)tid,
            CPU_COUNT(&set), CPU_COUNT(&rest));
  }
  if (tasks) closedir(tasks);
  return outside;
}

int main(int argc, char **argv) {
  const int expect_thread = !(argc > 1 && strcmp(argv[1], "none") == 0);
  test_init();
  shmemx_req_h req;
  shmemx_team_sync_nbi(SHMEM_TEAM_WORLD, &req); /* on one node, what starts the thread */
  shmemx_req_wait(&req);
  cpu_set_t mine, all;
  CHECK(sched_getaffinity(0, sizeof mine, &mine) == 0, "sched_getaffinity of the PE failed");
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  CPU_ZERO(&all);
  for (long c = 0; c < online && c < CPU_SETSIZE; ++c) CPU_SET((int)c, &all);
  CHECK(CPU_COUNT(&mine) < CPU_COUNT(&all),
        "the PE is not bound to some of the machine's %d CPUs (start the job under taskset)", CPU_COUNT(&all));
  /* A thread that has just started binds itself: up to 2 s for it to have done so. */
  for (int tries = 0; expect_thread && threads_outside(&mine, &all, 0) == 0 && tries < 2000; ++tries) {
    const struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  const int outside = threads_outside(&mine, &all, 1);
  CHECK(outside == (expect_thread ? 1 : 0), "%d thread(s) run outside the PE's CPUs, expected %d", outside,
        expect_thread ? 1 : 0);
  return test_finish("progress_cores");
}
