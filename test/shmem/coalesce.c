/* Runs of small nbi puts to consecutive addresses, which Tandem coalesces into one message
 * when the target is on another node (TANDEM_AGGREGATE), and puts to one PE that do not
 * continue one another (lists, where the provider talks through sockets): every put must
 * land, in order with what a fence or quiet puts behind it, also when the run crosses a
 * batch's end, changes size, target, segment or direction, or is interrupted by other
 * operations.  Each
 * PE writes to its right neighbour, which checks once a flag behind the run arrives.  As
 * the API requires, an nbi put's source is left alone until the quiet or fence after it
 * (run with TANDEM_DEFER_THRESHOLD=1 too, where node peers copy it only then). */
#include "common.h"

#define MAX_WORDS 5000 /* 40 KB: runs that fill more than two 16 KiB batches */

static long flag;    /* set by the left neighbour: phase number */
static long ack;     /* bumped by the right neighbour when it checked a phase */
static long globals_run[64];
static long phase;
static long source[MAX_WORDS + 128]; /* what this PE puts in the current phase */
static long earlier[MAX_WORDS];      /* overwritten(): the first run's values */
static int me, right, left;

static long value(int pe, long ph, long i) { return ((long)pe << 40) + (ph << 20) + i + 1; }

/* Fills source[] with this phase's values. */
static void fill(long n) {
  for (long i = 0; i < n; ++i) source[i] = value(me, phase, i);
}

/* The flag after the run: through a fence and an atomic, or a quiet and a put. */
static void release(int by_fence) {
  if (by_fence) {
    shmem_fence();
    shmem_long_atomic_set(&flag, phase, right);
  } else {
    shmem_quiet();
    shmem_long_p(&flag, phase, right);
  }
}

static void await(void) {
  shmem_long_wait_until(&flag, SHMEM_CMP_GE, phase);
}

static void done(void) {
  shmem_long_atomic_inc(&ack, left);
  shmem_long_wait_until(&ack, SHMEM_CMP_GE, phase);
}

static void check_words(const char *what, const long *data, long from, long n, int pe, long ph) {
  long bad = 0, first = -1;
  for (long i = from; i < from + n; ++i)
    if (data[i] != value(pe, ph, i) && bad++ == 0) first = i;
  CHECK(bad == 0, "%s (phase %ld): %ld of %ld words wrong, first word %ld is %#lx, expected %#lx", what, ph,
        bad, n, first, first >= 0 ? (unsigned long)data[first] : 0ul,
        first >= 0 ? (unsigned long)value(pe, ph, first) : 0ul);
}

/* A run of `n` one-word puts, in increasing or decreasing address order. */
static void run(long *data, long n, int by_fence, int backwards) {
  ++phase;
  fill(n);
  for (long k = 0; k < n; ++k) {
    const long i = backwards ? n - 1 - k : k;
    shmem_long_put_nbi(&data[i], &source[i], 1, right);
  }
  release(by_fence);
  await();
  char what[96];
  snprintf(what, sizeof what, "run of %ld puts%s, then %s", n, backwards ? " backwards" : "",
           by_fence ? "fence" : "quiet");
  check_words(what, data, 0, n, left, phase);
  done();
}

/* Puts of 1 to 4 words, each starting where the last ended, and a run split by a gap. */
static void mixed_sizes(long *data) {
  ++phase;
  fill(1300);
  long at = 0, gap = 0;
  for (int k = 0; at < 1200; ++k) {
    const long n = 1 + k % 4;
    shmem_long_put_nbi(&data[at], &source[at], (size_t)n, right);
    at += n;
    if (k == 100) { /* a gap of 3 words, not written in this phase */
      gap = at;
      at += 3;
    }
  }
  release(1);
  await();
  check_words("puts of 1-4 words", data, 0, gap, left, phase);
  check_words("puts of 1-4 words after a gap", data, gap + 3, 1200 - gap - 3, left, phase);
  CHECK(data[gap] == value(left, phase - 1, gap), "a word in the gap between two runs changed: %#lx",
        (unsigned long)data[gap]);
  done();
}

