/* provider_check PROVIDER [CASE...]: the behaviours of a libfabric provider that Tandem's
 * network engine relies on, checked with libfabric alone, between two processes of this
 * machine (a parent that initiates and a child that is the target and drives progress).
 * Where Tandem works around a provider's fault, this shows the fault without Tandem.
 *
 *   empty-write    a delivery-complete RMA write of 0 bytes completes
 *   fetch-read     FI_ATOMIC_READ on a 32-bit word returns the word, 200 times, target alive
 *   fetch-add      a fetching FI_SUM completes with the old value in place, 200 times
 *   inject-stream  5000 injected 8-byte writes, then a delivery-complete one, complete, while
 *                  the target streams as many back (two PEs that each put to the other)
 *   message        a 48-byte message sent with fi_inject is received, and so is its answer
 *   write-read     50 times: a delivery-complete write of 128 KiB, then a read of it back,
 *                  which must return what was written
 *   wait-rests     with a wait object on the completion queue (FI_WAIT_FD): once a write's
 *                  completion was read and fi_trywait succeeds, the wait object's file
 *                  descriptor is not readable, so a thread can sleep on it
 *
 * Each case prints "PROVIDER CASE: ok", "not offered" (an atomic the provider lacks, which
 * Tandem then serves in software) or "fails: why"; the exit status is the number of cases
 * that failed (all cases when none is named). */
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { kWords = 64, kStream = 5000, kRounds = 200, kBig = 128 * 1024 };

struct exchange { /* between the two processes */
  char name[256];
  size_t name_len;
  uint64_t base, key;
  volatile int ready, done, streamed;
};

struct side {
  struct fid_fabric *fabric;
  struct fid_domain *domain;
  struct fid_ep *ep;
  struct fid_av *av;
  struct fid_cq *cq;
  struct fid_mr *mr;
  fi_addr_t peer;
  int virtual_addresses;
  int wait_fd; /* the CQ's wait object (wait-rests), else -1 */
};

static uint64_t target[kWords + kBig / 8]; /* the child's registered words, then a large buffer */
static uint64_t source[kWords];
static unsigned char big_out[kBig], big_in[kBig];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what, int rc) {
  fprintf(stderr, "provider_check: %s: %s\n", what, fi_strerror(rc < 0 ? -rc : rc));
  exit(100);
}

/* An endpoint like Tandem's: RDM, RMA and atomics, delivery-complete writes; its CQ with a
 * wait object when `waitable` and the provider has one to give. */
static void open_side(const char *provider, int waitable, struct side *s) {
  struct fi_info *hints = fi_allocinfo(), *info = NULL;
  hints->caps = FI_RMA | FI_ATOMIC | FI_MSG | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_SEND | FI_RECV;
  hints->ep_attr->type = FI_EP_RDM;
  hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
  hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
  hints->fabric_attr->prov_name = strdup(provider);
  int rc = fi_getinfo(FI_VERSION(1, 11), NULL, NULL, 0, hints, &info);
  if (rc) die("fi_getinfo", rc);
  s->virtual_addresses = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
  struct fi_av_attr av = {.type = FI_AV_TABLE};
  struct fi_cq_attr cq = {.format = FI_CQ_FORMAT_DATA, .wait_obj = waitable ? FI_WAIT_FD : FI_WAIT_NONE};
  s->wait_fd = -1;
  s->cq = NULL;
  if ((rc = fi_fabric(info->fabric_attr, &s->fabric, NULL)) || (rc = fi_domain(s->fabric, info, &s->domain, NULL)) ||
      (rc = fi_endpoint(s->domain, info, &s->ep, NULL)) || (rc = fi_av_open(s->domain, &av, &s->av, NULL)))
    die("opening the endpoint", rc);
  if (waitable && fi_cq_open(s->domain, &cq, &s->cq, NULL) != 0) { /* none to give */
    s->cq = NULL;
    cq.wait_obj = FI_WAIT_NONE;
  }
  if ((!s->cq && (rc = fi_cq_open(s->domain, &cq, &s->cq, NULL))) || (rc = fi_ep_bind(s->ep, &s->av->fid, 0)) ||
      (rc = fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION)) ||
      (rc = fi_ep_bind(s->ep, &s->cq->fid, FI_RECV)) ||
      (rc = fi_enable(s->ep)))
    die("opening the endpoint", rc);
  if (cq.wait_obj != FI_WAIT_NONE && fi_control(&s->cq->fid, FI_GETWAIT, &s->wait_fd) != 0) s->wait_fd = -1;
  rc = fi_mr_reg(s->domain, target, sizeof target, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 1, 0, &s->mr, NULL);
  if (rc) die("fi_mr_reg", rc);
  fi_freeinfo(hints);
  fi_freeinfo(info);
}

