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
 *  NAME_late_us       post to the end of the wait on the ranks other than the last, which
 *                     posts, computes 1 ms without calling MPI, then waits (per call, the
 *                     worst of those ranks)
 *  NAME_late_asleep_us  the same with the last rank asleep for 1 ms instead of computing
 * Post and wait are timed call by call (one collective in flight at a time); the others
 * with one timer around each loop.  Options as the other benchmarks (-m, -M, -r, -i, -x,
 * -P); -c NAME measures that collective only. */
#include "nbc_measure.h"

#include <mpi.h>

static int npes;
static MPI_Request req;
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

static void post(int c, size_t size) {
  const int n = (int)size;
  switch (c) {
    case BROADCAST: MPI_Ibcast(dest, n, MPI_BYTE, 0, MPI_COMM_WORLD, &req); break;
    case FCOLLECT: MPI_Iallgather(source, n, MPI_BYTE, dest, n, MPI_BYTE, MPI_COMM_WORLD, &req); break;
    case ALLTOALL: MPI_Ialltoall(source, n, MPI_BYTE, dest, n, MPI_BYTE, MPI_COMM_WORLD, &req); break;
    default: MPI_Iallreduce(source, dest, n / (int)sizeof(long), MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req); break;
  }
}

static void wait_req(void) { MPI_Wait(&req, MPI_STATUS_IGNORE); }
static void barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }
static void max(double* t, int n) { MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); }
static void min(double* t, int n) { MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD); }

int main(int argc, char** argv) {
  const int only = nbc_only(&argc, argv, "nbc_mpi");
  if (only == -2) return 2;
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
  const struct nbc_lib lib = {npes, me, blocking, post, wait_req, barrier, max, min};
  nbc_measure_all(&lib, only, &o, turns_per_us);
  free(source);
  free(dest);
  MPI_Finalize();
  return 0;
}
