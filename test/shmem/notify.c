/* Notified access (shmemx_*_notify, shmemx_notify_*).  Each phase ends with a barrier:
 *   exact       1 MiB put_notify to the right neighbour, matched by (left, tag); the data is
 *               checked as soon as the request completes, so a notification that overtakes
 *               its data is caught (blocking, nbi, and nbi held by the scheduler)
 *   many        every PE sends 3 nbi puts into its own slots on PE 0; one request with
 *               SHMEMX_ANY_PE counts all 3 x npes
 *   any_tag     5 tags from the left neighbour into one SHMEMX_ANY_TAG request
 *   unexpected  notifications sent before the request exists are counted once: a request
 *               for 2 completes, the next one for 1 does not until one more comes
 *   pairs       PAIRS requests for (left, tag) with PAIRS tags and a second request for each
 *               pair, started in a scattered order, then notified in another: each request
 *               completes by its own pair, the pair's first-started one first
 *   overlap     requests started in order A (ANY_PE, t, 2), B (left, t, 1): 3 arrivals fill
 *               A first, then B; waitany returns both, then SHMEMX_NOTIFY_UNDEFINED
 *   get         get_notify and get_notify_nbi: the owner of the data is notified once it was
 *               read, overwrites it, and the reader saw the old contents
 *   forms       typed, sized, mem, ctx and type-generic forms, one request counting them
 *   flood       10,000 notifications per PE to PE 0 while PE 0 sits in a barrier: the ring
 *               fills, the senders wait, PE 0's barrier drains it; none lost, none doubled
 *   errors      every documented return code */
#include "common.h"

#include <shmemx.h>

#define BIG (1024 * 1024)
#define WORDS (BIG / 8)
#define FLOOD 10000
#define PAIRS 300

static int me, npes, right, left;
static uint64_t big[WORDS];
static uint64_t slots[64 * 3];
static long words[16];
static long forms[8];

static uint64_t pattern(int pe, int round, size_t i) {
  return ((uint64_t)(pe + 1) << 56) ^ ((uint64_t)round << 40) ^ (i * 0x9e3779b97f4a7c15ULL >> 20);
}

static void wait_one(int source, int tag, int count, const char *what) {
  shmemx_notify_t req;
  CHECK(shmemx_notify_init(source, tag, count, &req) == SHMEMX_NOTIFY_SUCCESS, "%s: init", what);
  CHECK(shmemx_notify_start(req) == SHMEMX_NOTIFY_SUCCESS, "%s: start", what);
  shmemx_notify_status_t st = {-2, -2, -2};
  CHECK(shmemx_notify_wait(req, &st) == SHMEMX_NOTIFY_SUCCESS, "%s: wait", what);
  CHECK(st.count == count, "%s: count %d, expected %d", what, st.count, count);
  if (source != SHMEMX_ANY_PE) CHECK(st.source == source, "%s: source %d, expected %d", what, st.source, source);
  if (tag != SHMEMX_ANY_TAG) CHECK(st.tag == tag, "%s: tag %d, expected %d", what, st.tag, tag);
  CHECK(shmemx_notify_free(&req) == SHMEMX_NOTIFY_SUCCESS && req == NULL, "%s: free", what);
}

static void exact(void) {
  uint64_t *source = malloc(BIG);
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < WORDS; ++i) source[i] = pattern(me, round, i);
    if (round == 0) shmemx_putmem_notify(big, source, BIG, right, 7);
    else shmemx_putmem_notify_nbi(big, source, BIG, right, 7);
    /* nbi: the notification goes when the data has landed, which needs this PE's quiet at
     * the latest when the scheduler holds the copy. */
    if (round > 0) shmem_quiet();
    wait_one(left, 7, 1, "exact");
    size_t bad = 0;
    for (size_t i = 0; i < WORDS; ++i) bad += big[i] != pattern(left, round, i);
    CHECK(bad == 0, "exact round %d: %zu words not there when the notification matched", round, bad);
    shmem_barrier_all();  /* big is overwritten next round */
  }
  free(source);
}