/* Closes what open_side() opened (shm removes its files then). */
static void close_side(struct side *s) {
  fi_close(&s->mr->fid);
  fi_close(&s->ep->fid);
  fi_close(&s->av->fid);
  fi_close(&s->cq->fid);
  fi_close(&s->domain->fid);
  fi_close(&s->fabric->fid);
}

/* Waits up to `seconds` for one completion of the parent's; 1 when it came. */
static int completion(struct side *s, double seconds) {
  struct fi_cq_data_entry e;
  for (double t0 = now(); now() - t0 < seconds;) {
    ssize_t n = fi_cq_read(s->cq, &e, 1);
    if (n == 1) return 1;
    if (n == -FI_EAVAIL) {
      struct fi_cq_err_entry err = {0};
      fi_cq_readerr(s->cq, &err, 0);
      fprintf(stderr, "provider_check: an operation failed: %s\n", fi_strerror(err.err));
      return 0;
    }
  }
  return 0;
}

/* Posts, retrying while the provider is busy (up to 10 s); a refusal ends the case. */
#define POST(call)                                                                 \
  do {                                                                             \
    ssize_t rc_;                                                                   \
    struct fi_cq_data_entry e_;                                                    \
    for (double t0_ = now(); (rc_ = (call)) == -FI_EAGAIN && now() - t0_ < 10;) \
      fi_cq_read(s->cq, &e_, 1);                                                   \
    if (rc_ == -FI_EAGAIN) return "the provider stays busy (-FI_EAGAIN) for 10 s";  \
    if (rc_) return "the provider refuses the operation";                         \
  } while (0)

/* A delivery-complete 8-byte write of source[0] to `base` that completes into the CQ. */
static ssize_t write_word(struct side *s, uint64_t base, uint64_t key, struct fi_context *context) {
  struct fi_msg_rma m = {.msg_iov = &(struct iovec){source, 8}, .iov_count = 1, .addr = s->peer,
                         .rma_iov = &(struct fi_rma_iov){base, 8, key}, .rma_iov_count = 1, .context = context};
  return fi_writemsg(s->ep, &m, FI_COMPLETION | FI_DELIVERY_COMPLETE);
}

