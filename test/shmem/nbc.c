/* The nonblocking collectives (shmemx_*_nbi, man 7 tandem_nbc): every routine and type gives
 * what its blocking twin gives, bit for bit in the bytes that hold the values; several
 * requests in flight on one team and on two teams at once, waited in any order, tested to
 * completion, mixed with RMA and with blocking collectives on the same and on the other team;
 * a PE that waits for something else meanwhile (a flag its peer sets once its own request
 * completes) still does its part; sizes from one element to past the library's direct and
 * piecewise paths; a request left in flight at finalize. */
#include <float.h>
#include <shmemx.h>

#include "common.h"

enum { SMALL = 37, MEDIUM = 3000, LARGE = 150000 /* longs: 1.2 MB, past the direct paths */ };

static char *nb_dst, *bl_dst, *src_buf; /* symmetric, MAX_BYTES each */
#define MAX_BYTES ((size_t)LARGE * 8 * 4 * 2)

/* What rank r contributes at element i: small values, so that products and sums stay exact
 * enough to compare, and the blocking twin folds the same values in the same order. */
#define FILL(T, p, count, r)                                                                      \
  do {                                                                                            \
    for (size_t i_ = 0; i_ < (count); ++i_) ((T *)(p))[i_] = (T)(((r) * 7 + (int)(i_ % 13) + 1) % 3 + 1); \
  } while (0)

/* Compares the nonblocking result with the blocking one, elements of `size` bytes: the bytes
 * that hold each element's value.  x86's long double keeps its value in 10 of its 16 bytes; a
 * reduction stores those alone, and the rest keeps whatever the memory held before. */
static void same(const char *what, const char *type, size_t size, size_t count, size_t bytes) {
  size_t value = size;
#if LDBL_MANT_DIG == 64
  if (strcmp(type, "long double") == 0) value = 10;
#endif
  size_t at = 0;
  while (at < bytes && (at % size >= value || nb_dst[at] == bl_dst[at])) ++at;
  CHECK(at == bytes, "%s of %zu %s: the nonblocking result differs from the blocking one from byte %zu of %zu on",
        what, count, type, at, bytes);

}

