/* Random mixes of nonblocking collectives (man 7 tandem_nbc): batches of requests on four
 * teams that share PEs (the world, a team of the same PEs, the even PEs, the upper half),
 * every routine kind, sizes from one element to past the piecewise paths.  Within a batch
 * each PE posts the teams' requests in an order of its own (each team's in the order the
 * team shares, as the draft asks; only across teams does the order differ between PEs),
 * with atomics to random PEs and blocking collectives in between, then completes them in an
 * order of its own, by wait, by a spin on test or by one waitall.  Every result is checked
 * against what it must hold, computed here, and so are the elements that a strided alltoall
 * must leave alone (its strides drawn too, far apart at the source for some).
 *
 * Usage: nbc_random [SEED [BATCHES]]   (defaults 1 and 30): every PE draws the batches from
 * SEED, and its own orders from SEED and its PE number. */
#include <shmemx.h>

#include "common.h"

enum { TEAMS = 4, BATCH_MAX = 10, POOL_LONGS = 1 << 20 /* 8 MiB each for sources and dests */ };
enum Kind { BROADCAST, FCOLLECT, COLLECT, ALLTOALL, ALLTOALLS, SUM, MAX, XOR, PROD, SYNC, KINDS };
static const char *const kind_names[KINDS] = {"long_broadcast_nbi", "int_fcollect_nbi", "long_collect_nbi",
                                              "long_alltoall_nbi",  "int_alltoalls_nbi", "long_sum_reduce_nbi",
                                              "int_max_reduce_nbi", "ulong_xor_reduce_nbi", "double_prod_reduce_nbi",
                                              "team_sync_nbi"};
static const unsigned char SENTINEL = 0x5a;

/* The teams as strided sets of world PEs, so that every PE knows every team's members. */
struct team_shape {
  int start, stride, size;
};
static struct team_shape shape[TEAMS];
static shmem_team_t teams[TEAMS];

static int world_pe(int t, int rank) { return shape[t].start + rank * shape[t].stride; }
static int rank_in(int t, int pe) {
  const int d = pe - shape[t].start;
  return d >= 0 && d % shape[t].stride == 0 && d / shape[t].stride < shape[t].size ? d / shape[t].stride : -1;
}

/* xorshift64*: `shared` draws the batches, the same on every PE; `own` this PE's orders. */
static uint64_t shared, own;
static uint64_t next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}
static size_t below(uint64_t *s, size_t n) { return (size_t)(next(s) % n); }

struct op {
  enum Kind kind;
  int team, root, blocking_after; /* blocking_after: a blocking sum on this team follows the post */
  size_t count;                   /* elements per PE (collect: the least rank's; ranks add r % 3) */
  ptrdiff_t dst, sst;             /* alltoalls: the strides */
  size_t src_at, dst_at;          /* byte offsets in the pools */
  long id;                        /* the op's number over the run: its values */
  shmemx_req_h req;
};

static char *src_pool, *dst_pool;
static long *blocking_out, *blocking_in, *counter;

/* What world PE p contributes at element i of op id: 1..29. */
static long value(long id, int p, size_t i) { return (long)((id * 37 + p * 11 + (long)(i % 1000) * 7) % 29) + 1; }
static size_t collect_count(const struct op *o, int rank) { return o->count + (size_t)(rank % 3); }

static size_t elem_size(enum Kind k) {
  return k == FCOLLECT || k == ALLTOALLS || k == MAX ? sizeof(int) : k == PROD ? sizeof(double) : sizeof(long);
}

/* Bytes of source and dest that op `o` takes on every PE (the largest over the team). */
static void extent(const struct op *o, size_t *src, size_t *dst) {
  const size_t n = (size_t)shape[o->team].size, e = elem_size(o->kind), c = o->count;
  switch (o->kind) {
    case FCOLLECT: *src = c * e; *dst = c * n * e; break;
    case COLLECT: *src = (c + 2) * e; *dst = (c + 2) * n * e; break;
    case ALLTOALL: *src = c * n * e; *dst = c * n * e; break;
    case ALLTOALLS:
      *src = ((c * n - 1) * (size_t)o->sst + 1) * e;
      *dst = ((c * n - 1) * (size_t)o->dst + 1) * e;
      break;
    case SYNC: *src = *dst = 0; break;
    default: *src = c * e; *dst = c * e; break;
  }
}

