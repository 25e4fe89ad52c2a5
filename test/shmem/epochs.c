/* Window epochs (shmemx_win_*): fence, post-start-complete-wait and lock-unlock, under every
 * issue strategy (the test is run with TANDEM_EPOCH_STRATEGY=lazy, eager and hybrid),
 * accumulates from every PE at once, and the C11 type-generic shmemx_win_put, shmemx_win_get
 * and shmemx_win_accumulate.
 *
 * Each PE's window object holds one area per origin rank: SMALL longs written one by one
 * (more puts than a hybrid queue holds), BIG longs written by one put (larger than the copy
 * deferral threshold), and a published area that origins read with gets. */
#include <shmemx.h>

#include <limits.h>

#include "common.h"

enum { SMALL = 100, BIG = 16384, PUB = 256, LOCKED = 4096, ROUNDS = 6, LOCK_ROUNDS = 12 };

struct area {
  long small[SMALL];
  long big[BIG];
};

static long stamp(int round, int origin, int i) { return ((long)round << 40) | ((long)origin << 24) | i; }

static int me, n;
/* Sources stay untouched until the epoch closes, as with MPI. */
static long *big_source, small_source[SMALL];

/* A window over `areas` (one per rank of SHMEM_TEAM_WORLD) and `pub`. */
struct object {
  long pub[PUB];
  long locked[LOCKED];
  struct area areas[];
};

static void put_area(shmemx_win_t win, struct object *obj, int round, int target) {
  for (int i = 0; i < SMALL; ++i) {
    small_source[i] = stamp(round, me, i);
    shmemx_win_long_put(win, &obj->areas[me].small[i], &small_source[i], 1, target);
  }
  for (int i = 0; i < BIG; ++i) big_source[i] = stamp(round, me, i);
  shmemx_win_putmem(win, obj->areas[me].big, big_source, sizeof(long) * BIG, target);
}

static void check_area(struct object *obj, int round, int origin, const char *what) {
  int bad = 0;
  for (int i = 0; i < SMALL && !bad; ++i)
    if (obj->areas[origin].small[i] != stamp(round, origin, i)) {
      CHECK(0, "%s round %d: small[%d] from PE %d = %#lx, expected %#lx", what, round, i, origin,
            obj->areas[origin].small[i], stamp(round, origin, i));
      bad = 1;
    }
  for (int i = 0; i < BIG && !bad; ++i)
    if (obj->areas[origin].big[i] != stamp(round, origin, i)) {
      CHECK(0, "%s round %d: big[%d] from PE %d = %#lx, expected %#lx", what, round, i, origin,
            obj->areas[origin].big[i], stamp(round, origin, i));
      bad = 1;
    }
}

static void publish(struct object *obj, int round) {
  for (int i = 0; i < PUB; ++i) obj->pub[i] = stamp(round, me, i) ^ 0x55;
}

static void check_published(const long *got, int round, int owner, const char *what) {
  for (int i = 0; i < PUB; ++i)
    if (got[i] != (stamp(round, owner, i) ^ 0x55)) {
      CHECK(0, "%s round %d: pub[%d] read from PE %d = %#lx", what, round, i, owner, got[i]);
      return;
    }
}

/* Fence epochs: in round r each PE writes to PE me + 1 + r (itself once in n rounds) and
 * reads PE me - 1 - r; every third round is empty. */
static void test_fence(shmemx_win_t win, struct object *obj) {
  long got[PUB];
  publish(obj, 0);
  shmemx_win_fence(win);
  for (int round = 0; round < ROUNDS; ++round) {
    const int target = (me + 1 + round) % n, source = ((me - 1 - round) % n + n) % n;
    const int empty = round % 3 == 2;
    if (!empty) {
      put_area(win, obj, round, target);
      shmemx_win_long_get(win, got, obj->pub, PUB, source);
    }
    shmemx_win_fence(win);
    if (!empty) {
      const int origin = ((me - 1 - round) % n + n) % n; /* the PE whose target I was */
      check_area(obj, round, origin, "fence");
      check_published(got, round, source, "fence get");
    }
    /* The next round's published values: stored between fences, read after the next. */
    publish(obj, round + 1);
    shmemx_win_fence(win);
  }
}

/* Post-start-complete-wait: PE me accesses PE me + 1 (a ring), then every PE accesses PE 0
 * (PE 0 exposes to all), and PEs with nothing to do open empty epochs. */
