/* Helpers shared by the benchmarks and the raw references under perf/: a timer, the
 * busy-wait compute phase, core pinning, command-line options, the message sizes and the
 * CSV output.  Plain C and POSIX only: this header never includes shmem.h, so the raw
 * references that include it do not depend on any OpenSHMEM library.
 *
 * Measurement rules (see perf/README.md):
 *  - one timer around a whole loop of `iterations` operations, never a timer per iteration;
 *  - a measurement is repeated `reps` times; the CSV carries the best repetition under the
 *    metric's name and the median under NAME_median;
 *  - waiting for an overlap window is a busy-wait compute loop, never a sleep. */
#ifndef TANDEM_PERF_COMMON_H
#define TANDEM_PERF_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define PERF_KIB ((size_t)1024)
#define PERF_MIB (PERF_KIB * PERF_KIB)
#define PERF_MAX_REPS 64

/* ---------------------------------------------------------------- time */

static inline double perf_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* The CPU's polite spin hint, used by the raw references' polling loops. */
static inline void perf_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#else
  __asm__ __volatile__("" ::: "memory");
#endif
}

/* ---------------------------------------------------------------- compute */

/* The busy-wait compute phase: `n` loop turns that the compiler cannot remove (the empty asm
 * statement) and that never enter the kernel.  Never inlined: one copy of the loop runs at
 * the same speed wherever it is called, so that a calibration holds for every caller (an
 * inlined copy ran twice as fast in one caller as in another). */
static __attribute__((noinline, unused)) void perf_spin(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) __asm__ __volatile__("");
}

/* Loop turns of perf_spin per microsecond, best of a few probes (noise only slows a probe). */
static inline double perf_spin_calibrate(void) {
  const uint64_t turns = 20000000;
  double best = 1e300;
  for (int i = 0; i < 5; ++i) {
    const double t0 = perf_now_us();
    perf_spin(turns);
    const double t = perf_now_us() - t0;
    if (t < best) best = t;
  }
  return (double)turns / best;
}

/* The turns of perf_spin that take `target_us`: from the calibration, then checked against
 * the clock with the best of 3 probes of up to 50 (`n`) phases, as the timed loops run them
 * (a loop's phases run slower than the calibration's single long one). */
static inline uint64_t perf_compute_turns(double target_us, double turns_per_us, long n) {
  uint64_t turns = (uint64_t)(target_us * turns_per_us) + 1;
  const long probe = n < 50 ? n : 50;
  double best = 1e300;
  for (int k = 0; k < 3; ++k) {
    const double t0 = perf_now_us();
    for (long i = 0; i < probe; ++i) perf_spin(turns);
    const double per = (perf_now_us() - t0) / (double)probe;
    if (per < best) best = per;
  }
  if (best > 0 && best < 1e300) turns = (uint64_t)((double)turns * target_us / best) + 1;
  return turns;
}

/* ---------------------------------------------------------------- pinning */

static inline int perf_affinity_count(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  return CPU_COUNT(&set);
}

/* Pins the calling process to core `index` modulo the online cores.  Returns the core, or -1
 * when the kernel refused. */
static inline int perf_pin(int index) {
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online < 1) online = 1;
  const int core = (int)(index % online);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    fprintf(stderr, "# pinning to core %d failed: %s\n", core, strerror(errno));
    return -1;
  }
  return core;
}

/* Moves the calling process into the network namespace of its role `index` when
 * PERF_NETNS lists namespace files (space-separated, the first for index 0): the raw
 * network references then talk across the same links as PEs on namespace virtual nodes
 * (perf/run.sh -S).  Call before any socket or endpoint is made, in a single thread. */
static inline void perf_enter_netns(int index) {
  const char* list = getenv("PERF_NETNS");
  if (list == NULL || *list == '\0') return;
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", list);
  char* save = NULL;
  char* path = strtok_r(copy, " ", &save);
  for (int i = 0; i < index && path != NULL; ++i) path = strtok_r(NULL, " ", &save);
  if (path == NULL) {
    fprintf(stderr, "# PERF_NETNS names no namespace for process %d\n", index);
    exit(2);
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
    fprintf(stderr, "# cannot enter the network namespace %s: %s\n", path, strerror(errno));
    exit(1);
  }
  close(fd);
}

/* Pins the calling process (role `role` of a reference: 0 the parent or only process, 1 the
 * child) to the core of its role unless -P, and says on stderr where it runs. */
