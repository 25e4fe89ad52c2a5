/* What a PE costs as the job grows: every PE starts, passes its first barrier, allocates
 * 1 MiB of symmetric heap (left untouched: the figures are the library's), runs an fcollect
 * over every PE and a second barrier, then reads its own /proc figures; PE 0 writes the
 * largest and the mean over the PEs.  Standard OpenSHMEM only, so that it runs on any
 * library.  perf/scale.sh runs it at several job sizes and placements.
 *
 * CSV metrics (the size column holds the number of PEs), each as NAME_max and NAME_mean:
 *  scale_rss_kB       resident memory (VmRSS of /proc/self/status), shared library pages included
 *  scale_pss_kB       proportional memory (Pss of /proc/self/smaps_rollup): pages shared with
 *                     the node's other PEs count a share each, so the sum over a node's PEs
 *                     is what they cost it
 *  scale_anon_kB      private anonymous memory (Pss_Anon): what the runtime allocated
 *  scale_fds          open file descriptors (/proc/self/fd)
 *  scale_maps         mapped segments (lines of /proc/self/maps)
 *  scale_threads      threads (/proc/self/task)
 *  scale_start_s      from PERF_LAUNCH_TIME (seconds since the epoch, as bash's
 *                     EPOCHREALTIME: the moment the launcher was started) to the end of the
 *                     first shmem_barrier_all; omitted where PERF_LAUNCH_TIME is unset
 * Then the PE with the largest scale_rss_kB writes where its resident memory is, as comment
 * lines "# rss_kB,anon_kB,mapping" (nameless anonymous mappings summed as [anon], every
 * mapped file and [heap] and [stack] as itself, those under 64 kB left out), so that a
 * figure comes with its profile. */
#include "perf_shmem.h"

#include <dirent.h>
#include <limits.h>
#include <time.h>

/* values[i]: the number after keys[i] on its line of `file` (-1 where there is none), in one
 * pass over the file (smaps_rollup is summed over every mapping each time it is read). */
static void proc_fields(const char* file, int n, const char* const* keys, long* values) {
  for (int i = 0; i < n; ++i) values[i] = -1;
  FILE* f = fopen(file, "r");
  char line[512];
  while (f && fgets(line, sizeof line, f))
    for (int i = 0; i < n; ++i)
      if (strncmp(line, keys[i], strlen(keys[i])) == 0) values[i] = atol(line + strlen(keys[i]));
  if (f) fclose(f);
}

static long count_entries(const char* dir) {
  DIR* d = opendir(dir);
  long n = 0;
  if (!d) return -1;
  for (struct dirent* e; (e = readdir(d));)
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n;
}

static long count_lines(const char* file) {
  FILE* f = fopen(file, "r");
  long n = 0;
  if (!f) return -1;
  for (int c; (c = fgetc(f)) != EOF;)
    if (c == '\n') ++n;
  fclose(f);
  return n;
}

/* Writes this PE's resident memory by mapping (the comment above), largest first. */
static void print_mappings(int me) {
  enum { MAX = 256 };
  static struct { char name[160]; long rss, anon; } maps[MAX];
  int n = 0, cur = -1;
  FILE* f = fopen("/proc/self/smaps", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f)) {
    char first[128] = "", path[160] = "";
    if (sscanf(line, "%127s", first) != 1) continue;
    if (first[strlen(first) - 1] != ':') { /* a mapping's header: range perms offset dev inode [path] */
      if (sscanf(line, "%*s %*s %*s %*s %*s %159s", path) != 1) strcpy(path, "[anon]");
      for (cur = 0; cur < n && strcmp(maps[cur].name, path) != 0; ++cur) continue;
      if (cur == n) {
        if (n == MAX) { cur = -1; continue; }
        snprintf(maps[n].name, sizeof maps[n].name, "%s", path);
        maps[n].rss = maps[n].anon = 0;
        ++n;
      }
    } else if (cur >= 0 && strcmp(first, "Rss:") == 0) {
      maps[cur].rss += atol(line + 4);
    } else if (cur >= 0 && strcmp(first, "Anonymous:") == 0) {
      maps[cur].anon += atol(line + 10);
    }
  }
  if (f) fclose(f);
  printf("# PE %d's resident memory by mapping: rss_kB,anon_kB,mapping\n", me);
  for (;;) {
    int top = -1;
    for (int i = 0; i < n; ++i)
      if (maps[i].rss >= 64 && (top < 0 || maps[i].rss > maps[top].rss)) top = i;
    if (top < 0) break;
    printf("# %ld,%ld,%s\n", maps[top].rss, maps[top].anon, maps[top].name);
    maps[top].rss = 0;
  }
  fflush(stdout);
}