/* Runs interleaved between two targets, between the heap and the globals, and interrupted
 * by gets, atomics and blocking puts to the same PE. */
static void interleaved(long *data) {
  ++phase;
  fill(64);
  long scratch = 0, into = 0;
  for (long i = 0; i < 64; ++i) {
    const long *v = &source[i];
    shmem_long_put_nbi(&data[i], v, 1, right);
    shmem_long_put_nbi(&globals_run[i], v, 1, right);
    if (i % 16 == 5) shmem_long_get(&into, &data[MAX_WORDS], 1, right);
    if (i % 16 == 9) shmem_long_atomic_add(&data[MAX_WORDS + 1], 1, right);
    if (i % 16 == 13) shmem_long_put(&data[MAX_WORDS + 2], &scratch, 1, right);
    if (left != right) shmem_long_put_nbi(&data[MAX_WORDS + 8 + i], v, 1, left);
  }
  release(0);
  await();
  check_words("heap run interleaved with a globals run", data, 0, 64, left, phase);
  check_words("globals run interleaved with a heap run", globals_run, 0, 64, left, phase);
  /* The right neighbour's run to us (data[MAX_WORDS + 8 + i]) is not ordered with its flag:
   * it is checked after the barrier that follows everyone's quiet. */
  done();
  shmem_barrier_all();
  if (left != right) {
    long bad = 0;
    for (long i = 0; i < 64; ++i) bad += data[MAX_WORDS + 8 + i] != value(right, phase, i);
    CHECK(bad == 0, "a run to the left neighbour interleaved with one to the right: %ld words wrong", bad);
  }
  shmem_barrier_all();
}

/* A run, a fence, then a second run over the same words: the second one's values win. */
static void overwritten(long *data) {
  ++phase;
  fill(500);
  for (long i = 0; i < 500; ++i) {
    earlier[i] = value(me, phase - 1, i);
    shmem_long_put_nbi(&data[i], &earlier[i], 1, right);
  }
  shmem_fence();
  for (long i = 0; i < 500; ++i) shmem_long_put_nbi(&data[i], &source[i], 1, right);
  release(0);
  await();
  check_words("a run behind a fence over an earlier run", data, 0, 500, left, phase);
  done();
}

/* Puts that do not continue one another, which Tandem carries in lists across nodes (the
 * target copies them into place when its progress reads the list), followed by writes and
 * reads over the same words: the later write wins, a get sees the puts.  The API orders
 * them only through a fence or quiet; Tandem keeps puts to a PE on another node in order
 * without one where the provider keeps writes in order (not under the unordered rules),
 * lists included, so there the phase has none.  On the node, nbi puts held back for the
 * quiet (TANDEM_DEFER_THRESHOLD) may land after later writes: there a quiet goes between. */