static void many(void) {
  uint64_t mine[3];
  for (int k = 0; k < 3; ++k) {
    mine[k] = pattern(me, k, 1);
    shmemx_uint64_put_notify_nbi(&slots[me * 3 + k], &mine[k], 1, 0, 11);
  }
  if (me == 0) {
    wait_one(SHMEMX_ANY_PE, 11, 3 * npes, "many");
    for (int pe = 0; pe < npes; ++pe)
      for (int k = 0; k < 3; ++k)
        CHECK(slots[pe * 3 + k] == pattern(pe, k, 1), "many: slot of PE %d, put %d", pe, k);
  }
  shmem_quiet();
  shmem_barrier_all();
}

static void any_tag(void) {
  for (int t = 0; t < 5; ++t) shmemx_long_put_notify(&words[t], &(long){me * 100 + t}, 1, right, 100 + t);
  wait_one(left, SHMEMX_ANY_TAG, 5, "any_tag");
  for (int t = 0; t < 5; ++t) CHECK(words[t] == left * 100 + t, "any_tag: word %d", t);
  shmem_barrier_all();
}

static void unexpected(void) {
  shmemx_putmem_notify(&words[8], &(long){me}, sizeof(long), right, 40);
  shmemx_putmem_notify(&words[9], &(long){me}, sizeof(long), right, 40);
  shmem_barrier_all();
  wait_one(left, 40, 2, "unexpected");
  shmemx_notify_t req;
  shmemx_notify_init(left, 40, 1, &req);
  shmemx_notify_start(req);
  shmem_barrier_all();
  int flag = -1;
  CHECK(shmemx_notify_test(req, &flag, NULL) == SHMEMX_NOTIFY_SUCCESS && flag == 0,
        "unexpected: a notification was counted twice (flag %d)", flag);
  shmem_barrier_all();
  shmemx_putmem_notify(&words[10], &(long){me}, sizeof(long), right, 40);
  shmemx_notify_status_t st;
  CHECK(shmemx_notify_wait(req, &st) == SHMEMX_NOTIFY_SUCCESS && st.count == 1 && st.source == left,
        "unexpected: the third notification");
  shmemx_notify_free(&req);
  /* Once more for the same pair, with no request started: it waits for the next one. */
  shmemx_putmem_notify(&words[10], &(long){me}, sizeof(long), right, 40);
  shmem_barrier_all();
  wait_one(left, 40, 1, "unexpected, after a completed request for the pair");
  shmem_barrier_all();
}

static void pairs(void) {
  static shmemx_notify_t first[PAIRS], second[PAIRS];
  /* Tags 1000 + 7k mod PAIRS, started in that order; each pair's second request after every
   * first one. */
  for (int k = 0; k < PAIRS; ++k) shmemx_notify_init(left, 1000 + (7 * k) % PAIRS, 1, &first[k]);
  for (int k = 0; k < PAIRS; ++k) shmemx_notify_init(left, 1000 + (7 * k) % PAIRS, 1, &second[k]);
  for (int k = 0; k < PAIRS; ++k) shmemx_notify_start(first[k]);
  for (int k = 0; k < PAIRS; ++k) shmemx_notify_start(second[k]);
  shmem_barrier_all();  /* all started before anything is sent */
  /* Tags in descending order, each once; the first request of each pair completes. */
  for (int t = PAIRS - 1; t >= 0; --t) shmemx_putmem_notify(&words[12], &(long){t}, sizeof(long), right, 1000 + t);
  for (int k = 0; k < PAIRS; ++k) {
    shmemx_notify_status_t st = {-2, -2, -2};
    CHECK(shmemx_notify_wait(first[k], &st) == SHMEMX_NOTIFY_SUCCESS && st.count == 1 && st.source == left &&
              st.tag == 1000 + (7 * k) % PAIRS,
          "pairs: first request %d: count %d, source %d, tag %d", k, st.count, st.source, st.tag);
    int flag = -1;
    CHECK(shmemx_notify_test(second[k], &flag, NULL) == SHMEMX_NOTIFY_SUCCESS && flag == 0,
          "pairs: second request %d completed by its pair's first notification", k);
  }
  shmem_barrier_all();
  for (int t = 0; t < PAIRS; ++t) shmemx_putmem_notify(&words[12], &(long){t}, sizeof(long), right, 1000 + t);
  for (int k = 0; k < PAIRS; ++k) {
    shmemx_notify_status_t st = {-2, -2, -2};
    CHECK(shmemx_notify_wait(second[k], &st) == SHMEMX_NOTIFY_SUCCESS && st.tag == 1000 + (7 * k) % PAIRS,
          "pairs: second request %d: tag %d", k, st.tag);
    shmemx_notify_free(&first[k]);
    shmemx_notify_free(&second[k]);
  }
  shmem_barrier_all();
}

