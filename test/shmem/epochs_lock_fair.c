/* An exclusive window lock is granted while a stream of shared holders goes on (man 3
 * shmemx_win_lock).  Run with TANDEM_EPOCH_STRATEGY=eager: shmemx_win_lock takes the lock on
 * the call.
 *
 * PEs 0 .. n-2 (the readers) take the shared lock of PE 0 in a relay: one at a time lets it
 * go, once another reader holds it, so the lock is never free while they go on.  Once the
 * relay is under way, the last PE (the writer) asks for the exclusive lock.  A lock that lets
 * shared holders in while an exclusive request waits never grants it: the readers stop after
 * ROUNDS epochs each since the writer asked, and report it.  A lock that makes later shared
 * requests wait behind the writer stops the relay: a reader whose partners all wait in
 * shmemx_win_lock while the writer waits lets go after PATIENCE polls, since none of them can
 * get in before the writer.  While the writer holds the lock, no reader may hold it. */
#include <shmemx.h>

#include "common.h"

enum { ROUNDS = 500, PATIENCE = 100000, TARGET = 0, MOST = 64 };
enum { IDLE = 0, TRYING = 1, HOLDING = 2, STOPPED = 3 }; /* a reader's state */

/* Symmetric; every PE's copy is kept up to date by the PE it describes. */
struct status {
  int state[MOST];    /* by reader */
  int baton;          /* the reader that releases the lock next */
  int rounds;         /* reader 0's shared epochs so far */
  int writer_waiting; /* the writer is asking for the exclusive lock */
  int writer_in;      /* ... and got it */
};

static int me, n, readers;
static struct status *st;
static long *object;

/* Sets `flag` on every PE and waits until it is set everywhere. */
static void tell(int *flag, int value) {
  for (int pe = 0; pe < n; ++pe) shmem_int_atomic_set(flag, value, pe);
  shmem_quiet();
}

static int is(int *flag, int value) { return shmem_int_test(flag, SHMEM_CMP_EQ, value); }

/* Hands the baton to reader r: every other PE learns first, r last.  r acts on the baton as
 * soon as its own copy names it and may hand it on at once; were any PE's copy still to be
 * written by this call then, the older write could land after r's newer one there. */
static void hand_baton(int r) {
  for (int pe = 0; pe < n; ++pe)
    if (pe != r) shmem_int_atomic_set(&st->baton, r, pe);
  shmem_quiet();
  shmem_int_atomic_set(&st->baton, r, r);
  shmem_quiet();
}

/* Whether a reader holding the shared lock may release it.  Only one holder at a time may
 * (it holds the baton), and only once another reader holds the lock too, to which it hands
 * the baton: the lock stays taken.  Otherwise: when no reader will take it again, or when the
 * writer waits and every other reader has been stuck in shmemx_win_lock for PATIENCE polls. */
static int may_let_go(long *polls) {
  if (is(&st->writer_in, 1)) return 1;
  if (!is(&st->baton, me) && !is(&st->state[st->baton], STOPPED)) return 0;
  int live = 0, trying = 0;
  for (int r = 0; r < readers; ++r) {
    if (r == me || is(&st->state[r], STOPPED)) continue;
    if (is(&st->state[r], HOLDING)) {
      tell(&st->state[me], IDLE); /* before the baton: its new holder must not count on this one */
      hand_baton(r);
      return 1;
    }
    ++live;
    trying += is(&st->state[r], TRYING);
  }
  if (live == 0) return 1;
  if (!is(&st->writer_waiting, 1) || trying < live) {
    *polls = 0;
    return 0;
  }
  return ++*polls >= PATIENCE;
}

static void reader(shmemx_win_t win) {
  int epochs = 0, while_waiting = 0; /* shared epochs, and those since the writer asked */
  while (!is(&st->writer_in, 1) && while_waiting < ROUNDS) {
    tell(&st->state[me], TRYING);
    shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, TARGET);
    tell(&st->state[me], HOLDING);
    ++epochs;
    if (me == 0) shmem_int_atomic_set(&st->rounds, epochs, n - 1);
    while_waiting += is(&st->writer_waiting, 1);
    long got;
    shmemx_win_long_get(win, &got, object, 1, TARGET);
    long polls = 0;
    while (!may_let_go(&polls)) {
    }
    tell(&st->state[me], IDLE);
    shmemx_win_unlock(win, TARGET);
  }
  CHECK(is(&st->writer_in, 1),
        "the exclusive lock of PE %d was not granted while the readers took its shared lock %d times each after "
        "it was asked for: the writer starves behind them",
        TARGET, ROUNDS);
  tell(&st->state[me], STOPPED);
}

static void writer(shmemx_win_t win) {
  shmem_int_wait_until(&st->rounds, SHMEM_CMP_GE, 10); /* the relay is under way */
  tell(&st->writer_waiting, 1);
  shmemx_win_lock(win, SHMEMX_WIN_LOCK_EXCLUSIVE, TARGET);
  for (int r = 0; r < readers; ++r)
    CHECK(!is(&st->state[r], HOLDING), "reader %d holds the shared lock of PE %d while PE %d holds the exclusive one",
          r, TARGET, me);
  const long mark = 42;
  shmemx_win_long_put(win, object, &mark, 1, TARGET);
  tell(&st->writer_in, 1);
  shmemx_win_unlock(win, TARGET);
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  n = shmem_n_pes();
  readers = n - 1;
  if (n < 3 || n > MOST) {
    if (me == 0) printf("epochs_lock_fair: needs 3 to %d PEs\n", MOST);
    return test_finish("epochs_lock_fair");
  }
  st = shmem_calloc(1, sizeof *st);
  object = shmem_calloc(1, sizeof *object);
  shmemx_win_t win;
  CHECK(shmemx_win_create(SHMEM_TEAM_WORLD, object, sizeof *object, &win) == 0, "a window on one long");
  shmem_barrier_all();
  if (me < readers) reader(win);
  else writer(win);
  shmem_barrier_all();
  if (me == TARGET) CHECK(*object == 42, "the writer's put under the exclusive lock: %ld", *object);
  shmemx_win_free(&win);
  shmem_free(object);
  shmem_free(st);
  return test_finish("epochs_lock_fair");
}
