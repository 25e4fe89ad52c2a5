/* Blocking gets of a few bytes from every other PE: words (shmem_long_g, shmem_int_g,
 * shmem_double_g, one-element shmem_long_get and shmem_int_get from the heap), 8 bytes at an
 * odd offset, and shmem_getmem of 1 byte to 4 KiB at offsets 0, 1, 3 and 8 from globals and
 * the heap, each checked byte by byte against what its owner wrote, and the bytes after it in
 * the destination left alone; then, on each PE's own word and bytes at every other PE, a put,
 * a quiet and a get of them, many times over.  Across nodes, once requests to a target go
 * into its ring, the words go as requests written there, and so do other gets of as many
 * bytes as one injected write carries (56 with tcp;ofi_rxm, 240 with sockets), answered
 * into the initiator's answer cells (man 7 tandem, Atomics); TANDEM_STATS counts them at the
 * target (tests.cmake). */
#include "common.h"

enum { kWords = 64, kRounds = 1000, kOverwrites = 200, kBlock = 4200, kGuard = 16 };

static long longs[kWords];
static int ints[kWords];
static double doubles[kWords];
static long mine_at[1024]; /* per PE: the word it puts and reads back at each other PE */

static long long_of(int pe, int k) { return ((long)pe << 32) + k * 7919L + 1; }
static int int_of(int pe, int k) { return pe * 100000 + k * 31 + 3; }
static double double_of(int pe, int k) { return pe + k / 64.0 + 0.5; }
static unsigned char byte_of(int pe, int at, int global) {
  return (unsigned char)(pe * 37 + at * 11 + (at >> 8) * 5 + global * 101 + 1);
}

static unsigned char global_block[kBlock];
static unsigned char mine_bytes[1024][128]; /* per PE: the bytes it puts and reads back */

/* shmem_getmem of `bytes` at `at` of PE pe's block (the global one or the heap's), checked. */
static void check_getmem(const unsigned char* block, int global, int pe, int at, int bytes) {
  static unsigned char got[kBlock + kGuard];
  memset(got, 0xee, sizeof got);
  shmem_getmem(got, block + at, (size_t)bytes, pe);
  for (int i = 0; i < bytes; ++i)
    CHECK(got[i] == byte_of(pe, at + i, global), "shmem_getmem of %d bytes at %d of PE %d's %s block: byte %d is %#x",
          bytes, at, pe, global ? "global" : "heap", i, got[i]);
  for (int i = bytes; i < bytes + kGuard; ++i)
    CHECK(got[i] == 0xee, "shmem_getmem of %d bytes at %d of PE %d: wrote byte %d after them", bytes, at, pe, i);
}

int main(void) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  long* heap_longs = shmem_malloc(kWords * sizeof(long));
  int* heap_ints = shmem_malloc(kWords * sizeof(int));
  char* bytes = shmem_malloc(kWords * sizeof(long) + 1);
  unsigned char* heap_block = shmem_malloc(kBlock);
  for (int i = 0; i < kBlock; ++i) {
    heap_block[i] = byte_of(me, i, 0);
    global_block[i] = byte_of(me, i, 1);
  }
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
  static const int sizes[] = {1, 2, 3, 5, 7, 12, 16, 24, 56, 57, 100, 240, 241, 256, 257, 1000, 4096};
  static const int offsets[] = {0, 1, 3, 8};
  for (int d = 1; d < npes; ++d) {
    const int pe = (me + d) % npes;
    for (int r = 0; r < 8; ++r) /* every size at every offset, twice */
      for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
        const int at = offsets[(r + s) % 4];
        check_getmem(heap_block, 0, pe, at, sizes[s]);
        check_getmem(global_block, 1, pe, at, sizes[s]);
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
      unsigned char put[100], back[100];
      for (int i = 0; i < 100; ++i) put[i] = (unsigned char)(me + r * 3 + i + d);
      shmem_putmem(&mine_bytes[me][1], put, sizeof put, pe);
      shmem_quiet();
      shmem_getmem(back, &mine_bytes[me][1], sizeof back, pe);
      CHECK(memcmp(put, back, sizeof put) == 0, "put, quiet, get of PE %d's 100 bytes at PE %d differ", me, pe);
    }
  }
  shmem_barrier_all();
  shmem_free(heap_block);
  shmem_free(bytes);
  shmem_free(heap_ints);
  shmem_free(heap_longs);
  return test_finish("small_gets");
}