static void overlap(void) {
  shmemx_notify_t reqs[2];
  shmemx_notify_init(SHMEMX_ANY_PE, 50, 2, &reqs[0]);
  shmemx_notify_init(left, 50, 1, &reqs[1]);
  shmemx_notify_start(reqs[0]);
  shmemx_notify_start(reqs[1]);
  shmem_barrier_all();  /* both started before anything is sent */
  for (int k = 0; k < 3; ++k) shmemx_putmem_notify(&words[11], &(long){k}, sizeof(long), right, 50);
  int got[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    int index = -5;
    shmemx_notify_status_t st;
    CHECK(shmemx_notify_waitany(2, reqs, &index, &st) == SHMEMX_NOTIFY_SUCCESS && (index == 0 || index == 1),
          "overlap: waitany index %d", index);
    if (index != 0 && index != 1) break;
    ++got[index];
    CHECK(st.count == (index == 0 ? 2 : 1), "overlap: request %d counted %d", index, st.count);
    CHECK(st.source == left && st.tag == 50, "overlap: status (%d, %d)", st.source, st.tag);
  }
  CHECK(got[0] == 1 && got[1] == 1, "overlap: completions %d and %d", got[0], got[1]);
  int index = -5;
  CHECK(shmemx_notify_waitany(2, reqs, &index, NULL) == SHMEMX_NOTIFY_SUCCESS && index == SHMEMX_NOTIFY_UNDEFINED,
        "overlap: waitany with nothing active gave %d", index);
  shmemx_notify_free(&reqs[0]);
  shmemx_notify_free(&reqs[1]);
  shmem_barrier_all();
}

static void get(void) {
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < WORDS; ++i) big[i] = pattern(me, round, i);
    shmem_barrier_all();
    uint64_t *copy = malloc(BIG);
    if (round == 0) shmemx_uint64_get_notify(copy, big, WORDS, right, 60);
    else {
      shmemx_getmem_notify_nbi(copy, big, BIG, right, 60);
      shmem_quiet();
    }
    /* The left neighbour read our big: we may overwrite it at once. */
    wait_one(left, 60, 1, "get");
    for (size_t i = 0; i < WORDS; ++i) big[i] = 0;
    size_t bad = 0;
    for (size_t i = 0; i < WORDS; ++i) bad += copy[i] != pattern(right, round, i);
    CHECK(bad == 0, "get round %d: %zu words wrong", round, bad);
    free(copy);
    shmem_barrier_all();
  }
}

static void all_forms(void) {
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0) ctx = SHMEM_CTX_DEFAULT;
  long v[8];
  for (int i = 0; i < 8; ++i) v[i] = me * 10 + i;
  shmemx_long_put_notify(&forms[0], &v[0], 1, right, 70);
  shmemx_put64_notify_nbi(&forms[1], &v[1], 1, right, 70);
  shmemx_ctx_long_put_notify(ctx, &forms[2], &v[2], 1, right, 70);
  shmemx_ctx_putmem_notify_nbi(ctx, &forms[3], &v[3], sizeof(long), right, 70);
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
  shmemx_put_notify(&forms[4], &v[4], 1, right, 70);
  shmemx_put_notify_nbi(ctx, &forms[5], &v[5], 1, right, 70);
