/* A job at scale: every PE checks its place, passes a barrier, then an fcollect and an
 * alltoall over every PE check each PE's values.  Options (after the program name):
 *
 *   --max-private-mb N   after the collectives, each PE's private anonymous memory (Pss_Anon
 *                        of /proc/self/smaps_rollup: what the runtime and its libraries
 *                        allocated, shared library pages not counted) is at most N MB
 *   --env NAME=VALUE     after shmem_init the environment holds NAME=VALUE (a provider
 *                        setting Tandem sizes unless the user did: man 7 tandem, PROVIDERS)
 */
#include "common.h"

static long private_kb(void) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "Pss_Anon:", 9) == 0) {
      kb = atol(line + 9);
      break;
    }
  if (f) fclose(f);
  return kb;
}

int main(int argc, char **argv) {
  long max_private_mb = -1;
  const char *expected_env = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--max-private-mb") == 0) {
      max_private_mb = atol(argv[i + 1]);
    } else if (strcmp(argv[i], "--env") == 0) {
      expected_env = argv[i + 1];
    } else {
      fprintf(stderr, "usage: %s [--max-private-mb N] [--env NAME=VALUE]\n", argv[0]);
      return 2;
    }
  }
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  CHECK(me >= 0 && me < npes, "shmem_my_pe() = %d of %d", me, npes);
  shmem_barrier_all();

  long *mine = shmem_malloc(2 * sizeof(long));
  long *all = shmem_malloc((size_t)npes * 2 * sizeof(long));
  long *out = shmem_malloc((size_t)npes * sizeof(long));
  long *in = shmem_malloc((size_t)npes * sizeof(long));
  CHECK(mine && all && out && in, "shmem_malloc failed");
  mine[0] = me;
  mine[1] = -me;
  shmem_long_fcollect(SHMEM_TEAM_WORLD, all, mine, 2);
  for (int pe = 0; pe < npes; ++pe)
    CHECK(all[2 * pe] == pe && all[2 * pe + 1] == -pe, "fcollect: PE %d's block is %ld %ld", pe, all[2 * pe],
          all[2 * pe + 1]);
  for (int pe = 0; pe < npes; ++pe) out[pe] = (long)me * 100000 + pe;
  shmem_long_alltoall(SHMEM_TEAM_WORLD, in, out, 1);
  for (int pe = 0; pe < npes; ++pe)
    CHECK(in[pe] == (long)pe * 100000 + me, "alltoall: the element from PE %d is %ld", pe, in[pe]);

  if (max_private_mb >= 0) {
    const long kb = private_kb();
    CHECK(kb >= 0 && kb <= max_private_mb * 1024,
          "private anonymous memory %ld kB after the collectives, more than %ld MB", kb, max_private_mb);
  }
  if (expected_env) {
    const char *eq = strchr(expected_env, '=');
    CHECK(eq != NULL, "--env %s is not NAME=VALUE", expected_env);
    if (eq) {
      char name[128];
      snprintf(name, sizeof name, "%.*s", (int)(eq - expected_env), expected_env);
      const char *value = getenv(name);
      CHECK(value && strcmp(value, eq + 1) == 0, "%s is %s, not %s", name, value ? value : "unset", eq + 1);
    }
  }
  shmem_free(in);
  shmem_free(out);
  shmem_free(all);
  shmem_free(mine);
  return test_finish("scale_job");
}
