/* A minimal PMIx client for the launcher tests: prints what the launcher's PMIx server
 * tells it ("rank R of N", plus its local rank and local peers when asked with -v), takes
 * part in one fence, and, with "abort S", asks the launcher to end the job with status S. */
#define _GNU_SOURCE /* PMIx headers use POSIX and GNU declarations */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under sanitizers: allocations PMIx_Init keeps past PMIx_Finalize are the library's. */
#if defined(__SANITIZE_ADDRESS__)
#define PMIX_CLIENT_HAS_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define PMIX_CLIENT_HAS_LSAN 1
#endif
#endif
#if defined(PMIX_CLIENT_HAS_LSAN)
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libpmix.so\n"; }
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) { return "print_suppressions=0"; }
#endif

static int get_job_value(const pmix_proc_t *self, pmix_rank_t rank, const char *key,
                         pmix_value_t **out) {
  pmix_proc_t who;
  PMIX_PROC_CONSTRUCT(&who);
  PMIX_LOAD_PROCID(&who, self->nspace, rank);
  return PMIx_Get(&who, key, NULL, 0, out) == PMIX_SUCCESS && *out != NULL;
}

int main(int argc, char **argv) {
  pmix_proc_t self;
  pmix_value_t *value = NULL;
  int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
  int abort_status = -1;
  if (argc > 2 && strcmp(argv[1], "abort") == 0) abort_status = atoi(argv[2]);

  pmix_status_t rc = PMIx_Init(&self, NULL, 0);
  if (rc != PMIX_SUCCESS) {
    fprintf(stderr, "pmix_client: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
    return 1;
  }
  if (!get_job_value(&self, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &value) ||
      value->type != PMIX_UINT32) {
    fprintf(stderr, "pmix_client: no usable PMIX_JOB_SIZE\n");
    PMIx_Finalize(NULL, 0);
    return 1;
  }
  unsigned size = value->data.uint32;
  PMIX_VALUE_RELEASE(value);
  printf("rank %u of %u\n", (unsigned)self.rank, size);

  if (verbose) {
    if (get_job_value(&self, PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, &value) &&
        value->type == PMIX_STRING) {
      printf("rank %u local peers %s\n", (unsigned)self.rank, value->data.string);
      PMIX_VALUE_RELEASE(value);
    }
    if (get_job_value(&self, self.rank, PMIX_LOCAL_RANK, &value) && value->type == PMIX_UINT16) {
      printf("rank %u local rank %u\n", (unsigned)self.rank, (unsigned)value->data.uint16);
      PMIX_VALUE_RELEASE(value);
    }
  }
  fflush(stdout);

  if (abort_status >= 0 && self.rank == 0) {
    PMIx_Abort(abort_status, "pmix_client was asked to abort", NULL, 0);
    return 99; /* not reached when the launcher ends the job first */
  }

  /* A fence with data collection goes through the launcher's fence_nb. */
  pmix_info_t collect;
  bool yes = true;
  PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  rc = PMIx_Fence(NULL, 0, &collect, 1);
  PMIX_INFO_DESTRUCT(&collect);
  if (rc != PMIX_SUCCESS) {
    fprintf(stderr, "pmix_client: PMIx_Fence failed: %s\n", PMIx_Error_string(rc));
    PMIx_Finalize(NULL, 0);
    return 1;
  }
  rc = PMIx_Finalize(NULL, 0);
  if (rc != PMIX_SUCCESS) {
    fprintf(stderr, "pmix_client: PMIx_Finalize failed: %s\n", PMIx_Error_string(rc));
    return 1;
  }
  return 0;
}