static void test_pscw(shmemx_win_t win, struct object *obj) {
  long got[PUB];
  for (int round = 0; round < ROUNDS; ++round) {
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    publish(obj, 100 + round);
    shmemx_win_post(win, &left, 1);
    shmemx_win_start(win, &right, 1);
    put_area(win, obj, 100 + round, right);
    shmemx_win_long_get(win, got, obj->pub, PUB, right);
    shmemx_win_complete(win);
    if (round % 2) {
      while (!shmemx_win_test(win)) {
      }
    } else {
      shmemx_win_wait(win);
    }
    check_area(obj, 100 + round, left, "pscw ring");
    check_published(got, 100 + round, right, "pscw get");
  }
  /* Every PE writes to PE 0. */
  int all[64];
  for (int i = 0; i < n; ++i) all[i] = i;
  const int zero = 0;
  for (int round = 0; round < 2; ++round) {
    if (me == 0) shmemx_win_post(win, all, n);
    shmemx_win_start(win, &zero, 1);
    put_area(win, obj, 200 + round, 0);
    shmemx_win_complete(win);
    if (me == 0) {
      shmemx_win_wait(win);
      for (int o = 0; o < n; ++o) check_area(obj, 200 + round, o, "pscw gather");
    }
    shmem_barrier_all(); /* PE 0 has checked before the next round writes */
  }
  /* Empty groups. */
  shmemx_win_post(win, NULL, 0);
  shmemx_win_start(win, NULL, 0);
  shmemx_win_complete(win);
  shmemx_win_wait(win);
  /* An access epoch with no operation still completes the target's exposure. */
  shmemx_win_post(win, &(int){(me + n - 1) % n}, 1);
  shmemx_win_start(win, &(int){(me + 1) % n}, 1);
  shmemx_win_complete(win);
  shmemx_win_wait(win);
}

/* Lock-unlock: writers take the exclusive lock of a PE and fill its `locked` area with
 * their stamp in 64 puts; readers take the shared lock and read the whole area.  A reader
 * that sees two stamps saw an epoch that was not exclusive. */
static void test_lock(shmemx_win_t win, struct object *obj) {
  static long fill[LOCKED], seen[LOCKED];
  for (int round = 0; round < LOCK_ROUNDS; ++round) {
    const int target = round % n;
    if ((me + round) % 2 == 0) {
      for (int i = 0; i < LOCKED; ++i) fill[i] = stamp(round, me, 0);
      shmemx_win_lock(win, SHMEMX_WIN_LOCK_EXCLUSIVE, target);
      for (int piece = 0; piece < 64; ++piece)
        shmemx_win_long_put(win, obj->locked + piece * (LOCKED / 64), fill + piece * (LOCKED / 64), LOCKED / 64,
                            target);
      shmemx_win_unlock(win, target);
    } else {
      shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, target);
      shmemx_win_long_get(win, seen, obj->locked, LOCKED, target);
      shmemx_win_unlock(win, target);
      for (int i = 1; i < LOCKED; ++i)
        if (seen[i] != seen[0]) {
          CHECK(0, "lock round %d: PE %d's area mixes %#lx and %#lx (at %d): a writer was not exclusive", round,
                target, seen[0], seen[i], i);
          break;
        }
    }
  }
  shmem_barrier_all();
  /* Shared locks of every PE at once, on every PE, and a lock of the PE itself. */
  for (int t = 0; t < n; ++t) shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, t);
  for (int t = 0; t < n; ++t) shmemx_win_unlock(win, t);
  shmemx_win_lock(win, SHMEMX_WIN_LOCK_EXCLUSIVE, me);
  long v = 42 + me;
  shmemx_win_long_put(win, &obj->locked[0], &v, 1, me);
  shmemx_win_unlock(win, me);
  CHECK(obj->locked[0] == 42 + me, "a put to this PE under its own lock: %ld", obj->locked[0]);
  shmem_barrier_all();
}

/* A window on a team: the even PEs, in fence epochs, naming each other by team rank. */
static void test_team(struct object *obj) {
  shmem_team_t even;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even);
  if (even != SHMEM_TEAM_INVALID) {
    const int rank = shmem_team_my_pe(even), size = shmem_team_n_pes(even);
    shmemx_win_t win;
    CHECK(shmemx_win_create(even, obj, sizeof(struct object) + (size_t)n * sizeof(struct area), &win) == 0,
          "a window on the even PEs");
    shmemx_win_fence(win);
    put_area(win, obj, 300, (rank + 1) % size);
    shmemx_win_fence(win);
    check_area(obj, 300, 2 * ((rank + size - 1) % size), "team fence");
    shmemx_win_free(&win);
    CHECK(win == SHMEMX_WIN_INVALID, "shmemx_win_free sets the handle to SHMEMX_WIN_INVALID");
    shmem_team_destroy(even);
  }
  shmem_barrier_all();
}

