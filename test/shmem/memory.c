/* Symmetric memory management: shmem_malloc, calloc (zeroing), align (alignment), realloc
 * (content kept), free and reuse, malloc_with_hints, and the deprecated shmalloc, shfree,
 * shrealloc, shmemalign.  The heap is made small (16 MiB unless SHMEM_SYMMETRIC_SIZE is set)
 * so that the alloc/free cycles below would exhaust it if freed memory were not reused, and
 * the fragmentation test needs freed neighbours to coalesce. */
#include "common.h"

#define MiB (1024UL * 1024UL)

static int me, npes;

/* Fills `p` on my right neighbour with a pattern of mine, and checks that my copy holds
 * my left neighbour's pattern: proves the object is symmetric and usable as an RMA target. */
static void exchange_through(unsigned char *p, size_t bytes, unsigned seed, const char *what) {
  unsigned char *mine = malloc(bytes);
  for (size_t i = 0; i < bytes; ++i) mine[i] = (unsigned char)(seed + me * 7 + i * 13);
  shmem_barrier_all();
  shmem_putmem(p, mine, bytes, test_right());
  shmem_barrier_all();
  const int left = test_left();
  size_t bad = 0, first_bad = 0;
  for (size_t i = 0; i < bytes; ++i)
    if (p[i] != (unsigned char)(seed + left * 7 + i * 13) && bad++ == 0) first_bad = i;
  CHECK(bad == 0, "%s: %zu of %zu bytes wrong after a put from PE %d, first at %zu", what, bad,
        bytes, left, first_bad);
  shmem_barrier_all();
  free(mine);
}

static void test_malloc_free(void) {
  CHECK(shmem_malloc(0) == NULL, "shmem_malloc(0) is not NULL");
  shmem_free(NULL); /* allowed, and collective */
  void *blocks[8];
  for (int i = 0; i < 8; ++i) {
    blocks[i] = shmem_malloc(1000 + 100 * (size_t)i);
    CHECK(blocks[i] != NULL, "shmem_malloc(%d) failed", 1000 + 100 * i);
    for (int j = 0; j < i; ++j)
      CHECK(blocks[i] != blocks[j], "shmem_malloc gave the same block twice");
  }
  for (int i = 0; i < 8; ++i)
    if (blocks[i]) exchange_through(blocks[i], 1000 + 100 * (size_t)i, (unsigned)i, "malloc");
  for (int i = 0; i < 8; ++i) shmem_free(blocks[i]);

  /* Freed memory is reused: cycles that need 200 x 4 MiB = 800 MiB of a 16 MiB heap. */
  for (int cycle = 0; cycle < 200; ++cycle) {
    unsigned char *p = shmem_malloc(4 * MiB);
    CHECK(p != NULL, "cycle %d: shmem_malloc(4 MiB) failed: freed memory is not reused", cycle);
    if (p == NULL) break;
    p[0] = (unsigned char)cycle;
    p[4 * MiB - 1] = (unsigned char)(cycle + 1);
    if (cycle % 50 == 0) exchange_through(p, 4096, (unsigned)cycle, "cycled block");
    shmem_putmem(p + 4 * MiB - 64, &cycle, sizeof cycle, test_right());
    shmem_free(p);
  }
}

static void test_coalescing(void) {
  /* 16 neighbours of 512 KiB, freed out of order; then one 12 MiB block must fit. */
  void *blocks[16];
  for (int i = 0; i < 16; ++i) {
    blocks[i] = shmem_malloc(MiB / 2);
    CHECK(blocks[i] != NULL, "shmem_malloc(512 KiB) #%d failed", i);
  }
  for (int i = 0; i < 16; i += 2) shmem_free(blocks[i]);
  for (int i = 15; i > 0; i -= 2) shmem_free(blocks[i]);
  unsigned char *big = shmem_malloc(12 * MiB);
  CHECK(big != NULL, "shmem_malloc(12 MiB) after freeing 16 neighbouring blocks failed: free "
                     "blocks are not coalesced");
  if (big) {
    exchange_through(big + 12 * MiB - 8192, 8192, 3, "coalesced block tail");
    shmem_free(big);
  }
}

