/* MPI's nonblocking collectives, measured as perf/README.md measures nonblocking operations
 * (Full, Post, Wait, Overlap; a busy-wait compute phase with no library call inside it):
 * the reference that nonblocking OpenSHMEM collectives are held against.  Built with mpicc
 * (`make perf` where configure found it); run with mpirun, for example
 *
 *   mpirun -np 2 build/perf/nbc_mpi -m 8 -M 4M                      # one node (shared memory)
 *   mpirun -np 2 --mca btl tcp,self build/perf/nbc_mpi -m 8 -M 4M  # over TCP, as across nodes
 *
 * For each collective NAME (broadcast: MPI_Ibcast from rank 0 of SIZE bytes; fcollect:
 * MPI_Iallgather of SIZE bytes from each rank; alltoall: MPI_Ialltoall of SIZE bytes a pair;
 * sum_reduce: MPI_Iallreduce of SIZE bytes of longs with MPI_SUM), on every rank at once,
 * each figure the worst rank's:
 *  NAME_blocking_us   the blocking routine (MPI_Bcast, ...), per call
 *  NAME_full_us       the nonblocking routine immediately followed by MPI_Wait, per call
 *  NAME_post_us       the nonblocking call alone (its return), per call
 *  NAME_compute_us    the compute phase placed between post and wait (about twice the
 *                     worst rank's NAME_full_us, the same on every rank)
 *  NAME_wait_us       the MPI_Wait after the compute phase, per call
 *  NAME_overlap_us    post + compute + wait, minus the compute alone: communication time
 *                     the compute did not hide
 *  NAME_overlap_pct   100 * (1 - NAME_overlap_us / NAME_full_us), each rank its own, the
 *                     lowest over the ranks (0: nothing hidden, 100: all)
 * Post and wait are timed call by call (one collective in flight at a time); the others
 * with one timer around each loop.  Options as the other benchmarks (-m, -M, -r, -i, -x,
 * -P); -c NAME measures that collective only. */
#include "perf_common.h"

#include <mpi.h>

enum { BROADCAST, FCOLLECT, ALLTOALL, SUM_REDUCE, COLLECTIVES };
static const char* const names[COLLECTIVES] = {"broadcast", "fcollect", "alltoall", "sum_reduce"};

static int npes;
static char *source, *dest;

static void blocking(int c, size_t size) {
  const int n = (int)size;
  switch (c) {
    case BROADCAST: MPI_Bcast(dest, n, MPI_BYTE, 0, MPI_COMM_WORLD); break;
    case FCOLLECT: MPI_Allgather(source, n, MPI_BYTE, dest, n, MPI_BYTE, MPI_COMM_WORLD); break;
    case ALLTOALL: MPI_Alltoall(source, n, MPI_BYTE, dest, n, MPI_BYTE, MPI_COMM_WORLD); break;
    default: MPI_Allreduce(source, dest, n / (int)sizeof(long), MPI_LONG, MPI_SUM, MPI_COMM_WORLD); break;
  }
}

static void post(int c, size_t size, MPI_Request* req) {
  const int n = (int)size;
  switch (c) {
    case BROADCAST: MPI_Ibcast(dest, n, MPI_BYTE, 0, MPI_COMM_WORLD, req); break;
    case FCOLLECT: MPI_Iallgather(source, n, MPI_BYTE, dest, n, MPI_BYTE, MPI_COMM_WORLD, req); break;
    case ALLTOALL: MPI_Ialltoall(source, n, MPI_BYTE, dest, n, MPI_BYTE, MPI_COMM_WORLD, req); break;
    default: MPI_Iallreduce(source, dest, n / (int)sizeof(long), MPI_LONG, MPI_SUM, MPI_COMM_WORLD, req); break;
  }
}

/* t[r] becomes the largest over the ranks of every rank's t[r]. */
static void worst(double* t, int reps) { MPI_Allreduce(MPI_IN_PLACE, t, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); }

