/* Strided gets and puts whose blocks lie close together, and far apart.  Gets: iget and
 * ibget from the right neighbour at strides on both sides of the point where a get across
 * nodes reads the span its blocks cover in one operation (blocks up to 1 KiB, gaps up to
 * 1 KiB between them), with spans longer than the 256 KiB read at a time, and with
 * destination strides unlike the source's; blocks farther apart come packed across nodes,
 * many to an answer that the target copies them into (more answers than may be in flight
 * at once, blocks of 256 bytes, a last answer only partly filled).  Puts: iput and ibput to the right neighbour with
 * blocks up to 1 KiB (which travel across nodes packed, many to a message that the target
 * copies into place: more messages than may be in flight at once) and over it, from packed
 * and from spread sources.  Every element must arrive, the destination between the blocks
 * and after the last must keep what it held, and blocks without gaps at either end move as
 * one transfer. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

#define SOURCE_BYTES (2u << 20)

static unsigned char source_byte(int pe, size_t i) { return (unsigned char)(pe * 37 + i * 7 + i / 251); }

/* One strided get of `blocks` blocks of `block` elements of `elem` bytes (1 or 8), source
 * stride `sst` and destination stride `dst` in elements; returns the mismatches. */
static long check_get(const unsigned char *src, unsigned char *dest, size_t elem, size_t block, size_t blocks,
                      ptrdiff_t dst, ptrdiff_t sst) {
  const int right = test_right();
  const size_t dest_bytes = ((blocks - 1) * (size_t)dst + block) * elem;
  memset(dest, 0xA5, dest_bytes + 64);
  if (elem == 1 && block == 1) shmem_char_iget((char *)dest, (const char *)src, dst, sst, blocks, right);
  else if (elem == 1) shmem_ibget8(dest, src, dst, sst, block, blocks, right);
  else if (block == 1) shmem_long_iget((long *)dest, (const long *)src, dst, sst, blocks, right);
  else shmem_long_ibget((long *)dest, (const long *)src, dst, sst, block, blocks, right);
  long bad = 0;
  for (size_t b = 0; b < blocks; ++b) {
    for (size_t j = 0; j < block * elem; ++j) {
      const size_t at = b * (size_t)dst * elem + j, from = b * (size_t)sst * elem + j;
      bad += dest[at] != source_byte(right, from);
    }
    if (b + 1 < blocks)  /* between this block and the next */
      for (size_t at = (b * (size_t)dst + block) * elem; at < (b + 1) * (size_t)dst * elem; ++at) bad += dest[at] != 0xA5;
  }
  for (size_t at = dest_bytes; at < dest_bytes + 64; ++at) bad += dest[at] != 0xA5;  /* after the last */
  return bad;
}

/* The put twin of check_get: `dst` is the stride at the right neighbour's `landing`, `sst`
 * at `src` here; the left neighbour checks what landed. */
static long check_put(const unsigned char *src, unsigned char *landing, size_t elem, size_t block, size_t blocks,
                      ptrdiff_t dst, ptrdiff_t sst) {
  const int right = test_right(), left = test_left();
  const size_t dest_bytes = ((blocks - 1) * (size_t)dst + block) * elem;
  memset(landing, 0xA5, dest_bytes + 64);
  shmem_barrier_all();
  if (elem == 1 && block == 1) shmem_char_iput((char *)landing, (const char *)src, dst, sst, blocks, right);
  else if (elem == 1) shmem_ibput8(landing, src, dst, sst, block, blocks, right);
  else if (block == 1) shmem_long_iput((long *)landing, (const long *)src, dst, sst, blocks, right);
  else shmem_long_ibput((long *)landing, (const long *)src, dst, sst, block, blocks, right);
  shmem_barrier_all();
  long bad = 0;
  for (size_t b = 0; b < blocks; ++b) {
    for (size_t j = 0; j < block * elem; ++j) {
      const size_t at = b * (size_t)dst * elem + j, from = b * (size_t)sst * elem + j;
      bad += landing[at] != source_byte(left, from);
    }
    if (b + 1 < blocks)
      for (size_t at = (b * (size_t)dst + block) * elem; at < (b + 1) * (size_t)dst * elem; ++at)
        bad += landing[at] != 0xA5;
  }
  for (size_t at = dest_bytes; at < dest_bytes + 64; ++at) bad += landing[at] != 0xA5;
  shmem_barrier_all();  /* checked before the next case writes */
  return bad;
}