static inline void perf_place(const char* what, int role, int pin) {
  const int cpus = perf_affinity_count();
  const int core = pin ? perf_pin(role) : -1;
  fprintf(stderr, "# %s: process %d, %d usable cpu(s) at start, %s %d\n", what, role, cpus,
          core >= 0 ? "pinned to core" : "on cpu", core >= 0 ? core : sched_getcpu());
}

/* The two processes of a raw reference: forks and returns 0 in the parent, 1 in the child
 * (which dies with its parent).  Each enters the network namespace of its role
 * (perf_enter_netns) and is placed with perf_place.  Ends the program when fork fails. */
static inline int perf_fork_pair(const char* what, int pin) {
  fflush(stdout);
  const pid_t child = fork();
  if (child < 0) {
    perror("# fork");
    exit(1);
  }
  const int role = child == 0 ? 1 : 0;
  if (role == 1) prctl(PR_SET_PDEATHSIG, SIGKILL);
  perf_enter_netns(role);
  perf_place(what, role, pin);
  return role;
}

/* `bytes` of zeroed anonymous shared memory, which a forked child shares; ends the program
 * when the kernel refuses. */
static inline void* perf_map_shared(size_t bytes) {
  void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    perror("# mmap");
    exit(1);
  }
  memset(p, 0, bytes);
  return p;
}

/* ---------------------------------------------------------------- options */

struct perf_opts {
  size_t min_size;    /* -m: smallest message (bytes) */
  size_t max_size;    /* -M: largest message (bytes) */
  int reps;           /* -r: repetitions of each timed loop */
  long iterations;    /* -i: operations per timed loop (0: chosen from the size) */
  size_t span;        /* -s: bytes the bandwidth streams walk through */
  int window;         /* -w: puts between two quiets in the bandwidth stream */
  double scale;       /* -x: multiplies the automatic iteration counts (quick runs: 0.1) */
  int pin;            /* 0 with -P or PERF_PIN=0 */
};

static inline size_t perf_parse_size(const char* text) {
  char* end = NULL;
  double v = strtod(text, &end);
  if (end == text || v < 0) {
    fprintf(stderr, "# bad size '%s'\n", text);
    exit(2);
  }
  switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; break;
    case 'g': case 'G': v *= 1024.0 * 1024.0 * 1024.0; break;
    default: break;
  }
  return (size_t)v;
}

static inline void perf_usage(const char* prog) {
  fprintf(stderr,
          "usage: %s [-m MIN] [-M MAX] [-r REPS] [-i ITERATIONS] [-s SPAN] [-w WINDOW] [-x SCALE] [-P]\n"
          "  sizes take K, M, G suffixes; -P leaves the process where the launcher put it\n"
          "  output: CSV lines size,iterations,metric,value on stdout\n",
          prog);
}

/* Parses argv into `o`, which holds the caller's defaults on entry. */
static inline void perf_parse(int argc, char** argv, struct perf_opts* o) {
  const char* env_pin = getenv("PERF_PIN");
  if (env_pin && strcmp(env_pin, "0") == 0) o->pin = 0;
  int c;
  while ((c = getopt(argc, argv, "m:M:r:i:s:w:x:Ph")) != -1) {
    switch (c) {
      case 'm': o->min_size = perf_parse_size(optarg); break;
      case 'M': o->max_size = perf_parse_size(optarg); break;
      case 'r': o->reps = atoi(optarg); break;
      case 'i': o->iterations = atol(optarg); break;
      case 's': o->span = perf_parse_size(optarg); break;
      case 'w': o->window = atoi(optarg); break;
      case 'x': o->scale = strtod(optarg, NULL); break;
      case 'P': o->pin = 0; break;
      default: perf_usage(argv[0]); exit(c == 'h' ? 0 : 2);
    }
  }
  if (o->reps < 1) o->reps = 1;
  if (o->reps > PERF_MAX_REPS) o->reps = PERF_MAX_REPS;
  if (o->window < 1) o->window = 1;
  if (o->min_size < 1) o->min_size = 1;
  if (o->max_size < o->min_size) o->max_size = o->min_size;
  if (o->scale <= 0) o->scale = 1.0;
  if (o->span < o->max_size) o->span = o->max_size;
}

/* Takes a benchmark's own "FLAG COUNT" (or "FLAGCOUNT") out of argv before perf_parse sees
 * it and returns COUNT, or `fallback` when absent; a COUNT below 1 ends the program.  -h
 * prints the common usage and `help`. */