/* The parent's side of one case; returns NULL when the case holds, else why not. */
static const char *run_case(const char *name, struct side *s, const struct exchange *x) {
  const uint64_t base = s->virtual_addresses ? x->base : 0;
  static struct fi_context context;
  if (!strcmp(name, "empty-write")) {
    POST(fi_writemsg(s->ep,
                     &(struct fi_msg_rma){.msg_iov = &(struct iovec){source, 0}, .iov_count = 1, .addr = s->peer,
                                          .rma_iov = &(struct fi_rma_iov){base, 0, x->key}, .rma_iov_count = 1,
                                          .context = &context},
                     FI_COMPLETION | FI_DELIVERY_COMPLETE));
    return completion(s, 2) ? NULL : "no completion within 2 s";
  }
  if (!strcmp(name, "fetch-read") || !strcmp(name, "fetch-add")) {
    const int add = !strcmp(name, "fetch-add");
    size_t count = 0;
    if (fi_fetch_atomicvalid(s->ep, FI_UINT32, add ? FI_SUM : FI_ATOMIC_READ, &count) || count == 0)
      return "";  /* not offered: Tandem's software atomics serve the type */
    for (int i = 0; i < kRounds; ++i) {
      uint32_t operand = 1, result = 0xdeadbeef;
      struct fi_msg_atomic m = {.msg_iov = &(struct fi_ioc){&operand, 1}, .iov_count = 1, .addr = s->peer,
                                .rma_iov = &(struct fi_rma_ioc){base + 8, 1, x->key}, .rma_iov_count = 1,
                                .datatype = FI_UINT32, .op = add ? FI_SUM : FI_ATOMIC_READ, .context = &context};
      POST(fi_fetch_atomicmsg(s->ep, &m, &(struct fi_ioc){&result, 1}, NULL, 1, FI_COMPLETION));
      if (!completion(s, 2)) return "no completion within 2 s";
      const uint32_t expected = add ? (uint32_t)i : 7;  /* the child set the word to 7 (read) or 0 (add) */
      if (result != expected) return "a completion came before its result (the result buffer unchanged or wrong)";
    }
    return NULL;
  }
  if (!strcmp(name, "inject-stream")) {
    for (int i = 0; i < kStream; ++i)
      POST(fi_writemsg(s->ep,
                       &(struct fi_msg_rma){.msg_iov = &(struct iovec){&source[i % kWords], 8}, .iov_count = 1,
                                            .addr = s->peer,
                                            .rma_iov = &(struct fi_rma_iov){base + 8 * (i % kWords), 8, x->key},
                                            .rma_iov_count = 1},
                       FI_INJECT));
    POST(write_word(s, base, x->key, &context));
    if (!completion(s, 10)) return "no completion within 10 s";
    struct fi_cq_data_entry e;
    for (double t0 = now(); !x->streamed; fi_cq_read(s->cq, &e, 1))
      if (now() - t0 > 10) return "the target's own stream stays stuck for 10 s";
    return NULL;
  }
  if (!strcmp(name, "write-read")) {
    for (int i = 0; i < 50; ++i) {
      memset(big_out, i + 1, kBig);
      memset(big_in, 0, kBig);
      POST(fi_writemsg(s->ep,
                       &(struct fi_msg_rma){.msg_iov = &(struct iovec){big_out, kBig}, .iov_count = 1,
                                            .addr = s->peer, .rma_iov = &(struct fi_rma_iov){base + 8 * kWords, kBig, x->key},
                                            .rma_iov_count = 1, .context = &context},
                       FI_COMPLETION | FI_DELIVERY_COMPLETE));
      if (!completion(s, 5)) return "a write: no completion within 5 s";
      POST(fi_readmsg(s->ep,
                      &(struct fi_msg_rma){.msg_iov = &(struct iovec){big_in, kBig}, .iov_count = 1, .addr = s->peer,
                                           .rma_iov = &(struct fi_rma_iov){base + 8 * kWords, kBig, x->key},
                                           .rma_iov_count = 1, .context = &context},
                      FI_COMPLETION));
      if (!completion(s, 5)) return "a read: no completion within 5 s";
      if (memcmp(big_in, big_out, kBig)) return "a read returned other bytes than the write before it left";
    }
    return NULL;
  }
  if (!strcmp(name, "wait-rests")) {
    if (s->wait_fd < 0) return ""; /* not offered: Tandem polls with short sleeps */
    POST(write_word(s, base, x->key, &context));
    if (!completion(s, 2)) return "no completion within 2 s";
    struct fi_cq_data_entry e;
    for (int tries = 0;; ++tries) { /* the target may still be answering: at most 2 s */
      if (fi_cq_read(s->cq, &e, 1) == 1) return "a completion came that nothing asked for";
      struct fid *fids[1] = {&s->cq->fid};
      if (fi_trywait(s->fabric, fids, 1) == FI_SUCCESS &&
          poll(&(struct pollfd){.fd = s->wait_fd, .events = POLLIN}, 1, 0) == 0)
        return NULL;
      if (tries == 2000)
        return "the wait object stays readable after every completion was read and fi_trywait succeeded";
      usleep(1000);
    }
  }
  if (!strcmp(name, "message")) {
    POST(fi_inject(s->ep, source, 48, s->peer));
    return completion(s, 2) ? NULL : "no answer within 2 s";
  }
  return "no such case";
}

