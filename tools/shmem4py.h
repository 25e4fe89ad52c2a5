/* Tandem for shmem4py, the Python binding of OpenSHMEM (mpi4py/shmem4py).  shmem4py knows
 * five implementations by their macros; for any other it declares stand-ins of the
 * OpenSHMEM 1.5 routines it may miss, which clash with the real ones in Tandem's shmem.h.
 * Tandem has every one of them, and says so here.  Installed as
 * $prefix/share/tandem/shmem4py.h; build shmem4py with it included first:
 *
 *   CC=oshcc CFLAGS="-include $prefix/share/tandem/shmem4py.h" python3 setup.py build
 *
 * (README, "From Python"). */
#ifndef TANDEM_SHMEM4PY_H
#define TANDEM_SHMEM4PY_H

#define PySHMEM_HAVE_shmem_malloc_with_hints 1
#define PySHMEM_HAVE_shmem_team_t 1
#define PySHMEM_HAVE_SHMEM_CTX_INVALID 1
#define PySHMEM_HAVE_shmem_amo_nbi 1
#define PySHMEM_HAVE_shmem_put_signal 1
#define PySHMEM_HAVE_shmem_signal_fetch 1
#define PySHMEM_HAVE_shmem_signal_wait_until 1
#define PySHMEM_HAVE_shmem_broadcast 1
#define PySHMEM_HAVE_shmem_collect 1
#define PySHMEM_HAVE_shmem_fcollect 1
#define PySHMEM_HAVE_shmem_alltoall 1
#define PySHMEM_HAVE_shmem_alltoalls 1
#define PySHMEM_HAVE_shmem_broadcastmem 1
#define PySHMEM_HAVE_shmem_collectmem 1
#define PySHMEM_HAVE_shmem_fcollectmem 1
#define PySHMEM_HAVE_shmem_alltoallmem 1
#define PySHMEM_HAVE_shmem_alltoallsmem 1
#define PySHMEM_HAVE_shmem_reduce 1
#define PySHMEM_HAVE_shmem_wait_test_many 1
#define PySHMEM_HAVE_shmem_pcontrol 1

#endif
