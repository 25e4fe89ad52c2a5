/* A program that uses MPI and OpenSHMEM together, in either initialisation order:
 *   hybrid mpi-first | shmem-first
 * Every PE adds rank+1 to a counter on PE 0 with a SHMEM atomic and takes the sum of rank+1
 * with MPI_Allreduce; each passes a token to its right neighbour with MPI_Sendrecv and with
 * a shmem_put.  Both libraries must see the same job: as many MPI ranks as PEs, each PE's
 * MPI rank in MPI_COMM_WORLD equal to its PE number (as every launcher that serves both
 * gives them), both sums n(n+1)/2.  PE 0 prints "hybrid: passed on N PE(s) (ORDER)"; any
 * disagreement is printed and ends the job with status 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "../shmem/common.h"

static long counter;
static long token;

static int check(int ok, const char *what, long got, long expected, int me) {
  if (!ok) fprintf(stderr, "hybrid: PE %d: %s: got %ld, expected %ld\n", me, what, got, expected);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "mpi-first") != 0 && strcmp(argv[1], "shmem-first") != 0)) {
    fprintf(stderr, "usage: hybrid mpi-first|shmem-first\n");
    return 2;
  }
  const int mpi_first = strcmp(argv[1], "mpi-first") == 0;
  test_record_pid();
  if (mpi_first) {
    MPI_Init(&argc, &argv);
    shmem_init();
  } else {
    shmem_init();
    MPI_Init(&argc, &argv);
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int me = shmem_my_pe(), npes = shmem_n_pes();

  int ok = check(size == npes, "MPI_COMM_WORLD's size against shmem_n_pes", size, npes, me);
  ok &= check(rank == me, "the MPI rank against the PE number", rank, me, me);

  shmem_long_atomic_add(&counter, me + 1, 0);
  const long mine = rank + 1, expected = (long)npes * (npes + 1) / 2;
  long mpi_sum = 0;
  MPI_Allreduce(&mine, &mpi_sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  shmem_barrier_all();
  const long shmem_sum = shmem_long_atomic_fetch(&counter, 0);
  ok &= check(mpi_sum == expected, "MPI_Allreduce's sum", mpi_sum, expected, me);
  ok &= check(shmem_sum == expected, "the SHMEM atomic sum", shmem_sum, expected, me);

  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  long sent = 1000 + me, received = -1;
  if (size == npes) {
    MPI_Sendrecv(&sent, 1, MPI_LONG, (rank + 1) % size, 7, &received, 1, MPI_LONG,
                 (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ok &= check(received == 1000 + left, "the token from MPI_Sendrecv", received, 1000 + left, me);
  }
  shmem_long_put(&token, &sent, 1, right);
  shmem_barrier_all();
  ok &= check(token == 1000 + left, "the token from shmem_put", token, 1000 + left, me);

  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (!ok || !all_ok) shmem_global_exit(1);
  if (me == 0) printf("hybrid: passed on %d PE(s) (%s)\n", npes, argv[1]);

  if (mpi_first) {
    shmem_finalize();
    MPI_Finalize();
  } else {
    MPI_Finalize();
    shmem_finalize();
  }
  return 0;
}
