/* Reference: a raw TCP ping-pong between two plain processes over loopback (or the address
 * given as argv[1]), the floor for TCP-based libfabric providers.  CSV on stdout:
 * size,iterations,tcp_half_rtt_us,value and size,iterations,tcp_bw_MBps,value. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void full(int fd, char *buf, size_t n, int sending) {
  while (n > 0) {
    ssize_t k = sending ? send(fd, buf, n, 0) : recv(fd, buf, n, 0);
    if (k <= 0) { perror(sending ? "send" : "recv"); exit(1); }
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

static int iterations_for(size_t size) { return size <= 65536 ? 2000 : size <= (1 << 20) ? 100 : 20; }

int main(int argc, char **argv) {
  const char *host = argc > 1 ? argv[1] : "127.0.0.1";
  const size_t max = 4u << 20;
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET};
  inet_pton(AF_INET, host, &addr.sin_addr);
  socklen_t len = sizeof addr;
  if (bind(listener, (struct sockaddr *)&addr, sizeof addr) || listen(listener, 1) ||
      getsockname(listener, (struct sockaddr *)&addr, &len)) {
    perror("listen");
    return 1;
  }
  char *buf = malloc(max);
  memset(buf, 1, max);
  pid_t child = fork();
  if (child == 0) { /* the echoing side */
    int fd = accept(listener, NULL, NULL);
    tune(fd);
    for (size_t size = 8; size <= max; size *= 2) {
      int iters = iterations_for(size);
      for (int i = 0; i < iters + 10; ++i) {
        full(fd, buf, size, 0);
        full(fd, buf, size, 1);
      }
      for (int i = 0; i < iters; ++i) full(fd, buf, size, 0); /* streamed */
      full(fd, buf, 1, 1);
    }
    _exit(0);
  }
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  tune(fd);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr)) { perror("connect"); return 1; }
  printf("size,iterations,metric,value\n");
  for (size_t size = 8; size <= max; size *= 2) {
    int iters = iterations_for(size);
    for (int i = 0; i < 10; ++i) { full(fd, buf, size, 1); full(fd, buf, size, 0); }
    double t0 = now();
    for (int i = 0; i < iters; ++i) { full(fd, buf, size, 1); full(fd, buf, size, 0); }
    double half = (now() - t0) / iters / 2;
    t0 = now();
    for (int i = 0; i < iters; ++i) full(fd, buf, size, 1);
    full(fd, buf, 1, 0);
    double bw = (double)size * iters / (now() - t0) / 1e6;
    printf("%zu,%d,tcp_half_rtt_us,%.3f\n%zu,%d,tcp_bw_MBps,%.1f\n", size, iters, half * 1e6, size, iters, bw);
  }
  waitpid(child, NULL, 0);
  return 0;
}