/* The type-generic put and get (_Generic on dest) over doubles and ints. */
static void test_generic(struct object *obj) {
  static double ds[4], dg[4];
  static int is[4], ig[4];
  double *dd = (double *)obj->pub;
  int *di = (int *)(obj->pub + PUB / 2);
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  for (int i = 0; i < 4; ++i) {
    ds[i] = me + i + 0.25;
    is[i] = 10 * me + i;
  }
  shmemx_win_t win;
  CHECK(shmemx_win_create(SHMEM_TEAM_WORLD, obj->pub, sizeof obj->pub, &win) == 0, "a window on pub");
  shmemx_win_fence(win);
  shmemx_win_put(win, dd, ds, 4, right);
  shmemx_win_put(win, di, is, 4, right);
  shmemx_win_fence(win);
  for (int i = 0; i < 4; ++i) {
    CHECK(dd[i] == left + i + 0.25, "generic put of doubles: %g", dd[i]);
    CHECK(di[i] == 10 * left + i, "generic put of ints: %d", di[i]);
  }
  shmemx_win_get(win, dg, dd, 4, right);
  shmemx_win_get(win, ig, di, 4, right);
  shmemx_win_fence(win);
  for (int i = 0; i < 4; ++i) {
    CHECK(dg[i] == me + i + 0.25, "generic get of doubles: %g", dg[i]);
    CHECK(ig[i] == 10 * me + i, "generic get of ints: %d", ig[i]);
  }
  shmemx_win_free(&win);
}

/* Accumulates: every PE updates the same elements of every PE at once, so an update that
 * is not atomic loses another's.  ACC elements per array, the first ONE_BY_ONE of them in
 * calls of one element (more than a hybrid queue holds), the rest in one call (more 8-byte
 * elements than one network atomic of tcp carries: 2036). */
enum { ACC = 2500, ONE_BY_ONE = 40, ACC_ROUNDS = 3, HAMMER = 20000, DPAIRS = 256 };
struct accumulated {
  unsigned long hammer[8]; /* SUM from every PE at once, on PE 0 */
  double dhammer[8];
  unsigned long sum[ACC]; /* SUM in fence epochs */
  int isum[ACC];          /* SUM of a 4-byte type, under shared locks */
  uint64_t bits[ACC];     /* BOR then BAND then BXOR, under shared locks */
  double real[ACC];       /* REPLACE in access epochs */
  double dsum[ACC];       /* SUM of a floating type, in fence epochs */
  long lmin[ACC], lmax[ACC]; /* MIN and MAX under shared locks */
  float fmax[ACC];
  double dmin[ACC];
  long order[64]; /* one origin's updates of different operations, in order */
  double dorder[1 + DPAIRS];
};

static void accumulate_ulong(shmemx_win_t win, unsigned long *dest, const unsigned long *source, int op, int pe) {
  for (int i = 0; i < ONE_BY_ONE; ++i) shmemx_win_ulong_accumulate(win, dest + i, source + i, 1, op, pe);
  shmemx_win_ulong_accumulate(win, dest + ONE_BY_ONE, source + ONE_BY_ONE, ACC - ONE_BY_ONE, op, pe);
}

