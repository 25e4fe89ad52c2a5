/* The connection of the raw TCP references (ref_tcp_pingpong, ref_tcp_nbc): two processes,
 * the parent and a forked child, joined by one TCP connection over loopback or the address
 * given with REF_TCP_ADDRESS (for example a veth address between network namespaces; with
 * PERF_NETNS the parent listens in namespace 0 and the child connects from namespace 1). */
#ifndef TANDEM_PERF_TCP_H
#define TANDEM_PERF_TCP_H

#include "perf_common.h" /* first: it defines _GNU_SOURCE */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>

/* Forks the pair (perf_fork_pair: `*role` 0 in the parent, 1 in the child) and returns each
 * process's end of the connection, with TCP_NODELAY and then `tune` (given) applied before
 * it connects.  Ends the program when a step fails; exits 2 on an address that is none. */
static inline int perf_tcp_pair(const char* what, int pin, void (*tune)(int fd), int* role) {
  const char* host = getenv("REF_TCP_ADDRESS");
  if (host == NULL || *host == '\0') host = "127.0.0.1";
  struct sockaddr_in addr = {.sin_family = AF_INET};
  if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
    fprintf(stderr, "%s: REF_TCP_ADDRESS=%s is not an IPv4 address\n", what, host);
    exit(2);
  }
  perf_enter_netns(0);
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  socklen_t len = sizeof addr;
  if (listener < 0 || bind(listener, (struct sockaddr*)&addr, sizeof addr) || listen(listener, 1) ||
      getsockname(listener, (struct sockaddr*)&addr, &len)) {
    fprintf(stderr, "%s: listen on %s: %s\n", what, host, strerror(errno));
    exit(1);
  }
  *role = perf_fork_pair(what, pin);
  int fd;
  const int one = 1;
  if (*role == 1) {
    close(listener);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0) {
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (tune) tune(fd);
    }
    if (fd < 0 || connect(fd, (struct sockaddr*)&addr, sizeof addr)) {
      fprintf(stderr, "%s: connect: %s\n", what, strerror(errno));
      _exit(1);
    }
    return fd;
  }
  fd = accept(listener, NULL, NULL);
  if (fd < 0) {
    fprintf(stderr, "%s: accept: %s\n", what, strerror(errno));
    exit(1);
  }
  close(listener);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (tune) tune(fd);
  fprintf(stderr, "# %s: %s\n", what, host);
  return fd;
}

/* The parent's end: waits for the child and returns its exit status as the program's. */
static inline int perf_tcp_end(void) {
  int status = 0;
  wait(&status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

#endif
