/* A process outside a job that can reach its PEs' endpoints (test/hostile/stranger.sh): it
 * opens endpoints of its own on the job's provider and, for each PE address it was given
 * (IPv4 ADDR:PORT, as a port scan of the PEs' host finds them), tries to make the PE write
 * into its own memory:
 *   - messages in the shape of Tandem's software requests (an atomic write, a run of them, a
 *     scatter, a list of puts) into every segment at offset 0 and at each ADDRESS given, in
 *     the name of PE 0 and PE 1, and the shapes of answers, whose cookies a PE takes for
 *     addresses of its own;
 *   - RMA writes of 8 bytes, delivery complete (a completion without an error is a write that
 *     landed), with the keys 0-64, 990-1100 (where Tandem's keys once started for every job)
 *     and 4090-4096, or with STRANGER_KEYS=all every key from 0 to 4096, and each extra KEY
 *     given (the heap's base address, say), at offset 0 and at each ADDRESS (the heap and
 *     the globals where they are, for providers that take virtual addresses).  BATCH
 *     tries are in flight at a time, each on an endpoint of its own; an endpoint whose write
 *     the target refused (FI_EACCES in its completion) takes the next try, any other
 *     end (another error, a post that failed, no answer) closes it and the next try opens a
 *     new one, so that a refused write cannot spoil the next.  sockets refuses with
 *     FI_EACCES and keeps the connection (32 endpoints a target); tcp;ofi_rxm's target
 *     drops the connection, the write ends FI_ECANCELED, and each try opens an endpoint.
 *     (An endpoint per try spent a TCP port per try, 20,000 a target with every key, which
 *     TIME_WAIT holds for a minute: enough to exhaust the host's ephemeral ports.)
 * It prints one line per target: how many writes completed without an error, how many
 * failed (how many of them the target refused) or went unanswered (2 s), how many
 * endpoints the writes opened, and how many messages went out.
 *   stranger PROVIDER ADDR:PORT... [-k KEY]... [-a ADDRESS]...
 */
#include <arpa/inet.h>
#include <netinet/in.h>
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
#include <time.h>

/* Tandem's message head (src/transport/ofi/message.h), as a stranger that read the source
 * would send it: the target's secret (`proof`), which only the job's PEs learn, guessed. */
struct message {
  uint8_t kind, op, type, segment;
  int32_t origin;
  uint64_t offset, operand, compare, cookie, proof;
};
enum { REQUEST = 1, ANSWER = 2, RUN_REQUEST = 6, SCATTER = 8, GATHERED = 10, LIST = 11 };
enum { BATCH = 32, MOST_EXTRA = 64 };

static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fi_info *info;

/* One endpoint of the stranger's, with the target in its address vector; ep is NULL while
 * none is open. */
struct conn {
  struct fid_av *av;
  struct fid_cq *cq;
  struct fid_ep *ep;
  struct fid_mr *mr;
  void *desc;
  fi_addr_t to;
  char buffer[1024];
};

static void die(const char *what, int rc) {
  fprintf(stderr, "stranger: %s: %s\n", what, fi_strerror(-rc));
  exit(2);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void open_conn(struct conn *c, const struct sockaddr_in *target) {
  struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
  struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT, .size = 64};
  int rc;
  if ((rc = fi_av_open(domain, &av_attr, &c->av, NULL))) die("fi_av_open", rc);
  if ((rc = fi_cq_open(domain, &cq_attr, &c->cq, NULL))) die("fi_cq_open", rc);
  if ((rc = fi_endpoint(domain, info, &c->ep, NULL))) die("fi_endpoint", rc);
  fi_ep_bind(c->ep, &c->av->fid, 0);
  fi_ep_bind(c->ep, &c->cq->fid, FI_TRANSMIT | FI_RECV);
  if ((rc = fi_enable(c->ep))) die("fi_enable", rc);
  static uint64_t key = 777;
  if ((rc = fi_mr_reg(domain, c->buffer, sizeof c->buffer, FI_WRITE | FI_SEND | FI_READ, 0, key++, 0, &c->mr, NULL)))
    die("fi_mr_reg", rc);
  if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
    fi_mr_bind(c->mr, &c->ep->fid, 0);
    fi_mr_enable(c->mr);
  }
  c->desc = fi_mr_desc(c->mr);
  memset(c->buffer, 0xbd, sizeof c->buffer);
  c->to = FI_ADDR_NOTAVAIL;
  if (fi_av_insert(c->av, target, 1, &c->to, 0, NULL) != 1) die("fi_av_insert", -FI_EINVAL);
}

