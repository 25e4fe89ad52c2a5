/* Ordering and completion: shmem_fence, shmem_quiet, shmem_pe_quiet and their ctx forms.
 * Each PE sends to its right neighbour in rounds: a large nbi put of a fresh pattern, then
 * the ordering call, then a flag; the neighbour waits for the flag alone (no barrier) and
 * checks the data, then acknowledges so that the next round may overwrite it.  Run with
 * TANDEM_DEFER_THRESHOLD set too, so that the nbi puts are held back until the ordering
 * call: a flag that overtakes its data is then caught at once. */
#include "common.h"

#define ROUNDS 30
#define WORDS (64 * 1024 / 8) /* 64 KiB of data per round */

static long flag;       /* set by the left neighbour: round number + 1 */
static long ack;        /* bumped by the right neighbour when it checked a round */
static long rounds_done; /* rounds completed in total, across phases */
static int me, right, left;

enum order_kind { BY_FENCE, BY_QUIET, BY_PE_QUIET, BY_CTX_FENCE, BY_CTX_QUIET, BY_CTX_PE_QUIET,
                  BY_BLOCKING_PUT };
static const char *const kind_names[] = {"fence", "quiet", "pe_quiet", "ctx_fence", "ctx_quiet",
                                         "ctx_pe_quiet", "blocking put + fence"};

static uint64_t pattern(int pe, long round, size_t i) {
  return ((uint64_t)pe << 48) ^ ((uint64_t)round << 32) ^ (i * 0x9e3779b97f4a7c15ULL >> 20);
}

static void rounds(enum order_kind kind, shmem_ctx_t ctx, uint64_t *data) {
  uint64_t *source = malloc(WORDS * sizeof(uint64_t));
  for (long r = 0; r < ROUNDS; ++r) {
    const long round = rounds_done + r;
    /* The right neighbour has checked the previous round. */
    shmem_long_wait_until(&ack, SHMEM_CMP_GE, round);
    for (size_t i = 0; i < WORDS; ++i) source[i] = pattern(me, round, i);
    switch (kind) {
      case BY_FENCE:
        shmem_uint64_put_nbi(data, source, WORDS, right);
        shmem_fence();
        shmem_long_atomic_set(&flag, round + 1, right);
        break;
      case BY_QUIET:
        shmem_uint64_put_nbi(data, source, WORDS, right);
        shmem_quiet();
        shmem_long_p(&flag, round + 1, right);
        break;
      case BY_PE_QUIET: {
        const int targets[2] = {right, me};
        shmem_uint64_put_nbi(data, source, WORDS, right);
        shmem_pe_quiet(targets, 2);
        shmem_long_p(&flag, round + 1, right);
        break;
      }
      case BY_CTX_FENCE:
        shmem_ctx_uint64_put_nbi(ctx, data, source, WORDS, right);
        shmem_ctx_fence(ctx);
        shmem_ctx_long_atomic_set(ctx, &flag, round + 1, right);
        break;
      case BY_CTX_QUIET:
        shmem_ctx_uint64_put_nbi(ctx, data, source, WORDS, right);
        shmem_ctx_quiet(ctx);
        shmem_ctx_long_p(ctx, &flag, round + 1, right);
        break;
      case BY_CTX_PE_QUIET:
        shmem_ctx_uint64_put_nbi(ctx, data, source, WORDS, right);
        shmem_ctx_pe_quiet(ctx, &right, 1);
        shmem_ctx_long_p(ctx, &flag, round + 1, right);
        break;
      case BY_BLOCKING_PUT:
        /* A blocking put may return before delivery, but its source is reusable at once. */
        shmem_uint64_put(data, source, WORDS, right);
        memset(source, 0xee, WORDS * sizeof(uint64_t));
        shmem_fence();
        shmem_long_atomic_set(&flag, round + 1, right);
        break;
    }
    shmem_long_wait_until(&flag, SHMEM_CMP_GE, round + 1);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < WORDS; ++i)
      if (data[i] != pattern(left, round, i) && bad++ == 0) first = i;
    CHECK(bad == 0, "%s round %ld: the flag arrived before %zu of %d words (first at %zu: %#llx, "
                    "expected %#llx)",
          kind_names[kind], round, bad, WORDS, first, (unsigned long long)data[first],
          (unsigned long long)pattern(left, round, first));
    shmem_long_atomic_inc(&ack, left);
  }
  rounds_done += ROUNDS;
  /* The last round's nbi put may still read its source (a provider may read it again, as an
   * RDMA NIC retransmitting does) until quiet completes it, though its flag has arrived. */
  shmem_quiet();
  free(source);
}

