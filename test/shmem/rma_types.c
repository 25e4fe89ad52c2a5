/* Typed RMA for every standard RMA type of the type table: put, get, p, g, iput, iget,
 * ibput, ibget, put_nbi and get_nbi, each plain and as its shmem_ctx_ twin (created
 * contexts and SHMEM_CTX_DEFAULT).  The routines are reached through wrappers generated from
 * TANDEM_RMA_TYPES, so a type added to the table is tested without edits here. */
#include "rma_engine.h"

#define TYPED_WRAPPERS(T, N)                                                                       \
  static void N##_put_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {                \
    if (c) shmem_ctx_##N##_put(c, (T *)d, (const T *)s, n, pe);                                    \
    else shmem_##N##_put((T *)d, (const T *)s, n, pe);                                             \
  }                                                                                                \
  static void N##_get_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {                \
    if (c) shmem_ctx_##N##_get(c, (T *)d, (const T *)s, n, pe);                                    \
    else shmem_##N##_get((T *)d, (const T *)s, n, pe);                                             \
  }                                                                                                \
  static void N##_put_nbi_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {            \
    if (c) shmem_ctx_##N##_put_nbi(c, (T *)d, (const T *)s, n, pe);                                \
    else shmem_##N##_put_nbi((T *)d, (const T *)s, n, pe);                                         \
  }                                                                                                \
  static void N##_get_nbi_w(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) {            \
    if (c) shmem_ctx_##N##_get_nbi(c, (T *)d, (const T *)s, n, pe);                                \
    else shmem_##N##_get_nbi((T *)d, (const T *)s, n, pe);                                         \
  }                                                                                                \
  static void N##_p_w(shmem_ctx_t c, void *d, const void *v, int pe) {                            \
    if (c) shmem_ctx_##N##_p(c, (T *)d, *(const T *)v, pe);                                        \
    else shmem_##N##_p((T *)d, *(const T *)v, pe);                                                 \
  }                                                                                                \
  static void N##_g_w(shmem_ctx_t c, void *out, const void *s, int pe) {                          \
    *(T *)out = c ? shmem_ctx_##N##_g(c, (const T *)s, pe) : shmem_##N##_g((const T *)s, pe);      \
  }                                                                                                \
  static void N##_iput_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,        \
                         size_t n, int pe) {                                                       \
    if (c) shmem_ctx_##N##_iput(c, (T *)d, (const T *)s, ds, ss, n, pe);                           \
    else shmem_##N##_iput((T *)d, (const T *)s, ds, ss, n, pe);                                    \
  }                                                                                                \
  static void N##_iget_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,        \
                         size_t n, int pe) {                                                       \
    if (c) shmem_ctx_##N##_iget(c, (T *)d, (const T *)s, ds, ss, n, pe);                           \
    else shmem_##N##_iget((T *)d, (const T *)s, ds, ss, n, pe);                                    \
  }                                                                                                \
  static void N##_ibput_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,       \
                          size_t b, size_t nb, int pe) {                                           \
    if (c) shmem_ctx_##N##_ibput(c, (T *)d, (const T *)s, ds, ss, b, nb, pe);                      \
    else shmem_##N##_ibput((T *)d, (const T *)s, ds, ss, b, nb, pe);                               \
  }                                                                                                \
  static void N##_ibget_w(shmem_ctx_t c, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,       \
                          size_t b, size_t nb, int pe) {                                           \
    if (c) shmem_ctx_##N##_ibget(c, (T *)d, (const T *)s, ds, ss, b, nb, pe);                      \
    else shmem_##N##_ibget((T *)d, (const T *)s, ds, ss, b, nb, pe);                               \
  }                                                                                                \
  static void N##_make(void *out, long v) {                                                        \
    T value = (T)v;                                                                                \
    memset(out, 0, sizeof(T));                                                                     \
    *(T *)out = value;                                                                             \
  }                                                                                                \
  static int N##_equal(const void *a, const void *b) { return *(const T *)a == *(const T *)b; }   \
  static long double N##_show(const void *a) { return (long double)*(const T *)a; }
TANDEM_RMA_TYPES(TYPED_WRAPPERS)

#define TYPED_ENTRY(T, N)                                                                     \
  {#N,           sizeof(T),     N##_put_w,     N##_get_w,     N##_put_nbi_w, N##_get_nbi_w, \
   N##_p_w,      N##_g_w,       N##_iput_w,    N##_iget_w,    N##_ibput_w,   N##_ibget_w,   \
   N##_make,     N##_equal,     N##_show},
static const struct rma_ops typed_table[] = {TANDEM_RMA_TYPES(TYPED_ENTRY)};

int main(void) {
  test_init();
  const size_t entries = sizeof typed_table / sizeof typed_table[0];
  CHECK(entries >= 24, "the RMA type table has %zu rows, OpenSHMEM 1.6 has 24", entries);
  rma_check_table(typed_table, entries);
  return test_finish("rma_types");
}