static void close_conn(struct conn *c) {
  fi_close(&c->mr->fid);
  fi_close(&c->ep->fid);
  fi_close(&c->cq->fid);
  fi_close(&c->av->fid);
  c->ep = NULL;
}

/* Posts `post` on c until the provider takes it (2 s at most); 1 if taken. */
#define POST(c, call)                                          \
  ({                                                           \
    ssize_t rc_;                                               \
    const double until_ = now() + 2;                           \
    while ((rc_ = (call)) == -FI_EAGAIN && now() < until_) {   \
      struct fi_cq_entry e_;                                   \
      fi_cq_read((c)->cq, &e_, 1);                             \
    }                                                          \
    rc_ == 0;                                                  \
  })

enum { DONE = 0, UNANSWERED = -1, FAILED = -2 };

/* Waits for one completion on c: DONE, the error it carries (FI_EACCES, ...), FAILED (an
 * error without a code) or UNANSWERED by `deadline`. */
static int wait_one(struct conn *c, double deadline) {
  struct fi_cq_entry entry;
  while (now() < deadline) {
    const ssize_t n = fi_cq_read(c->cq, &entry, 1);
    if (n == 1) return DONE;
    if (n == -FI_EAVAIL) {
      struct fi_cq_err_entry error = {0};
      fi_cq_readerr(c->cq, &error, 0);
      return error.err > 0 ? error.err : FAILED;
    }
  }
  return UNANSWERED;
}


