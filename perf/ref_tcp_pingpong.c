/* Reference for the inter-node figures: a raw TCP ping-pong between two plain processes
 * (fork, no OpenSHMEM, no libfabric) over loopback, or over the address given with
 * REF_TCP_ADDRESS (for example a veth address between network namespaces).  The floor that a
 * TCP-based libfabric provider builds on.  The parent is pinned to core 0, the child to
 * core 1 (unless -P).  Sockets block in recv/send, as a TCP application's would; TCP_NODELAY.
 * With PERF_NETNS the two processes run in two network namespaces (perf_enter_netns), and
 * REF_TCP_ADDRESS must be the first one's address.
 *
 *  tcp_half_rtt_us  the parent sends `size` bytes, the child receives them all and sends them
 *                   back; half of a round trip, one timer around `iterations` round trips
 *  tcp_bw_MBps      the parent streams `iterations` messages of `size` bytes; the timer stops
 *                   when the child's one-byte acknowledgement of the last one arrives
 * Options as for every benchmark (perf_common.h): -m, -M, -r, -x, -P. */
#include "perf_tcp.h" /* first: perf_common.h defines _GNU_SOURCE */

static void full(int fd, char* buf, size_t n, int sending) {
  while (n > 0) {
    ssize_t k = sending ? send(fd, buf, n, 0) : recv(fd, buf, n, 0);
    if (k <= 0) {
      perror(sending ? "ref_tcp_pingpong: send" : "ref_tcp_pingpong: recv");
      exit(1);
    }
    buf += k;
    n -= (size_t)k;
  }
}

/* Buffers large enough for the largest stream (TCP_NODELAY: perf_tcp_pair). */
static void tune(int fd) {
  int big = 8 << 20;
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
}

static long latency_iterations(const struct perf_opts* o, size_t size) {
  return perf_iterations(o, size, 16.0 * PERF_MIB, 10, 10000);
}
static long stream_iterations(const struct perf_opts* o, size_t size) {
  return perf_iterations(o, size, 64.0 * PERF_MIB, 10, 20000);
}

/* The child: answers every round trip, receives every stream and acknowledges its end. */
static void echo(int fd, char* buf, const struct perf_opts* o) {
  for (size_t size = perf_first_size(o); size <= o->max_size; size <<= 1) {
    const long n = latency_iterations(o, size), m = stream_iterations(o, size);
    for (long i = 0; i < (n / 10 + 1) + (long)o->reps * n; ++i) {
      full(fd, buf, size, 0);
      full(fd, buf, size, 1);
    }
    for (int r = 0; r < o->reps; ++r) {
      for (long i = 0; i < m; ++i) full(fd, buf, size, 0);
      full(fd, buf, 1, 1);
    }
  }
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  char* buf = perf_alloc(o.max_size);
  int role;
  const int fd = perf_tcp_pair("ref_tcp_pingpong", o.pin, tune, &role);
  if (role == 1) {
    echo(fd, buf, &o);
    _exit(0);
  }
  perf_header("ref_tcp_pingpong", &o);
  double t[PERF_MAX_REPS];
  for (size_t size = perf_first_size(&o); size <= o.max_size; size <<= 1) {
    const long n = latency_iterations(&o, size), m = stream_iterations(&o, size);
    for (long i = 0; i < n / 10 + 1; ++i) {
      full(fd, buf, size, 1);
      full(fd, buf, size, 0);
    }
    for (int r = 0; r < o.reps; ++r) {
      const double t0 = perf_now_us();
      for (long i = 0; i < n; ++i) {
        full(fd, buf, size, 1);
        full(fd, buf, size, 0);
      }
      t[r] = (perf_now_us() - t0) / (2.0 * (double)n);
    }
    perf_emit(size, n, "tcp_half_rtt_us", t, o.reps, 1);
    for (int r = 0; r < o.reps; ++r) {
      const double t0 = perf_now_us();
      for (long i = 0; i < m; ++i) full(fd, buf, size, 1);
      full(fd, buf, 1, 0);
      t[r] = (double)m * (double)size / (perf_now_us() - t0);
    }
    perf_emit(size, m, "tcp_bw_MBps", t, o.reps, 0);
  }
  return perf_tcp_end();
}
