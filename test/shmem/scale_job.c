/* A job at scale: every PE checks its place, passes a barrier, then an fcollect, ROUNDS
 * sum- and max-reductions and an alltoall over every PE check each PE's values, and an
 * fcollect and ROUNDS sum-reductions over a team of the first 7/8 of the PEs (across nodes,
 * nodes with fewer PEs than the others).  Options (after the program name):
 *
 *   --max-private-mb N   after the collectives, each PE's private anonymous memory (Pss_Anon
 *                        of /proc/self/smaps_rollup: what the runtime and its libraries
 *                        allocated, shared library pages not counted) is at most N MB
 *   --max-connections N  between barriers before the alltoall (which reads from every PE),
 *                        each PE holds at most N established TCP connections (its sockets
 *                        found in /proc/self/net/tcp and tcp6), the launcher's included:
 *                        the collectives before it talk across nodes between leaders only
 *   --env NAME=VALUE     after shmem_init the environment holds NAME=VALUE (a provider
 *                        setting Tandem sizes unless the user did: man 7 tandem, PROVIDERS);
 *                        up to 4 times
 *   --unmapped TEXT      after the collectives, no file whose path holds TEXT is mapped (a
 *                        library Tandem must have unloaded: hwloc's plugins, which it loads
 *                        to read the topology for the progress thread)
 */
#include <dirent.h>

#include "common.h"

#define ROUNDS 20

/* Whether `inode` is among the `n` in `inodes`. */
static int has_inode(const unsigned long *inodes, int n, unsigned long inode) {
  for (int i = 0; i < n; ++i)
    if (inodes[i] == inode) return 1;
  return 0;
}

/* The established TCP connections of this process. */
static long tcp_connections(void) {
  static unsigned long inodes[4096];
  int n = 0;
  DIR *d = opendir("/proc/self/fd");
  for (struct dirent *e; d && (e = readdir(d)) && n < 4096;) {
    char path[300], target[64];
    snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
    const ssize_t len = readlink(path, target, sizeof target - 1);
    if (len <= 0) continue;
    target[len] = '\0';
    unsigned long inode;
    if (sscanf(target, "socket:[%lu]", &inode) == 1) inodes[n++] = inode;
  }
  if (d) closedir(d);
  long count = 0;
  const char *tables[] = {"/proc/self/net/tcp", "/proc/self/net/tcp6"};
  for (int t = 0; t < 2; ++t) {
    FILE *f = fopen(tables[t], "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
      unsigned state;
      unsigned long inode;
      if (sscanf(line, " %*s %*s %*s %x %*s %*s %*s %*s %*s %lu", &state, &inode) == 2 && state == 1 &&
          has_inode(inodes, n, inode))
        ++count;
    }
    if (f) fclose(f);
  }
  return count;
}

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
  long max_private_mb = -1, max_connections = -1;
  const char *unmapped = NULL;
  const char *expected_env[4];
  int n_env = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--max-private-mb") == 0) {
      max_private_mb = atol(argv[i + 1]);
    } else if (strcmp(argv[i], "--max-connections") == 0) {
      max_connections = atol(argv[i + 1]);
    } else if (strcmp(argv[i], "--unmapped") == 0) {
      unmapped = argv[i + 1];
    } else if (strcmp(argv[i], "--env") == 0 && n_env < 4) {
      expected_env[n_env++] = argv[i + 1];
    } else {
      fprintf(stderr, "usage: %s [--max-private-mb N] [--max-connections N] [--unmapped TEXT] [--env NAME=VALUE]...\n", argv[0]);
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
  static long value, sum, max;
  for (int r = 0; r < ROUNDS; ++r) {
    value = (long)me * ROUNDS + r;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &value, 1);
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &max, &value, 1);
    const long want = (long)npes * (npes - 1) / 2 * ROUNDS + (long)npes * r;
    CHECK(sum == want, "round %d: sum-reduction %ld, expected %ld", r, sum, want);
    CHECK(max == (long)(npes - 1) * ROUNDS + r, "round %d: max-reduction %ld", r, max);
  }
  shmem_team_t part;
  const int part_size = npes - npes / 8;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, part_size, NULL, 0, &part);
  if (part != SHMEM_TEAM_INVALID) {
    shmem_long_fcollect(part, all, mine, 2);
    for (int pe = 0; pe < part_size; ++pe)
      CHECK(all[2 * pe] == pe && all[2 * pe + 1] == -pe, "fcollect over %d PEs: PE %d's block is %ld %ld", part_size,
            pe, all[2 * pe], all[2 * pe + 1]);
    for (int r = 0; r < ROUNDS; ++r) {
      value = (long)me * ROUNDS + r;
      shmem_long_sum_reduce(part, &sum, &value, 1);
      const long want = (long)part_size * (part_size - 1) / 2 * ROUNDS + (long)part_size * r;
      CHECK(sum == want, "round %d: sum-reduction over %d PEs %ld, expected %ld", r, part_size, sum, want);
    }
    shmem_team_destroy(part);
  }
  if (max_connections >= 0) {
    shmem_barrier_all();
    const long connections = tcp_connections();
    CHECK(connections <= max_connections, "%ld TCP connections after the reductions, more than %ld", connections,
          max_connections);
    shmem_barrier_all();  /* no PE reads from this one for the alltoall before it counted */
  }
  for (int pe = 0; pe < npes; ++pe) out[pe] = (long)me * 100000 + pe;
  shmem_long_alltoall(SHMEM_TEAM_WORLD, in, out, 1);
  for (int pe = 0; pe < npes; ++pe)
    CHECK(in[pe] == (long)pe * 100000 + me, "alltoall: the element from PE %d is %ld", pe, in[pe]);

  if (max_private_mb >= 0) {
    const long kb = private_kb();
    CHECK(kb >= 0 && kb <= max_private_mb * 1024,
          "private anonymous memory %ld kB after the collectives, more than %ld MB", kb, max_private_mb);
  }
  if (unmapped) {
    FILE *maps = fopen("/proc/self/maps", "r");
    CHECK(maps != NULL, "cannot read /proc/self/maps");
    char line[1024];
    int found = 0;
    while (maps && !found && fgets(line, sizeof line, maps)) {
      line[strcspn(line, "\n")] = '\0';
      found = strstr(line, unmapped) != NULL;
      CHECK(!found, "still mapped: %s", line);
    }
    if (maps) fclose(maps);
  }
  for (int e = 0; e < n_env; ++e) {
    const char *eq = strchr(expected_env[e], '=');
    CHECK(eq != NULL, "--env %s is not NAME=VALUE", expected_env[e]);
    if (eq) {
      char name[128];
      snprintf(name, sizeof name, "%.*s", (int)(eq - expected_env[e]), expected_env[e]);
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