/* Draws a batch from `shared`: the same ops on every PE, each with its own pool space. */
static int draw_batch(struct op *ops, long *id) {
  static const size_t counts[] = {1, 2, 3, 17, 128, 1000, 5000, 30000, 120000};
  const int n = 1 + (int)below(&shared, BATCH_MAX);
  size_t src_used = 0, dst_used = 0;
  for (int i = 0; i < n; ++i) {
    struct op *o = &ops[i];
    o->kind = (enum Kind)below(&shared, KINDS);
    o->team = (int)below(&shared, TEAMS);
    o->root = (int)below(&shared, (size_t)shape[o->team].size);
    o->blocking_after = below(&shared, 6) == 0;
    static const ptrdiff_t strides[] = {1, 2, 3, 40};
    o->dst = strides[below(&shared, 3)];
    o->sst = strides[below(&shared, 4)];
    /* small sizes mostly: each of the three largest comes one time in 16 */
    const size_t pick = below(&shared, 16);
    o->count = counts[pick < 13 ? pick % 6 : pick - 7];
    o->id = (*id)++;
    o->req = SHMEMX_REQ_NULL;
    size_t s, d;
    for (;;) {
      extent(o, &s, &d);
      if (src_used + s <= POOL_LONGS * sizeof(long) && dst_used + d <= POOL_LONGS * sizeof(long)) break;
      /* too large for what the batch left of the pools: smaller, or a sync, which takes none */
      if (o->count > 1) o->count = o->count > 4 ? o->count / 4 : 1;
      else o->kind = SYNC;
    }
    o->src_at = src_used;
    o->dst_at = dst_used;
    src_used += (s + 63) / 64 * 64;
    dst_used += (d + 63) / 64 * 64;
  }
  return n;
}

/* Fills op o's source on this PE and its dest with the sentinel. */
static void prepare(const struct op *o, int me) {
  size_t s, d;
  extent(o, &s, &d);
  memset(dst_pool + o->dst_at, SENTINEL, d);
  void *src = src_pool + o->src_at;
  const size_t elems = s / elem_size(o->kind);
  for (size_t i = 0; i < elems; ++i) switch (o->kind) {
      case FCOLLECT: case ALLTOALLS: case MAX: ((int *)src)[i] = (int)value(o->id, me, i); break;
      case PROD: ((double *)src)[i] = (double)(value(o->id, me, i) % 2 + 1); break;
      case XOR: ((unsigned long *)src)[i] = (unsigned long)value(o->id, me, i) * 0x9E3779B97F4A7C15ul; break;
      default: ((long *)src)[i] = value(o->id, me, i); break;
    }
}

static void post(struct op *o) {
  const shmem_team_t t = teams[o->team];
  void *s = src_pool + o->src_at, *d = dst_pool + o->dst_at;
  const size_t c = o->count;
  int rc = 0;
  switch (o->kind) {
    case BROADCAST: rc = shmemx_long_broadcast_nbi(t, d, s, c, o->root, &o->req); break;
    case FCOLLECT: rc = shmemx_int_fcollect_nbi(t, d, s, c, &o->req); break;
    case COLLECT: rc = shmemx_long_collect_nbi(t, d, s, collect_count(o, shmem_team_my_pe(t)), &o->req); break;
    case ALLTOALL: rc = shmemx_long_alltoall_nbi(t, d, s, c, &o->req); break;
    case ALLTOALLS: rc = shmemx_int_alltoalls_nbi(t, d, s, o->dst, o->sst, c, &o->req); break;
    case SUM: rc = shmemx_long_sum_reduce_nbi(t, d, s, c, &o->req); break;
    case MAX: rc = shmemx_int_max_reduce_nbi(t, d, s, c, &o->req); break;
    case XOR: rc = shmemx_ulong_xor_reduce_nbi(t, d, s, c, &o->req); break;
    case PROD: rc = shmemx_double_prod_reduce_nbi(t, d, s, c, &o->req); break;
    case SYNC: rc = shmemx_team_sync_nbi(t, &o->req); break;
    case KINDS: break;
  }
  CHECK(rc == 0, "op %ld: %s of %zu on team %d returned %d", o->id, kind_names[o->kind], c, o->team, rc);
}

