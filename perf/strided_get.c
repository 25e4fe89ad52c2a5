/* Strided gets: shmem_char_iget of 2048 one-byte elements, the same stride at the source
 * and the destination (SKaMPI's Iget_Round), for every stride of the size series capped at
 * 8 KiB (the size column: the stride in bytes; -m 1 starts at 1).  The figure is the time
 * per element.
 *   iget_us          PE 0 gets from PE 1, the others wait (perf_solo_done)
 *   iget_two_way_us  every PE gets from the next one at the same time
 * Each PE checks the elements it got last. */
#include "perf_shmem.h"

#define ELEMENTS 2048
#define MAX_STRIDE 8192

static unsigned char value_of(int pe, size_t i) { return (unsigned char)(pe * 31 + i * 7 + i / 255); }

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("strided_get", &o);
  const size_t top = o.max_size < MAX_STRIDE ? o.max_size : MAX_STRIDE;
  unsigned char* source = (unsigned char*)shmem_malloc(ELEMENTS * top);
  unsigned char* dest = (unsigned char*)perf_alloc(ELEMENTS * top);
  if (source == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed\n", (size_t)ELEMENTS * top);
    shmem_global_exit(1);
  }
  for (size_t i = 0; i < ELEMENTS * top; ++i) source[i] = value_of(me, i);
  const int next = (me + 1) % shmem_n_pes();
  double t[PERF_MAX_REPS];
  for (int two_way = 0; two_way <= 1; ++two_way) {
    for (size_t stride = perf_first_size(&o); stride <= top; stride <<= 1) {
      const long n = perf_iterations(&o, 1, 8, 8, 8); /* 2048 elements each; -x scales */
      const int gets = two_way || me == 0;
      for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
        shmem_barrier_all();
        const double t0 = perf_now_us();
        if (gets)
          for (long i = 0; i < n; ++i)
            shmem_char_iget((char*)dest, (const char*)source, (ptrdiff_t)stride, (ptrdiff_t)stride, ELEMENTS, next);
        if (two_way) shmem_barrier_all();
        else perf_solo_done(me);
        if (r >= 0) t[r] = (perf_now_us() - t0) / (double)n / ELEMENTS;
      }
      if (gets) {
        long bad = 0;
        for (size_t i = 0; i < ELEMENTS; ++i) bad += dest[i * stride] != value_of(next, i * stride);
        if (bad) {
          fprintf(stderr, "# PE %d: %ld of %d elements wrong at stride %zu\n", me, bad, ELEMENTS, stride);
          shmem_global_exit(1);
        }
      }
      if (me == 0) perf_emit(stride, n, two_way ? "iget_two_way_us" : "iget_us", t, o.reps, 1);
    }
  }
  shmem_barrier_all();
  shmem_free(source);
  free(dest);
  shmem_finalize();
  return 0;
}