static void test_exhaustion(void) {
  /* More than the heap: NULL on every PE (with a warning), and the heap stays usable. */
  if (me == 0) fprintf(stderr, "memory: a warning about a 64 GiB allocation is expected next\n");
  void *huge = shmem_malloc(64UL * 1024 * MiB);
  CHECK(huge == NULL, "shmem_malloc(64 GiB) on a 16 MiB heap returned %p", huge);
  void *after = shmem_malloc(MiB);
  CHECK(after != NULL, "shmem_malloc(1 MiB) failed after a failed allocation");
  if (after) exchange_through(after, MiB, 9, "block after a failed allocation");
  shmem_free(after);
}

static void test_calloc(void) {
  CHECK(shmem_calloc(0, 8) == NULL, "shmem_calloc(0, 8) is not NULL");
  CHECK(shmem_calloc(8, 0) == NULL, "shmem_calloc(8, 0) is not NULL");
  /* Dirty the memory calloc will most likely get back. */
  unsigned char *dirty = shmem_malloc(2 * MiB);
  CHECK(dirty != NULL, "shmem_malloc(2 MiB) failed");
  if (dirty) memset(dirty, 0xab, 2 * MiB);
  shmem_free(dirty);
  for (int round = 0; round < 3; ++round) {
    const size_t count = 1000 + 30000 * (size_t)round, size = round == 2 ? 48 : 8;
    unsigned char *z = shmem_calloc(count, size);
    CHECK(z != NULL, "shmem_calloc(%zu, %zu) failed", count, size);
    if (z == NULL) continue;
    size_t nonzero = 0;
    for (size_t i = 0; i < count * size; ++i) nonzero += z[i] != 0;
    CHECK(nonzero == 0, "shmem_calloc(%zu, %zu) left %zu non-zero bytes", count, size, nonzero);
    exchange_through(z, count * size, 11, "calloc block");
    memset(z, 0xcd, count * size);
    shmem_free(z);
  }
  /* A peer may write into the zeroed object at once: zeroing must not overwrite it. */
  long *z = shmem_calloc(npes, sizeof(long));
  shmem_long_p(&z[me], me + 1, test_right());
  shmem_barrier_all();
  CHECK(z[test_left()] == test_left() + 1, "calloc object lost a put made right after it: %ld",
        z[test_left()]);
  shmem_free(z);
}

static void test_align(void) {
  /* An alignment that is not a power of two gets no memory (a warning on stderr). */
  if (me == 0) fprintf(stderr, "memory: three warnings about alignments are expected next\n");
  CHECK(shmem_align(0, 100) == NULL, "shmem_align(0, 100) did not fail");
  CHECK(shmem_align(48, 100) == NULL, "shmem_align(48, 100) did not fail");
  CHECK(shmemalign(3, 100) == NULL, "shmemalign(3, 100) did not fail");
  for (size_t alignment = 1; alignment <= 2 * MiB; alignment <<= 1) {
    unsigned char *p = shmem_align(alignment, 100);
    CHECK(p != NULL, "shmem_align(%zu, 100) failed", alignment);
    if (p == NULL) continue;
    CHECK((uintptr_t)p % alignment == 0, "shmem_align(%zu) gave %p, %zu bytes past an aligned address",
          alignment, (void *)p, (size_t)((uintptr_t)p % alignment));
    if (alignment == 4096 || alignment == 1) exchange_through(p, 100, 5, "aligned block");
    unsigned char *q = shmemalign(alignment, 3000);
    CHECK(q != NULL && (uintptr_t)q % alignment == 0, "shmemalign(%zu) gave %p, %zu bytes past an "
          "aligned address", alignment, (void *)q, (size_t)((uintptr_t)q % alignment));
    if (q && alignment == 64) exchange_through(q, 3000, 6, "shmemalign block");
    shfree(q);
    shmem_free(p);
  }
}

