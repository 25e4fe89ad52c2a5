/* Reference for intra-node put bandwidth and latency: single-thread memcpy, one process,
 * pinned to core 0, no OpenSHMEM.  The patterns are those of put_bw and put_latency:
 *
 *  memcpy_bw_MBps         windows of `window` memcpy calls then one store fence, repeated;
 *                         message k goes from source + k*size to dest + k*size, wrapping at
 *                         the end of a `span`-byte region (default 128 MiB, more than the
 *                         caches hold); dest is private memory
 *  memcpy_shared_bw_MBps  the same with dest in an anonymous MAP_SHARED mapping, the kind of
 *                         memory (shared, small pages) that a peer's symmetric heap is
 *  memcpy_latency_us      one memcpy then a store fence, repeated on the same buffers (as
 *                         put_latency repeats put + quiet)
 *  memcpy_first_touch_MBps (size: the span) 1 MiB memcpy calls over the whole span of a
 *                         second mapping of shared memory that the first mapping has already
 *                         written: the pages exist but this mapping has not touched them yet,
 *                         as a peer's heap the first time a PE writes into it */
#include "perf_common.h" /* first: it defines _GNU_SOURCE */

#include <sys/mman.h>

static void copy_windows(struct perf_stream* s, long windows, int window) {
  for (long w = 0; w < windows; ++w) {
    for (int k = 0; k < window; ++k) {
      memcpy(s->dest + s->off, s->source + s->off, s->size);
      perf_stream_next(s);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  }
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  perf_place("ref_memcpy", 0, o.pin);
  perf_header("ref_memcpy", &o);

  char* source = (char*)perf_alloc(o.span);
  char* private_dest = (char*)perf_alloc(o.span);
  char* shared_dest = (char*)perf_map_shared(o.span);
  double t[PERF_MAX_REPS];

  {
    const int fd = memfd_create("perf_first_touch", 0);
    char *writer = MAP_FAILED, *fresh = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)o.span) == 0) {
      writer = (char*)mmap(NULL, o.span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      fresh = (char*)mmap(NULL, o.span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    if (writer != MAP_FAILED && fresh != MAP_FAILED) {
      memset(writer, 0, o.span);
      const size_t chunk = o.span < PERF_MIB ? o.span : PERF_MIB;
      const size_t passes = o.span / chunk;
      const double t0 = perf_now_us();
      for (size_t k = 0; k < passes; ++k) memcpy(fresh + k * chunk, source + k * chunk, chunk);
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
      printf("%zu,%zu,memcpy_first_touch_MBps,%.6g\n", passes * chunk, passes,
             (double)(passes * chunk) / (perf_now_us() - t0));
    } else {
      fprintf(stderr, "# ref_memcpy: no second mapping for the first-touch figure\n");
    }
    if (writer != MAP_FAILED) munmap(writer, o.span);
    if (fresh != MAP_FAILED) munmap(fresh, o.span);
    if (fd >= 0) close(fd);
  }

  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1) {
    /* Same iteration counts as put_latency and put_bw. */
    const long n = perf_iterations(&o, size, 64.0 * PERF_MIB, 20, 100000);
    for (long i = 0; i < n / 10 + 1; ++i) {
      memcpy(private_dest, source, size);
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    for (int r = 0; r < o.reps; ++r) {
      const double t0 = perf_now_us();
      for (long i = 0; i < n; ++i) {
        memcpy(private_dest, source, size);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
      }
      t[r] = (perf_now_us() - t0) / (double)n;
    }
    perf_emit(size, n, "memcpy_latency_us", t, o.reps, 1);

    const long windows = perf_iterations(&o, size * (size_t)o.window, 64.0 * PERF_MIB, 1, 20000);
    for (int shared = 0; shared <= 1; ++shared) {
      struct perf_stream s = {shared ? shared_dest : private_dest, source, size, perf_wrap(&o, size), 0};
      copy_windows(&s, windows / 10 + 1, o.window);
      for (int r = 0; r < o.reps; ++r) {
        const double t0 = perf_now_us();
        copy_windows(&s, windows, o.window);
        t[r] = (double)windows * (double)o.window * (double)size / (perf_now_us() - t0);
      }
      perf_emit(size, windows * o.window, shared ? "memcpy_shared_bw_MBps" : "memcpy_bw_MBps", t, o.reps, 0);
    }
  }

  munmap(shared_dest, o.span);
  free(private_dest);
  free(source);
  return 0;
}