enum { RSS, PSS, ANON, FDS, MAPS, THREADS, START_MS, FIGURES };
static const char* const names[FIGURES] = {"scale_rss_kB", "scale_pss_kB", "scale_anon_kB", "scale_fds",
                                           "scale_maps", "scale_threads", "scale_start_s"};

int main(void) {
  const char* launch = getenv("PERF_LAUNCH_TIME");
  shmem_init();
  shmem_barrier_all();
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  const double started = launch ? (double)now.tv_sec + (double)now.tv_nsec * 1e-9 - atof(launch) : -1.0;
  const int me = shmem_my_pe(), npes = shmem_n_pes();

  char* heap = (char*)shmem_malloc(1 << 20);
  long* all = (long*)shmem_malloc((size_t)npes * FIGURES * sizeof(long));
  long* mine = (long*)shmem_malloc(FIGURES * sizeof(long));
  if (!heap || !all || !mine) {
    fprintf(stderr, "# scale: shmem_malloc failed on PE %d\n", me);
    shmem_global_exit(1);
  }
  memset(mine, 0, FIGURES * sizeof(long));
  mine[START_MS] = (long)(started * 1000.0);
  /* The 1.4 form, which every library has.  Once as a warm-up: the figures below include
   * what a collective over every PE set up. */
  static long psync[2][SHMEM_COLLECT_SYNC_SIZE];
  for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; ++i) psync[0][i] = psync[1][i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  shmem_fcollect64(all, mine, FIGURES, 0, 0, npes, psync[0]);
  shmem_barrier_all();

  static const char* const status_keys[] = {"VmRSS:"}, *const rollup_keys[] = {"Pss:", "Pss_Anon:"};
  proc_fields("/proc/self/status", 1, status_keys, &mine[RSS]);
  proc_fields("/proc/self/smaps_rollup", 2, rollup_keys, &mine[PSS]);  /* PSS, then ANON */
  mine[FDS] = count_entries("/proc/self/fd");
  mine[MAPS] = count_lines("/proc/self/maps");
  mine[THREADS] = count_entries("/proc/self/task");
  shmem_fcollect64(all, mine, FIGURES, 0, 0, npes, psync[1]);

  if (me == 0) {
    printf("# scale: %d PEs (value: the largest over the PEs, NAME_mean: the mean)\n", npes);
    printf("# size,iterations,metric,value\n");
    for (int f = 0; f < FIGURES; ++f) {
      if (f == START_MS && !launch) continue;
      long most = LONG_MIN;
      double sum = 0;
      for (int pe = 0; pe < npes; ++pe) {
        const long v = all[(size_t)pe * FIGURES + (size_t)f];
        if (v > most) most = v;
        sum += (double)v;
      }
      const double scale = f == START_MS ? 1e-3 : 1.0;
      printf("%d,1,%s_max,%.6g\n", npes, names[f], (double)most * scale);
      printf("%d,1,%s_mean,%.6g\n", npes, names[f], sum / npes * scale);
    }
    fflush(stdout);
  }
  shmem_barrier_all();
  int largest = 0;
  for (int pe = 1; pe < npes; ++pe)
    if (all[(size_t)pe * FIGURES + RSS] > all[(size_t)largest * FIGURES + RSS]) largest = pe;
  if (me == largest) print_mappings(me);
  shmem_barrier_all();
  shmem_free(mine);
  shmem_free(all);
  shmem_free(heap);
  shmem_finalize();
  return 0;
}