/* Counts the elements of op o's dest that differ from what they must hold. */
static size_t wrong(const struct op *o, int rank) {
  const int t = o->team, n = shape[t].size;
  const char *d = dst_pool + o->dst_at;
  const size_t c = o->count;
  size_t bad = 0;
  switch (o->kind) {
    case BROADCAST:
      for (size_t i = 0; i < c; ++i) bad += ((const long *)d)[i] != value(o->id, world_pe(t, o->root), i);
      break;
    case FCOLLECT:
      for (int r = 0; r < n; ++r)
        for (size_t i = 0; i < c; ++i) bad += ((const int *)d)[(size_t)r * c + i] != (int)value(o->id, world_pe(t, r), i);
      break;
    case COLLECT: {
      size_t at = 0;
      for (int r = 0; r < n; ++r)
        for (size_t i = 0; i < collect_count(o, r); ++i) bad += ((const long *)d)[at++] != value(o->id, world_pe(t, r), i);
      break;
    }
    case ALLTOALL:
      for (int r = 0; r < n; ++r)
        for (size_t i = 0; i < c; ++i)
          bad += ((const long *)d)[(size_t)r * c + i] != value(o->id, world_pe(t, r), (size_t)rank * c + i);
      break;
    case ALLTOALLS: {
      int untouched;
      memset(&untouched, SENTINEL, sizeof untouched);
      /* element i of rank r's block here: element (rank * c + i) * sst of its source */
      for (int r = 0; r < n; ++r)
        for (size_t i = 0; i < c; ++i) {
          const size_t at = ((size_t)r * c + i) * (size_t)o->dst;
          bad += ((const int *)d)[at] != (int)value(o->id, world_pe(t, r), ((size_t)rank * c + i) * (size_t)o->sst);
          if (r < n - 1 || i < c - 1)
            for (size_t g = 1; g < (size_t)o->dst; ++g) bad += ((const int *)d)[at + g] != untouched;
        }
      break;
    }
    case SUM: case MAX: case XOR: case PROD:
      for (size_t i = 0; i < c; ++i) {
        long sum = 0;
        int max = 0;
        unsigned long x = 0;
        double prod = 1;
        for (int r = 0; r < n; ++r) {
          const long v = value(o->id, world_pe(t, r), i);
          sum += v;
          max = (int)v > max ? (int)v : max;
          x ^= (unsigned long)v * 0x9E3779B97F4A7C15ul;
          prod *= (double)(v % 2 + 1);
        }
        bad += o->kind == SUM   ? ((const long *)d)[i] != sum
               : o->kind == MAX ? ((const int *)d)[i] != max
               : o->kind == XOR ? ((const unsigned long *)d)[i] != x
                                : ((const double *)d)[i] != prod;
      }
      break;
    case SYNC: case KINDS: break;
  }
  return bad;
}

/* Completes the posted ops of this PE in an order of its own: each by a wait, a spin on
 * test, or the waitall at the end. */
static void complete(struct op **mine, int n) {
  for (int i = n - 1; i > 0; --i) {
    const int j = (int)below(&own, (size_t)i + 1);
    struct op *x = mine[i];
    mine[i] = mine[j];
    mine[j] = x;
  }
  shmemx_req_h rest[BATCH_MAX];
  size_t left = 0;
  for (int i = 0; i < n; ++i) switch (below(&own, 3)) {
      case 0: shmemx_req_wait(&mine[i]->req); break;
      case 1:
        while (!shmemx_req_test(&mine[i]->req)) {
        }
        break;
      default: rest[left++] = mine[i]->req; mine[i]->req = SHMEMX_REQ_NULL; break;
    }
  shmemx_req_waitall(left, rest);
  for (size_t i = 0; i < left; ++i) CHECK(rest[i] == SHMEMX_REQ_NULL, "waitall left request %zu of %zu set", i, left);
  for (int i = 0; i < n; ++i) CHECK(mine[i]->req == SHMEMX_REQ_NULL, "a completed request is still set");
}

