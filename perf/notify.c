/* Notified access against the other ways to tell a PE that data arrived, as ping-pongs
 * between PE 0 and PE 1 (on one node or two, as launched), for every message size.  Each
 * round PE 0 sends `size` bytes and the PE 1 answers with the same once it knows they
 * arrived; the figure is half a round trip.
 *   notify        shmemx_putmem_notify; the receiver waits on a persistent request
 *   signal        shmem_putmem_signal; the receiver waits with shmem_signal_wait_until
 *   fence_flag    shmem_putmem, shmem_fence, shmem_longlong_p of a flag; the receiver waits
 *                 on the flag with shmem_longlong_wait_until
 *   quiet_amo     shmem_putmem, shmem_quiet, shmem_uint64_atomic_set of a flag
 * Then how much computation a non-blocking notified put hides: PE 0 sends `size` bytes with
 * shmemx_putmem_notify_nbi and waits for PE 1's notification that they arrived (comm), or
 * computes for as long as comm took (work), or sends, computes, then waits (both).  The
 * hidden share is (comm + work - both) / comm: 1 when the transfer fully overlaps the work,
 * 0 when it happens only once the work is over.
 * Last, what each way costs the CPU on its own: PE 0 tells itself, 1024 times in a row with
 * a tag (or a signal word) per message, as a pipeline of rows does, while the other PEs wait
 * in a barrier: notify's start, put and wait against signal's put and wait, in nanoseconds
 * per message (size column 8).
 * Uses Tandem's <shmemx.h> (the only benchmark that does).
 *
 * CSV metrics: notify_<method>_half_rtt_us, notify_overlap_comm_us, notify_overlap_both_us,
 * notify_overlap_hidden (per size), notify_self_notify_ns, notify_self_signal_ns. */
/* perf_shmem.h first: it defines _GNU_SOURCE before any system header. */
#include "perf_shmem.h"

#include <shmemx.h>

enum method { NOTIFY, SIGNAL, FENCE_FLAG, QUIET_AMO, METHODS };
static const char* const names[METHODS] = {"notify_notify_half_rtt_us", "notify_signal_half_rtt_us",
                                            "notify_fence_flag_half_rtt_us", "notify_quiet_amo_half_rtt_us"};

static long long seq;
static long long flag;
static uint64_t signal_word;

static void send(enum method m, char* buffer, const char* source, size_t size, int to) {
  switch (m) {
    case NOTIFY: shmemx_putmem_notify(buffer, source, size, to, 1); break;
    case SIGNAL: shmem_putmem_signal(buffer, source, size, &signal_word, (uint64_t)seq, SHMEM_SIGNAL_SET, to); break;
    case FENCE_FLAG:
      shmem_putmem(buffer, source, size, to);
      shmem_fence();
      shmem_longlong_p(&flag, seq, to);
      break;
    case QUIET_AMO:
      shmem_putmem(buffer, source, size, to);
      shmem_quiet();
      shmem_uint64_atomic_set(&signal_word, (uint64_t)seq, to);
      break;
    case METHODS: break;
  }
}

static void receive(enum method m, shmemx_notify_t req) {
  switch (m) {
    case NOTIFY: shmemx_notify_wait(req, NULL); break;
    case SIGNAL:
    case QUIET_AMO: shmem_signal_wait_until(&signal_word, SHMEM_CMP_EQ, (uint64_t)seq); break;
    case FENCE_FLAG: shmem_longlong_wait_until(&flag, SHMEM_CMP_EQ, seq); break;
    case METHODS: break;
  }
}

static void rounds(enum method m, char* buffer, const char* source, size_t size, int me, shmemx_notify_t req,
                   long n) {
  for (long i = 0; i < n; ++i) {
    ++seq;
    if (m == NOTIFY && me <= 1) shmemx_notify_start(req);
    if (me == 0) {
      send(m, buffer, source, size, 1);
      receive(m, req);
    } else if (me == 1) {
      receive(m, req);
      send(m, buffer, source, size, 0);
    }
  }
}

/* One exchange of the overlap series: PE 0 sends and (after `turns` of work) waits for the
 * acknowledgement; PE 1 acknowledges each arrival with a notification alone. */
static void overlap_round(char* buffer, const char* source, size_t size, int me, shmemx_notify_t req,
                          uint64_t turns) {
  shmemx_notify_start(req);
  if (me == 0) {
    shmemx_putmem_notify_nbi(buffer, source, size, 1, 1);
    perf_spin(turns);
    shmemx_notify_wait(req, NULL);
  } else if (me == 1) {
    shmemx_notify_wait(req, NULL);
    shmemx_putmem_notify(buffer, source, 0, 0, 1);
  }
}

