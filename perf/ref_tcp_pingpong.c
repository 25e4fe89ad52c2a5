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
#include "perf_common.h" /* first: it defines _GNU_SOURCE */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>

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

static void tune(int fd) {
  int one = 1, big = 8 << 20;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
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
  const char* host = getenv("REF_TCP_ADDRESS");
  if (host == NULL || *host == '\0') host = "127.0.0.1";
  struct sockaddr_in addr = {.sin_family = AF_INET};
  if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
    fprintf(stderr, "ref_tcp_pingpong: REF_TCP_ADDRESS=%s is not an IPv4 address\n", host);
    return 2;
  }
  /* The parent listens (in namespace 0 with PERF_NETNS) and times; the child connects (from
   * namespace 1) and echoes. */
  perf_enter_netns(0);
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  socklen_t len = sizeof addr;
  if (bind(listener, (struct sockaddr*)&addr, sizeof addr) || listen(listener, 1) ||
      getsockname(listener, (struct sockaddr*)&addr, &len)) {
    perror("ref_tcp_pingpong: listen");
    return 1;
  }
  char* buf = perf_alloc(o.max_size);
  if (perf_fork_pair("ref_tcp_pingpong", o.pin) == 1) {
    close(listener);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    tune(fd);
    if (connect(fd, (struct sockaddr*)&addr, sizeof addr)) {
      perror("ref_tcp_pingpong: connect");
      _exit(1);
    }
    echo(fd, buf, &o);
    _exit(0);
  }
  int fd = accept(listener, NULL, NULL);
  if (fd < 0) {
    perror("ref_tcp_pingpong: accept");
    return 1;
  }
  tune(fd);
  fprintf(stderr, "# ref_tcp_pingpong: %s\n", host);
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
  int status = 0;
  wait(&status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
