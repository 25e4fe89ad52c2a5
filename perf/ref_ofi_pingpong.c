/* Reference for the inter-node figures: a small busy-polling RMA ping-pong in raw libfabric
 * between two plain processes (fork, no OpenSHMEM), with the endpoint setup Tandem uses: an
 * RDM endpoint, one registered buffer, manual progress driven by polling the completion
 * queue.  The provider is TANDEM_OFI_PROVIDER when set, else libfabric's first choice
 * (which may be one Tandem refuses: perf/run.sh -I sets the one Tandem chooses).  The parent
 * is pinned to core 0, the child to core 1 (unless -P).
 *
 * Two completion models, as in Tandem: "ordered" (the provider keeps writes in order,
 * FI_ORDER_RAW|WAW, and writes complete locally) and "dc" (FI_DELIVERY_COMPLETE writes,
 * counted by a counter); a model the provider refuses is left out.
 *
 *  ofi_half_rtt_us, ofi_dc_half_rtt_us
 *      the parent writes `size` bytes whose last 8 carry a sequence number onto the child's
 *      flag word; the child polls the flag and writes the same back; half a round trip, one
 *      timer around `iterations` round trips
 *  ofi_fetch_add_us, ofi_dc_fetch_add_us (size 8)
 *      the parent's 64-bit fetch-and-add (fi_fetch_atomicmsg) on a word of the child's,
 *      waited for in the completion queue, while the child polls its queue: the latency of
 *      shmem_atomic_fetch_add (perf/fetch_add) at the provider's level
 *  ofi_get_us, ofi_dc_get_us
 *      the parent reads `size` bytes of the child's buffer (fi_readmsg), waited for in the
 *      completion queue, one at a time, while the child polls its queue: the latency of
 *      shmem_getmem (perf/get_latency) at the provider's level
 *  ofi_bw_MBps, ofi_dc_bw_MBps
 *      the work of perf/put_bw's put_bw_MBps stream: windows of `window` writes of `size`
 *      bytes walking through a `span`-byte region on both sides, each window completed as a
 *      quiet completes it in that model (dc: every write has landed; ordered: a read from the
 *      peer, which cannot pass the writes, has come back), then an 8-byte end mark; the
 *      timer stops when the child's acknowledgement, written when it sees the mark, arrives
 * Options as for every benchmark (perf_common.h): -m, -M, -r, -x, -s, -w, -P.  With
 * PERF_NETNS the two processes run in two network namespaces (perf_enter_netns). */
