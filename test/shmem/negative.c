/* Programs that make one bad call each, chosen by argv[1].  The last PE makes the call while
 * the others wait in a barrier, so the launcher must also bring down PEs that did nothing
 * wrong.  The expected outcome (exit status and the message naming the call, the PE and the
 * argument) is checked by expect_failure.sh; see tests.cmake.
 *
 *   pe_out_of_range   shmem_int_put to pe = 7
 *   stack_dest        shmem_int_put with dest on the stack
 *   malloc_dest       shmem_long_put with dest from malloc
 *   heap_overrun      shmem_putmem of 4 MiB into a heap object (run with
 *                     SHMEM_SYMMETRIC_SIZE=1M)
 *   object_end        shmem_putmem of 4 MiB from the last byte of a 512 KiB heap object
 *                     (SHMEM_SYMMETRIC_SIZE=1M)
 *   before_init       shmem_int_put before shmem_init (every PE)
 *   bad_thread_level  shmem_init_thread with requested = 7 (every PE)
 *   null_dest         shmem_int_put with dest = NULL and 4 elements
 *   null_source       shmem_getmem with source = NULL and 16 bytes
 *   bad_cmp           shmem_int_wait_until with cmp = 42
 *   bad_test_cmp      shmem_long_test_any with cmp = -3
 *   bad_sig_op        shmem_putmem_signal with sig_op = 5
 *   notify_tag        shmemx_putmem_notify with tag = -3
 *   notify_pe         shmemx_long_get_notify_nbi from pe = 9
 *   debug_overrun     shmem_putmem of 4096 bytes into a 64-byte object that is followed
 *                     by another object (run with SHMEM_DEBUG=1)
 *   global_put_overrun  shmem_long_put of 8 elements into a static long[4] (run with
 *                     SHMEM_DEBUG=1)
 *   global_get_overrun  shmem_long_get of 8 elements from a static long[4] (SHMEM_DEBUG=1)
 *   invalid_ctx       shmem_ctx_int_put with SHMEM_CTX_INVALID
 *   invalid_team      shmem_int_sum_reduce on SHMEM_TEAM_INVALID
 *   destroyed_ctx     shmem_ctx_long_put on a context destroyed before
 *   garbage_ctx       shmem_ctx_long_put on a pointer that is no context
 *   destroyed_team    shmem_team_translate_pe from a team every PE destroyed before
 *   garbage_team      shmem_team_sync on a pointer that is no team
 *   bad_root          shmem_long_broadcast on SHMEM_TEAM_WORLD from PE_root = 99
 *   req_twice         shmemx_req_wait on a copy of a request that every PE completed before
 *   req_garbage       shmemx_req_test on a pointer that is no request
 *   req_null          shmemx_long_sum_reduce_nbi with req = NULL
 *   nbi_destroyed_team  shmemx_team_sync_nbi on a team every PE destroyed before
 *   nbi_overlap       shmemx_long_fcollect_nbi into the dest of a broadcast still in flight
 *                     (SHMEM_DEBUG=1, 2 PEs or more: the others are in a barrier)
 *   bad_active_set    shmem_barrier with PE_size = 0
 *   team_ctx_pe       shmem_ctx_long_p on a SHMEM_TEAM_SHARED context to pe = 64
 *   win_no_epoch      shmemx_win_long_put with no epoch open (every PE made the window)
 *   win_outside       shmemx_win_putmem under a lock, to an object past the window's end
 *   win_unlock        shmemx_win_unlock of PE 0, which was not locked
 *   win_lock_type     shmemx_win_lock with lock_type = 7
 *   win_group         shmemx_win_start with PE 0 named twice
 *   win_acc_op        shmemx_win_long_accumulate with op = 9, under a lock
 *   win_acc_real      shmemx_win_double_accumulate with SHMEMX_WIN_BAND, under a lock
 *   win_acc_align     shmemx_win_long_accumulate to a dest 4 bytes into the window
 *   bad_free          shmem_free of a pointer that shmem_malloc did not return
 *   negative_pe       shmem_long_atomic_fetch_add to pe = -1
 *   global_exit       shmem_global_exit(3) from the last PE
 *   zero_size_write   every PE gets NULL from shmem_malloc(0); the last writes through it
 *   none              no bad call: exits 0 (a control for the test driver)
 *   global_exact      no bad call either: every PE puts and gets exactly the 4 elements of
 *                     the static long[4] of the overrun cases, checks them and exits 0 (the
 *                     SHMEM_DEBUG bounds of globals must let an exact fit through)
 */
