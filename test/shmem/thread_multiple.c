/* SHMEM_THREAD_MULTIPLE: 4 threads per PE communicate at once.  Thread t of each PE plays a
 * ring with thread t of the neighbours: a 64 KiB nbi put of a fresh pattern, quiet, a flag;
 * the receiving thread waits for the flag and checks the data, then acknowledges.  In
 * between, every thread does fetch_add on one word of PE 0, increments on its neighbour and
 * p/g.  Threads 2 and 3 use private contexts of their own.  All results must be exact. */
#include <pthread.h>

#include "common.h"

#define THREADS 4
#define ROUNDS 40
#define WORDS (64 * 1024 / 8)
#define ADDS 2000

static long flag[THREADS];
static long ack[THREADS];
static long per_thread_count[THREADS];
static long total;
static int scratch[THREADS][16];
static uint64_t *data; /* THREADS blocks of WORDS words, on the heap */
static int me, npes, right, left;

static uint64_t pattern(int pe, int thread, long round, size_t i) {
  return ((uint64_t)pe << 56) ^ ((uint64_t)thread << 48) ^ ((uint64_t)round << 32) ^ (i * 2654435761u);
}

static void *worker(void *arg) {
  const int t = (int)(intptr_t)arg;
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  if (t >= 2) {
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
      CHECK(0, "thread %d: shmem_ctx_create failed", t);
      ctx = SHMEM_CTX_DEFAULT;
    }
  }
  uint64_t *mine = data + (size_t)t * WORDS;
  uint64_t *source = malloc(WORDS * sizeof(uint64_t));
  for (long r = 0; r < ROUNDS; ++r) {
    shmem_long_wait_until(&ack[t], SHMEM_CMP_GE, r);
    for (size_t i = 0; i < WORDS; ++i) source[i] = pattern(me, t, r, i);
    shmem_ctx_uint64_put_nbi(ctx, mine, source, WORDS, right);
    shmem_ctx_quiet(ctx);
    shmem_ctx_long_atomic_set(ctx, &flag[t], r + 1, right);

    for (int k = 0; k < ADDS / ROUNDS; ++k) {
      shmem_ctx_long_atomic_fetch_add(ctx, &total, 1, 0);
      shmem_ctx_long_atomic_inc(ctx, &per_thread_count[t], right);
    }
    shmem_ctx_int_p(ctx, &scratch[t][r % 16], (int)(me * 1000 + r), right);
    const int back = shmem_ctx_int_g(ctx, &scratch[t][r % 16], right);
    CHECK(back == (int)(me * 1000 + r), "thread %d: g after p gave %d, expected %d", t, back,
          (int)(me * 1000 + r));

    shmem_long_wait_until(&flag[t], SHMEM_CMP_GE, r + 1);
    size_t bad = 0;
    for (size_t i = 0; i < WORDS; ++i) bad += mine[i] != pattern(left, t, r, i);
    CHECK(bad == 0, "thread %d round %ld: %zu of %d words wrong when the flag arrived", t, r, bad,
          WORDS);
    shmem_ctx_long_atomic_inc(ctx, &ack[t], left);
  }
  shmem_ctx_quiet(ctx);
  if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(ctx);
  free(source);
  return NULL;
}

int main(void) {
  test_record_pid();
  int provided = -1;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  CHECK(provided == SHMEM_THREAD_MULTIPLE, "shmem_init_thread(MULTIPLE) provided %d", provided);
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right = test_right();
  left = test_left();
  data = shmem_malloc(THREADS * WORDS * sizeof(uint64_t));

  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; ++t)
    if (pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t) != 0) {
      CHECK(0, "pthread_create failed");
      return 1;
    }
  for (int t = 0; t < THREADS; ++t) pthread_join(threads[t], NULL);
  shmem_barrier_all();
  const long adds = (long)(ADDS / ROUNDS) * ROUNDS;
  if (me == 0)
    CHECK(total == adds * THREADS * npes, "total is %ld, expected %ld", total,
          adds * THREADS * npes);
  for (int t = 0; t < THREADS; ++t) {
    CHECK(per_thread_count[t] == adds, "thread %d's counter is %ld, expected %ld", t,
          per_thread_count[t], adds);
    CHECK(flag[t] == ROUNDS && ack[t] == ROUNDS, "thread %d: flag %ld ack %ld", t, flag[t], ack[t]);
  }
  shmem_free(data);
  return test_finish("thread_multiple");
}
