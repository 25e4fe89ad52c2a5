/* Put bandwidth and the non-blocking put breakdown.  PE 0 puts to PE 1; PE 1 only waits in
 * barriers.  Messages walk through a `span`-byte region (default 128 MiB, more than the
 * caches hold) on both sides: message k of a stream goes from source + k*size to
 * dest + k*size, wrapping at the end of the span, as perf/ref_memcpy does with memcpy.  PE 1
 * sleeps while PE 0 is timed (perf_solo_done), as the reference's other core idles.
 *
 * Before any timed stream, PE 0 writes the whole span of PE 1's heap once with 1 MiB puts, so
 * that the streams find every page of it mapped in PE 0; that first pass is reported apart.
 *
 * CSV metrics:
 *  put_first_touch_MBps  (size: the span) the first pass over PE 1's freshly written heap
 * and per size:
 *  put_bw_MBps           windows of `window` shmem_putmem_nbi then one shmem_quiet, repeated;
 *                        bytes moved / time, in MB/s (10^6 bytes per second)
 *  put_blocking_bw_MBps  the same stream with shmem_putmem
 *  nbi_full_us           shmem_putmem_nbi immediately followed by shmem_quiet, per operation
 *  nbi_post_us           shmem_putmem_nbi alone (the quiet comes after the timed loop)
 *  nbi_quiet_us          nbi_full_us - nbi_post_us: what the quiet adds after the post
 *  nbi_compute_us        the busy-wait compute phase placed between post and quiet
 *                        (about twice nbi_full_us)
 *  nbi_overlap_us        post + compute + quiet, minus the compute alone (each loop's best,
 *                        or each loop's median): communication time the compute did not hide
 *  nbi_overlap_pct       100 * (1 - nbi_overlap_us / nbi_full_us): share of the transfer
 *                        hidden behind the compute (0: none, 100: all) */
#include "perf_shmem.h"

static void put_windows(struct perf_stream* s, long windows, int window, int nbi) {
  for (long w = 0; w < windows; ++w) {
    for (int k = 0; k < window; ++k) {
      if (nbi) shmem_putmem_nbi(s->dest + s->off, s->source + s->off, s->size, 1);
      else shmem_putmem(s->dest + s->off, s->source + s->off, s->size, 1);
      perf_stream_next(s);
    }
    shmem_quiet();
  }
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("put_bw", &o);
  char* dest = (char*)shmem_malloc(o.span);
  if (dest == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed: raise SHMEM_SYMMETRIC_SIZE or lower -s\n", o.span);
    shmem_global_exit(1);
  }
  memset(dest, 0, o.span);
  char* source = me == 0 ? (char*)perf_alloc(o.span) : NULL;
  const double turns_per_us = me == 0 ? perf_spin_calibrate() : 0;
  if (me == 0) fprintf(stderr, "# put_bw: busy-wait compute runs %.1f loop turns per us\n", turns_per_us);
  shmem_barrier_all();
  double t[PERF_MAX_REPS], t2[PERF_MAX_REPS], t3[PERF_MAX_REPS], t4[PERF_MAX_REPS];

  if (me == 0) {
    const size_t chunk = o.span < PERF_MIB ? o.span : PERF_MIB;
    const size_t passes = o.span / chunk;
    const double t0 = perf_now_us();
    for (size_t k = 0; k < passes; ++k) shmem_putmem(dest + k * chunk, source + k * chunk, chunk, 1);
    shmem_quiet();
    t[0] = (double)(passes * chunk) / (perf_now_us() - t0);
    printf("%zu,%zu,put_first_touch_MBps,%.6g\n", passes * chunk, passes, t[0]);
  }
  perf_solo_done(me);

  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1) {
    struct perf_stream s = {dest, source, size, perf_wrap(&o, size), 0};

    /* Streams. */
    const long windows = perf_iterations(&o, size * (size_t)o.window, 64.0 * PERF_MIB, 1, 20000);
    for (int nbi = 1; nbi >= 0; --nbi) {
      if (me == 0) put_windows(&s, windows / 10 + 1, o.window, nbi);
      for (int r = 0; r < o.reps; ++r) {
        shmem_barrier_all();
        if (me == 0) {
          const double t0 = perf_now_us();
          put_windows(&s, windows, o.window, nbi);
          t[r] = (double)windows * (double)o.window * (double)size / (perf_now_us() - t0);
        }
        perf_solo_done(me);
      }
      if (me == 0)
        perf_emit(size, windows * o.window, nbi ? "put_bw_MBps" : "put_blocking_bw_MBps", t, o.reps, 0);
    }

    /* Non-blocking breakdown. */
    const long n = perf_iterations(&o, size, 64.0 * PERF_MIB, 20, 20000);
    struct perf_stat full = {0, 0}, post = {0, 0};
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      if (me != 0) {
        perf_solo_done(me);
        continue;
      }
      double t0 = perf_now_us();
      for (long i = 0; i < n; ++i) {
        shmem_putmem_nbi(s.dest + s.off, s.source + s.off, size, 1);
        shmem_quiet();
        perf_stream_next(&s);
      }
      t[r] = (perf_now_us() - t0) / (double)n;
      t0 = perf_now_us();
      for (long i = 0; i < n; ++i) {
        shmem_putmem_nbi(s.dest + s.off, s.source + s.off, size, 1);
        perf_stream_next(&s);
      }
      t2[r] = (perf_now_us() - t0) / (double)n;
      shmem_quiet();
      perf_solo_done(me);
    }
    if (me == 0) {
      full = perf_emit(size, n, "nbi_full_us", t, o.reps, 1);
      post = perf_emit(size, n, "nbi_post_us", t2, o.reps, 1);
      const struct perf_stat quiet = {full.best - post.best, full.median - post.median};
      perf_emit_stat(size, n, "nbi_quiet_us", quiet);
    }
    /* The compute phase: about twice Full, checked against the clock once per size. */
    const uint64_t turns = me == 0 ? perf_compute_turns(2.0 * full.best, turns_per_us, n) : 0;
    for (int r = 0; r < o.reps; ++r) {
      shmem_barrier_all();
      if (me != 0) {
        perf_solo_done(me);
        continue;
      }
      double t0 = perf_now_us();
      for (long i = 0; i < n; ++i) {
        shmem_putmem_nbi(s.dest + s.off, s.source + s.off, size, 1);
        perf_spin(turns);
        shmem_quiet();
        perf_stream_next(&s);
      }
      t3[r] = (perf_now_us() - t0) / (double)n;
      t0 = perf_now_us();
      for (long i = 0; i < n; ++i) perf_spin(turns);
      t4[r] = (perf_now_us() - t0) / (double)n;
      perf_solo_done(me);
    }
    if (me == 0) {
      /* Noise only adds time, so each loop's best (and median) estimates it; Overlap is
       * the difference of the two estimates, not the best of per-repetition differences. */
      const struct perf_stat total = perf_stats(t3, o.reps, 1);
      const struct perf_stat compute = perf_emit(size, n, "nbi_compute_us", t4, o.reps, 1);
      const struct perf_stat overlap = {total.best - compute.best, total.median - compute.median};
      perf_emit_stat(size, n, "nbi_overlap_us", overlap);
      const struct perf_stat pct = {full.best > 0 ? 100.0 * (1.0 - overlap.best / full.best) : 0,
                                    full.median > 0 ? 100.0 * (1.0 - overlap.median / full.median) : 0};
      perf_emit_stat(size, n, "nbi_overlap_pct", pct);
    }
  }

  shmem_barrier_all();
  shmem_free(dest);
  free(source);
  shmem_finalize();
  return 0;
}