#include <signal.h>
#include <time.h>

#include <shmemx.h>

#include "common.h"

static int global_int[4];
/* Initialised, so in .data: .bss follows it, and a short overrun stays inside the segment. */
static long bounded[4] = {1, 2, 3, 4};

static void usage(const char *argv0) {
  fprintf(stderr, "usage: %s CASE (see the source for the list)\n", argv0);
  exit(2);
}

int main(int argc, char **argv) {
  if (argc < 2) usage(argv[0]);
  const char *c = argv[1];
  test_record_pid();
  int src[4] = {1, 2, 3, 4};

  if (strcmp(c, "before_init") == 0) {
    shmem_int_put(global_int, src, 4, 0);
    fprintf(stderr, "shmem_int_put before shmem_init returned\n");
    return 0;
  }
  if (strcmp(c, "bad_thread_level") == 0) {
    int provided;
    shmem_init_thread(7, &provided);
    fprintf(stderr, "shmem_init_thread(7) returned\n");
    return 0;
  }
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int culprit = npes - 1;
  const size_t four_mib = 4u << 20;
  char *big = malloc(four_mib);
  memset(big, 1, four_mib);
  char *object = shmem_malloc(64);
  char *after = shmem_malloc(64);
  char *near_end = NULL;
  if (strcmp(c, "object_end") == 0) near_end = shmem_malloc(512 * 1024);
  int *zero_size = NULL;
  if (strcmp(c, "zero_size_write") == 0) {
    signal(SIGSEGV, SIG_DFL); /* as in the crash case: no sanitizer's handler */
    zero_size = shmem_malloc(0); /* NULL on every PE, as the standard says */
  }
  shmemx_win_t win = SHMEMX_WIN_INVALID;
  if (strncmp(c, "win_", 4) == 0) shmemx_win_create(SHMEM_TEAM_WORLD, object, 64, &win);
  shmem_team_t destroyed_team = SHMEM_TEAM_INVALID;
  if (strcmp(c, "destroyed_team") == 0 || strcmp(c, "nbi_destroyed_team") == 0) {
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &destroyed_team);
    shmem_team_destroy(destroyed_team);
  }
  shmemx_req_h completed = SHMEMX_REQ_NULL, copy = SHMEMX_REQ_NULL;
  if (strcmp(c, "req_twice") == 0) {
    shmemx_team_sync_nbi(SHMEM_TEAM_WORLD, &completed);
    copy = completed;
    shmemx_req_wait(&completed);
  }
  shmem_barrier_all();
  if (strcmp(c, "none") == 0) {
    shmem_barrier_all();
    free(big);
    shmem_finalize();
    return 0;
  }
  if (strcmp(c, "global_exact") == 0) {
    const int right = (me + 1) % npes;
    long mine[4] = {me, me + 1, me + 2, me + 3}, fetched[4];
    shmem_long_put(bounded, mine, 4, right);
    shmem_barrier_all();
    const int left = (me + npes - 1) % npes;
    for (int i = 0; i < 4; ++i) CHECK(bounded[i] == left + i, "bounded[%d] = %ld after put", i, bounded[i]);
    shmem_long_get(fetched, bounded, 4, right);
    for (int i = 0; i < 4; ++i) CHECK(fetched[i] == me + i, "fetched[%d] = %ld after get", i, fetched[i]);
    shmem_long_p(&bounded[3], -1, right);
    shmem_barrier_all();
    CHECK(bounded[3] == -1, "bounded[3] = %ld after p", bounded[3]);
    free(big);
    shmem_finalize();
    return 0;
  }
  if (me != culprit) {
    /* Innocent PEs wait here until the launcher ends the job (twice: shmem_free, in the
     * bad_free case, is collective and gets the culprit through one barrier first). */
    shmem_barrier_all();
    shmem_barrier_all();
    fprintf(stderr, "PE %d: the job was not ended after PE %d's bad call\n", me, culprit);
    shmem_finalize();
    return 0;
  }

  if (strcmp(c, "pe_out_of_range") == 0) {
    shmem_int_put(global_int, src, 4, 7);
  } else if (strcmp(c, "stack_dest") == 0) {
    int on_stack[4];
    shmem_int_put(on_stack, src, 4, 0);
  } else if (strcmp(c, "malloc_dest") == 0) {
    long *private_memory = malloc(4 * sizeof(long));
    long lsrc[4] = {0, 0, 0, 0};
    shmem_long_put(private_memory, lsrc, 4, 0);
  } else if (strcmp(c, "heap_overrun") == 0) {
    shmem_putmem(object, big, four_mib, 0);
  } else if (strcmp(c, "object_end") == 0) {
    shmem_putmem(near_end ? near_end + 512 * 1024 - 1 : object, big, four_mib, 0);
  } else if (strcmp(c, "null_dest") == 0) {
    shmem_int_put(NULL, src, 4, 0);
  } else if (strcmp(c, "null_source") == 0) {
    shmem_getmem(object, NULL, 16, 0);
  } else if (strcmp(c, "bad_cmp") == 0) {
    shmem_int_wait_until(global_int, 42, 0);
  } else if (strcmp(c, "bad_test_cmp") == 0) {
    long *ivars = shmem_calloc(4, sizeof(long));
    shmem_long_test_any(ivars, 4, NULL, -3, 0);
  } else if (strcmp(c, "bad_sig_op") == 0) {
    uint64_t *sig = (uint64_t *)after;
    shmem_putmem_signal(object, src, sizeof src, sig, 1, 5, 0);
  } else if (strcmp(c, "notify_tag") == 0) {
    shmemx_putmem_notify(object, src, sizeof src, 0, -3);
  } else if (strcmp(c, "notify_pe") == 0) {
    shmemx_long_get_notify_nbi((long *)src, (long *)object, 2, 9, 1);
  } else if (strcmp(c, "debug_overrun") == 0) {
    shmem_putmem(object, big, 4096, 0);
  } else if (strcmp(c, "global_put_overrun") == 0) {
    long lsrc[8] = {0};
    shmem_long_put(bounded, lsrc, 8, 0);
  } else if (strcmp(c, "global_get_overrun") == 0) {
    long ldst[8];
    shmem_long_get(ldst, bounded, 8, 0);
  } else if (strcmp(c, "invalid_ctx") == 0) {
    shmem_ctx_int_put(SHMEM_CTX_INVALID, global_int, src, 4, 0);
  } else if (strcmp(c, "invalid_team") == 0) {
    shmem_int_sum_reduce(SHMEM_TEAM_INVALID, global_int, global_int + 2, 2);
  } else if (strcmp(c, "destroyed_ctx") == 0) {
    shmem_ctx_t ctx;
    shmem_ctx_create(0, &ctx);
    shmem_ctx_destroy(ctx);
    shmem_ctx_long_put(ctx, (long *)object, (long *)src, 2, 0);
  } else if (strcmp(c, "garbage_ctx") == 0) {
    shmem_ctx_long_put((shmem_ctx_t)big, (long *)object, (long *)src, 2, 0);
  } else if (strcmp(c, "destroyed_team") == 0) {
    shmem_team_translate_pe(destroyed_team, 0, SHMEM_TEAM_WORLD);
  } else if (strcmp(c, "garbage_team") == 0) {
    shmem_team_sync((shmem_team_t)(big + 8));
  } else if (strcmp(c, "bad_root") == 0) {
    shmem_long_broadcast(SHMEM_TEAM_WORLD, (long *)object, (long *)after, 1, 99);
  } else if (strcmp(c, "req_twice") == 0) {
    shmemx_req_wait(&copy);
  } else if (strcmp(c, "req_garbage") == 0) {
    shmemx_req_h garbage = (shmemx_req_h)(big + 16);
    shmemx_req_test(&garbage);
  } else if (strcmp(c, "req_null") == 0) {
    shmemx_long_sum_reduce_nbi(SHMEM_TEAM_WORLD, (long *)object, (long *)after, 1, NULL);
  } else if (strcmp(c, "nbi_destroyed_team") == 0) {
    shmemx_req_h req;
    shmemx_team_sync_nbi(destroyed_team, &req);
  } else if (strcmp(c, "nbi_overlap") == 0) {
    shmemx_req_h first, second;
    shmemx_long_broadcast_nbi(SHMEM_TEAM_WORLD, (long *)object, (long *)after, 4, 0, &first);
    shmemx_long_fcollect_nbi(SHMEM_TEAM_WORLD, (long *)object + 2, (long *)after, 1, &second);
  } else if (strcmp(c, "bad_active_set") == 0) {
    static long psync[SHMEM_BARRIER_SYNC_SIZE];
    shmem_barrier(0, 0, 0, psync);
  } else if (strcmp(c, "team_ctx_pe") == 0) {
    shmem_ctx_t ctx;
    shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &ctx);
    shmem_ctx_long_p(ctx, (long *)object, 1, 64);
  } else if (strcmp(c, "win_no_epoch") == 0) {
    shmemx_win_long_put(win, (long *)object, (const long *)src, 1, 0);
  } else if (strcmp(c, "win_outside") == 0) {
    shmemx_win_lock(win, SHMEMX_WIN_LOCK_EXCLUSIVE, 0);
    shmemx_win_putmem(win, after, src, sizeof src, 0);
  } else if (strcmp(c, "win_unlock") == 0) {
    shmemx_win_unlock(win, 0);
  } else if (strcmp(c, "win_lock_type") == 0) {
    shmemx_win_lock(win, 7, 0);
  } else if (strcmp(c, "win_group") == 0) {
    shmemx_win_start(win, (const int[]){0, 0}, 2);
  } else if (strncmp(c, "win_acc_", 8) == 0) {
    shmemx_win_lock(win, SHMEMX_WIN_LOCK_SHARED, 0);
    if (strcmp(c, "win_acc_op") == 0)
      shmemx_win_long_accumulate(win, (long *)object, (const long *)src, 1, 9, 0);
    else if (strcmp(c, "win_acc_real") == 0)
      shmemx_win_double_accumulate(win, (double *)object, (const double *)src, 1, SHMEMX_WIN_BAND, 0);
    else
      shmemx_win_long_accumulate(win, (long *)(object + 4), (const long *)src, 1, SHMEMX_WIN_SUM, 0);
  } else if (strcmp(c, "bad_free") == 0) {
    shmem_free(object + 8);
  } else if (strcmp(c, "negative_pe") == 0) {
    shmem_long_atomic_fetch_add((long *)object, 1, -1);
  } else if (strcmp(c, "global_exit") == 0) {
    /* The time of the call (CLOCK_REALTIME, as bash's EPOCHREALTIME), so that a driver can
     * time the job's end from it rather than from a launch that includes start-up. */
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    fprintf(stderr, "PE %d: shmem_global_exit at %lld.%06ld\n", me, (long long)at.tv_sec, at.tv_nsec / 1000);
    shmem_global_exit(3);
  } else if (strcmp(c, "zero_size_write") == 0) {
    zero_size[1] = 1;
  } else if (strcmp(c, "crash") == 0) {
    /* The PE dies of the signal: a handler a sanitizer installed would turn it into an exit. */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
  } else {
    usage(argv[0]);
  }
  fprintf(stderr, "PE %d: the bad call '%s' returned\n", me, c);
  return 0;
}
