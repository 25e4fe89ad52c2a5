/* Reference for perf/nbc across nodes: the same measurement (perf/nbc_measure.h: Full, Post,
 * Wait and Overlap beside the blocking form) of the same four collectives between two plain
 * processes (fork, no OpenSHMEM, no libfabric, no MPI) that move the bytes over one TCP
 * connection themselves, over loopback or the address given with REF_TCP_ADDRESS.  A
 * nonblocking collective's post hands the socket all that it takes at once (MSG_DONTWAIT);
 * its wait sends the rest and receives, spinning on nonblocking calls as a library's wait
 * does.  So the figures are what a transport that moves its data with the CPU, over this
 * machine's TCP, can do at best: in particular its Overlap is the most that a compute phase
 * can hide where the compute occupies every core (2 PEs on a 2-core machine), whatever the
 * library.  The parent (rank 0, the broadcast's root) is pinned to core 0, the child to core
 * 1 (unless -P).  Sockets with TCP_NODELAY and the system's buffer sizes.
 *
 *  broadcast   the parent's `size` bytes to the child
 *  fcollect    each process's `size` bytes to the other (alltoall: the same bytes on 2 PEs)
 *  sum_reduce  fcollect, then each process adds the other's longs to its own
 * The metrics are perf/nbc's (NAME_blocking_us, NAME_full_us, ...; see perf/nbc.c), every
 * figure the worse process's.  Options as for perf/nbc: -m, -M, -r, -x, -P, -c NAME. */
#include "perf_tcp.h" /* first: perf_common.h defines _GNU_SOURCE */

#include "nbc_measure.h"

static int sock = -1, rank = 0;
static char *out, *in; /* what this process sends and what it receives */
static size_t to_send, sent, to_receive, received;

static void fail(const char* what) {
  perror(what);
  exit(1);
}

/* One turn of both directions: what the socket takes now, what has arrived. */
static void move(void) {
  if (sent < to_send) {
    const ssize_t k = send(sock, out + sent, to_send - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (k > 0) sent += (size_t)k;
    else if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK) fail("ref_tcp_nbc: send");
  }
  if (received < to_receive) {
    const ssize_t k = recv(sock, in + received, to_receive - received, MSG_DONTWAIT);
    if (k > 0) received += (size_t)k;
    else if (k == 0) exit(1); /* the other process ended */
    else if (errno != EAGAIN && errno != EWOULDBLOCK) fail("ref_tcp_nbc: recv");
  }
}

static int sum_pending = 0; /* the sum_reduce whose addition the wait does */

/* Starts collective c of `size` bytes: what this process sends and receives. */
static void post(int c, size_t size) {
  const int sends = c != BROADCAST || rank == 0, receives = c != BROADCAST || rank == 1;
  to_send = sends ? size : 0;
  to_receive = receives ? size : 0;
  sent = received = 0;
  sum_pending = c == SUM_REDUCE;
  if (to_send > 0) move();
}

/* Moves what is left of both directions. */
static void finish(void) {
  while (sent < to_send || received < to_receive) move();
}

static void wait_done(void) {
  finish();
  if (sum_pending) {
    long* mine = (long*)out;
    const long* theirs = (const long*)in;
    for (size_t i = 0; i < received / sizeof(long); ++i) mine[i] += theirs[i];
    sum_pending = 0;
  }
}

static void blocking(int c, size_t size) {
  post(c, size);
  wait_done();
}

/* `bytes` from `mine` to the other process, its `bytes` into `theirs` (barrier, max, min). */
static void exchange(void* mine, void* theirs, size_t bytes) {
  char *o = out, *i = in;
  out = mine;
  in = theirs;
  to_send = to_receive = bytes;
  sent = received = 0;
  finish();
  out = o;
  in = i;
}

static void barrier(void) {
  char a = 0, b;
  exchange(&a, &b, 1);
}

static void combine(double* t, int n, int larger) {
  double theirs[PERF_MAX_REPS];
  exchange(t, theirs, sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i)
    if (larger ? theirs[i] > t[i] : theirs[i] < t[i]) t[i] = theirs[i];
}
static void max(double* t, int n) { combine(t, n, 1); }
static void min(double* t, int n) { combine(t, n, 0); }

int main(int argc, char** argv) {
  const int only = nbc_only(&argc, argv, "ref_tcp_nbc");
  if (only == -2) return 2;
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  out = perf_alloc(o.max_size);
  in = perf_alloc(o.max_size);
  sock = perf_tcp_pair("ref_tcp_nbc", o.pin, NULL, &rank);
  if (rank == 0) perf_header("ref_tcp_nbc", &o);
  memset(out, rank + 1, o.max_size);
  const double turns_per_us = perf_spin_calibrate();
  const struct nbc_lib lib = {2, rank, blocking, post, wait_done, barrier, max, min};
  nbc_measure_all(&lib, only, &o, turns_per_us);
  if (rank == 1) _exit(0);
  return perf_tcp_end();
}