#include "perf_common.h" /* first: it defines _GNU_SOURCE */

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    int rc_ = (int)(x);                                                                \
    if (rc_) {                                                                         \
      fprintf(stderr, "ref_ofi_pingpong: %s: %s\n", #x, fi_strerror(-rc_));           \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

/* What each side tells the other: its endpoint name and its buffer's address and key. */
struct card {
  char name[256];
  size_t name_len;
  uint64_t base, key;
};

struct side {
  struct fid_ep* ep;
  struct fid_cq* cq;
  struct fid_cntr* writes_done;
  struct fid_cntr* reads_done;
  fi_addr_t peer;
  struct card remote;
  uint64_t writes, reads;
  size_t inject;
  int virt_addr;
  int delivery_complete;
};

static void progress(struct side* s) {
  struct fi_cq_entry e[8];
  if (fi_cq_read(s->cq, e, 8) == -FI_EAVAIL) {
    fprintf(stderr, "ref_ofi_pingpong: a completion reports an error\n");
    exit(1);
  }
}

/* Posts with `post` (an fi_* call), driving progress while the provider answers -FI_EAGAIN;
 * any other error ends the run, naming the operation `what`. */
#define POST(s, what, post)                                                              \
  do {                                                                                   \
    ssize_t rc_;                                                                         \
    while ((rc_ = (post)) == -FI_EAGAIN) progress(s);                                    \
    if (rc_) {                                                                           \
      fprintf(stderr, "ref_ofi_pingpong: %s: %s\n", what, fi_strerror((int)-rc_));       \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

/* The address of `offset` in the peer's buffer, as the provider takes it. */
static uint64_t remote_addr(const struct side* s, uint64_t offset) {
  return (s->virt_addr ? s->remote.base : 0) + offset;
}

/* Writes `len` bytes at `offset` of the peer's buffer. */
static void put(struct side* s, const void* src, size_t len, uint64_t offset) {
  /* fi_writemsg, as Tandem posts: fi_inject_write would drop the endpoint's
   * FI_DELIVERY_COMPLETE and count the write done once it is sent. */
  struct iovec iov = {(void*)src, len};
  struct fi_rma_iov rma = {remote_addr(s, offset), len, s->remote.key};
  struct fi_msg_rma msg = {.msg_iov = &iov, .iov_count = 1, .addr = s->peer, .rma_iov = &rma, .rma_iov_count = 1};
  const uint64_t flags = (s->delivery_complete ? FI_DELIVERY_COMPLETE : 0) | (len <= s->inject ? FI_INJECT : 0);
  POST(s, "write", fi_writemsg(s->ep, &msg, flags));
  ++s->writes;
}

static void wait_writes(struct side* s) {
  while (fi_cntr_read(s->writes_done) < s->writes) progress(s);
}

/* Ends a window of the stream as shmem_quiet does in the same model: dc, the writes landed;
 * ordered, a read issued after them came back (it cannot pass them). */
static void complete_window(struct side* s, uint64_t* sink) {
  if (!s->delivery_complete) {
    POST(s, "read", fi_read(s->ep, sink, 8, NULL, s->peer, remote_addr(s, 0), s->remote.key, NULL));
    ++s->reads;
  }
  wait_writes(s);
  while (fi_cntr_read(s->reads_done) < s->reads) progress(s);
}

/* Polls the completion queue until the one operation posted with FI_COMPLETION completes;
 * `what` names it in the error that ends the run. */
static void wait_completion(struct side* s, const char* what) {
  struct fi_cq_entry e;
  ssize_t rc;
  while ((rc = fi_cq_read(s->cq, &e, 1)) == -FI_EAGAIN) {
  }
  if (rc != 1) {
    fprintf(stderr, "ref_ofi_pingpong: %s: %s\n", what, fi_strerror((int)-rc));
    exit(1);
  }
}

/* Reads `len` bytes at `offset` of the peer's buffer into `dst` and waits for the read's
 * completion in the queue, as Tandem does (with tcp;ofi_rxm in the dc model libfabric 1.17
 * counts a read on the read counter before its data has landed). */
static void get(struct side* s, void* dst, size_t len, uint64_t offset) {
  struct iovec iov = {dst, len};
  struct fi_rma_iov rma = {remote_addr(s, offset), len, s->remote.key};
  struct fi_msg_rma msg = {.msg_iov = &iov, .iov_count = 1, .addr = s->peer, .rma_iov = &rma, .rma_iov_count = 1,
                           .context = dst};
  POST(s, "read", fi_readmsg(s->ep, &msg, FI_COMPLETION));
  wait_completion(s, "a read's completion");
}

static void wait_word(struct side* s, volatile uint64_t* word, uint64_t value) {
  while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != value) progress(s);
}

/* A fetch-and-add of 1 on the peer's word at `offset`, waited for in the completion queue;
 * returns the old value. */
static uint64_t fetch_add(struct side* s, uint64_t offset) {
  static uint64_t one = 1;
  uint64_t old = 0;
  struct fi_ioc operand = {&one, 1}, result = {&old, 1};
  struct fi_rma_ioc target = {remote_addr(s, offset), 1, s->remote.key};
  struct fi_msg_atomic msg = {.msg_iov = &operand, .iov_count = 1, .addr = s->peer, .rma_iov = &target,
                              .rma_iov_count = 1, .datatype = FI_UINT64, .op = FI_SUM, .context = &old};
  POST(s, "fetch_atomic", fi_fetch_atomicmsg(s->ep, &msg, &result, NULL, 1, FI_COMPLETION));
  wait_completion(s, "fetch_atomic's completion");
  return old;
}

/* Times `n` operations of the parent's on the child's buffer, each waited for, per
 * repetition (a shorter warm-up first) into t[]: fetch-and-adds on the ack word's line (idle
 * here), or gets of `size` bytes at its start into `dst`.  Meanwhile the child polls its
 * queue until the parent's end mark (token) and acknowledges it. */
enum one_sided { FETCH_ADD, GET };
static void time_one_sided(struct side* s, int leader, const struct perf_opts* o, enum one_sided op, long n,
                           char* dst, size_t size, volatile uint64_t* mark, volatile uint64_t* ack, uint64_t* token,
                           double* t, uint64_t* sink) {
  for (int r = -1; r < o->reps; ++r) {
    ++*token;
    if (leader) {
      const long count = r < 0 ? n / 10 + 1 : n;
      const double t0 = perf_now_us();
      for (long i = 0; i < count; ++i) {
        if (op == FETCH_ADD) *sink += fetch_add(s, o->span + 128 + 8);
        else get(s, dst, size, 0);
      }
      if (r >= 0) t[r] = (perf_now_us() - t0) / (double)count;
      put(s, token, 8, o->span + 64);
      wait_word(s, ack, *token);
    } else {
      wait_word(s, mark, *token);
      put(s, token, 8, o->span + 128);
    }
  }
}

static long latency_iterations(const struct perf_opts* o, size_t size) {
  return perf_iterations(o, size, 16.0 * PERF_MIB, 10, 10000);
}
/* Windows per stream, as in perf/put_bw. */
static long stream_windows(const struct perf_opts* o, size_t size) {
  return perf_iterations(o, size * (size_t)o->window, 64.0 * PERF_MIB, 1, 20000);
}

/* One completion model; returns 0 when the provider refuses it (nothing measured). */
static int run(int fd, int leader, const struct perf_opts* o, int delivery_complete) {
  struct fi_info* hints = fi_allocinfo();
  struct fi_info* info = NULL;
  hints->caps = FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
  hints->ep_attr->type = FI_EP_RDM;
  hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
  hints->domain_attr->threading = FI_THREAD_DOMAIN;
  hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;
  if (delivery_complete) hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
  else hints->tx_attr->msg_order = FI_ORDER_RAW | FI_ORDER_WAW;
  const char* provider = getenv("TANDEM_OFI_PROVIDER");
  if (provider && *provider) hints->fabric_attr->prov_name = strdup(provider);
  int refused = fi_getinfo(FI_VERSION(1, 11), NULL, NULL, 0, hints, &info) != 0;
  const int atomics = !refused;  /* else the model without atomics (no fetch-and-add figure) */
  if (refused) {
    hints->caps &= ~(uint64_t)FI_ATOMIC;
    refused = fi_getinfo(FI_VERSION(1, 11), NULL, NULL, 0, hints, &info) != 0;
  }
  fi_freeinfo(hints);
  /* Both sides must agree to go on. */
  char mine_ok = (char)!refused, theirs_ok = 0;
  if (write(fd, &mine_ok, 1) != 1 || read(fd, &theirs_ok, 1) != 1) exit(1);
  if (refused || !theirs_ok) {
    if (leader) fprintf(stderr, "# ref_ofi_pingpong: the provider refuses the %s model\n", delivery_complete ? "dc" : "ordered");
    if (info) fi_freeinfo(info);
    return 0;
  }
  if (leader)
    fprintf(stderr, "# ref_ofi_pingpong: %s model on provider %s\n", delivery_complete ? "dc" : "ordered",
            info->fabric_attr->prov_name);

  struct side s = {0};
  s.virt_addr = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
  s.inject = info->tx_attr->inject_size;
  s.delivery_complete = delivery_complete;
  struct fid_fabric* fabric;
  struct fid_domain* domain;
  struct fid_av* av;
  struct fid_mr* mr;
  CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
  CHECK(fi_domain(fabric, info, &domain, NULL));
  CHECK(fi_endpoint(domain, info, &s.ep, NULL));
  struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
  struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT};
  struct fi_cntr_attr cntr_attr = {.events = FI_CNTR_EVENTS_COMP};
  CHECK(fi_av_open(domain, &av_attr, &av, NULL));
  CHECK(fi_cq_open(domain, &cq_attr, &s.cq, NULL));
  CHECK(fi_cntr_open(domain, &cntr_attr, &s.writes_done, NULL));
  CHECK(fi_cntr_open(domain, &cntr_attr, &s.reads_done, NULL));
  CHECK(fi_ep_bind(s.ep, &av->fid, 0));
  CHECK(fi_ep_bind(s.ep, &s.cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION));
  CHECK(fi_ep_bind(s.ep, &s.writes_done->fid, FI_WRITE));
  CHECK(fi_ep_bind(s.ep, &s.reads_done->fid, FI_READ));
  CHECK(fi_enable(s.ep));

  /* The buffer: `span` bytes of landing area, then the flag, end-mark and ack words, each
   * on a cache line of its own. */
  const size_t words = 3 * 64;
  char* buf = perf_alloc(o->span + words);
  memset(buf, 0, o->span + words);
  volatile uint64_t* flag = (volatile uint64_t*)(buf + o->span);
  volatile uint64_t* mark = (volatile uint64_t*)(buf + o->span + 64);
  volatile uint64_t* ack = (volatile uint64_t*)(buf + o->span + 128);
  CHECK(fi_mr_reg(domain, buf, o->span + words, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 0, 0, &mr, NULL));
  if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
    CHECK(fi_mr_bind(mr, &s.ep->fid, 0));
    CHECK(fi_mr_enable(mr));
  }
  struct card mine = {.name_len = sizeof mine.name, .base = (uint64_t)(uintptr_t)buf, .key = fi_mr_key(mr)};
  CHECK(fi_getname(&s.ep->fid, mine.name, &mine.name_len));
  if (write(fd, &mine, sizeof mine) != sizeof mine || read(fd, &s.remote, sizeof s.remote) != sizeof s.remote) exit(1);
  if (fi_av_insert(av, s.remote.name, 1, &s.peer, 0, NULL) != 1) exit(1);

  char* src = perf_alloc(o->span);
  uint64_t sink = 0;
  const char* prefix = delivery_complete ? "ofi_dc" : "ofi";
  char metric[64];
  double t[PERF_MAX_REPS];
  uint64_t seq = 0, token = 0;
  size_t first = perf_first_size(o);
  if (first < 8) first = 8; /* room for the sequence number */
  for (size_t size = first; size <= o->max_size; size <<= 1) {
    const long n = latency_iterations(o, size), windows = stream_windows(o, size);
    /* Ping-pong: the message's last word lands on the peer's flag. */
    const uint64_t at = o->span + 8 - size;
    for (int r = -1; r < o->reps; ++r) {
      const long count = r < 0 ? n / 10 + 1 : n;
      const double t0 = perf_now_us();
      for (long i = 0; i < count; ++i) {
        ++seq;
        /* The previous write from src must be complete before src changes: its last word
         * may have landed (and been answered) before the rest of it left. */
        if (size > s.inject) wait_writes(&s);
        memcpy(src + size - 8, &seq, 8);
        if (leader) {
          put(&s, src, size, at);
          wait_word(&s, flag, seq);
        } else {
          wait_word(&s, flag, seq);
          put(&s, src, size, at);
        }
      }
      if (r >= 0) t[r] = (perf_now_us() - t0) / (2.0 * (double)count);
    }
    if (leader) {
      snprintf(metric, sizeof metric, "%s_half_rtt_us", prefix);
      perf_emit(size, n, metric, t, o->reps, 1);
    }
    if (size == first && atomics) {
      /* Fetch-and-adds on a word of the child's (the ack word's line, idle here). */
      time_one_sided(&s, leader, o, FETCH_ADD, n, NULL, 8, mark, ack, &token, t, &sink);
      if (leader) {
        snprintf(metric, sizeof metric, "%s_fetch_add_us", prefix);
        perf_emit(8, n, metric, t, o->reps, 1);
      }
    }
    /* Gets: `size` bytes of the child's buffer read into src. */
    time_one_sided(&s, leader, o, GET, n, src, size, mark, ack, &token, t, &sink);
    if (leader) {
      snprintf(metric, sizeof metric, "%s_get_us", prefix);
      perf_emit(size, n, metric, t, o->reps, 1);
    }
    /* Stream, end mark, acknowledgement.  The last window's completion also keeps the mark
     * behind every write of the stream (a provider may let a small injected write overtake
     * queued large ones). */
    struct perf_stream stream = {NULL, src, size, perf_wrap(o, size), 0};
    for (int r = -1; r < o->reps; ++r) {  /* r = -1: a shorter warm-up, as put_bw has */
      ++token;
      if (leader) {
        const long count = r < 0 ? windows / 10 + 1 : windows;
        const double t0 = perf_now_us();
        for (long w = 0; w < count; ++w) {
          for (int k = 0; k < o->window; ++k) {
            put(&s, stream.source + stream.off, size, stream.off);
            perf_stream_next(&stream);
          }
          complete_window(&s, &sink);
        }
        put(&s, &token, 8, o->span + 64);
        wait_word(&s, ack, token);
        if (r >= 0) t[r] = (double)windows * (double)o->window * (double)size / (perf_now_us() - t0);
      } else {
        wait_word(&s, mark, token);
        put(&s, &token, 8, o->span + 128);
      }
    }
    if (leader) {
      snprintf(metric, sizeof metric, "%s_bw_MBps", prefix);
      perf_emit(size, windows * o->window, metric, t, o->reps, 0);
    }
  }
  wait_writes(&s);
  /* Let the other side finish before the endpoint goes away. */
  char byte = 0;
  if (write(fd, &byte, 1) != 1 || read(fd, &byte, 1) != 1) exit(1);
  fi_close(&mr->fid);
  fi_close(&s.ep->fid);
  fi_close(&av->fid);
  fi_close(&s.writes_done->fid);
  fi_close(&s.reads_done->fid);
  fi_close(&s.cq->fid);
  fi_close(&domain->fid);
  fi_close(&fabric->fid);
  fi_freeinfo(info);
  free(src);
  free(buf);
  return 1;
}

int main(int argc, char** argv) {
  struct perf_opts o = perf_defaults();
  perf_parse(argc, argv, &o);
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return 1;
  if (perf_fork_pair("ref_ofi_pingpong", o.pin) == 1) {
    for (int dc = 0; dc <= 1; ++dc) run(sv[1], 0, &o, dc);
    _exit(0);
  }
  perf_header("ref_ofi_pingpong", &o);
  int measured = 0;
  for (int dc = 0; dc <= 1; ++dc) measured += run(sv[0], 1, &o, dc);
  int status = 0;
  wait(&status);
  if (measured == 0) {
    fprintf(stderr, "ref_ofi_pingpong: the provider refuses both completion models\n");
    return 1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
