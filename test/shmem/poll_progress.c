/* Spinning on calls that look once must let other PEs' operations on this PE complete.
 * Every PE writes to every PE (itself included) with a blocking call, then spins until all
 * writes to its own memory have arrived, with nothing but one kind of "look once" call in
 * the loop.  A blocking put-with-signal to a PE on another node waits until its data has
 * landed; with a manual-progress network that needs the target to call into the network,
 * so a target that spins on calls that do not drive progress starves its writers, which in
 * turn never reach their own loops: the job hangs (and hits the test timeout).
 *
 * The loops, each a phase with its own symmetric objects and a size small and large:
 *   1. shmem_signal_fetch + shmem_wait_until(NE 0), which returns at once once the signal is
 *      not 0 (the loop then spins on the two calls);
 *   2. the same with shmem_signal_wait_until;
 *   3. shmem_test (put_signal's signal, compared EQ npes);
 *   4. shmem_test_any over the one signal;
 *   5. shmem_atomic_fetch on this PE's own counter, after blocking puts and atomic adds;
 *   6. shmem_g on this PE's own counter, after the same;
 *   7. shmem_quiet around a plain load of the signal; PE 0 writes nothing in this phase,
 *      so its quiets have nothing of its own to complete, and the others write only once
 *      it has been spinning for 20 ms.
 * The data of every write is checked.  Also run with TANDEM_PROGRESS_THREAD=off, where
 * nothing but these calls moves the network. */
#include "common.h"

enum { PHASES = 7 };
static const size_t sizes[] = {1, 16384}; /* longs: one, and 128 KiB (past any inject size) */
#define SIZES (sizeof sizes / sizeof sizes[0])

static uint64_t signals[PHASES][SIZES];
static long counters[2][SIZES];

static long pattern(int from, size_t i, size_t s) { return (long)(from * 1000003 + (long)i * 7 + (long)s); }

static void spin(int phase, uint64_t *sig, uint64_t expected) {
  switch (phase) {
    case 0: {
      uint64_t v = shmem_signal_fetch(sig);
      while (v != expected) {
        shmem_uint64_wait_until(sig, SHMEM_CMP_NE, 0);
        v = shmem_signal_fetch(sig);
      }
      break;
    }
    case 1: {
      uint64_t v = shmem_signal_fetch(sig);
      while (v != expected) {
        shmem_signal_wait_until(sig, SHMEM_CMP_NE, 0);
        v = shmem_signal_fetch(sig);
      }
      break;
    }
    case 2:
      while (!shmem_uint64_test(sig, SHMEM_CMP_EQ, expected)) {
      }
      break;
    case 3:
      while (shmem_uint64_test_any(sig, 1, NULL, SHMEM_CMP_EQ, expected) == SIZE_MAX) {
      }
      break;
    case 6:
      while (__atomic_load_n(sig, __ATOMIC_ACQUIRE) != expected) shmem_quiet();
      break;
  }
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  size_t most = 0;
  for (size_t s = 0; s < SIZES; ++s) most = sizes[s] > most ? sizes[s] : most;
  long *dest = shmem_malloc(most * (size_t)npes * sizeof(long));
  long *source = malloc(most * sizeof(long));
  CHECK(dest != NULL && source != NULL, "allocation failed");

  for (int phase = 0; phase < PHASES; ++phase) {
    const int signalled = phase < 4 || phase == 6; /* else counters[phase - 4] */
    const int silent = phase == 6 ? 0 : -1;          /* a PE that writes nothing */
    const int writers = npes - (silent >= 0);
    for (size_t s = 0; s < SIZES; ++s) {
      const size_t n = sizes[s];
      for (size_t i = 0; i < n; ++i) source[i] = pattern(me, i, s + (size_t)phase * SIZES);
      shmem_barrier_all(); /* dest is free again: every PE checked the last round */
      long *slot = dest + (size_t)me * n;
      if (silent >= 0 && me != silent) usleep(20000);
      for (int k = 0; k < npes && me != silent; ++k) {
        const int pe = (me + k) % npes;
        if (signalled) {
          shmem_long_put_signal(slot, source, n, &signals[phase][s], 1, SHMEM_SIGNAL_ADD, pe);
        } else {
          shmem_long_put(slot, source, n, pe);
          shmem_fence();
          shmem_long_atomic_add(&counters[phase - 4][s], 1, pe);
        }
      }
      if (signalled) {
        spin(phase, &signals[phase][s], (uint64_t)writers);
      } else if (phase == 4) {
        while (shmem_long_atomic_fetch(&counters[0][s], me) != npes) {
        }
      } else {
        while (shmem_long_g(&counters[1][s], me) != npes) {
        }
      }
      for (int from = 0; from < npes; ++from) {
        if (from == silent) continue;
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i) bad += dest[(size_t)from * n + i] != pattern(from, i, s + (size_t)phase * SIZES);
        CHECK(bad == 0, "phase %d, %zu longs: %zu wrong from PE %d", phase + 1, n, bad, from);
      }
    }
  }

  shmem_barrier_all();
  shmem_free(dest);
  free(source);
  return test_finish("poll_progress");
}
