/* Breadth-first search with window accumulates in fence epochs, the way MPI one-sided
 * Graph500 codes run it: under the issue strategy in force (TANDEM_EPOCH_STRATEGY), compare
 * strategies with perf/compare.sh, e.g.
 *   perf/compare.sh -p 2 -S loopback -e TANDEM_EPOCH_STRATEGY=eager,lazy bfs -- -r 5
 *
 * The graph: 2^SCALE vertices (-S, default 14) and EDGEFACTOR * 2^SCALE undirected edges
 * (-E, default 16) drawn by R-MAT (a = 0.57, b = c = 0.19, as Graph500's generator), the
 * same on every PE; PE p owns the vertices of the p-th block and their adjacency lists.
 * One BFS: each level is a fence epoch in which every PE, for each vertex of its frontier,
 * sets the bit of each neighbour in its owner's next-frontier bitmap with
 * shmemx_win_uint64_accumulate(SHMEMX_WIN_BOR) (a neighbour already sent in this search is
 * skipped); after the closing fence each PE takes the new bits that are not yet visited as
 * its next frontier.  -r searches from different roots; each is checked against a serial
 * BFS on PE 0 (the number of vertices at every level) outside the timing.
 * Metrics (the size column holds SCALE): bfs_us, one search; bfs_mteps, the edges of the
 * component reached (counted once) per microsecond of it. */
#include "perf_shmem.h"

#include <shmemx.h>