static inline long perf_take_count(int* argc, char** argv, const char* flag, long fallback, const char* help) {
  const size_t len = strlen(flag);
  for (int i = 1; i < *argc; ++i) {
    int used = 0;
    if (strcmp(argv[i], flag) == 0) {
      if (i + 1 >= *argc) {
        fprintf(stderr, "# %s needs a count\n", flag);
        exit(2);
      }
      fallback = atol(argv[i + 1]);
      used = 2;
    } else if (strncmp(argv[i], flag, len) == 0) {
      fallback = atol(argv[i] + len);
      used = 1;
    } else if (strcmp(argv[i], "-h") == 0) {
      perf_usage(argv[0]);
      fprintf(stderr, "%s\n", help);
      exit(0);
    }
    if (used && fallback < 1) {
      fprintf(stderr, "# %s must be at least 1\n", flag);
      exit(2);
    }
    if (used) {
      for (int j = i; j + used < *argc; ++j) argv[j] = argv[j + used];
      *argc -= used;
      --i;
    }
  }
  return fallback;
}

static inline struct perf_opts perf_defaults(void) {
  struct perf_opts o;
  o.min_size = 8;
  o.max_size = 4 * PERF_MIB;
  o.reps = 11;
  o.iterations = 0;
  o.span = 128 * PERF_MIB;
  o.window = 64;
  o.scale = 1.0;
  o.pin = 1;
  return o;
}

/* Operations per timed loop: `budget` bytes worth of messages of `size` bytes, at least `lo`
 * and at most `hi` (before -x scaling); -i overrides. */
static inline long perf_iterations(const struct perf_opts* o, size_t size, double budget, long lo, long hi) {
  if (o->iterations > 0) return o->iterations;
  double n = budget / (double)size;
  if (n < (double)lo) n = (double)lo;
  if (n > (double)hi) n = (double)hi;
  n *= o->scale;
  return n < 1 ? 1 : (long)n;
}

/* The next size of the power-of-two series (min_size rounded up to a power of two). */
static inline size_t perf_first_size(const struct perf_opts* o) {
  size_t s = 1;
  while (s < o->min_size) s <<= 1;
  return s;
}

/* Bytes walked through by the bandwidth stream before it wraps: the span rounded down to a
 * multiple of the message size. */
static inline size_t perf_wrap(const struct perf_opts* o, size_t size) {
  size_t w = o->span / size * size;
  return w < size ? size : w;
}

/* A bandwidth stream's position: message k goes from source + off to dest + off, with off
 * advancing by the message size and wrapping at `wrap` (perf_wrap). */
struct perf_stream {
  char* dest;
  const char* source;
  size_t size;
  size_t wrap;
  size_t off;
};

static inline void perf_stream_next(struct perf_stream* s) {
  s->off += s->size;
  if (s->off >= s->wrap) s->off = 0;
}

/* ---------------------------------------------------------------- output */

static int perf_cmp_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* The best (lowest when lower_is_better) and the median of `n` samples. */
struct perf_stat {
  double best;
  double median;
};

static inline struct perf_stat perf_stats(const double* samples, int n, int lower_is_better) {
  double sorted[PERF_MAX_REPS];
  if (n > PERF_MAX_REPS) n = PERF_MAX_REPS;
  memcpy(sorted, samples, (size_t)n * sizeof(double));
  qsort(sorted, (size_t)n, sizeof(double), perf_cmp_double);
  struct perf_stat s;
  s.best = lower_is_better ? sorted[0] : sorted[n - 1];
  s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  return s;
}

static inline void perf_emit_stat(size_t size, long iterations, const char* metric, struct perf_stat s) {
  printf("%zu,%ld,%s,%.6g\n", size, iterations, metric, s.best);
  printf("%zu,%ld,%s_median,%.6g\n", size, iterations, metric, s.median);
  fflush(stdout);
}

/* Emits the best and the median of `n` samples; returns them. */
static inline struct perf_stat perf_emit(size_t size, long iterations, const char* metric, const double* samples,
                                         int n, int lower_is_better) {
  const struct perf_stat s = perf_stats(samples, n, lower_is_better);
  perf_emit_stat(size, iterations, metric, s);
  return s;
}

static inline void perf_header(const char* what, const struct perf_opts* o) {
  printf("# %s: sizes %zu..%zu B, %d repetitions (value: best, NAME_median: median)\n", what, o->min_size,
         o->max_size, o->reps);
  printf("# size,iterations,metric,value\n");
  fflush(stdout);
}

/* Page-aligned private memory, touched so that the first timed loop finds it mapped. */
static inline void* perf_alloc(size_t bytes) {
  void* p = NULL;
  if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0) {
    fprintf(stderr, "# out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  memset(p, 1, bytes);
  return p;
}

#endif /* TANDEM_PERF_COMMON_H */