#else
  shmemx_long_put_notify(&forms[4], &v[4], 1, right, 70);
  shmemx_ctx_long_put_notify_nbi(ctx, &forms[5], &v[5], 1, right, 70);
#endif
  shmemx_put32_notify(&forms[6], &v[6], 2, right, 70);
  shmemx_ctx_put8_notify_nbi(ctx, &forms[7], &v[7], 8, right, 70);
  shmem_ctx_quiet(ctx);
  shmem_quiet();
  wait_one(left, 70, 8, "forms");
  for (int i = 0; i < 8; ++i) CHECK(forms[i] == left * 10 + i, "forms: word %d is %ld", i, forms[i]);
  shmem_barrier_all();
  /* Gets: typed, sized and ctx, read from the right neighbour, which counts them. */
  long back[4];
  shmemx_long_get_notify(&back[0], &forms[0], 1, right, 71);
  shmemx_get64_notify_nbi(&back[1], &forms[1], 1, right, 71);
  shmemx_ctx_long_get_notify_nbi(ctx, &back[2], &forms[2], 1, right, 71);
  shmemx_ctx_getmem_notify(ctx, &back[3], &forms[3], sizeof(long), right, 71);
  shmem_ctx_quiet(ctx);
  shmem_quiet();
  for (int i = 0; i < 4; ++i) CHECK(back[i] == me * 10 + i, "forms: get %d read %ld", i, back[i]);
  wait_one(left, 71, 4, "forms (gets)");
  if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(ctx);
  shmem_barrier_all();
}

static void flood(void) {
  if (me != 0) {
    for (int k = 0; k < FLOOD; ++k) shmemx_putmem_notify(&words[12], &(long){k}, sizeof(long), 0, 80 + k % 2);
  }
  shmem_barrier_all();
  if (me == 0 && npes > 1) {
    shmemx_notify_t odd, even;
    shmemx_notify_init(SHMEMX_ANY_PE, 80, FLOOD / 2 * (npes - 1), &even);
    shmemx_notify_init(SHMEMX_ANY_PE, 81, FLOOD / 2 * (npes - 1), &odd);
    shmemx_notify_start(even);
    shmemx_notify_start(odd);
    shmemx_notify_status_t st;
    CHECK(shmemx_notify_wait(even, &st) == 0 && st.count == FLOOD / 2 * (npes - 1), "flood: even tags");
    CHECK(shmemx_notify_wait(odd, &st) == 0 && st.count == FLOOD / 2 * (npes - 1), "flood: odd tags");
    /* Nothing more: a fresh request for one more stays incomplete. */
    shmemx_notify_init(SHMEMX_ANY_PE, SHMEMX_ANY_TAG, 1, &odd);
    shmemx_notify_start(odd);
    int flag = -1;
    shmemx_notify_test(odd, &flag, NULL);
    CHECK(flag == 0, "flood: a notification was counted twice");
    shmem_putmem(&words[13], &(long){1}, sizeof(long), 0);  /* one more, to this PE itself */
    shmemx_putmem_notify(&words[13], &(long){2}, sizeof(long), 0, 3);
    CHECK(shmemx_notify_wait(odd, &st) == 0 && st.source == 0 && st.tag == 3, "flood: the last one");
    shmemx_notify_free(&odd);
    shmemx_notify_free(&even);
  }
  shmem_barrier_all();
}

