/* Sized RMA (put8 ... put128, get, nbi, iput, iget, ibput, ibget of each width) and the
 * byte routines putmem, getmem, putmem_nbi, getmem_nbi, plain and with contexts.  The
 * wrappers come from TANDEM_RMA_SIZES. */
#include "rma_engine.h"

/* Elements are built byte by byte, so every width (128 bits included) holds the full value
 * pattern and equality is a byte comparison. */
#define SIZED_MAKE(BITS)                                                                  \
  static void make##BITS(void *out, long v) {                                             \
    unsigned char *b = out;                                                               \
    for (size_t i = 0; i < (BITS) / 8; ++i) /* value 0 is all zero bytes */                \
      b[i] = (unsigned char)(v == 0 ? 0 : v * (long)(i + 1) + (long)i);                     \
  }                                                                                       \
  static int equal##BITS(const void *a, const void *b) { return memcmp(a, b, (BITS) / 8) == 0; } \
  static long double show##BITS(const void *a) {                                          \
    unsigned long long v = 0;                                                             \
    memcpy(&v, a, (BITS) / 8 < 8 ? (BITS) / 8 : 8);                                       \
    return (long double)v;                                                                \
  }
SIZED_MAKE(8)
SIZED_MAKE(16)
SIZED_MAKE(32)
SIZED_MAKE(64)
SIZED_MAKE(128)

#define SIZED_WRAPPERS(BITS, E)                                                                   \
  static void put##BITS##_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {           \
    if (c) shmem_ctx_put##BITS(c, d, s, n, pe);                                                   \
    else shmem_put##BITS(d, s, n, pe);                                                            \
  }                                                                                               \
  static void get##BITS##_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {           \
    if (c) shmem_ctx_get##BITS(c, d, s, n, pe);                                                   \
    else shmem_get##BITS(d, s, n, pe);                                                            \
  }                                                                                               \
  static void put##BITS##_nbi_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {       \
    if (c) shmem_ctx_put##BITS##_nbi(c, d, s, n, pe);                                             \
    else shmem_put##BITS##_nbi(d, s, n, pe);                                                      \
  }                                                                                               \
  static void get##BITS##_nbi_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {       \
    if (c) shmem_ctx_get##BITS##_nbi(c, d, s, n, pe);                                             \
    else shmem_get##BITS##_nbi(d, s, n, pe);                                                      \
  }                                                                                               \
  static void iput##BITS##_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,   \
                             size_t n, int pe) {                                                  \
    if (c) shmem_ctx_iput##BITS(c, d, s, ds, ss, n, pe);                                          \
    else shmem_iput##BITS(d, s, ds, ss, n, pe);                                                   \
  }                                                                                               \
  static void iget##BITS##_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,   \
                             size_t n, int pe) {                                                  \
    if (c) shmem_ctx_iget##BITS(c, d, s, ds, ss, n, pe);                                          \
    else shmem_iget##BITS(d, s, ds, ss, n, pe);                                                   \
  }                                                                                               \
  static void ibput##BITS##_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,  \
                              size_t b, size_t nb, int pe) {                                      \
    if (c) shmem_ctx_ibput##BITS(c, d, s, ds, ss, b, nb, pe);                                     \
    else shmem_ibput##BITS(d, s, ds, ss, b, nb, pe);                                              \
  }                                                                                               \
  static void ibget##BITS##_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,  \
                              size_t b, size_t nb, int pe) {                                      \
    if (c) shmem_ctx_ibget##BITS(c, d, s, ds, ss, b, nb, pe);                                     \
    else shmem_ibget##BITS(d, s, ds, ss, b, nb, pe);                                              \
  }
TANDEM_RMA_SIZES(SIZED_WRAPPERS)

static void putmem_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {
  if (c) shmem_ctx_putmem(c, d, s, n, pe);
  else shmem_putmem(d, s, n, pe);
}
static void getmem_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {
  if (c) shmem_ctx_getmem(c, d, s, n, pe);
  else shmem_getmem(d, s, n, pe);
}
static void putmem_nbi_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {
  if (c) shmem_ctx_putmem_nbi(c, d, s, n, pe);
  else shmem_putmem_nbi(d, s, n, pe);
}
static void getmem_nbi_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {
  if (c) shmem_ctx_getmem_nbi(c, d, s, n, pe);
  else shmem_getmem_nbi(d, s, n, pe);
}

#define SIZED_ENTRY(BITS, E)                                                                   \
  {"put" #BITS,      (BITS) / 8,      put##BITS##_w,   get##BITS##_w,  put##BITS##_nbi_w,      \
   get##BITS##_nbi_w, NULL,           NULL,            iput##BITS##_w, iget##BITS##_w,         \
   ibput##BITS##_w,  ibget##BITS##_w, make##BITS,      equal##BITS,    show##BITS},
static const struct rma_ops sized_table[] = {
    TANDEM_RMA_SIZES(SIZED_ENTRY)
    {"putmem", 1, putmem_w, getmem_w, putmem_nbi_w, getmem_nbi_w, NULL, NULL, NULL, NULL, NULL,
     NULL, make8, equal8, show8},
};

int main(void) {
  test_init();
  CHECK(sizeof(tandem_uint128_t) == 16, "the 128-bit element has %zu bytes",
        sizeof(tandem_uint128_t));
  rma_check_table(sized_table, sizeof sized_table / sizeof sized_table[0]);
  return test_finish("rma_sized");
}
