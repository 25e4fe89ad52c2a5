/* Ping-pong on the last word of a put, as programs such as sping do: PEs pair up (0-1, 2-3,
 * ...); for message k = 1 .. ROUNDS, one PE of a pair puts `words` longs, all equal to k, to
 * its partner, which waits until the last word is non-zero, checks that every word is k,
 * resets the last word to 0 and answers with the same message.  Sizes 1, 2, 3, 16 and 1000
 * words.  A put that writes its last word twice (memcpy of 8 bytes does) lets the old value
 * come back after the reset when the writer is preempted between the two stores (4 PEs on 2
 * cores); a put that writes the last word before the rest shows the partner old words. */
#include "common.h"

#define ROUNDS 20000
#define MAX_WORDS 1000

static long inbox[MAX_WORDS];
static long outbox[MAX_WORDS];

/* Waits for message k of `words` words in inbox.  A wrong message ends the job: the pair
 * is out of step after it and would wait forever. */
static void receive(long k, size_t words) {
  shmem_long_wait_until(&inbox[words - 1], SHMEM_CMP_NE, 0);
  int good = 1;
  for (size_t i = 0; i < words; ++i) good &= inbox[i] == k;
  CHECK(good, "%zu words, message %ld: last word %ld, first %ld", words, k, inbox[words - 1], inbox[0]);
  if (!good) {
    fflush(stdout);
    shmem_global_exit(1);
  }
  inbox[words - 1] = 0;
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes(), partner = me ^ 1;
  const size_t sizes[] = {1, 2, 3, 16, MAX_WORDS};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const size_t words = sizes[s];
    shmem_barrier_all();
    if (partner >= npes) continue;
    /* Many rounds where puts are CPU copies (the partner shares memory); across nodes fewer. */
    const long rounds = (shmem_ptr(inbox, partner) ? ROUNDS : ROUNDS / 10) / (words >= 16 ? 4 : 1);
    for (long k = 1; k <= rounds; ++k) {
      for (size_t i = 0; i < words; ++i) outbox[i] = k;
      if (me & 1) {
        receive(k, words);
        shmem_long_put(inbox, outbox, words, partner);
      } else {
        shmem_long_put(inbox, outbox, words, partner);
        receive(k, words);
      }
    }
  }
  shmem_barrier_all();
  return test_finish("put_flag");
}