static int check(const char *provider, const char *name) {
  struct exchange *x[2];
  for (int i = 0; i < 2; ++i) {
    x[i] = mmap(NULL, sizeof *x[i], PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    memset(x[i], 0, sizeof *x[i]);
  }
  target[1] = !strcmp(name, "fetch-read") ? 7 : 0;
  fflush(stdout);
  const pid_t child = fork();
  const int me = child == 0;
  struct side s;
  open_side(provider, !strcmp(name, "wait-rests"), &s);
  x[me]->name_len = sizeof x[me]->name;
  if (fi_getname(&s.ep->fid, x[me]->name, &x[me]->name_len)) die("fi_getname", 0);
  x[me]->base = (uint64_t)(uintptr_t)target;
  x[me]->key = fi_mr_key(s.mr);
  __sync_synchronize();
  x[me]->ready = 1;
  while (!x[!me]->ready) usleep(100);
  if (fi_av_insert(s.av, x[!me]->name, 1, &s.peer, 0, NULL) != 1) die("fi_av_insert", 0);
  static char inbox[2048]; /* one posted receive each: the message, its answer */
  if (fi_recv(s.ep, inbox, sizeof inbox, NULL, FI_ADDR_UNSPEC, inbox)) die("fi_recv", 0);
  if (me) { /* the target: progress until told to stop, answering a message */
    struct fi_cq_data_entry e;
    if (!strcmp(name, "inject-stream"))
      for (int i = 0; i < kStream; ++i) {
        struct fi_msg_rma m = {.msg_iov = &(struct iovec){&source[i % kWords], 8}, .iov_count = 1, .addr = s.peer,
                               .rma_iov = &(struct fi_rma_iov){(s.virtual_addresses ? x[0]->base : 0) + 8 * (i % kWords), 8, x[0]->key},
                               .rma_iov_count = 1};
        while (fi_writemsg(s.ep, &m, FI_INJECT) == -FI_EAGAIN && !x[0]->done) fi_cq_read(s.cq, &e, 1);
      }
    x[1]->streamed = 1;
    while (!x[0]->done)
      if (fi_cq_read(s.cq, &e, 1) == 1 && e.op_context == inbox)
        while (fi_inject(s.ep, inbox, 48, s.peer) == -FI_EAGAIN) fi_cq_read(s.cq, &e, 1);
    close_side(&s);
    _exit(0);
  }
  const char *why = run_case(name, &s, x[1]);
  x[0]->done = 1;
  close_side(&s);
  int status = 0;
  for (double t0 = now(); waitpid(child, &status, WNOHANG) == 0;) {
    if (now() - t0 > 5) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      break;
    }
    usleep(1000);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) why = "the target process died (in the provider)";
  if (why && !*why)
    printf("%s %s: not offered\n", provider, name);
  else
    printf("%s %s: %s%s\n", provider, name, why ? "fails: " : "ok", why ? why : "");
  return why && *why;
}

int main(int argc, char **argv) {
  static const char *cases[] = {"empty-write", "fetch-read", "fetch-add", "inject-stream", "message", "write-read", "wait-rests"};
  if (argc < 2) {
    fprintf(stderr, "usage: provider_check PROVIDER [empty-write|fetch-read|fetch-add|inject-stream|message|write-read|wait-rests...]\n");
    return 100;
  }
  int failed = 0;
  if (argc == 2)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) failed += check(argv[1], cases[i]);
  for (int i = 2; i < argc; ++i) failed += check(argv[1], argv[i]);
  return failed;
}
