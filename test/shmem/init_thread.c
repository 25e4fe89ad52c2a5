/* shmem_init_thread with the level named by argv[1] (single, funneled, serialized,
 * multiple): the provided level is reported consistently by shmem_query_thread, nested
 * init_thread calls with every level are counted and matched by finalizes, and the
 * library works at that level. */
#include "common.h"

static const char *const level_names[] = {"single", "funneled", "serialized", "multiple"};
static const int levels[] = {SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED,
                             SHMEM_THREAD_MULTIPLE};

static int sink[4];

int main(int argc, char **argv) {
  int requested = SHMEM_THREAD_MULTIPLE;
  if (argc > 1) {
    requested = -1;
    for (int i = 0; i < 4; ++i)
      if (strcmp(argv[1], level_names[i]) == 0) requested = levels[i];
    if (requested < 0) {
      fprintf(stderr, "usage: %s [single|funneled|serialized|multiple]\n", argv[0]);
      return 2;
    }
  }
  CHECK(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED &&
            SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
            SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE,
        "the thread level constants are not ordered");

  test_record_pid();
  int provided = -1;
  int rc = shmem_init_thread(requested, &provided);
  CHECK(rc == 0, "shmem_init_thread(%d) returned %d", requested, rc);
  /* Tandem supports every level, so it provides at least what was asked for. */
  CHECK(provided >= requested && provided <= SHMEM_THREAD_MULTIPLE,
        "shmem_init_thread(%d) provided %d", requested, provided);
  int queried = -1;
  shmem_query_thread(&queried);
  CHECK(queried == provided, "shmem_query_thread gave %d, shmem_init_thread provided %d", queried,
        provided);
  int initialized = 0;
  shmem_query_initialized(&initialized);
  CHECK(initialized == 1, "shmem_query_initialized gave %d after shmem_init_thread", initialized);

  /* Nested initialisations at every level: each returns 0 and a valid level, none lowers
   * the level already provided. */
  for (int i = 0; i < 4; ++i) {
    int nested = -1;
    rc = shmem_init_thread(levels[i], &nested);
    CHECK(rc == 0, "nested shmem_init_thread(%s) returned %d", level_names[i], rc);
    CHECK(nested >= provided && nested <= SHMEM_THREAD_MULTIPLE,
          "nested shmem_init_thread(%s) provided %d after %d", level_names[i], nested, provided);
    shmem_query_thread(&queried);
    CHECK(queried == nested, "shmem_query_thread gave %d, nested init_thread provided %d", queried,
          nested);
    provided = nested;
  }
  for (int i = 0; i < 4; ++i) {
    shmem_finalize();
    shmem_query_initialized(&initialized);
    CHECK(initialized == 1, "after %d of 5 finalizes shmem_query_initialized gave %d", i + 1,
          initialized);
  }

  /* The library works: every PE writes its rank into its right neighbour. */
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  shmem_int_p(&sink[0], me, test_right());
  shmem_barrier_all();
  CHECK(sink[0] == test_left(), "sink %d, expected the left neighbour %d", sink[0], test_left());
  (void)npes;
  return test_finish("init_thread");
}