static void overlap(char* buffer, const char* source, size_t size, int me, shmemx_notify_t req,
                    const struct perf_opts* o) {
  const double turns_per_us = perf_spin_calibrate();
  const long n = perf_iterations(o, size, 16.0 * PERF_MIB, 10, 2000);
  double comm[PERF_MAX_REPS], both[PERF_MAX_REPS], hidden[PERF_MAX_REPS];
  for (int r = 0; r < o->reps; ++r) {
    shmem_barrier_all();
    double t0 = perf_now_us();
    for (long i = 0; i < n; ++i) overlap_round(buffer, source, size, me, req, 0);
    comm[r] = (perf_now_us() - t0) / (double)n;
    /* Work as long as the exchange took (PE 0's measure, which is the one that counts). */
    const uint64_t turns = (uint64_t)(comm[r] * turns_per_us);
    t0 = perf_now_us();
    for (long i = 0; i < n; ++i) perf_spin(me == 0 ? turns : 0);
    const double work = (perf_now_us() - t0) / (double)n;
    shmem_barrier_all();
    t0 = perf_now_us();
    for (long i = 0; i < n; ++i) overlap_round(buffer, source, size, me, req, turns);
    both[r] = (perf_now_us() - t0) / (double)n;
    hidden[r] = (comm[r] + work - both[r]) / comm[r];
  }
  if (me == 0) {
    perf_emit(size, n, "notify_overlap_comm_us", comm, o->reps, 1);
    perf_emit(size, n, "notify_overlap_both_us", both, o->reps, 1);
    perf_emit(size, n, "notify_overlap_hidden", hidden, o->reps, 0);
  }
}

#define SELF_ROWS 1024
static double self_cell[SELF_ROWS];
static uint64_t self_sig[SELF_ROWS];

static void self_cost(const struct perf_opts* o, int me) {
  shmemx_notify_t reqs[SELF_ROWS];
  for (int i = 0; i < SELF_ROWS; ++i) shmemx_notify_init(me, i, 1, &reqs[i]);
  const long rounds = perf_iterations(o, 1, 200, 1, 200);
  const double value = 1;
  double tn[PERF_MAX_REPS], ts[PERF_MAX_REPS];
  for (int r = 0; r < o->reps && me == 0; ++r) {
    double t0 = perf_now_us();
    for (long k = 0; k < rounds; ++k) {
      for (int i = 0; i < SELF_ROWS; ++i) shmemx_notify_start(reqs[i]);
      for (int i = 0; i < SELF_ROWS; ++i) {
        shmemx_putmem_notify(&self_cell[i], &value, sizeof value, me, i);
        shmemx_notify_wait(reqs[i], NULL);
      }
    }
    tn[r] = (perf_now_us() - t0) * 1e3 / (double)(rounds * SELF_ROWS);
    for (int i = 0; i < SELF_ROWS; ++i) self_sig[i] = 0;
    t0 = perf_now_us();
    for (long k = 1; k <= rounds; ++k)
      for (int i = 0; i < SELF_ROWS; ++i) {
        shmem_putmem_signal(&self_cell[i], &value, sizeof value, &self_sig[i], (uint64_t)k, SHMEM_SIGNAL_SET, me);
        shmem_uint64_wait_until(&self_sig[i], SHMEM_CMP_EQ, (uint64_t)k);
      }
    ts[r] = (perf_now_us() - t0) * 1e3 / (double)(rounds * SELF_ROWS);
  }
  if (me == 0) {
    perf_emit(sizeof value, rounds * SELF_ROWS, "notify_self_notify_ns", tn, o->reps, 1);
    perf_emit(sizeof value, rounds * SELF_ROWS, "notify_self_signal_ns", ts, o->reps, 1);
  }
  shmem_barrier_all();
  for (int i = 0; i < SELF_ROWS; ++i) shmemx_notify_free(&reqs[i]);
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  const int me = perf_shmem_start("notify", &o);
  char* buffer = (char*)shmem_malloc(o.max_size);
  if (buffer == NULL) {
    fprintf(stderr, "# shmem_malloc(%zu) failed\n", o.max_size);
    shmem_global_exit(1);
  }
  char* source = (char*)perf_alloc(o.max_size);
  shmemx_notify_t req;
  shmemx_notify_init(me == 0 ? 1 : 0, 1, 1, &req);
  double t[PERF_MAX_REPS];
  shmem_barrier_all();
  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1) {
    const long n = perf_iterations(&o, size, 16.0 * PERF_MIB, 10, 10000);
    for (int m = 0; m < METHODS; ++m) {
      rounds((enum method)m, buffer, source, size, me, req, n / 10 + 1);
      for (int r = 0; r < o.reps; ++r) {
        shmem_barrier_all();
        const double t0 = perf_now_us();
        rounds((enum method)m, buffer, source, size, me, req, n);
        t[r] = (perf_now_us() - t0) / (2.0 * (double)n);
      }
      if (me == 0) perf_emit(size, n, names[m], t, o.reps, 1);
    }
  }
  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1)
    overlap(buffer, source, size, me, req, &o);
  self_cost(&o, me);
  shmem_barrier_all();
  shmemx_notify_free(&req);
  free(source);
  shmem_free(buffer);
  shmem_finalize();
  return 0;
}
