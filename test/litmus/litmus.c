/* Litmus tests of OpenSHMEM 1.6's ordering rules, as Tandem keeps them (man 7 tandem, MEMORY
 * MODEL).  Every test is a writer and a reader: PE p < n/2 writes to PE p + n/2 (across the
 * nodes where the PEs are 2 nodes of n/2), which reads.  In round i = 1..ROUNDS the writer
 * stores i into DATA, then i into FLAG, with the ordering call the test names between them;
 * it never waits for the reader, so the reader, which waits until FLAG >= i and then reads
 * FLAG (f) and DATA (d), lands at any point of the writer's stream (the reader tells the
 * writer which round it has read, and the writer keeps at most WINDOW rounds ahead of it, so
 * that the reads fall among the writes rather than after them).  Outcomes:
 *   d >= f  in order (d > f: the writer ran ahead between the two reads);
 *   d <  f  DATA older than a FLAG written after it: forbidden where the test orders them,
 *           allowed (and counted) where it does not.
 * A test prints one line per reader: the rounds, the outcomes in each class, and for the
 * unordered tests whether a reordering was ever seen (a placement where it never is cannot
 * show that an ordering call matters).  Exit status 1 if any forbidden outcome was seen.
 *   litmus TEST [ROUNDS]        TEST: one of the names below, or "all"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

#define BLOCK 8192 /* longs: 64 KiB, past the scheduler's deferral and the proxy's threshold */

#define WINDOW 4

static long data[BLOCK];
static long flag;
static long ack; /* on the writer: the last round its reader has read */
static uint64_t sig;

enum order { ORDERED, UNORDERED };

struct test {
  const char *name;
  enum order order;
  const char *what;
};

static const struct test tests[] = {
    {"mp_fence", ORDERED, "put DATA; fence; put FLAG"},
    {"mp_quiet", ORDERED, "put DATA; quiet; put FLAG"},
    {"mp_nbi_fence", ORDERED, "put_nbi of 64 KiB DATA; fence; p FLAG"},
    {"mp_nbi_quiet", ORDERED, "put_nbi of 64 KiB DATA; quiet; p FLAG"},
    {"mp_signal", ORDERED, "put_signal of 64 KiB DATA with FLAG as its signal"},
    {"mp_signal_nbi", ORDERED, "put_signal_nbi of 64 KiB DATA with FLAG as its signal; quiet"},
    {"mp_amo_fence", ORDERED, "atomic_set DATA; fence; atomic_set FLAG"},
    {"mp_put_amo", ORDERED, "put DATA; fence; atomic_set FLAG"},
    {"mp_amo_put", ORDERED, "atomic_set DATA; fence; p FLAG"},
    {"mp_ctx_fence", ORDERED, "put DATA on a private context; ctx_fence; put FLAG on it"},
    {"mp_ctx_quiet", ORDERED, "put DATA on a private context; ctx_quiet; put FLAG on the default context"},
    {"mp_ptr_fence", ORDERED, "store DATA through shmem_ptr; fence; store FLAG through shmem_ptr (one node)"},
    {"fetch_after_put", ORDERED, "put DATA; fence; atomic_fetch DATA (the writer reads; d: what it read, f: i)"},
    {"mp_none", UNORDERED, "put DATA; put FLAG (nothing between)"},
    {"mp_nbi_none", UNORDERED, "put_nbi of 64 KiB DATA; p FLAG (nothing between)"},
    {"mp_ctx_other", UNORDERED, "put DATA on a private context; fence of the default context; put FLAG on the default"},
};
enum { NTESTS = sizeof tests / sizeof tests[0] };

static const struct test *find(const char *name) {
  for (int t = 0; t < NTESTS; ++t)
    if (!strcmp(tests[t].name, name)) return &tests[t];
  return NULL;
}