static void test_accumulate(void) {
  struct accumulated *acc = shmem_calloc(1, sizeof *acc);
  static unsigned long add[ACC];
  static int iadd[ACC];
  static uint64_t mask[ACC];
  static double real[ACC], dadd[ACC], dmin[ACC];
  static long value[ACC];
  static float fvalue[ACC];
  shmemx_win_t win;
  CHECK(shmemx_win_create(SHMEM_TEAM_WORLD, acc, sizeof *acc, &win) == 0, "a window for accumulates");
  const unsigned long everyone = (unsigned long)n * (n + 1) / 2; /* the sum of me + 1 */
  /* Each PE's own starting values for MIN and MAX, before the first fence. */
  for (int i = 0; i < ACC; ++i) {
    acc->lmin[i] = LONG_MAX;
    acc->lmax[i] = LONG_MIN;
    acc->fmax[i] = -1e30f;
    acc->dmin[i] = 1e300;
  }

  /* One fence epoch of many one-element SUMs from every PE to the same 8 words of PE 0. */
  const unsigned long one = 1;
  shmemx_win_fence(win);
  const double done = 1;
  for (int i = 0; i < HAMMER; ++i) {
    shmemx_win_ulong_accumulate(win, &acc->hammer[i % 8], &one, 1, SHMEMX_WIN_SUM, 0);
    shmemx_win_double_accumulate(win, &acc->dhammer[i % 8], &done, 1, SHMEMX_WIN_SUM, 0);
  }
  shmemx_win_fence(win);
  for (int i = 0; me == 0 && i < 8; ++i)
    CHECK(acc->hammer[i] == (unsigned long)n * HAMMER / 8 && acc->dhammer[i] == (double)n * HAMMER / 8,
          "fence SUM from every PE: hammer[%d] = %lu, dhammer[%d] = %g, expected %lu", i, acc->hammer[i], i,
          acc->dhammer[i], (unsigned long)n * HAMMER / 8);

  /* Fence epochs: every PE adds (me + 1) * (i + 1) to element i of every PE, itself too. */
  for (int i = 0; i < ACC; ++i) {
    add[i] = (unsigned long)(me + 1) * (i + 1);
    dadd[i] = (me + 1) * 0.5 * (i % 5 + 1); /* sums of halves are exact */
  }
  shmemx_win_fence(win);
  for (int round = 0; round < ACC_ROUNDS; ++round) {
    for (int t = 0; t < n; ++t) {
      accumulate_ulong(win, acc->sum, add, SHMEMX_WIN_SUM, (me + t) % n);
      shmemx_win_double_accumulate(win, acc->dsum, dadd, ACC, SHMEMX_WIN_SUM, (me + t) % n);
    }
    shmemx_win_fence(win);
  }
  for (int i = 0; i < ACC; ++i)
    if (acc->sum[i] != ACC_ROUNDS * everyone * (i + 1) || acc->dsum[i] != ACC_ROUNDS * everyone * 0.5 * (i % 5 + 1)) {
      CHECK(0, "fence SUM: sum[%d] = %lu (expected %lu), dsum[%d] = %g (expected %g)", i, acc->sum[i],
            ACC_ROUNDS * everyone * (i + 1), i, acc->dsum[i], ACC_ROUNDS * everyone * 0.5 * (i % 5 + 1));
      break;
    }

  /* Shared locks held by every PE at once: 4-byte SUM, then BOR, BAND and BXOR of one bit
   * per PE, each in an epoch of its own. */
  for (int i = 0; i < ACC; ++i) {
    iadd[i] = -(me + 1) * (i % 7 + 1);
    mask[i] = (uint64_t)1 << (me + i) % 64;
    value[i] = ((me * 7 + i * 3) % 11 - 5) * 1000L + me;
    fvalue[i] = (float)value[i] / 4;
    dmin[i] = (double)value[i] / 8;
  }
  for (int t = 0; t < n; ++t) {
    const int target = (me + t) % n;
    shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, target);
    shmemx_win_int_accumulate(win, acc->isum, iadd, ACC, SHMEMX_WIN_SUM, target);
    shmemx_win_uint64_accumulate(win, acc->bits, mask, ACC, SHMEMX_WIN_BOR, target);
    shmemx_win_long_accumulate(win, acc->lmin, value, ACC, SHMEMX_WIN_MIN, target);
    shmemx_win_long_accumulate(win, acc->lmax, value, ACC, SHMEMX_WIN_MAX, target);
    shmemx_win_float_accumulate(win, acc->fmax, fvalue, ACC, SHMEMX_WIN_MAX, target);
    shmemx_win_double_accumulate(win, acc->dmin, dmin, ACC, SHMEMX_WIN_MIN, target);
    shmemx_win_unlock(win, target);
  }
  shmem_barrier_all();
  for (int i = 0; i < ACC; ++i) {
    long lo = LONG_MAX, hi = LONG_MIN;
    for (int p = 0; p < n; ++p) {
      const long v = ((p * 7 + i * 3) % 11 - 5) * 1000L + p;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    if (acc->lmin[i] != lo || acc->lmax[i] != hi || acc->fmax[i] != (float)hi / 4 || acc->dmin[i] != (double)lo / 8) {
      CHECK(0, "shared-lock MIN/MAX [%d]: long min %ld max %ld, float max %g, double min %g; expected %ld %ld", i,
            acc->lmin[i], acc->lmax[i], acc->fmax[i], acc->dmin[i], lo, hi);
      break;
    }
  }
  uint64_t all[ACC];
  for (int i = 0; i < ACC; ++i) {
    all[i] = 0;
    for (int p = 0; p < n; ++p) all[i] |= (uint64_t)1 << (p + i) % 64;
  }
  for (int i = 0; i < ACC; ++i)
    if (acc->isum[i] != -(int)everyone * (i % 7 + 1) || acc->bits[i] != all[i]) {
      CHECK(0, "shared-lock SUM/BOR: isum[%d] = %d, bits[%d] = %#llx", i, acc->isum[i], i,
            (unsigned long long)acc->bits[i]);
      break;
    }
  shmem_barrier_all(); /* every PE has checked before the next epochs change bits */
  /* BAND with everything but this PE's bit clears all bits; BXOR sets them again. */
  for (int i = 0; i < ACC; ++i) mask[i] = ~((uint64_t)1 << (me + i) % 64);
  for (int t = 0; t < n; ++t) {
    shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, (me + t) % n);
    shmemx_win_uint64_accumulate(win, acc->bits, mask, ACC, SHMEMX_WIN_BAND, (me + t) % n);
    shmemx_win_unlock(win, (me + t) % n);
  }
  shmem_barrier_all();
  for (int i = 0; i < ACC; ++i) mask[i] = ~mask[i];
  for (int t = 0; t < n; ++t) {
    shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, (me + t) % n);
    shmemx_win_uint64_accumulate(win, acc->bits, mask, ACC, SHMEMX_WIN_BXOR, (me + t) % n);
    shmemx_win_unlock(win, (me + t) % n);
  }
  shmem_barrier_all();
  for (int i = 0; i < ACC; ++i)
    if (acc->bits[i] != all[i]) {
      CHECK(0, "shared-lock BAND/BXOR: bits[%d] = %#llx, expected %#llx", i, (unsigned long long)acc->bits[i],
            (unsigned long long)all[i]);
      break;
    }

  /* Access epochs: REPLACE on doubles around the ring, and the generic form. */
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  for (int round = 0; round < ACC_ROUNDS; ++round) {
    for (int i = 0; i < ACC; ++i) real[i] = me + round + i * 0.5;
    shmemx_win_post(win, &left, 1);
    shmemx_win_start(win, &right, 1);
    if (round % 2) shmemx_win_accumulate(win, acc->real, real, ACC, SHMEMX_WIN_REPLACE, right);
    else shmemx_win_double_accumulate(win, acc->real, real, ACC, SHMEMX_WIN_REPLACE, right);
    shmemx_win_complete(win);
    shmemx_win_wait(win);
    for (int i = 0; i < ACC; ++i)
      if (acc->real[i] != left + round + i * 0.5) {
        CHECK(0, "pscw REPLACE round %d: real[%d] = %g, expected %g", round, i, acc->real[i], left + round + i * 0.5);
        break;
      }
  }
  /* One origin, one exclusive lock epoch: updates of one element by different operations
   * land in program order, however the strategy queues (and folds) them.  order[0..3]: SUM,
   * SUM, REPLACE, SUM, BXOR; order[4..35]: single SUMs, then a REPLACE of 32 elements at once,
   * then a SUM; dorder[0]: REPLACE then a floating-point SUM; dorder[1..DPAIRS]: the same,
   * element by element (two messages each across nodes, many chances for the target to
   * apply them out of order). */
  static long lone[40], lbig[32];
  for (int i = 0; i < 32; ++i) lbig[i] = 1000 + i;
  lone[0] = 5, lone[1] = 7, lone[2] = 100, lone[3] = 3, lone[4] = 1;
  const double dset = 2.0, dadd1 = 0.5;
  shmemx_win_lock(win, SHMEMX_WIN_LOCK_EXCLUSIVE, right);
  shmemx_win_long_accumulate(win, &acc->order[0], &lone[0], 1, SHMEMX_WIN_SUM, right);
  shmemx_win_long_accumulate(win, &acc->order[0], &lone[1], 1, SHMEMX_WIN_SUM, right);
  shmemx_win_long_accumulate(win, &acc->order[0], &lone[2], 1, SHMEMX_WIN_REPLACE, right);
  shmemx_win_long_accumulate(win, &acc->order[0], &lone[3], 1, SHMEMX_WIN_SUM, right);
  shmemx_win_long_accumulate(win, &acc->order[0], &lone[4], 1, SHMEMX_WIN_BXOR, right);
  for (int i = 4; i < 8; ++i) shmemx_win_long_accumulate(win, &acc->order[i], &lone[4], 1, SHMEMX_WIN_SUM, right);
  shmemx_win_long_accumulate(win, &acc->order[4], lbig, 32, SHMEMX_WIN_REPLACE, right);
  shmemx_win_long_accumulate(win, &acc->order[4], &lone[4], 1, SHMEMX_WIN_SUM, right);
  shmemx_win_double_accumulate(win, &acc->dorder[0], &dset, 1, SHMEMX_WIN_REPLACE, right);
  shmemx_win_double_accumulate(win, &acc->dorder[0], &dadd1, 1, SHMEMX_WIN_SUM, right);
  static double dsets[1 + DPAIRS]; /* a source must not change until its epoch ends */
  for (int i = 1; i <= DPAIRS; ++i) {
    dsets[i] = i;
    shmemx_win_double_accumulate(win, &acc->dorder[i], &dsets[i], 1, SHMEMX_WIN_REPLACE, right);
    shmemx_win_double_accumulate(win, &acc->dorder[i], &dadd1, 1, SHMEMX_WIN_SUM, right);
  }
  shmemx_win_unlock(win, right);
  shmem_barrier_all();
  CHECK(acc->order[0] == (103 ^ 1), "ordered updates: order[0] = %ld, expected %d", acc->order[0], 103 ^ 1);
  for (int i = 4; i < 36; ++i)
    if (acc->order[i] != 1000 + (i - 4) + (i == 4)) {
      CHECK(0, "ordered updates: order[%d] = %ld, expected %d", i, acc->order[i], 1000 + (i - 4) + (i == 4));
      break;
    }
  CHECK(acc->dorder[0] == 2.5, "ordered updates: dorder[0] = %g, expected 2.5", acc->dorder[0]);
  for (int i = 1; i <= DPAIRS; ++i)
    if (acc->dorder[i] != i + 0.5) {
      CHECK(0, "ordered updates: dorder[%d] = %g, expected %g", i, acc->dorder[i], i + 0.5);
      break;
    }

  /* The generic form on unsigned long: one more SUM from every PE. */
  shmemx_win_fence(win);
  shmemx_win_accumulate(win, acc->sum, add, ACC, SHMEMX_WIN_SUM, right);
  shmemx_win_fence(win);
  CHECK(acc->sum[ACC - 1] == ACC_ROUNDS * everyone * ACC + (unsigned long)(left + 1) * ACC,
        "generic SUM: sum[%d] = %lu", ACC - 1, acc->sum[ACC - 1]);
  shmemx_win_free(&win);
  shmem_free(acc);
}