/* Every typed collective routine on `team`, for `count` elements each. */
static void typed_collectives(shmem_team_t team, size_t count) {
  const int rank = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
  shmemx_req_h req;
#define COLL(T, N)                                                                                       \
  {                                                                                                      \
    const size_t whole = count * sizeof(T) * (size_t)n;                                                  \
    FILL(T, src_buf, count * (size_t)n, rank);                                                           \
    memset(nb_dst, 0x5a, whole);                                                                         \
    memset(bl_dst, 0x5a, whole);                                                                         \
    const int root = (int)(count % (size_t)n);                                                           \
    CHECK(shmemx_##N##_broadcast_nbi(team, (T *)nb_dst, (T *)src_buf, count, root, &req) == 0, "broadcast_nbi"); \
    shmemx_req_wait(&req);                                                                               \
    CHECK(req == SHMEMX_REQ_NULL, "wait left the request set");                                          \
    shmem_##N##_broadcast(team, (T *)bl_dst, (T *)src_buf, count, root);                                 \
    same(#N "_broadcast_nbi", #T, sizeof(T), count, count * sizeof(T));                                  \
    shmemx_##N##_fcollect_nbi(team, (T *)nb_dst, (T *)src_buf, count, &req);                             \
    while (!shmemx_req_test(&req)) {                                                                     \
    }                                                                                                    \
    CHECK(req == SHMEMX_REQ_NULL && shmemx_req_test(&req) == 1, "test left the request set");            \
    shmem_##N##_fcollect(team, (T *)bl_dst, (T *)src_buf, count);                                        \
    same(#N "_fcollect_nbi", #T, sizeof(T), count, whole);                                               \
    const size_t mine = count - (size_t)rank % 2; /* collect: counts differ between PEs */               \
    shmemx_##N##_collect_nbi(team, (T *)nb_dst, (T *)src_buf, mine, &req);                              \
    shmemx_req_wait(&req);                                                                               \
    shmem_##N##_collect(team, (T *)bl_dst, (T *)src_buf, mine);                                          \
    same(#N "_collect_nbi", #T, sizeof(T), count, whole);                                                \
    shmemx_##N##_alltoall_nbi(team, (T *)nb_dst, (T *)src_buf, count, &req);                             \
    shmemx_req_wait(&req);                                                                               \
    shmem_##N##_alltoall(team, (T *)bl_dst, (T *)src_buf, count);                                        \
    same(#N "_alltoall_nbi", #T, sizeof(T), count, whole);                                               \
    const size_t strided = count / 2 ? count / 2 : 1;                                                    \
    shmemx_##N##_alltoalls_nbi(team, (T *)nb_dst, (T *)src_buf, 2, 1, strided, &req);                    \
    shmemx_req_wait(&req);                                                                               \
    shmem_##N##_alltoalls(team, (T *)bl_dst, (T *)src_buf, 2, 1, strided);                               \
    same(#N "_alltoalls_nbi", #T, sizeof(T), strided, whole);                                            \
  }
  TANDEM_COLL_TYPES(COLL)
#undef COLL
}

/* Every reduction and scan of every type on `team`. */
static void typed_reductions(shmem_team_t team, size_t count) {
  const int rank = shmem_team_my_pe(team);
  shmemx_req_h req;
#define RED(T, N, OP)                                                                     \
  FILL(T, src_buf, count, rank);                                                          \
  memset(nb_dst, 0x5a, count * sizeof(T));                                                \
  memset(bl_dst, 0x5a, count * sizeof(T));                                                \
  CHECK(shmemx_##N##_##OP##_nbi(team, (T *)nb_dst, (T *)src_buf, count, &req) == 0, #OP "_nbi"); \
  shmemx_req_wait(&req);                                                                  \
  shmem_##N##_##OP(team, (T *)bl_dst, (T *)src_buf, count);                               \
  same(#N "_" #OP "_nbi", #T, sizeof(T), count, count * sizeof(T));
#define BITWISE(T, N) RED(T, N, and_reduce) RED(T, N, or_reduce) RED(T, N, xor_reduce)
#define MINMAX(T, N) RED(T, N, max_reduce) RED(T, N, min_reduce)
#define ARITH(T, N) RED(T, N, sum_reduce) RED(T, N, prod_reduce) RED(T, N, sum_inscan) RED(T, N, sum_exscan)
  TANDEM_REDUCE_BITWISE_TYPES(BITWISE)
  TANDEM_REDUCE_MINMAX_TYPES(MINMAX)
  TANDEM_REDUCE_ARITH_TYPES(ARITH)
#undef BITWISE
#undef MINMAX
#undef ARITH
#undef RED
}

/* Several requests in flight on each of two teams, posted interleaved, mixed with puts to
 * a neighbour, waited in reverse order; then checked against what each must hold. */
static void in_flight(shmem_team_t a, shmem_team_t b, size_t count) {
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  enum { K = 4 };
  long *d = (long *)nb_dst, *s = (long *)src_buf;
  const int ra = shmem_team_my_pe(a), na = shmem_team_n_pes(a);
  const int rb = shmem_team_my_pe(b), nb = shmem_team_n_pes(b);
  const size_t stride = count * (size_t)(na > nb ? na : nb); /* each request's own dest */
  shmem_barrier_all(); /* every PE done comparing what its bl_dst holds: the puts below land there */
  for (size_t i = 0; i < count; ++i) s[i] = (long)me * 100000 + (long)i;
  shmemx_req_h reqs[2 * K];
  for (int k = 0; k < K; ++k) {
    /* on a: fcollect into slot k; on b: a sum into slot K + k */
    shmemx_long_fcollect_nbi(a, d + (size_t)k * stride, s, count, &reqs[k]);
    if (b != SHMEM_TEAM_INVALID)
      shmemx_long_sum_reduce_nbi(b, d + (size_t)(K + k) * stride, s, count, &reqs[K + k]);
    else
      reqs[K + k] = SHMEMX_REQ_NULL;
    /* RMA in between: my rank into the neighbour's bl_dst */
    shmem_long_p((long *)bl_dst + me, (long)me + 1, (me + 1) % npes);
  }
  shmem_quiet();
  for (int k = 2 * K - 1; k >= 0; --k) shmemx_req_wait(&reqs[k]);
  shmem_barrier_all();
  const int left = (me + npes - 1) % npes;
  CHECK(((long *)bl_dst)[left] == (long)left + 1, "the put in between collectives did not land");
  for (int k = 0; k < K; ++k) {
    int bad = 0;
    for (int r = 0; r < na; ++r)
      for (size_t i = 0; i < count; ++i)
        bad += d[(size_t)k * stride + (size_t)r * count + i] != (long)shmem_team_translate_pe(a, r, SHMEM_TEAM_WORLD) * 100000 + (long)i;
    CHECK(bad == 0, "fcollect %d of %zu on team a in flight with others: %d wrong", k, count, bad);
    if (b == SHMEM_TEAM_INVALID) continue;
    bad = 0;
    for (size_t i = 0; i < count; ++i) {
      long e = 0;
      for (int r = 0; r < nb; ++r) e += (long)shmem_team_translate_pe(b, r, SHMEM_TEAM_WORLD) * 100000 + (long)i;
      bad += d[(size_t)(K + k) * stride + i] != e;
    }
    CHECK(bad == 0, "sum_reduce %d of %zu on team b in flight with others: %d wrong", k, count, bad);
  }
  (void)ra;
  (void)rb;
}

/* A blocking collective on a team with requests in flight completes them first; one on
 * another team goes on while they are in flight. */
static void blocking_meanwhile(shmem_team_t other) {
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  long *d = (long *)nb_dst, *s = (long *)src_buf, *b = (long *)bl_dst;
  s[0] = me + 1;
  shmemx_req_h r1, r2;
  shmemx_long_sum_reduce_nbi(SHMEM_TEAM_WORLD, d, s, 1, &r1);
  if (other != SHMEM_TEAM_INVALID) shmem_long_max_reduce(other, b, s, 1); /* the other team, meanwhile */
  shmemx_long_broadcast_nbi(SHMEM_TEAM_WORLD, d + 1, s, 1, npes - 1, &r2);
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d + 2, s, 1); /* completes r1 and r2 first */
  CHECK(d[0] == (long)npes * (npes + 1) / 2, "sum_reduce_nbi before a blocking one: %ld", d[0]);
  CHECK(d[1] == npes, "broadcast_nbi before a blocking sum: %ld", d[1]);
  CHECK(d[2] == d[0], "the blocking sum after two requests: %ld", d[2]);
  CHECK(shmemx_req_test(&r1) == 1 && shmemx_req_test(&r2) == 1, "requests not complete after a blocking collective");
  /* team_sync_nbi, and a barrier behind it */
  shmemx_req_h sync;
  shmemx_team_sync_nbi(SHMEM_TEAM_WORLD, &sync);
  shmemx_req_wait(&sync);
  shmemx_team_sync_nbi(SHMEM_TEAM_WORLD, &sync);
  shmem_barrier_all();
  CHECK(shmemx_req_test(&sync) == 1, "team_sync_nbi not complete after a barrier");
}

/* Whether world PE `pe` shares this PE's node. */
static int on_my_node(int pe) { return shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0; }

/* The fcollects of the progress tests below gather k * pe + i from each PE: the source, and
 * the count of elements of nb_dst that differ from it. */
static void fill_source(size_t count, long k) {
  long *s = (long *)src_buf;
  for (size_t i = 0; i < count; ++i) s[i] = k * shmem_my_pe() + (long)i;
}
static int gathered_wrong(size_t count, long k) {
  const long *d = (const long *)nb_dst;
  int bad = 0;
  for (int r = 0; r < shmem_n_pes(); ++r)
    for (size_t i = 0; i < count; ++i) bad += d[(size_t)r * count + i] != k * r + (long)i;
  return bad;
}

/* Rank 0 waits for its request; the others wait for a flag that rank 0 sets only once its
 * request has completed, and then wait for theirs: their waits on the flag must move their
 * own part of the collective.  With `testing`, they spin on shmem_long_test instead: a PE
 * that spins on a test routine does its part too (with no progress thread, or one that
 * rests while its PE is in the library, nothing else would). */
static void progress_while_waiting(size_t count, int testing) {
  static long flag = 0;
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const long k = testing ? 5 : 1;
  fill_source(count, k);
  shmemx_req_h req;
  shmemx_long_fcollect_nbi(SHMEM_TEAM_WORLD, (long *)nb_dst, (const long *)src_buf, count, &req);
  if (me == 0) {
    shmemx_req_wait(&req);
    for (int pe = 1; pe < npes; ++pe) shmem_long_atomic_set(&flag, 1, pe);
  } else {
    if (testing)
      while (!shmem_long_test(&flag, SHMEM_CMP_EQ, 1)) {
      }
    else
      shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    shmemx_req_wait(&req);
  }
  const int bad = gathered_wrong(count, k);
  CHECK(bad == 0, "fcollect_nbi of %zu completed through other %s: %d wrong", count, testing ? "tests" : "waits", bad);
  shmem_barrier_all();
  flag = 0;
  shmem_barrier_all();
}

/* The last PE posts a collective and then computes, reading only its own memory, until PE 0
 * says that its own request has completed; the last PE's part must be done meanwhile (by its
 * progress thread), or the two wait for each other forever.  On one node PE 0 posts only
 * once the last PE has (it says so before it computes), so that the last PE's post cannot
 * find PE 0's part there and finish its own: a medium fcollect then leaves it a part to do.
 * (Across nodes the word's quiet would wait for PE 0's answer, and resume the last PE's
 * request meanwhile.) */
static void progress_while_computing(size_t count) {
  static volatile long released = 0;
  static long posted = 0;
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int one_node = shmem_team_n_pes(SHMEM_TEAM_SHARED) == npes;
  fill_source(count, 3);
  shmemx_req_h req;
  if (me == 0 && one_node) shmem_long_wait_until(&posted, SHMEM_CMP_EQ, 1);
  shmemx_long_fcollect_nbi(SHMEM_TEAM_WORLD, (long *)nb_dst, (const long *)src_buf, count, &req);
  if (me == npes - 1) {
    if (one_node) shmem_long_atomic_set(&posted, 1, 0);
    while (released == 0) {
    }
  } else if (me == 0) {
    shmemx_req_wait(&req);
    shmem_long_p((long *)&released, 1, npes - 1);
    shmem_quiet();
  }
  shmemx_req_wait(&req);
  const int bad = gathered_wrong(count, 3);
  CHECK(bad == 0, "fcollect_nbi of %zu while a PE computed: %d wrong", count, bad);
  shmem_barrier_all();
  released = 0;
  posted = 0;
  shmem_barrier_all();
}

/* The last PE posts a collective and sleeps, leaving its core to the others, until its node
 * peers say (through memory) that their requests have completed: where their waits need its
 * part (a medium fcollect on 2 nodes of 2), they ring it, and its progress thread, which
 * rests meanwhile as it does beside a computing PE, does its part; unrung, it would after its
 * rest.  The PEs of other nodes sleep too once their requests have completed, until it says
 * that it is awake, and all sleep a millisecond at a time: the node peers' waits run
 * meanwhile without the gaps that would keep them from ringing. */
static void progress_while_sleeping(size_t count) {
  enum { kMostPes = 64 };
  static long awake = 0;
  static long released[kMostPes];  /* at the last PE: released[pe] once pe's request completed */
  const int me = shmem_my_pe(), npes = shmem_n_pes(), last = npes - 1;
  CHECK(npes <= kMostPes, "nbc late sleep: at most %d PEs", kMostPes);
  if (npes > kMostPes) return;
  const int peer_of_last = me != last && on_my_node(last);
  fill_source(count, 5);
  shmemx_req_h req;
  shmemx_long_fcollect_nbi(SHMEM_TEAM_WORLD, (long *)nb_dst, (const long *)src_buf, count, &req);
  if (me == last) {
    for (int pe = 0; pe < last; ++pe)
      if (on_my_node(pe))
        while (__atomic_load_n(&released[pe], __ATOMIC_ACQUIRE) == 0) usleep(1000);
    for (int pe = 0; pe < last; ++pe)
      if (!on_my_node(pe)) shmem_long_p(&awake, 1, pe);
    shmem_quiet();
  } else {
    shmemx_req_wait(&req);
    if (peer_of_last) {
      shmem_long_p(&released[me], 1, last);
      shmem_quiet();
    } else {
      while (__atomic_load_n(&awake, __ATOMIC_ACQUIRE) == 0) usleep(1000);
    }
  }
  shmemx_req_wait(&req);
  const int bad = gathered_wrong(count, 5);
  CHECK(bad == 0, "fcollect_nbi of %zu while a PE slept: %d wrong", count, bad);
  shmem_barrier_all();
  for (int pe = 0; pe < npes; ++pe) released[pe] = 0;
  awake = 0;
  shmem_barrier_all();
}

/* Whether the last PE has a progress thread that does its part while it computes: on another
 * node than PE 0 (PE 0's SHMEM_TEAM_SHARED leaves it out), or on a node that holds every PE
 * (PE 0's SHMEM_TEAM_SHARED is the world: PE 0's waits ring its bell), not PE 0 itself, and
 * the thread not turned off.  PE 0 tells everyone. */
static int last_pe_has_thread(void) {
  static long served[2];
  const int last = shmem_n_pes() - 1;
  served[0] = last > 0 && (!on_my_node(last) ||
                           shmem_team_n_pes(SHMEM_TEAM_SHARED) == shmem_n_pes());
  shmem_long_broadcast(SHMEM_TEAM_WORLD, &served[1], &served[0], 1, 0);
  const char *thread = getenv("TANDEM_PROGRESS_THREAD");
  return served[1] && !(thread && strcmp(thread, "off") == 0);
}

int main(int argc, char **argv) {
  test_init();
  nb_dst = shmem_malloc(MAX_BYTES);
  bl_dst = shmem_malloc(MAX_BYTES);
  src_buf = shmem_malloc(MAX_BYTES);
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  /* `nbc late`: only the collectives whose last PE computes meanwhile (the waits of the
   * others ring it; across nodes its thread, on a core it shares, rests until they do, and on
   * one node it sleeps until they do: TANDEM_STATS counts both).  `nbc late sleep`: the last
   * PE sleeps instead, until its node peers' requests have completed. */
  if (argc > 1 && strcmp(argv[1], "late") == 0) {
    const int sleeping = argc > 2 && strcmp(argv[2], "sleep") == 0;
    CHECK(last_pe_has_thread(), "nbc late: the last PE must be on another node than PE 0, or every PE on one node, "
          "with a progress thread");
    for (int i = 0; test_failures == 0 && i < 8; ++i)
      if (sleeping) progress_while_sleeping(i % 2 ? MEDIUM : SMALL);
      else progress_while_computing(i % 2 ? MEDIUM : SMALL);
    shmem_barrier_all();
    if (test_failures == 0 && me == 0) printf("nbc late: passed on %d PE(s)\n", npes);
    shmem_finalize();
    return test_failures ? 1 : 0;
  }
  /* A second team: the even PEs (all PEs' world ranks differ from its ranks beyond PE 1). */
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);

  typed_collectives(SHMEM_TEAM_WORLD, 1);
  typed_collectives(SHMEM_TEAM_WORLD, SMALL);
  typed_collectives(SHMEM_TEAM_WORLD, MEDIUM);
  typed_reductions(SHMEM_TEAM_WORLD, SMALL);
  typed_reductions(SHMEM_TEAM_WORLD, MEDIUM);
  if (evens != SHMEM_TEAM_INVALID) typed_reductions(evens, SMALL);

  /* The large paths of the commonest routines. */
  {
    long *s = (long *)src_buf;
    FILL(long, s, (size_t)LARGE * (size_t)npes, me);
    const size_t sizes[] = {LARGE / 8, LARGE};
    for (int k = 0; k < 2; ++k) {
      const size_t count = sizes[k];
      shmemx_req_h req[3];
      shmemx_long_broadcast_nbi(SHMEM_TEAM_WORLD, (long *)nb_dst, s, count, 0, &req[0]);
      shmemx_req_wait(&req[0]);
      shmem_long_broadcast(SHMEM_TEAM_WORLD, (long *)bl_dst, s, count, 0);
      same("long_broadcast_nbi", "long", sizeof(long), count, count * sizeof(long));
      shmemx_long_sum_reduce_nbi(SHMEM_TEAM_WORLD, (long *)nb_dst, s, count, &req[1]);
      shmemx_req_wait(&req[1]);
      shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)bl_dst, s, count);
      same("long_sum_reduce_nbi", "long", sizeof(long), count, count * sizeof(long));
      double *ds = (double *)s;
      FILL(double, ds, count, me);
      shmemx_double_sum_reduce_nbi(SHMEM_TEAM_WORLD, (double *)nb_dst, ds, count, &req[2]);
      shmemx_req_wait(&req[2]);
      shmem_double_sum_reduce(SHMEM_TEAM_WORLD, (double *)bl_dst, ds, count);
      same("double_sum_reduce_nbi", "double", sizeof(double), count, count * sizeof(double));
      FILL(long, s, count * (size_t)npes, me);
      shmemx_long_fcollect_nbi(SHMEM_TEAM_WORLD, (long *)nb_dst, s, count, &req[0]);
      shmemx_long_alltoall_nbi(SHMEM_TEAM_WORLD, (long *)nb_dst + count * (size_t)npes, s, count / 2, &req[1]);
      shmemx_req_waitall(2, req);
      CHECK(req[0] == SHMEMX_REQ_NULL && req[1] == SHMEMX_REQ_NULL, "waitall left a request set");
      shmem_long_fcollect(SHMEM_TEAM_WORLD, (long *)bl_dst, s, count);
      shmem_long_alltoall(SHMEM_TEAM_WORLD, (long *)bl_dst + count * (size_t)npes, s, count / 2);
      same("long_fcollect_nbi and alltoall_nbi in flight together", "long", sizeof(long), count,
           (count + count / 2) * sizeof(long) * (size_t)npes);
    }
  }

  in_flight(SHMEM_TEAM_WORLD, evens, SMALL);
  in_flight(SHMEM_TEAM_WORLD, evens, MEDIUM);
  blocking_meanwhile(evens);
  for (int testing = 0; testing < 2; ++testing) {
    progress_while_waiting(SMALL, testing);
    progress_while_waiting(MEDIUM, testing);
    progress_while_waiting(LARGE / 4, testing);
  }
  if (last_pe_has_thread()) {
    progress_while_computing(SMALL);
    progress_while_computing(LARGE / 4);
  }

  /* The generic forms pick the typed routine by dest. */
  {
    long *d = (long *)nb_dst, *s = (long *)src_buf;
    s[0] = me;
    shmemx_req_h req;
    shmemx_sum_reduce_nbi(SHMEM_TEAM_WORLD, d, s, 1, &req);
    shmemx_req_wait(&req);
    CHECK(d[0] == (long)npes * (npes - 1) / 2, "generic sum_reduce_nbi: %ld", d[0]);
  }

  if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
  shmem_barrier_all();
  if (test_failures)
    fprintf(stderr, "nbc: PE %d: %d check(s) failed\n", me, test_failures);
  else if (me == 0)
    printf("nbc: passed on %d PE(s)\n", npes);
  fflush(stdout);
  fflush(stderr);
  /* One request left in flight: finalize completes it (a PE that left it behind would hang
   * its peers' finalize, which waits for every PE). */
  shmemx_req_h left_behind;
  shmemx_fcollectmem_nbi(SHMEM_TEAM_WORLD, nb_dst, src_buf, 64, &left_behind);
  shmem_finalize();
  return test_failures ? 1 : 0;
}
