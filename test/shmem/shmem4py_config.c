/* tools/shmem4py.h, the configuration header that shmem4py builds with, says Tandem has a
 * routine or type for each PySHMEM_HAVE_ macro (shmem4py then declares no stand-in of its
 * own).  This program is built with that header included first and takes the address of a
 * routine of each family it names, so a claim the library does not keep fails the build;
 * run on one PE it checks that the macros are all defined. */
#include <shmem.h>
#include <stdio.h>

#define CLAIM(macro, ...) \
  do { \
    const void *const routines[] = {__VA_ARGS__}; \
    if (!(macro)) { fprintf(stderr, "FAIL: %s not defined\n", #macro); ++failures; } \
    for (size_t i = 0; i < sizeof routines / sizeof routines[0]; ++i) \
      if (!routines[i]) { fprintf(stderr, "FAIL: %s: routine %zu missing\n", #macro, i); ++failures; } \
  } while (0)

int main(void) {
  int failures = 0;
  shmem_init();
  CLAIM(PySHMEM_HAVE_shmem_malloc_with_hints, (const void *)shmem_malloc_with_hints);
  shmem_team_t team = SHMEM_TEAM_WORLD;
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  CLAIM(PySHMEM_HAVE_shmem_team_t && PySHMEM_HAVE_SHMEM_CTX_INVALID, (const void *)team, (const void *)&ctx);
  CLAIM(PySHMEM_HAVE_shmem_amo_nbi, (const void *)shmem_int_atomic_fetch_add_nbi,
        (const void *)shmem_ctx_long_atomic_compare_swap_nbi, (const void *)shmem_uint_atomic_fetch_xor_nbi);
  CLAIM(PySHMEM_HAVE_shmem_put_signal, (const void *)shmem_putmem_signal, (const void *)shmem_long_put_signal_nbi);
  CLAIM(PySHMEM_HAVE_shmem_signal_fetch, (const void *)shmem_signal_fetch);
  CLAIM(PySHMEM_HAVE_shmem_signal_wait_until, (const void *)shmem_signal_wait_until);
  CLAIM(PySHMEM_HAVE_shmem_broadcast && PySHMEM_HAVE_shmem_broadcastmem, (const void *)shmem_int_broadcast,
        (const void *)shmem_broadcastmem);
  CLAIM(PySHMEM_HAVE_shmem_collect && PySHMEM_HAVE_shmem_collectmem, (const void *)shmem_int_collect,
        (const void *)shmem_collectmem);
  CLAIM(PySHMEM_HAVE_shmem_fcollect && PySHMEM_HAVE_shmem_fcollectmem, (const void *)shmem_int_fcollect,
        (const void *)shmem_fcollectmem);
  CLAIM(PySHMEM_HAVE_shmem_alltoall && PySHMEM_HAVE_shmem_alltoallmem, (const void *)shmem_int_alltoall,
        (const void *)shmem_alltoallmem);
  CLAIM(PySHMEM_HAVE_shmem_alltoalls && PySHMEM_HAVE_shmem_alltoallsmem, (const void *)shmem_int_alltoalls,
        (const void *)shmem_alltoallsmem);
  CLAIM(PySHMEM_HAVE_shmem_reduce, (const void *)shmem_int_sum_reduce, (const void *)shmem_double_max_reduce,
        (const void *)shmem_uint_and_reduce);
  CLAIM(PySHMEM_HAVE_shmem_wait_test_many, (const void *)shmem_int_wait_until_all_vector,
        (const void *)shmem_long_test_some, (const void *)shmem_int_wait_until_any);
  CLAIM(PySHMEM_HAVE_shmem_pcontrol, (const void *)shmem_pcontrol);
  shmem_finalize();
  if (failures == 0) printf("shmem4py_config: every claim holds\n");
  return failures != 0;
}