/* Freed windows' slots are reused (running out of them: limits.c). */
static void test_slots(struct object *obj) {
  for (int round = 0; round < 50; ++round) {
    shmemx_win_t win;
    CHECK(shmemx_win_create(SHMEM_TEAM_WORLD, obj, sizeof(struct object), &win) == 0, "create after frees");
    shmemx_win_fence(win);
    long v = round;
    shmemx_win_long_put(win, &obj->pub[me], &v, 1, (me + 1) % n);
    shmemx_win_fence(win);
    CHECK(obj->pub[(me + n - 1) % n] == round, "reused window, round %d: %ld", round, obj->pub[(me + n - 1) % n]);
    shmemx_win_free(&win);
  }
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  n = shmem_n_pes();
  if (n > 64) {
    if (me == 0) printf("epochs: at most 64 PEs\n");
    return test_finish("epochs");
  }
  const size_t bytes = sizeof(struct object) + (size_t)n * sizeof(struct area);
  struct object *obj = shmem_calloc(1, bytes);
  big_source = malloc(sizeof(long) * BIG);
  shmemx_win_t win;
  CHECK(shmemx_win_create(SHMEM_TEAM_WORLD, obj, bytes, &win) == 0, "a window on SHMEM_TEAM_WORLD");
  test_fence(win, obj);
  test_pscw(win, obj);
  test_lock(win, obj);
  shmemx_win_free(&win);
  test_team(obj);
  test_generic(obj);
  test_accumulate();
  test_slots(obj);
  free(big_source);
  shmem_free(obj);
  return test_finish("epochs");
}