/* The writer's round i of test t to PE `to`. */
static void write_round(const struct test *t, long i, int to, shmem_ctx_t ctx, long *source) {
  const char *n = t->name;
  if (!strcmp(n, "mp_fence") || !strcmp(n, "mp_quiet") || !strcmp(n, "mp_none")) {
    shmem_long_p(&data[0], i, to);
    if (!strcmp(n, "mp_fence")) shmem_fence();
    if (!strcmp(n, "mp_quiet")) shmem_quiet();
    shmem_long_p(&flag, i, to);
  } else if (!strcmp(n, "mp_nbi_fence") || !strcmp(n, "mp_nbi_quiet") || !strcmp(n, "mp_nbi_none")) {
    for (int k = 0; k < BLOCK; k += 512) source[k] = i;
    source[BLOCK - 1] = i;
    shmem_long_put_nbi(data, source, BLOCK, to);
    if (!strcmp(n, "mp_nbi_fence")) shmem_fence();
    if (!strcmp(n, "mp_nbi_quiet")) shmem_quiet();
    shmem_long_p(&flag, i, to);
    shmem_quiet(); /* the source is written again next round */
  } else if (!strcmp(n, "mp_signal") || !strcmp(n, "mp_signal_nbi")) {
    for (int k = 0; k < BLOCK; k += 512) source[k] = i;
    source[BLOCK - 1] = i;
    if (!strcmp(n, "mp_signal")) {
      shmem_long_put_signal(data, source, BLOCK, &sig, (uint64_t)i, SHMEM_SIGNAL_SET, to);
    } else {
      shmem_long_put_signal_nbi(data, source, BLOCK, &sig, (uint64_t)i, SHMEM_SIGNAL_SET, to);
      shmem_quiet();
    }
  } else if (!strcmp(n, "mp_amo_fence")) {
    shmem_long_atomic_set(&data[0], i, to);
    shmem_fence();
    shmem_long_atomic_set(&flag, i, to);
  } else if (!strcmp(n, "mp_put_amo")) {
    shmem_long_p(&data[0], i, to);
    shmem_fence();
    shmem_long_atomic_set(&flag, i, to);
  } else if (!strcmp(n, "mp_amo_put")) {
    shmem_long_atomic_set(&data[0], i, to);
    shmem_fence();
    shmem_long_p(&flag, i, to);
  } else if (!strcmp(n, "mp_ctx_fence")) {
    shmem_ctx_long_p(ctx, &data[0], i, to);
    shmem_ctx_fence(ctx);
    shmem_ctx_long_p(ctx, &flag, i, to);
  } else if (!strcmp(n, "mp_ctx_quiet")) {
    shmem_ctx_long_p(ctx, &data[0], i, to);
    shmem_ctx_quiet(ctx);
    shmem_long_p(&flag, i, to);
  } else if (!strcmp(n, "mp_ctx_other")) {
    shmem_ctx_long_p(ctx, &data[0], i, to);
    shmem_fence();
    shmem_long_p(&flag, i, to);
  } else if (!strcmp(n, "mp_ptr_fence")) {
    volatile long *d = shmem_ptr(&data[0], to), *f = shmem_ptr(&flag, to);
    *d = i;
    shmem_fence();
    *f = i;
  }
}

