/* Blocking gets of one word from every other PE: shmem_long_g, shmem_int_g, shmem_double_g,
 * one-element shmem_long_get and shmem_int_get from the heap, and 8 bytes at an odd offset
 * (not a word: a read), each checked against what its owner wrote; then, on each PE's own
 * word at every other PE, a put, a quiet and a get of it, many times over.  Across nodes
 * the words go as requests written into the target's ring once requests to it go there
 * (man 7 tandem, Atomics); TANDEM_STATS counts them at the target (tests.cmake). */
#include "common.h"

enum { kWords = 64, kRounds = 1000, kOverwrites = 200 };

static long longs[kWords];
static int ints[kWords];
static double doubles[kWords];
static long mine_at[1024]; /* per PE: the word it puts and reads back at each other PE */

static long long_of(int pe, int k) { return ((long)pe << 32) + k * 7919L + 1; }
static int int_of(int pe, int k) { return pe * 100000 + k * 31 + 3; }
static double double_of(int pe, int k) { return pe + k / 64.0 + 0.5; }

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  long* heap_longs = shmem_malloc(kWords * sizeof(long));
  int* heap_ints = shmem_malloc(kWords * sizeof(int));
  char* bytes = shmem_malloc(kWords * sizeof(long) + 1);
  for (int k = 0; k < kWords; ++k) {
    longs[k] = heap_longs[k] = long_of(me, k);
    ints[k] = heap_ints[k] = int_of(me, k);
    doubles[k] = double_of(me, k);
    const long odd = long_of(me, k) ^ 0x5a5a;
    memcpy(bytes + 1 + k * sizeof(long), &odd, sizeof odd);
  }
  shmem_barrier_all();
  for (int d = 1; d < npes; ++d) {
    const int pe = (me + d) % npes;
    for (int r = 0; r < kRounds; ++r) {
      const int k = (r * 13 + d) % kWords;
      long l = shmem_long_g(&longs[k], pe);
      CHECK(l == long_of(pe, k), "shmem_long_g of PE %d's word %d: %#lx", pe, k, (unsigned long)l);
      const int i = shmem_int_g(&ints[k], pe);
      CHECK(i == int_of(pe, k), "shmem_int_g of PE %d's word %d: %d", pe, k, i);
      const double x = shmem_double_g(&doubles[k], pe);
      CHECK(x == double_of(pe, k), "shmem_double_g of PE %d's word %d: %g", pe, k, x);
      shmem_long_get(&l, &heap_longs[k], 1, pe);
      CHECK(l == long_of(pe, k), "shmem_long_get of PE %d's heap word %d: %#lx", pe, k, (unsigned long)l);
      int j = 0;
      shmem_int_get(&j, &heap_ints[k], 1, pe);
      CHECK(j == int_of(pe, k), "shmem_int_get of PE %d's heap word %d: %d", pe, k, j);
      if (r % 8 == 0) {
        shmem_getmem(&l, bytes + 1 + k * sizeof(long), sizeof l, pe);
        CHECK(l == (long_of(pe, k) ^ 0x5a5a), "shmem_getmem of 8 bytes at an odd offset of PE %d: %#lx", pe,
              (unsigned long)l);
      }
    }
  }
  for (int d = 1; d < npes && me < 1024; ++d) {
    const int pe = (me + d) % npes;
    for (int r = 0; r < kOverwrites; ++r) {
      const long v = long_of(me, r) + d;
      shmem_long_p(&mine_at[me], v, pe);
      shmem_quiet();
      const long got = shmem_long_g(&mine_at[me], pe);
      CHECK(got == v, "put, quiet, get of PE %d's word at PE %d: %#lx, expected %#lx", me, pe, (unsigned long)got,
            (unsigned long)v);
    }
  }
  shmem_barrier_all();
  shmem_free(bytes);
  shmem_free(heap_ints);
  shmem_free(heap_longs);
  return test_finish("word_gets");
}