static uint64_t splitmix(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Edge k of the R-MAT graph: both ends, each below 2^scale. */
static void rmat_edge(int scale, uint64_t k, uint64_t* u, uint64_t* v) {
  uint64_t state = k * 0x2545f4914f6cdd1dull + 12345;
  *u = *v = 0;
  for (int bit = 0; bit < scale; ++bit) {
    const double r = (double)(splitmix(&state) >> 11) / 9007199254740992.0;
    const int down = r >= 0.57 + 0.19, right = (r >= 0.57 && r < 0.76) || r >= 0.95;
    *u = *u << 1 | (uint64_t)down;
    *v = *v << 1 | (uint64_t)right;
  }
}

/* Adjacency lists in compressed rows: vertices [first, first + count). */
struct graph {
  uint64_t first, count;
  uint64_t* start; /* count + 1 offsets into adj */
  uint64_t* adj;
};

/* The graph's lists for the vertices [first, first + count). */
static struct graph build(int scale, long edgefactor, uint64_t first, uint64_t count) {
  const uint64_t edges = (uint64_t)edgefactor << scale;
  struct graph g = {first, count, calloc(count + 1, sizeof(uint64_t)), NULL};
  for (int pass = 0; pass < 2; ++pass) {
    uint64_t* fill = pass ? calloc(count, sizeof(uint64_t)) : NULL;
    for (uint64_t k = 0; k < edges; ++k) {
      uint64_t ends[2];
      rmat_edge(scale, k, &ends[0], &ends[1]);
      if (ends[0] == ends[1]) continue;
      for (int e = 0; e < 2; ++e) {
        if (ends[e] < first || ends[e] >= first + count) continue;
        const uint64_t at = ends[e] - first;
        if (pass == 0) ++g.start[at + 1];
        else g.adj[g.start[at] + fill[at]++] = ends[!e];
      }
    }
    if (pass == 0) {
      for (uint64_t i = 0; i < count; ++i) g.start[i + 1] += g.start[i];
      g.adj = malloc((g.start[count] + 1) * sizeof(uint64_t));
    }
    free(fill);
  }
  return g;
}

/* Vertices per level of a serial BFS of `g` (the whole graph) from `root`; returns the
 * number of levels. */
static int serial_levels(const struct graph* g, uint64_t root, long* levels, int max_levels) {
  int* depth = malloc(g->count * sizeof(int));
  uint64_t* queue = malloc(g->count * sizeof(uint64_t));
  for (uint64_t i = 0; i < g->count; ++i) depth[i] = -1;
  uint64_t head = 0, tail = 0;
  depth[root] = 0;
  queue[tail++] = root;
  int n = 0;
  while (head < tail) {
    const uint64_t u = queue[head++];
    if (depth[u] >= max_levels) break;
    if (depth[u] + 1 > n) n = depth[u] + 1, levels[depth[u]] = 0;
    ++levels[depth[u]];
    for (uint64_t e = g->start[u]; e < g->start[u + 1]; ++e)
      if (depth[g->adj[e]] < 0) depth[g->adj[e]] = depth[u] + 1, queue[tail++] = g->adj[e];
  }
  free(depth);
  free(queue);
  return n;
}

enum { MAX_LEVELS = 64 };
static long level_count[MAX_LEVELS], level_total[MAX_LEVELS], edge_count, edge_total;

int main(int argc, char** argv) {
  const long scale = perf_take_count(&argc, argv, "-S", 14, "  -S SCALE: 2^SCALE vertices (default 14)");
  const long edgefactor = perf_take_count(&argc, argv, "-E", 16, "  -E EDGEFACTOR: edges per vertex (default 16)");
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("bfs", &o), npes = shmem_n_pes();
  if (scale > 30) {
    if (me == 0) fprintf(stderr, "# bfs: -S %ld is too large (at most 30)\n", scale);
    shmem_global_exit(2);
  }
  const uint64_t n = (uint64_t)1 << scale, per = (n + (uint64_t)npes - 1) / (uint64_t)npes;
  const uint64_t first = per * (uint64_t)me < n ? per * (uint64_t)me : n;
  const uint64_t mine = first + per <= n ? per : n - first;
  const uint64_t words = (per + 63) / 64;
  struct graph g = build((int)scale, edgefactor, first, mine);
  struct graph whole = {0, 0, NULL, NULL};
  if (me == 0) whole = build((int)scale, edgefactor, 0, n);

  uint64_t* next = shmem_calloc(words, sizeof(uint64_t)); /* bits set by this level's epoch */
  uint64_t* visited = calloc(words, sizeof(uint64_t));
  uint64_t* sent = calloc((n + 63) / 64, sizeof(uint64_t)); /* vertices announced in this search */
  uint64_t* frontier = malloc((mine + 1) * sizeof(uint64_t));
  uint64_t* bits = malloc(((size_t)g.start[mine] + 1) * sizeof(uint64_t)); /* accumulate sources */
  shmemx_win_t win;
  if (shmemx_win_create(SHMEM_TEAM_WORLD, next, words * sizeof(uint64_t), &win) != 0) {
    fprintf(stderr, "# bfs: no window\n");
    shmem_global_exit(1);
  }
  if (me == 0) {
    const char* strategy = getenv("TANDEM_EPOCH_STRATEGY");
    printf("# bfs: 2^%ld vertices, %ld edges per vertex, strategy %s; the size column is SCALE\n", scale, edgefactor,
           strategy ? strategy : "eager");
    fflush(stdout);
  }

  double us[PERF_MAX_REPS], mteps[PERF_MAX_REPS];
  /* Roots: PE 0 draws them (a vertex with an edge) and broadcasts them. */
  static uint64_t drawn[PERF_MAX_REPS], roots[PERF_MAX_REPS];
  if (me == 0) {
    uint64_t seed = 7;
    for (int r = 0; r < o.reps; ++r) {
      do drawn[r] = splitmix(&seed) % n;
      while (whole.start[drawn[r] + 1] == whole.start[drawn[r]]);
    }
  }
  shmem_broadcastmem(SHMEM_TEAM_WORLD, roots, drawn, sizeof roots, 0);

  for (int r = 0; r < o.reps; ++r) {
    const uint64_t root = roots[r];
    memset(visited, 0, words * sizeof(uint64_t));
    memset(sent, 0, (n + 63) / 64 * sizeof(uint64_t));
    memset(level_count, 0, sizeof level_count);
    uint64_t size = 0;
    edge_count = 0;
    if (root >= first && root < first + mine) {
      frontier[size++] = root;
      visited[(root - first) / 64] |= (uint64_t)1 << (root - first) % 64;
    }
    sent[root / 64] |= (uint64_t)1 << root % 64;
    shmem_barrier_all();
    const double t0 = perf_now_us();
    int level = 0;
    for (;;) {
      level_count[level < MAX_LEVELS ? level : MAX_LEVELS - 1] += (long)size;
      long global = 0, local = (long)size;
      shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &global, &local, 1);
      if (global == 0) break;
      shmemx_win_fence(win);
      size_t b = 0;
      for (uint64_t f = 0; f < size; ++f) {
        const uint64_t u = frontier[f] - first;
        edge_count += (long)(g.start[u + 1] - g.start[u]);
        for (uint64_t e = g.start[u]; e < g.start[u + 1]; ++e) {
          const uint64_t v = g.adj[e];
          if (sent[v / 64] >> v % 64 & 1) continue;
          sent[v / 64] |= (uint64_t)1 << v % 64;
          const int owner = (int)(v / per);
          const uint64_t at = v - per * (uint64_t)owner;
          bits[b] = (uint64_t)1 << at % 64;
          shmemx_win_uint64_accumulate(win, &next[at / 64], &bits[b++], 1, SHMEMX_WIN_BOR, owner);
        }
      }
      shmemx_win_fence(win);
      size = 0;
      for (uint64_t w = 0; w < words; ++w) {
        uint64_t fresh = next[w] & ~visited[w];
        visited[w] |= fresh;
        next[w] = 0;
        while (fresh) {
          frontier[size++] = first + w * 64 + (uint64_t)__builtin_ctzll(fresh);
          fresh &= fresh - 1;
        }
      }
      ++level;
    }
    const double t = perf_now_us() - t0;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, level_total, level_count, MAX_LEVELS);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &edge_total, &edge_count, 1);
    us[r] = t;
    mteps[r] = (double)edge_total / 2 / t;
    if (me == 0) {
      long want[MAX_LEVELS] = {0};
      const int levels = serial_levels(&whole, root, want, MAX_LEVELS);
      for (int l = 0; l < MAX_LEVELS; ++l)
        if (level_total[l] != (l < levels ? want[l] : 0)) {
          fprintf(stderr, "# bfs: verification failed, root %llu, level %d: %ld vertices, expected %ld\n",
                  (unsigned long long)root, l, level_total[l], l < levels ? want[l] : 0);
          shmem_global_exit(1);
        }
    }
  }
  if (me == 0) {
    perf_emit((size_t)scale, 1, "bfs_us", us, o.reps, 1);
    perf_emit((size_t)scale, 1, "bfs_mteps", mteps, o.reps, 0);
  }
  shmemx_win_free(&win);
  shmem_barrier_all();
  shmem_free(next);
  free(visited);
  free(sent);
  free(frontier);
  free(bits);
  free(g.start);
  free(g.adj);
  free(whole.start);
  free(whole.adj);
  shmem_finalize();
  return 0;
}
