/* Exactness under contention: every PE does 10,000 fetch_add(1) and 10,000 increments by a
 * compare_swap loop, interleaved, on one word of PE 0.  Every increment returns the value it
 * replaced, so the returned values of all PEs together must be exactly 0 .. total-1, and the
 * final value must be the total.  Then the same on a 32-bit word with the sum only, and on
 * a word in a symmetric global with inc/add mixed in. */
#include "common.h"

#define ITERATIONS 10000

static int word32;
static long long global_word;

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const long total = 2L * ITERATIONS * npes;
  long *word = shmem_calloc(1, sizeof(long));
  long *returned = shmem_malloc((size_t)total * sizeof(long)); /* gathered on PE 0 */
  long *mine = malloc(2 * ITERATIONS * sizeof(long));
  long retries = 0;

  for (int i = 0; i < ITERATIONS; ++i) {
    mine[2 * i] = shmem_long_atomic_fetch_add(word, 1, 0);
    long seen = shmem_long_atomic_fetch(word, 0);
    for (;;) {
      long old = shmem_long_atomic_compare_swap(word, seen, seen + 1, 0);
      if (old == seen) break;
      seen = old;
      ++retries;
    }
    mine[2 * i + 1] = seen;
  }
  shmem_long_put(returned + (size_t)me * 2 * ITERATIONS, mine, 2 * ITERATIONS, 0);
  shmem_barrier_all();
  if (me == 0) {
    CHECK(*word == total, "the word is %ld after %ld increments", *word, total);
    unsigned char *hit = calloc((size_t)total, 1);
    long out_of_range = 0, duplicates = 0;
    for (long i = 0; i < total; ++i) {
      const long v = returned[i];
      if (v < 0 || v >= total) ++out_of_range;
      else if (hit[v]++) ++duplicates;
    }
    CHECK(out_of_range == 0 && duplicates == 0,
          "returned values are not a permutation of 0..%ld: %ld out of range, %ld duplicated",
          total - 1, out_of_range, duplicates);
    free(hit);
  }
  shmem_barrier_all();

  /* 32 bits: fetch_add and compare_swap loops, sum only. */
  for (int i = 0; i < ITERATIONS; ++i) {
    shmem_int_atomic_fetch_add(&word32, 1, 0);
    int seen = shmem_int_atomic_fetch(&word32, 0);
    int old;
    while ((old = shmem_int_atomic_compare_swap(&word32, seen, seen + 1, 0)) != seen) seen = old;
  }
  shmem_barrier_all();
  if (me == 0) CHECK(word32 == 2 * ITERATIONS * npes, "32-bit word is %d, expected %d", word32,
                     2 * ITERATIONS * npes);

  /* A global long long with inc, add, fetch_inc and a ctx in the mix. */
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create failed");
  for (int i = 0; i < ITERATIONS / 4; ++i) {
    shmem_longlong_atomic_inc(&global_word, 0);
    shmem_longlong_atomic_add(&global_word, 2, 0);
    shmem_ctx_longlong_atomic_fetch_inc(ctx, &global_word, 0);
    shmem_ctx_longlong_atomic_add(ctx, &global_word, 3, 0);
  }
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  if (me == 0)
    CHECK(global_word == 7LL * (ITERATIONS / 4) * npes, "global word is %lld, expected %lld",
          global_word, 7LL * (ITERATIONS / 4) * npes);
  shmem_ctx_destroy(ctx);
  if (me == 0) printf("atomic_sum: %ld compare_swap retries on PE 0\n", retries);
  free(mine);
  shmem_free(returned);
  shmem_free(word);
  return test_finish("atomic_sum");
}
