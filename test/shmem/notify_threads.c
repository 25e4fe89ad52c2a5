/* Notified access under SHMEM_THREAD_MULTIPLE: 4 threads per PE at once.  Thread t sends
 * ROUNDS notified puts with tag t to the right neighbour (blocking and nbi in turn, 8 B and
 * 16 KiB), each a fresh pattern into its own slot, and matches the left neighbour's thread t
 * with a request (left, t, 1) started again every round: wait for threads 0 and 1, test in
 * a loop for 2, waitany for 3.  The data of each round is checked when the notification
 * matches, and an acknowledgement (a notified put back, tag 100 + t) lets the sender reuse
 * the slot.  Every notification is counted exactly once, whichever thread drains it. */
#include <pthread.h>

#include <shmemx.h>

#include "common.h"

#define THREADS 4
#define ROUNDS 100
#define WORDS (16 * 1024 / 8)

static uint64_t slot[THREADS][WORDS];
static long acks[THREADS];
static int me, npes, right, left;

static uint64_t pattern(int pe, int thread, long round, size_t i) {
  return ((uint64_t)pe << 56) ^ ((uint64_t)thread << 48) ^ ((uint64_t)round << 32) ^ (i * 2654435761u);
}

static void finish(shmemx_notify_t req, int t, const char *what) {
  shmemx_notify_status_t st = {-1, -1, -1};
  if (t == 2) {
    int flag = 0;
    while (!flag) CHECK(shmemx_notify_test(req, &flag, &st) == 0, "thread %d: %s: test", t, what);
  } else if (t == 3) {
    int index = -1;
    CHECK(shmemx_notify_waitany(1, &req, &index, &st) == 0 && index == 0, "thread %d: %s: waitany", t, what);
  } else {
    CHECK(shmemx_notify_wait(req, &st) == 0, "thread %d: %s: wait", t, what);
  }
  CHECK(st.count == 1, "thread %d: %s: count %d", t, what, st.count);
}

static void *worker(void *arg) {
  const int t = (int)(intptr_t)arg;
  uint64_t *source = malloc(sizeof slot[t]);
  shmemx_notify_t data_req, ack_req;
  shmemx_notify_init(left, t, 1, &data_req);
  shmemx_notify_init(right, 100 + t, 1, &ack_req);
  for (long r = 0; r < ROUNDS; ++r) {
    const size_t words = r % 3 == 0 ? WORDS : 1;
    for (size_t i = 0; i < words; ++i) source[i] = pattern(me, t, r, i);
    shmemx_notify_start(data_req);
    shmemx_notify_start(ack_req);
    if (r % 2) shmemx_uint64_put_notify_nbi(slot[t], source, words, right, t);
    else shmemx_uint64_put_notify(slot[t], source, words, right, t);
    finish(data_req, t, "data");
    size_t bad = 0;
    for (size_t i = 0; i < words; ++i) bad += slot[t][i] != pattern(left, t, r, i);
    CHECK(bad == 0, "thread %d round %ld: %zu words wrong", t, r, bad);
    shmemx_long_put_notify(&acks[t], &(long){r}, 1, left, 100 + t);
    finish(ack_req, t, "ack");
  }
  shmemx_notify_free(&data_req);
  shmemx_notify_free(&ack_req);
  free(source);
  return NULL;
}

int main(void) {
  test_record_pid();
  int provided = -1;
  if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 || provided != SHMEM_THREAD_MULTIPLE) {
    fprintf(stderr, "SHMEM_THREAD_MULTIPLE not provided\n");
    return 1;
  }
  me = shmem_my_pe();
  npes = shmem_n_pes();
  right = (me + 1) % npes;
  left = (me + npes - 1) % npes;
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; ++t) pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
  for (int t = 0; t < THREADS; ++t) pthread_join(threads[t], NULL);
  shmem_barrier_all();
  return test_finish("notify_threads");
}
