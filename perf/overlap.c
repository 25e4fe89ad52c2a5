/* Intra-node copies overlapped with inter-node transfers: the series of the scheduler's paper
 * (Intra, Inter, Inter+work, Mix, Mix+work), each an epoch of non-blocking puts closed by
 * shmem_quiet.  PE 0 is the origin; its targets are up to 3 PEs that share its node (intra)
 * and up to 3 PEs of other nodes (inter), found with shmem_ptr.  Run it on 2 nodes, e.g.
 * `oshrun --nodes 2 -n 4` (1 intra and 2 inter targets) or `-n 8` (3 and 3); the targets
 * only wait (perf_solo_done), sleeping between polls unless PERF_SOLO_POLL=1.
 *
 * Per payload size, one epoch is:
 *  intra       a put_nbi of `size` bytes to each intra target, then quiet
 *  inter       the same to each inter target
 *  mix         a put to every target in the order of their PE numbers (the node peers first,
 *              as a loop over the PEs issues them), then quiet; with -R the inter puts first
 *  inter_work  inter, with a busy-wait compute phase between the puts and the quiet that
 *              lasts half of the inter epoch (work shorter than the network time)
 *  mix_work    mix with the same compute phase
 * With -S (origin-to-self traffic) every epoch that has intra puts also puts `size` bytes to
 * PE 0 itself, which is an intra-node transfer too, first (a PE's own block comes first).
 * Without the scheduler a copy runs on its call site: in Mix, the inter-node puts that follow
 * it wait for it; with the scheduler they are posted first and the copies run while they
 * travel.  -R (inter puts first) is the order in which the two settings do the same.
 *
 * CSV metrics, per size: overlap_<series>_us, the epoch's time (one timer around the
 * iterations, divided by them).  perf/overlap.sh runs it with TANDEM_DEFER_THRESHOLD=off and
 * with the default in the same rounds, on the shaped namespace network, and compares
 * mix against max(intra, inter) and intra + inter. */
#include "perf_shmem.h"

enum { INTRA, INTER, MIX, INTER_WORK, MIX_WORK, SERIES };
static const char* const names[SERIES] = {"intra", "inter", "mix", "inter_work", "mix_work"};

static int intra[3], inter[3], n_intra, n_inter, to_self, inter_first;

static void put_inter(char* dest, const char* source, size_t size) {
  for (int k = 0; k < n_inter; ++k) shmem_putmem_nbi(dest, source, size, inter[k]);
}

static void put_intra(char* dest, const char* source, size_t size) {
  if (to_self) shmem_putmem_nbi(dest + size, source, size, 0);
  for (int k = 0; k < n_intra; ++k) shmem_putmem_nbi(dest, source, size, intra[k]);
}

static void epoch(int series, char* dest, const char* source, size_t size, uint64_t work_turns) {
  if (series == INTRA) {
    put_intra(dest, source, size);
  } else if (series == INTER || series == INTER_WORK) {
    put_inter(dest, source, size);
  } else if (inter_first) {
    put_inter(dest, source, size);
    put_intra(dest, source, size);
  } else {
    put_intra(dest, source, size);
    put_inter(dest, source, size);
  }
  if (series == INTER_WORK || series == MIX_WORK) perf_spin(work_turns);
  shmem_quiet();
}

int main(int argc, char** argv) {
  /* -S and -R are ours; the rest are the common options. */
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "-S") == 0 || strcmp(argv[i], "-R") == 0) {
      *(argv[i][1] == 'S' ? &to_self : &inter_first) = 1;
      for (int j = i; j < argc - 1; ++j) argv[j] = argv[j + 1];
      --argc;
      --i;
    }
  struct perf_opts o = perf_defaults();
  if (o.min_size < 8192) o.min_size = 8192;
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("overlap", &o);
  const int npes = shmem_n_pes();
  char* dest = (char*)shmem_malloc(2 * o.max_size);
  if (dest == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed: raise SHMEM_SYMMETRIC_SIZE or lower -M\n", 2 * o.max_size);
    shmem_global_exit(1);
  }
  memset(dest, 0, 2 * o.max_size);
  for (int pe = 1; pe < npes; ++pe) {
    if (shmem_ptr(dest, pe) != NULL) {
      if (n_intra < 3) intra[n_intra++] = pe;
    } else if (n_inter < 3) {
      inter[n_inter++] = pe;
    }
  }
  if (me == 0 && (n_intra == 0 || n_inter == 0)) {
    fprintf(stderr, "# overlap needs PEs on PE 0's node and on another (got %d and %d): run on 2 nodes, "
                    "e.g. oshrun --nodes 2 -n 4\n", n_intra, n_inter);
    shmem_global_exit(1);
  }
  if (me == 0)
    fprintf(stderr, "# overlap: %d intra-node and %d inter-node targets%s; mix: %s first\n", n_intra, n_inter,
            to_self ? ", plus PE 0 itself" : "", inter_first ? "inter" : "intra");
  char* source = me == 0 ? (char*)perf_alloc(o.max_size) : NULL;
  const double turns_per_us = me == 0 ? perf_spin_calibrate() : 0;
  double t[SERIES][PERF_MAX_REPS];

  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1) {
    const long n = perf_iterations(&o, size * (size_t)(n_intra + n_inter), 32.0 * PERF_MIB, 5, 2000);
    uint64_t work_turns = 0;
    for (int r = 0; r < o.reps; ++r) {
      for (int series = 0; series < SERIES; ++series) {
        shmem_barrier_all();
        if (me == 0) {
          epoch(series, dest, source, size, work_turns); /* warm-up */
          const double t0 = perf_now_us();
          for (long i = 0; i < n; ++i) epoch(series, dest, source, size, work_turns);
          t[series][r] = (perf_now_us() - t0) / (double)n;
          /* The work phase lasts half of this round's inter epoch. */
          if (series == INTER) work_turns = (uint64_t)(0.5 * t[INTER][r] * turns_per_us);
        }
        perf_solo_done(me);
      }
    }
    if (me == 0) {
      char metric[64];
      for (int series = 0; series < SERIES; ++series) {
        snprintf(metric, sizeof metric, "overlap_%s_us", names[series]);
        perf_emit(size, n, metric, t[series], o.reps, 1);
      }
    }
  }
  shmem_barrier_all();
  free(source);
  shmem_free(dest);
  shmem_finalize();
  return 0;
}