static void scattered(long *data) {
  ++phase;
  enum { N = 3600 };
  const char *rules = getenv("TANDEM_OFI_REQUIRE");
  const int in_order = shmem_ptr(data, right) == NULL && !(rules && strstr(rules, "unordered"));
  fill(N);
  for (long i = 0; i < N; ++i) earlier[i] = value(me, phase - 1, i);
  /* The even words of [0, 2000) from an earlier value, then a blocking put over all of them. */
  for (long i = 0; i < 2000; i += 2) shmem_long_put_nbi(&data[i], &earlier[i], 1, right);
  if (!in_order) shmem_quiet();
  shmem_long_put(&data[0], &source[0], 2000, right);
  /* [2000, 3000) in pieces of 1 to 257 words, last piece first: pieces of up to 255 words
   * fit a list, larger ones go alone behind the lists before them. */
  static const long sizes[] = {1, 2, 3, 255, 256, 257, 7, 1};
  long starts[64], n = 0;
  for (long at = 2000, k = 0; at < 3000; at += sizes[k++ % 8]) starts[n++] = at;
  for (long k = n - 1; k >= 0; --k) {
    const long end = k + 1 < n ? starts[k + 1] : 3000;
    shmem_long_put_nbi(&data[starts[k]], &source[starts[k]], (size_t)(end - starts[k]), right);
  }
  /* [3000, 3400) word by word backwards from an earlier value, then one nbi put over them. */
  for (long i = 3399; i >= 3000; --i) shmem_long_put_nbi(&data[i], &earlier[i], 1, right);
  if (!in_order) shmem_quiet();
  shmem_long_put_nbi(&data[3000], &source[3000], 400, right);
  /* [3400, 3600): heap words and globals backwards, segments alternating, then a get of
   * the last word put. */
  for (long i = 3599; i >= 3400; --i) {
    shmem_long_put_nbi(&data[i], &source[i], 1, right);
    if (i % 4 == 0) shmem_long_put_nbi(&globals_run[(i - 3400) / 4], &source[i - 3400], 1, right);
  }
  long got = 0;
  if (!in_order) shmem_quiet();
  shmem_long_get(&got, &data[3400], 1, right);
  CHECK(got == source[3400], "a get behind scattered puts to the same word read %#lx, expected %#lx",
        (unsigned long)got, (unsigned long)source[3400]);
  release(0);
  await();
  check_words("scattered puts, then writes over them", data, 0, N, left, phase);
  for (long i = 3400; i < N; i += 4) {
    const long at = (i - 3400) / 4;
    CHECK(globals_run[at] == value(left, phase, i - 3400), "globals word %ld after scattered puts: %#lx", at,
          (unsigned long)globals_run[at]);
  }
  done();
}

/* Scattered puts to every other PE in turn (a list open for each), then a blocking put to
 * each over the same words: the blocking put wins (ordered as in scattered()). */
static void spread(long *data) {
  ++phase;
  const int n_pes = shmem_n_pes();
  const long region = MAX_WORDS / n_pes; /* data[s * region ...]: what PE s puts */
  const char *rules = getenv("TANDEM_OFI_REQUIRE");
  const int ordered_rules = !(rules && strstr(rules, "unordered"));
  fill(region);
  for (long i = 0; i < region; ++i) earlier[i] = value(me, phase - 1, i);
  shmem_barrier_all(); /* every PE has checked the phases before */
  for (long i = (region - 1) & ~1L; i >= 0; i -= 2)
    for (int pe = 0; pe < n_pes; ++pe)
      if (pe != me) shmem_long_put_nbi(&data[me * region + i], &earlier[i], 1, pe);
  for (int pe = 0; pe < n_pes; ++pe) {
    if (pe == me) continue;
    if (!ordered_rules || shmem_ptr(data, pe) != NULL) shmem_quiet();
    shmem_long_put(&data[me * region], &source[0], (size_t)region, pe);
  }
  shmem_quiet();
  shmem_barrier_all();
  for (int pe = 0; pe < n_pes; ++pe) {
    if (pe == me) continue;
    char what[96];
    snprintf(what, sizeof what, "scattered puts from PE %d to every PE in turn, then a blocking put", pe);
    check_words(what, data + pe * region, 0, region, pe, phase);
  }
  shmem_barrier_all();
}

int main(void) {
  test_init();
  me = shmem_my_pe();
  right = test_right();
  left = test_left();
  long *data = shmem_calloc(MAX_WORDS + 128, sizeof(long));
  shmem_barrier_all();
  const long lengths[] = {1, 2, 3, 100, 2047, 2048, 2049, MAX_WORDS};
  for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; ++k)
    for (int by_fence = 0; by_fence < 2; ++by_fence) run(data, lengths[k], by_fence, 0);
  run(data, 300, 0, 1);
  mixed_sizes(data);
  interleaved(data);
  overwritten(data);
  scattered(data);
  spread(data);
  shmem_barrier_all();
  shmem_free(data);
  return test_finish("coalesce");
}