int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: stranger PROVIDER ADDR:PORT... [-k KEY]... [-a ADDRESS]...\n");
    return 2;
  }
  static uint64_t keys[4097 + MOST_EXTRA];
  uint64_t addresses[MOST_EXTRA] = {0};
  int nkeys = 0, naddresses = 1; /* offset 0 first */
  const int all = getenv("STRANGER_KEYS") && !strcmp(getenv("STRANGER_KEYS"), "all");
  for (int k = 0; k <= 4096; ++k)
    if (all || k <= 64 || (k >= 990 && k <= 1100) || k >= 4090) keys[nkeys++] = (uint64_t)k;
  struct sockaddr_in targets[MOST_EXTRA];
  int ntargets = 0;
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "-k") && i + 1 < argc) {
      if (nkeys < 4097 + MOST_EXTRA) keys[nkeys++] = strtoull(argv[++i], NULL, 0);
    } else if (!strcmp(argv[i], "-a") && i + 1 < argc) {
      if (naddresses < MOST_EXTRA) addresses[naddresses++] = strtoull(argv[++i], NULL, 0);
    } else if (ntargets < MOST_EXTRA) {
      char host[64];
      int port = 0;
      if (sscanf(argv[i], "%63[^:]:%d", host, &port) != 2) continue;
      memset(&targets[ntargets], 0, sizeof targets[ntargets]);
      targets[ntargets].sin_family = AF_INET;
      targets[ntargets].sin_port = htons((uint16_t)port);
      if (inet_pton(AF_INET, host, &targets[ntargets].sin_addr) == 1) ++ntargets;
    }
  }

  struct fi_info *hints = fi_allocinfo();
  hints->caps = FI_MSG | FI_RMA;
  hints->ep_attr->type = FI_EP_RDM;
  hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
  hints->fabric_attr->prov_name = strdup(argv[1]);
  int rc = fi_getinfo(FI_VERSION(1, 11), NULL, NULL, 0, hints, &info);
  if (rc) die("fi_getinfo", rc);
  if ((rc = fi_fabric(info->fabric_attr, &fabric, NULL))) die("fi_fabric", rc);
  if ((rc = fi_domain(fabric, info, &domain, NULL))) die("fi_domain", rc);

  static struct conn conns[BATCH];
  for (int t = 0; t < ntargets; ++t) {
    char name[64];
    inet_ntop(AF_INET, &targets[t].sin_addr, name, sizeof name);
    long landed = 0, failed = 0, turned_away = 0, silent = 0, opened = 0, sent = 0;

    struct conn *c = &conns[0];
    open_conn(c, &targets[t]);
    for (int segment = 0; segment < 4; ++segment)
      for (int a = 0; a < naddresses; ++a)
        for (int origin = 0; origin < 2; ++origin) {
          const uint64_t guess = (uint64_t)a * 2 + (uint64_t)origin; /* the target's secret: unknown */
          const struct message shapes[] = {
              {REQUEST, 1, 3, (uint8_t)segment, origin, addresses[a], 0xbadbadbadull, 0, 0, guess},
              {RUN_REQUEST, 1, 3, (uint8_t)segment, origin, addresses[a], 0, 64, 0, guess},
              {SCATTER, 0, 0, (uint8_t)segment, origin, addresses[a], 8, (64ull << 32) | 8, 0, guess},
              {LIST, 0, 0, (uint8_t)segment, origin, 0, 0, 72, 0, guess},
              {ANSWER, 0, 0, 0, origin, 0, 0xbadbadbadull, 0, 0x4141414141414141ull, guess},
              {GATHERED, 0, 0, 0, origin, 0, 0, (8ull << 32) | 1, 0x4242424242424242ull, guess},
          };
          for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
            memcpy(c->buffer, &shapes[s], sizeof shapes[s]);
            const uint64_t record = (addresses[a] << 16) | 64; /* a list's record: offset, 64 bytes */
            memcpy(c->buffer + sizeof shapes[s], &record, sizeof record);
            if (POST(c, fi_send(c->ep, c->buffer, sizeof shapes[s] + 576, c->desc, c->to, NULL)) &&
                wait_one(c, now() + 2) == DONE)
              ++sent;
          }
        }
    close_conn(c);

    const long tries = (long)nkeys * naddresses;
    for (long first = 0; first < tries; first += BATCH) {
      const int n = tries - first < BATCH ? (int)(tries - first) : BATCH;
      int posted[BATCH];
      for (int i = 0; i < n; ++i) {
        c = &conns[i];
        if (!c->ep) {
          open_conn(c, &targets[t]);
          ++opened;
        }
        struct iovec iov = {c->buffer, 8};
        struct fi_rma_iov rma = {addresses[(first + i) % naddresses], 8, keys[(first + i) / naddresses]};
        struct fi_msg_rma msg = {&iov, &c->desc, 1, c->to, &rma, 1, NULL, 0};
        posted[i] = POST(c, fi_writemsg(c->ep, &msg, FI_DELIVERY_COMPLETE | FI_COMPLETION));
      }
      const double deadline = now() + 2;
      for (int i = 0; i < n; ++i) {
        const int end = posted[i] ? wait_one(&conns[i], deadline) : FAILED;
        landed += end == DONE;
        failed += end != DONE && end != UNANSWERED;
        turned_away += end == FI_EACCES;
        silent += end == UNANSWERED;
        if (end != FI_EACCES) close_conn(&conns[i]);
      }
    }
    for (int i = 0; i < BATCH; ++i)
      if (conns[i].ep) close_conn(&conns[i]);
    printf("stranger: %s:%d: %ld writes completed without an error, %ld failed (%ld refused by the target), "
           "%ld unanswered, on %ld endpoints; %ld messages sent\n",
           name, ntohs(targets[t].sin_port), landed, failed, turned_away, silent, opened, sent);
    fflush(stdout);
  }
  fi_close(&domain->fid);
  fi_close(&fabric->fid);
  fi_freeinfo(info);
  fi_freeinfo(hints);
  return 0;
}