static void measure(int c, size_t size, const struct perf_opts* o, double turns_per_us, int me) {
  /* Each call moves about size * npes bytes through a rank (size for the broadcast). */
  const size_t moved = c == BROADCAST || c == SUM_REDUCE ? size : size * (size_t)npes;
  const long n = perf_iterations(o, moved, 64.0 * PERF_MIB, 10, 2000);
  double tb[PERF_MAX_REPS], tf[PERF_MAX_REPS], tp[PERF_MAX_REPS], tw[PERF_MAX_REPS], tt[PERF_MAX_REPS],
      tc[PERF_MAX_REPS];
  MPI_Request req;
  for (long i = 0; i < n / 10 + 1; ++i) blocking(c, size);
  for (int r = 0; r < o->reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = perf_now_us();
    for (long i = 0; i < n; ++i) blocking(c, size);
    tb[r] = (perf_now_us() - t0) / (double)n;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = perf_now_us();
    for (long i = 0; i < n; ++i) {
      post(c, size, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    tf[r] = (perf_now_us() - t0) / (double)n;

    MPI_Barrier(MPI_COMM_WORLD);
    double posting = 0;
    for (long i = 0; i < n; ++i) {
      const double t1 = perf_now_us();
      post(c, size, &req);
      posting += perf_now_us() - t1;
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    tp[r] = posting / (double)n;
  }
  worst(tb, o->reps);
  worst(tf, o->reps);
  worst(tp, o->reps);
  const struct perf_stat full = perf_stats(tf, o->reps, 1);

  /* The compute phase: twice the worst rank's Full, checked against the clock on each rank. */
  const uint64_t turns = perf_compute_turns(2.0 * full.best, turns_per_us, n);
  for (int r = 0; r < o->reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double waiting = 0;
    double t0 = perf_now_us();
    for (long i = 0; i < n; ++i) {
      post(c, size, &req);
      perf_spin(turns);
      const double t1 = perf_now_us();
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      waiting += perf_now_us() - t1;
    }
    tt[r] = (perf_now_us() - t0) / (double)n;
    tw[r] = waiting / (double)n;
    t0 = perf_now_us();
    for (long i = 0; i < n; ++i) perf_spin(turns);
    tc[r] = (perf_now_us() - t0) / (double)n;
  }
  /* Each rank's own Overlap (the difference of its loops' best, and of their medians: noise
   * only adds time), then the worst over the ranks. */
  const struct perf_stat own_total = perf_stats(tt, o->reps, 1), own_compute = perf_stats(tc, o->reps, 1),
                         own_full = perf_stats(tf, o->reps, 1);
  double overlap[2] = {own_total.best - own_compute.best, own_total.median - own_compute.median};
  double pct[2] = {own_full.best > 0 ? 100.0 * (1.0 - overlap[0] / own_full.best) : 0,
                   own_full.median > 0 ? 100.0 * (1.0 - overlap[1] / own_full.median) : 0};
  MPI_Allreduce(MPI_IN_PLACE, overlap, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, pct, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  worst(tw, o->reps);
  worst(tc, o->reps);
  if (me != 0) return;
  char metric[64];
  const char* name = names[c];
  snprintf(metric, sizeof metric, "%s_blocking_us", name);
  perf_emit(size, n, metric, tb, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_full_us", name);
  perf_emit_stat(size, n, metric, full);
  snprintf(metric, sizeof metric, "%s_post_us", name);
  perf_emit(size, n, metric, tp, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_compute_us", name);
  perf_emit(size, n, metric, tc, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_wait_us", name);
  perf_emit(size, n, metric, tw, o->reps, 1);
  snprintf(metric, sizeof metric, "%s_overlap_us", name);
  perf_emit_stat(size, n, metric, (struct perf_stat){overlap[0], overlap[1]});
  snprintf(metric, sizeof metric, "%s_overlap_pct", name);
  perf_emit_stat(size, n, metric, (struct perf_stat){pct[0], pct[1]});
}

int main(int argc, char** argv) {
  int only = -1;
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], "-c") != 0) continue;
    for (int c = 0; c < COLLECTIVES; ++c)
      if (strcmp(argv[i + 1], names[c]) == 0) only = c;
    if (only < 0) {
      fprintf(stderr, "# nbc_mpi: -c takes broadcast, fcollect, alltoall or sum_reduce, not '%s'\n", argv[i + 1]);
      return 2;
    }
    for (int j = i; j + 2 < argc; ++j) argv[j] = argv[j + 2];
    argc -= 2;
    break;
  }
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int cpus_at_start = perf_affinity_count();
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &npes);
  if (npes < 2) {
    if (me == 0) fprintf(stderr, "# nbc_mpi needs at least 2 ranks (got %d)\n", npes);
    MPI_Finalize();
    return 1;
  }
  const int core = o.pin ? perf_pin(me) : -1;
  if (me < 2)
    fprintf(stderr, "# nbc_mpi: rank %d of %d, %d usable cpu(s) at start, %s %d\n", me, npes, cpus_at_start,
            core >= 0 ? "pinned to core" : "not pinned, on cpu", core >= 0 ? core : sched_getcpu());
  const double turns_per_us = perf_spin_calibrate();
  if (me == 0) perf_header("nbc_mpi", &o);
  source = perf_alloc(o.max_size * (size_t)npes);
  dest = perf_alloc(o.max_size * (size_t)npes);
  for (int c = 0; c < COLLECTIVES; ++c) {
    if (only >= 0 && c != only) continue;
    for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1)
      if (c != SUM_REDUCE || size >= sizeof(long)) measure(c, size, &o, turns_per_us, me);
  }
  free(source);
  free(dest);
  MPI_Finalize();
  return 0;
}
