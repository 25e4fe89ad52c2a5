/* Reference: a small busy-polling RMA ping-pong in raw libfabric between two plain processes,
 * with the endpoint setup Tandem uses (RDM, delivery-complete writes, counters), so that
 * Tandem's inter-node figures can be compared with the provider's own floor.  The provider
 * is argv[1] (default tcp;ofi_rxm).  CSV on stdout: size,iterations,ofi_half_rtt_us,value and
 * size,iterations,ofi_bw_MBps,value. */
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZE (4u << 20)
#define CHECK(x) do { int rc_ = (int)(x); if (rc_) { fprintf(stderr, "%s: %s\n", #x, fi_strerror(-rc_)); exit(1); } } while (0)

struct card { char name[256]; size_t name_len; uint64_t base, key; };

static struct fid_ep *ep;
static struct fid_cq *cq;
static struct fid_cntr *wcntr;
static fi_addr_t peer;
static struct card remote;
static uint64_t writes;
static int virt_addr;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void progress(void) {
  struct fi_cq_entry e[4];
  if (fi_cq_read(cq, e, 4) == -FI_EAVAIL) { fprintf(stderr, "completion error\n"); exit(1); }
}

static void write_to_peer(const void *src, size_t len, uint64_t offset, size_t inject) {
  uint64_t addr = (virt_addr ? remote.base : 0) + offset;
  ssize_t rc;
  do {
    rc = len <= inject ? fi_inject_write(ep, src, len, peer, addr, remote.key)
                       : fi_write(ep, src, len, NULL, peer, addr, remote.key, NULL);
    if (rc == -FI_EAGAIN) progress();
  } while (rc == -FI_EAGAIN);
  if (rc) { fprintf(stderr, "write: %s\n", fi_strerror((int)-rc)); exit(1); }
  ++writes;
}

static void wait_writes(void) {
  while (fi_cntr_read(wcntr) < writes) progress();
}

static int iterations_for(size_t size) { return size <= 65536 ? 2000 : size <= (1 << 20) ? 100 : 20; }

static void run(int fd, int leader, const char *provider) {
  struct fi_info *hints = fi_allocinfo(), *info;
  hints->caps = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
  hints->ep_attr->type = FI_EP_RDM;
  hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
#ifndef REF_NO_DELIVERY_COMPLETE
  hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
#endif
  hints->fabric_attr->prov_name = strdup(provider);
  CHECK(fi_getinfo(FI_VERSION(1, 11), NULL, NULL, 0, hints, &info));
  virt_addr = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
  struct fid_fabric *fabric;
  struct fid_domain *domain;
  struct fid_av *av;
  struct fid_mr *mr;
  CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
  CHECK(fi_domain(fabric, info, &domain, NULL));
  CHECK(fi_endpoint(domain, info, &ep, NULL));
  struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
  struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT};
  struct fi_cntr_attr cntr_attr = {.events = FI_CNTR_EVENTS_COMP};
  CHECK(fi_av_open(domain, &av_attr, &av, NULL));
  CHECK(fi_cq_open(domain, &cq_attr, &cq, NULL));
  CHECK(fi_cntr_open(domain, &cntr_attr, &wcntr, NULL));
  CHECK(fi_ep_bind(ep, &av->fid, 0));
  CHECK(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION));
  CHECK(fi_ep_bind(ep, &wcntr->fid, FI_WRITE));
  CHECK(fi_enable(ep));
  char *buf = aligned_alloc(4096, MAX_SIZE + 4096);
  memset(buf, 0, MAX_SIZE + 4096);
  CHECK(fi_mr_reg(domain, buf, MAX_SIZE + 4096, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 0, 0, &mr, NULL));
  if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
    CHECK(fi_mr_bind(mr, &ep->fid, 0));
    CHECK(fi_mr_enable(mr));
  }
  struct card mine = {.name_len = sizeof mine.name, .base = (uint64_t)(uintptr_t)buf, .key = fi_mr_key(mr)};
  CHECK(fi_getname(&ep->fid, mine.name, &mine.name_len));
  if (write(fd, &mine, sizeof mine) != sizeof mine || read(fd, &remote, sizeof remote) != sizeof remote) exit(1);
  if (fi_av_insert(av, remote.name, 1, &peer, 0, NULL) != 1) exit(1);
  const size_t inject = info->tx_attr->inject_size;
  char *src = malloc(MAX_SIZE);
  memset(src, 2, MAX_SIZE);
  volatile uint64_t *flag = (volatile uint64_t *)(buf + MAX_SIZE); /* last word of each message */
  volatile uint64_t *done = flag + 8;
  uint64_t seq = 0;
  if (leader) printf("size,iterations,metric,value\n");
  for (size_t size = 8; size <= MAX_SIZE; size *= 2) {
    int iters = iterations_for(size);
    double t0 = 0;
    for (int i = -10; i < iters; ++i) {
      if (i == 0) t0 = now();
      ++seq;
      /* The payload ends with the sequence number, landing on the peer's flag word. */
      memcpy(src + size - 8, &seq, 8);
      if (leader) {
        write_to_peer(src, size, MAX_SIZE - size + 8, inject);
        while (*flag != seq) progress();
      } else {
        while (*flag != seq) progress();
        write_to_peer(src, size, MAX_SIZE - size + 8, inject);
      }
    }
    double half = (now() - t0) / iters / 2;
    /* Bandwidth: a stream of writes, then the leader signals the end. */
    if (leader) {
      t0 = now();
      for (int i = 0; i < iters; ++i) write_to_peer(src, size, 0, inject);
      wait_writes();
      double bw = (double)size * iters / (now() - t0) / 1e6;
      uint64_t mark = size;
      write_to_peer(&mark, 8, MAX_SIZE + 64, inject);
      wait_writes();
      printf("%zu,%d,ofi_half_rtt_us,%.3f\n%zu,%d,ofi_bw_MBps,%.1f\n", size, iters, half * 1e6, size, iters, bw);
      fflush(stdout);
    } else {
      while (*done != size) progress();
    }
  }
  wait_writes();
  /* Let the other side finish before the endpoint goes away. */
  char byte = 0;
  if (write(fd, &byte, 1) != 1 || read(fd, &byte, 1) != 1) exit(1);
  fi_close(&mr->fid);
  fi_close(&ep->fid);
  fi_freeinfo(info);
}

int main(int argc, char **argv) {
  const char *provider = argc > 1 ? argv[1] : "tcp;ofi_rxm";
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return 1;
  pid_t child = fork();
  if (child == 0) {
    run(sv[1], 0, provider);
    _exit(0);
  }
  run(sv[0], 1, provider);
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