int main(void) {
  test_init();
  const int me = shmem_my_pe();
  unsigned char *src = shmem_malloc(SOURCE_BYTES);
  unsigned char *dest = malloc(2 * SOURCE_BYTES + 64);
  unsigned char *landing = shmem_malloc(2 * SOURCE_BYTES + 64);
  CHECK(src && dest && landing, "allocation failed");
  for (size_t i = 0; i < SOURCE_BYTES; ++i) src[i] = source_byte(me, i);
  shmem_barrier_all();
  static const struct {
    size_t elem, block, blocks;
    ptrdiff_t dst, sst;
  } cases[] = {
      {1, 1, 2048, 2, 2},     /* bytes 1 apart */
      {1, 1, 2048, 1, 3},     /* packed destination */
      {1, 1, 2000, 5, 1025},  /* the widest gap read through: 2 MiB, eight reads */
      {1, 1, 1500, 3, 1026},  /* one byte wider: an operation per element */
      {1, 1, 2, 1, 1025},     /* two elements */
      {1, 3, 700, 4, 1027},   /* blocks of 3 bytes, gaps of 1024 */
      {8, 1, 4096, 1, 2},     /* longs */
      {8, 1, 1024, 2, 129},   /* a gap of 1024 bytes, 1 MiB */
      {8, 128, 600, 130, 256},  /* blocks of 1 KiB and gaps of 1 KiB: 1.2 MiB */
      {8, 129, 100, 129, 200},  /* blocks over 1 KiB: one operation each */
      {8, 4, 9000, 4, 5},     /* adjacent blocks, across a read's end */
      {8, 4, 9000, 4, 4},     /* no gaps at either end */
      {1, 1, 1900, 1, 1100},  /* bytes far apart to a packed destination: one answer */
      {8, 1, 1000, 1, 260},   /* longs 2080 bytes apart: four answers, the last part full */
      {8, 1, 1300, 3, 200},   /* longs 1600 bytes apart, spread: six answers */
      {8, 32, 1000, 40, 260},  /* blocks of 256 bytes far apart: eight an answer, 125 answers */
      {8, 33, 300, 33, 260},   /* blocks of 264 bytes far apart: a read each */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    const long bad = check_get(src, dest, cases[c].elem, cases[c].block, cases[c].blocks, cases[c].dst, cases[c].sst);
    CHECK(bad == 0, "case %zu (%zu-byte elements, blocks of %zu, %zu blocks, dst %td, sst %td): %ld bytes wrong", c,
          cases[c].elem, cases[c].block, cases[c].blocks, cases[c].dst, cases[c].sst, bad);
  }
  static const struct {
    size_t elem, block, blocks;
    ptrdiff_t dst, sst;
  } puts[] = {
      {1, 1, 2048, 2, 2},       /* bytes 2 apart: one message */
      {1, 1, 5000, 3, 1},       /* from a packed source: three messages */
      {1, 1, 2, 1025, 1},       /* two elements */
      {1, 1, 2000, 1025, 5},    /* 2 MiB at the target */
      {1, 3, 700, 4, 1027},     /* blocks of 3 bytes */
      {8, 1, 9000, 2, 1},       /* longs: more messages than may be in flight */
      {8, 128, 600, 130, 256},  /* blocks of 1 KiB: two a message, 300 messages */
      {8, 129, 100, 129, 200},  /* blocks over 1 KiB: one operation each */
      {8, 4, 9000, 4, 4},       /* no gaps at either end */
      {8, 4, 100, 4, 5},        /* no gaps at the target only */
  };
  for (size_t c = 0; c < sizeof puts / sizeof puts[0]; ++c) {
    const long bad = check_put(src, landing, puts[c].elem, puts[c].block, puts[c].blocks, puts[c].dst, puts[c].sst);
    CHECK(bad == 0, "put case %zu (%zu-byte elements, blocks of %zu, %zu blocks, dst %td, sst %td): %ld bytes wrong",
          c, puts[c].elem, puts[c].block, puts[c].blocks, puts[c].dst, puts[c].sst, bad);
  }
  shmem_barrier_all();
  free(dest);
  shmem_free(landing);
  shmem_free(src);
  return test_finish("strided_spans");
}