static void test_realloc(void) {
  int *p = shmem_malloc(100 * sizeof(int));
  CHECK(p != NULL, "shmem_malloc failed");
  if (p == NULL) return;
  for (int i = 0; i < 100; ++i) p[i] = me * 1000 + i;
  /* A block in between so that growing cannot happen in place. */
  void *blocker = shmem_malloc(64);
  int *grown = shmem_realloc(p, 100000 * sizeof(int));
  CHECK(grown != NULL, "shmem_realloc to 400000 bytes failed");
  if (grown == NULL) return;
  size_t bad = 0;
  for (int i = 0; i < 100; ++i) bad += grown[i] != me * 1000 + i;
  CHECK(bad == 0, "shmem_realloc (growing) lost %zu of 100 elements", bad);
  /* The grown part is usable by peers. */
  shmem_int_p(&grown[99999], me, test_right());
  shmem_barrier_all();
  CHECK(grown[99999] == test_left(), "the grown part got %d, expected %d", grown[99999], test_left());
  CHECK(grown[0] == me * 1000, "the grown block's first element changed to %d", grown[0]);

  int *shrunk = shmem_realloc(grown, 50 * sizeof(int));
  CHECK(shrunk != NULL, "shmem_realloc to 200 bytes failed");
  if (shrunk == NULL) return;
  bad = 0;
  for (int i = 0; i < 50; ++i) bad += shrunk[i] != me * 1000 + i;
  CHECK(bad == 0, "shmem_realloc (shrinking) lost %zu of 50 elements", bad);
  exchange_through((unsigned char *)shrunk, 50 * sizeof(int), 8, "shrunk block");

  CHECK(shmem_realloc(shrunk, 0) == NULL, "shmem_realloc(p, 0) is not NULL");
  int *fresh = shmem_realloc(NULL, 256);
  CHECK(fresh != NULL, "shmem_realloc(NULL, 256) failed");
  if (fresh) exchange_through((unsigned char *)fresh, 256, 12, "realloc(NULL) block");

  /* The deprecated name. */
  int *q = shrealloc(fresh, 4096);
  CHECK(q != NULL, "shrealloc failed");
  if (q) exchange_through((unsigned char *)q, 4096, 13, "shrealloc block");
  shmem_free(q);
  shmem_free(blocker);
  /* A pointer that is no block any more gets no memory (and a warning). */
  if (me == 0) fprintf(stderr, "memory: a warning about a freed pointer is expected next\n");
  int *gone = shmem_malloc(64);
  shmem_free(gone);
  CHECK(shmem_realloc(gone, 128) == NULL, "shmem_realloc of a freed pointer did not fail");
}

static void test_hints(void) {
  /* The last two carry bits no version of the specification defines: hints are advice,
   * and unknown ones are ignored. */
  const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                        SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE, -2, 1L << 20};
  for (int h = 0; h < (int)(sizeof hints / sizeof hints[0]); ++h) {
    uint64_t *p = shmem_malloc_with_hints(64 * sizeof(uint64_t), hints[h]);
    CHECK(p != NULL, "shmem_malloc_with_hints(512, %ld) failed", hints[h]);
    if (p == NULL) continue;
    p[0] = 0;
    p[1] = 0;
    shmem_barrier_all();
    for (int pe = 0; pe < npes; ++pe) shmem_uint64_atomic_add(&p[0], 1, pe);
    shmem_signal_add(&p[1], 2, test_right());
    shmem_barrier_all();
    CHECK(p[0] == (uint64_t)npes, "hint %ld: counter %llu, expected %d", hints[h],
          (unsigned long long)p[0], npes);
    CHECK(shmem_signal_fetch(&p[1]) == 2, "hint %ld: signal %llu, expected 2", hints[h],
          (unsigned long long)p[1]);
    shmem_free(p);
  }
  CHECK(shmem_malloc_with_hints(0, 0) == NULL, "shmem_malloc_with_hints(0, 0) is not NULL");
}

static void test_deprecated(void) {
  long *p = shmalloc(32 * sizeof(long));
  CHECK(p != NULL, "shmalloc failed");
  if (p) exchange_through((unsigned char *)p, 32 * sizeof(long), 14, "shmalloc block");
  shfree(p);
}

int main(void) {
  setenv("SHMEM_SYMMETRIC_SIZE", "16M", 0);
  test_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  test_malloc_free();
  test_coalescing();
  test_calloc();
  test_align();
  test_realloc();
  test_hints();
  test_deprecated();
  test_exhaustion();
  test_coalescing(); /* everything was given back */
  return test_finish("memory");
}