static void errors(void) {
  shmemx_notify_t req = NULL;
  CHECK(shmemx_notify_init(npes, 1, 1, &req) == SHMEMX_NOTIFY_ERR_PE, "init: PE npes");
  CHECK(shmemx_notify_init(-2, 1, 1, &req) == SHMEMX_NOTIFY_ERR_PE, "init: PE -2");
  CHECK(shmemx_notify_init(0, -2, 1, &req) == SHMEMX_NOTIFY_ERR_TAG, "init: tag -2");
  CHECK(shmemx_notify_init(0, 1, 0, &req) == SHMEMX_NOTIFY_ERR_COUNT, "init: count 0");
  CHECK(shmemx_notify_init(0, 1, 1, NULL) == SHMEMX_NOTIFY_ERR_REQUEST, "init: NULL request");
  CHECK(req == NULL, "a failed init wrote the request");
  CHECK(shmemx_notify_start(NULL) == SHMEMX_NOTIFY_ERR_REQUEST, "start: NULL");
  CHECK(shmemx_notify_init(me, 90, 1, &req) == 0, "init");
  CHECK(shmemx_notify_wait(req, NULL) == SHMEMX_NOTIFY_ERR_INACTIVE, "wait before start");
  int flag;
  CHECK(shmemx_notify_test(req, &flag, NULL) == SHMEMX_NOTIFY_ERR_INACTIVE, "test before start");
  CHECK(shmemx_notify_start(req) == 0, "start");
  CHECK(shmemx_notify_start(req) == SHMEMX_NOTIFY_ERR_ACTIVE, "start twice");
  CHECK(shmemx_notify_free(&req) == SHMEMX_NOTIFY_ERR_ACTIVE && req != NULL, "free while active");
  CHECK(shmemx_notify_test(req, NULL, NULL) == SHMEMX_NOTIFY_ERR_REQUEST, "test: NULL flag");
  CHECK(shmemx_notify_waitany(-1, &req, &flag, NULL) == SHMEMX_NOTIFY_ERR_COUNT, "waitany: n = -1");
  shmemx_putmem_notify(&words[14], &(long){1}, sizeof(long), me, 90);
  CHECK(shmemx_notify_wait(req, NULL) == 0, "wait with a NULL status");
  /* Persistent: start again, and it completes again. */
  CHECK(shmemx_notify_start(req) == 0, "restart");
  shmemx_putmem_notify(&words[14], &(long){2}, sizeof(long), me, 90);
  CHECK(shmemx_notify_wait(req, NULL) == 0, "wait after restart");
  CHECK(shmemx_notify_free(&req) == 0 && req == NULL, "free");
  CHECK(shmemx_notify_free(&req) == SHMEMX_NOTIFY_ERR_REQUEST, "free of NULL");
  CHECK(shmemx_notify_free(NULL) == SHMEMX_NOTIFY_ERR_REQUEST, "free(NULL)");
  int index = 0;
  CHECK(shmemx_notify_waitany(0, NULL, &index, NULL) == 0 && index == SHMEMX_NOTIFY_UNDEFINED, "waitany of none");
  shmemx_notify_init(me, 91, 1, &req);
  shmemx_notify_start(req);
  CHECK(shmemx_notify_waitany(1, &req, NULL, NULL) == SHMEMX_NOTIFY_ERR_REQUEST, "waitany: NULL index");
  CHECK(shmemx_notify_waitany(1, NULL, &index, NULL) == SHMEMX_NOTIFY_ERR_REQUEST, "waitany: NULL array");
  shmemx_putmem_notify(&words[14], &(long){3}, sizeof(long), me, 91);
  CHECK(shmemx_notify_waitany(1, &req, &index, NULL) == 0 && index == 0, "waitany after the errors");
  shmemx_notify_free(&req);
  shmem_barrier_all();
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right = (me + 1) % npes;
  left = (me + npes - 1) % npes;
  const char *trace = getenv("NOTIFY_TRACE");
#define PHASE(f) do { if (trace) fprintf(stderr, "PE %d: %s\n", me, #f); f(); } while (0)
  PHASE(exact);
  PHASE(many);
  PHASE(any_tag);
  PHASE(unexpected);
  PHASE(pairs);
  PHASE(overlap);
  PHASE(get);
  PHASE(all_forms);
  PHASE(flood);
  PHASE(errors);
  return test_finish("notify");
}