int main(int argc, char **argv) {
  test_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
  const int batches = argc > 2 ? atoi(argv[2]) : 30;
  shared = seed * 0x9E3779B97F4A7C15ull + 1;
  own = (seed + (uint64_t)me + 1) * 0xD1B54A32D192ED03ull;

  shape[0] = (struct team_shape){0, 1, npes};
  shape[1] = (struct team_shape){0, 1, npes};
  shape[2] = (struct team_shape){0, 2, (npes + 1) / 2};
  shape[3] = (struct team_shape){npes / 2, 1, npes - npes / 2};
  teams[0] = SHMEM_TEAM_WORLD;
  for (int t = 1; t < TEAMS; ++t) {
    teams[t] = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, shape[t].start, shape[t].stride, shape[t].size, NULL, 0, &teams[t]);
    CHECK((teams[t] != SHMEM_TEAM_INVALID) == (rank_in(t, me) >= 0), "team %d: membership", t);
  }
  src_pool = shmem_malloc(POOL_LONGS * sizeof(long));
  dst_pool = shmem_malloc(POOL_LONGS * sizeof(long));
  blocking_in = shmem_malloc(sizeof(long));
  blocking_out = shmem_malloc(sizeof(long));
  counter = shmem_calloc(1, sizeof(long));
  long *sent = calloc((size_t)npes, sizeof(long)), *sent_all = shmem_calloc((size_t)npes, sizeof(long));
  CHECK(src_pool && dst_pool && counter && sent && sent_all, "out of memory");
  shmem_barrier_all();

  struct op ops[BATCH_MAX];
  long id = 0, requests = 0;
  for (int b = 0; b < batches && test_failures == 0; ++b) {
    const int n = draw_batch(ops, &id);
    /* This PE's order: a random interleaving of its teams' sequences, each kept in order. */
    struct op *mine[BATCH_MAX];
    int queued[TEAMS][BATCH_MAX], len[TEAMS] = {0}, head[TEAMS] = {0}, count = 0;
    for (int i = 0; i < n; ++i) {
      const int rank = rank_in(ops[i].team, me);
      if (rank < 0) continue;
      prepare(&ops[i], me);
      queued[ops[i].team][len[ops[i].team]++] = i;
      ++count;
    }
    shmem_barrier_all(); /* every dest filled before a peer's request writes it */
    /* The blocking sums come in the shared order: an op followed by one is posted only once
     * every op drawn before it (that this PE takes part in) has been, so that no two PEs
     * enter the blocking collectives of two teams in opposite orders. */
    for (int posted = 0; posted < count; ++posted) {
      int t;
      int first = n; /* the earliest op still to post */
      for (int u = 0; u < TEAMS; ++u)
        if (head[u] < len[u] && queued[u][head[u]] < first) first = queued[u][head[u]];
      do t = (int)below(&own, TEAMS);
      while (head[t] == len[t] || (ops[queued[t][head[t]]].blocking_after && queued[t][head[t]] != first));
      struct op *o = &ops[queued[t][head[t]++]];
      post(o);
      mine[posted] = o;
      ++requests;
      if (below(&own, 3) == 0) {
        const int target = (int)below(&own, (size_t)npes);
        shmem_long_atomic_inc(counter, target);
        ++sent[target];
      }
      if (o->blocking_after) {
        *blocking_in = me + 1;
        shmem_long_sum_reduce(teams[o->team], blocking_out, blocking_in, 1);
        long e = 0;
        for (int r = 0; r < shape[o->team].size; ++r) e += world_pe(o->team, r) + 1;
        CHECK(*blocking_out == e, "a blocking sum on team %d amid the requests: %ld, not %ld", o->team, *blocking_out, e);
      }
    }
    complete(mine, count);
    for (int i = 0; i < count; ++i) {
      const size_t bad = wrong(mine[i], rank_in(mine[i]->team, me));
      CHECK(bad == 0, "batch %d, op %ld: %s of %zu on team %d (root %d, strides %td %td): %zu element(s) wrong", b,
            mine[i]->id, kind_names[mine[i]->kind], mine[i]->count, mine[i]->team, mine[i]->root, mine[i]->dst,
            mine[i]->sst, bad);
    }
    shmem_barrier_all(); /* every PE done reading its dests before the next batch writes them */
  }

  /* The atomics in between all landed. */
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sent_all, sent, (size_t)npes);
  shmem_barrier_all();
  CHECK(*counter == sent_all[me], "the atomics in between: %ld incremented this PE's counter, %ld arrived",
        sent_all[me], *counter);
  for (int t = 1; t < TEAMS; ++t)
    if (teams[t] != SHMEM_TEAM_INVALID) shmem_team_destroy(teams[t]);
  long *posted_here = shmem_malloc(sizeof(long)), *posted_all = shmem_malloc(sizeof(long));
  *posted_here = requests;
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, posted_all, posted_here, 1);
  if (test_failures)
    fprintf(stderr, "nbc_random: PE %d: seed %llu\n", me, (unsigned long long)seed);
  else if (me == 0)
    printf("nbc_random: seed %llu, %d batches, %ld requests\n", (unsigned long long)seed, batches, *posted_all);
  free(sent);
  return test_finish("nbc_random");
}