/* One test on this PE: the counts of its outcomes, on a reader; 1 when one was forbidden. */
static int run(const struct test *t, long rounds) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int half = n / 2, writer = me < half, partner = writer ? me + half : me - half;
  static long *source;
  if (!source) source = shmem_malloc(BLOCK * sizeof(long));
  memset(data, 0, sizeof data);
  flag = 0;
  sig = 0;
  ack = 0;
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) ctx = SHMEM_CTX_DEFAULT;
  const int ptr_test = !strcmp(t->name, "mp_ptr_fence");
  int local = shmem_ptr(&flag, partner) != NULL;
  int all_local = 0;
  shmem_int_min_reduce(SHMEM_TEAM_WORLD, &all_local, &local, 1);
  shmem_barrier_all();
  long in_order = 0, ahead = 0, reordered = 0;
  int skipped = ptr_test && !all_local;
  if (!skipped && !strcmp(t->name, "fetch_after_put")) {
    if (writer)
      for (long i = 1; i <= rounds; ++i) {
        shmem_long_p(&data[0], i, partner);
        shmem_fence();
        const long d = shmem_long_atomic_fetch(&data[0], partner);
        in_order += d == i;
        ahead += d > i;
        reordered += d < i;
      }
  } else if (!skipped) {
    const int signal = !strncmp(t->name, "mp_signal", 9);
    const int block = strstr(t->name, "nbi") != NULL || signal;
    if (writer) {
      for (long i = 1; i <= rounds; ++i) {
        if (i > WINDOW) shmem_long_wait_until(&ack, SHMEM_CMP_GE, i - WINDOW);
        write_round(t, i, partner, ctx, source);
      }
      shmem_quiet();
      if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_quiet(ctx);
    } else {
      for (long i = 1; i <= rounds; ++i) {
        long f;
        if (signal) {
          shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)i);
          f = (long)shmem_signal_fetch(&sig);
        } else {
          shmem_long_wait_until(&flag, SHMEM_CMP_GE, i);
          f = __atomic_load_n(&flag, __ATOMIC_ACQUIRE);
        }
        long d = __atomic_load_n(&data[0], __ATOMIC_ACQUIRE);
        if (block) {
          const long last = __atomic_load_n(&data[BLOCK - 1], __ATOMIC_ACQUIRE);
          if (last < d) d = last;
        }
        in_order += d == f;
        ahead += d > f;
        reordered += d < f;
        if (f > i) i = f; /* rounds the writer has already finished */
        shmem_long_atomic_set(&ack, i, partner);
      }
    }
  }
  shmem_barrier_all();
  if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(ctx);
  const int reads = !strcmp(t->name, "fetch_after_put") ? writer : !writer;
  if (!reads) return 0;
  if (skipped) {
    printf("litmus %s: PE %d: skipped (a peer's memory is not load-store accessible here)\n", t->name, me);
    return 0;
  }
  const int forbidden = t->order == ORDERED && reordered > 0;
  printf("litmus %s: PE %d from PE %d: %ld rounds read: %ld in order, %ld ahead, %ld reordered (%s)%s\n", t->name,
         me, partner, in_order + ahead + reordered, in_order, ahead, reordered,
         t->order == ORDERED ? "forbidden" : "allowed",
         t->order == UNORDERED && reordered == 0 ? "; never seen here" : "");
  fflush(stdout);
  return forbidden;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: litmus TEST|all [ROUNDS]\n  tests:");
    for (int t = 0; t < NTESTS; ++t) fprintf(stderr, " %s", tests[t].name);
    fprintf(stderr, "\n");
    return 2;
  }
  const long rounds = argc > 2 ? atol(argv[2]) : 20000;
  const struct test *only = strcmp(argv[1], "all") ? find(argv[1]) : NULL;
  if (strcmp(argv[1], "all") && !only) {
    fprintf(stderr, "litmus: no test %s\n", argv[1]);
    return 2;
  }
  shmem_init();
  if (shmem_n_pes() % 2) {
    if (shmem_my_pe() == 0) fprintf(stderr, "litmus: needs an even number of PEs\n");
    shmem_global_exit(2);
  }
  int failed = 0;
  for (int t = 0; t < NTESTS; ++t)
    if (!only || only == &tests[t]) failed |= run(&tests[t], rounds);
  int any = 0;
  shmem_int_max_reduce(SHMEM_TEAM_WORLD, &any, &failed, 1);
  if (shmem_my_pe() == 0) printf("litmus: %s\n", any ? "FORBIDDEN OUTCOMES SEEN" : "no forbidden outcome");
  shmem_finalize();
  return any;
}
