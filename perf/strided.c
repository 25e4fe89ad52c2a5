/* Strided puts and gets: shmem_char_iput and shmem_char_iget of 2048 one-byte elements, the
 * same stride at both ends (SKaMPI's Iput_Round and Iget_Round), for every stride of the size
 * series capped at 8 KiB (the size column: the stride in bytes; -m 1 starts at 1).  The
 * figure is the time per element.
 *   iget_us, iput_us                  PE 0 with PE 1, the others wait (perf_solo_done)
 *   iget_two_way_us, iput_two_way_us  every PE with the next one at the same time
 * Each PE checks the elements it got last; after the puts, each checks what the PE before it
 * put and that the bytes between the elements kept their value. */
#include "perf_shmem.h"

#define ELEMENTS 2048
#define MAX_STRIDE 8192
#define UNTOUCHED 0xA5

static unsigned char value_of(int pe, size_t i) { return (unsigned char)(pe * 31 + i * 7 + i / 255); }

static void fail(int me, const char* what, long bad, size_t stride) {
  fprintf(stderr, "# PE %d: %ld of %d elements wrong after %s at stride %zu\n", me, bad, ELEMENTS, what, stride);
  shmem_global_exit(1);
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("strided", &o);
  const int n_pes = shmem_n_pes();
  const size_t top = o.max_size < MAX_STRIDE ? o.max_size : MAX_STRIDE;
  const size_t span = ELEMENTS * top;
  unsigned char* source = (unsigned char*)shmem_malloc(span);
  unsigned char* landing = (unsigned char*)shmem_malloc(span); /* where the puts land */
  unsigned char* dest = (unsigned char*)perf_alloc(span);
  if (source == NULL || landing == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed\n", span);
    shmem_global_exit(1);
  }
  for (size_t i = 0; i < span; ++i) source[i] = value_of(me, i);
  const int next = (me + 1) % n_pes, prev = (me + n_pes - 1) % n_pes;
  double t[PERF_MAX_REPS];
  for (int put = 0; put <= 1; ++put) {
    for (int two_way = 0; two_way <= 1; ++two_way) {
      for (size_t stride = perf_first_size(&o); stride <= top; stride <<= 1) {
        const long n = perf_iterations(&o, 1, 8, 8, 8); /* 2048 elements each; -x scales */
        const int moves = two_way || me == 0;
        memset(landing, UNTOUCHED, span);
        for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
          shmem_barrier_all();
          const double t0 = perf_now_us();
          if (moves && put)
            for (long i = 0; i < n; ++i)
              shmem_char_iput((char*)landing, (const char*)source, (ptrdiff_t)stride, (ptrdiff_t)stride, ELEMENTS, next);
          else if (moves)
            for (long i = 0; i < n; ++i)
              shmem_char_iget((char*)dest, (const char*)source, (ptrdiff_t)stride, (ptrdiff_t)stride, ELEMENTS, next);
          if (two_way) shmem_barrier_all();
          else perf_solo_done(me);
          if (r >= 0) t[r] = (perf_now_us() - t0) / (double)n / ELEMENTS;
        }
        shmem_barrier_all(); /* the puts are complete */
        long bad = 0;
        if (put && (two_way || me == 1 % n_pes))
          for (size_t i = 0; i < ELEMENTS * stride; ++i)
            bad += landing[i] != (i % stride ? UNTOUCHED : value_of(prev, i));
        else if (!put && moves)
          for (size_t i = 0; i < ELEMENTS; ++i) bad += dest[i * stride] != value_of(next, i * stride);
        if (bad) fail(me, put ? "iput" : "iget", bad, stride);
        if (me == 0)
          perf_emit(stride, n, put ? (two_way ? "iput_two_way_us" : "iput_us") : (two_way ? "iget_two_way_us" : "iget_us"),
                    t, o.reps, 1);
      }
    }
  }
  shmem_barrier_all();
  shmem_free(landing);
  shmem_free(source);
  free(dest);
  shmem_finalize();
  return 0;
}