/* Two writes to the same words: a large nbi put, fence, a small one over its start.  After
 * quiet the small one's values must be there. */
static void overlapping_writes(uint64_t *data, shmem_ctx_t ctx) {
  uint64_t *first = malloc(WORDS * sizeof(uint64_t));
  uint64_t second[4];
  for (size_t i = 0; i < WORDS; ++i) first[i] = 1000 + i;
  for (size_t i = 0; i < 4; ++i) second[i] = 5000 + i;
  shmem_barrier_all();
  if (ctx) {
    shmem_ctx_uint64_put_nbi(ctx, data, first, WORDS, right);
    shmem_ctx_fence(ctx);
    shmem_ctx_uint64_put_nbi(ctx, data, second, 4, right);
    shmem_ctx_quiet(ctx);
  } else {
    shmem_uint64_put_nbi(data, first, WORDS, right);
    shmem_fence();
    shmem_uint64_put_nbi(data, second, 4, right);
    shmem_quiet();
  }
  shmem_barrier_all();
  for (size_t i = 0; i < 4; ++i)
    CHECK(data[i] == 5000 + i, "%s: word %zu is %llu after a later put behind a fence, expected %zu",
          ctx ? "ctx_fence" : "fence", i, (unsigned long long)data[i], 5000 + i);
  CHECK(data[4] == 1004 && data[WORDS - 1] == 1000 + WORDS - 1,
        "the large put around the small one was lost: %llu %llu", (unsigned long long)data[4],
        (unsigned long long)data[WORDS - 1]);
  /* Same with a blocking put after the nbi put and a fence. */
  shmem_barrier_all();
  shmem_uint64_put_nbi(data, first, WORDS, right);
  shmem_fence();
  shmem_uint64_put(data, second, 4, right);
  shmem_barrier_all();
  CHECK(data[0] == 5000 && data[3] == 5003, "blocking put behind a fence was overwritten: %llu",
        (unsigned long long)data[0]);
  shmem_barrier_all();
  free(first);
}

/* get_nbi completed by quiet, pe_quiet and ctx_quiet. */
static void gets(uint64_t *data) {
  uint64_t *into = malloc(WORDS * sizeof(uint64_t));
  for (size_t i = 0; i < WORDS; ++i) data[i] = pattern(me, 777, i);
  shmem_barrier_all();
  for (int how = 0; how < 3; ++how) {
    memset(into, 0, WORDS * sizeof(uint64_t));
    shmem_uint64_get_nbi(into, data, WORDS, right);
    if (how == 0) shmem_quiet();
    else if (how == 1) shmem_pe_quiet(&right, 1);
    else shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
    size_t bad = 0;
    for (size_t i = 0; i < WORDS; ++i) bad += into[i] != pattern(right, 777, i);
    CHECK(bad == 0, "get_nbi completed by %s: %zu words missing", how == 0 ? "quiet" : how == 1 ? "pe_quiet" : "ctx_quiet", bad);
  }
  shmem_barrier_all();
  free(into);
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  right = test_right();
  left = test_left();
  uint64_t *data = shmem_malloc(WORDS * sizeof(uint64_t));
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create failed");
  shmem_pe_quiet(NULL, 0); /* no PEs: nothing to do */

  rounds(BY_FENCE, NULL, data);
  rounds(BY_QUIET, NULL, data);
  rounds(BY_PE_QUIET, NULL, data);
  rounds(BY_CTX_FENCE, ctx, data);
  rounds(BY_CTX_QUIET, ctx, data);
  rounds(BY_CTX_PE_QUIET, ctx, data);
  rounds(BY_CTX_FENCE, SHMEM_CTX_DEFAULT, data);
  rounds(BY_BLOCKING_PUT, NULL, data);
  overlapping_writes(data, NULL);
  overlapping_writes(data, ctx);
  gets(data);
  shmem_ctx_destroy(ctx);
  shmem_free(data);
  return test_finish("order");
}
