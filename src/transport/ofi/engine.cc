#include "transport/ofi/engine.h"

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/backoff.h"
#include "core/cards.h"
#include "core/error.h"
#include "transport/ofi/kept_signals.h"
#include "transport/ofi/post.h"

namespace tandem::ofi {

namespace {

// Address-vector entries the provider makes room for at a time (about 160 bytes each with
// tcp;ofi_rxm).
constexpr size_t kAddressChunk = 64;

void check(const char* call, int rc, const char* what) {
  if (rc != 0) fatal(call, "libfabric: %s failed: %s", what, fi_strerror(-rc));
}

// The operations the API applies to a type: all on integers; on floating types fetch, set
// and swap, and the sum, min and max of window accumulates.
bool needed(AtomicOp op, AtomicType type) {
  return !(type == AtomicType::Float || type == AtomicType::Double) ||
         !(op == AtomicOp::CompareSwap || op == AtomicOp::And || op == AtomicOp::Or || op == AtomicOp::Xor);
}

}  // namespace

void Engine::open(const char* call, const Settings& settings, char* const bases[kSegments],
                     const size_t sizes[kSegments]) {
  if (!settings.netns.empty()) {
    const int fd = ::open(settings.netns.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || setns(fd, CLONE_NEWNET) != 0)
      fatal(call, "cannot enter the network namespace TANDEM_NETNS=%s: %s", settings.netns.c_str(), strerror(errno));
    ::close(fd);
  }
  announce_job_size(settings.n_pes);
  // What only the job's PEs learn (through PMIx, in this PE's card): the proof that every
  // message to this PE carries (admit()).
  if (getrandom(&secret_, sizeof secret_, 0) != static_cast<ssize_t>(sizeof secret_))
    fatal(call, "cannot draw this PE's secret (getrandom): %s", strerror(errno));
  Choice choice = choose(settings.provider, settings.required);
  if (!choice.info && !settings.provider.empty())
    fatal(call, "TANDEM_OFI_PROVIDER=%s: %s; tandem_info lists the providers", settings.provider.c_str(),
          choice.problem.c_str());
  if (!choice.info)
    fatal(call, "no libfabric provider can serve: %s; tandem_info lists the providers, TANDEM_OFI_PROVIDER picks one",
          choice.problem.c_str());
  info_ = choice.info;
  order_ = choice.order;
  rules_ = choice.rules;
  emulated_ = choice.emulated;  // checked as it is followed (local.h)
  provider_ = info_->fabric_attr->prov_name;
  pieces_.set(info_->ep_attr->max_msg_size, talks_through_sockets(provider_));
  inject_size_ = info_->tx_attr->inject_size;
  notify_by_data_ = !settings.notify_messages && info_->domain_attr->cq_data_size >= sizeof(uint64_t);
  held_.open(settings.coalesce);

  KeptSignalHandlers kept;  // shm installs handlers when it opens an endpoint
  check(call, fi_fabric(info_->fabric_attr, &fabric_, nullptr), "fi_fabric");
  check(call, fi_domain(fabric_, info_, &domain_, nullptr), "fi_domain");
  check(call, fi_endpoint(domain_, info_, &ep_, nullptr), "fi_endpoint");
  fi_av_attr av_attr{};
  av_attr.type = FI_AV_TABLE;
  // The addresses go in as the PEs are first addressed (resolve()): the provider's tables
  // grow by this many entries at a time (by the universe size, the job's, when 0).
  av_attr.count = std::min<size_t>(kAddressChunk, settings.n_pes > 0 ? static_cast<size_t>(settings.n_pes) : 1);
  check(call, fi_av_open(domain_, &av_attr, &av_, nullptr), "fi_av_open");
  fi_cq_attr cq_attr{};
  cq_attr.format = FI_CQ_FORMAT_DATA;  // remote CQ data: notifications
  // A thread that sleeps until traffic arrives sleeps on the provider's sockets where it
  // talks through them (socket_watch.h: the queue's wait object would cost every message),
  // else on the queue's wait object.
  const bool watch_sockets = settings.waitable && talks_through_sockets(provider_);
  answers_written_ = talks_through_sockets(provider_);
  cq_attr.wait_obj = settings.waitable && !watch_sockets ? FI_WAIT_FD : FI_WAIT_NONE;
  // Room for a completion of everything the endpoint can have in flight at once (posts
  // beyond that are refused until progress has read completions).
  cq_attr.size = info_->tx_attr->size + info_->rx_attr->size;
  // A provider without wait objects on its queues (shm) gets a queue without one: then
  // wait_for_activity() polls with short sleeps instead.
  if (cq_attr.wait_obj != FI_WAIT_NONE && fi_cq_open(domain_, &cq_attr, &cq_, nullptr) != 0) {
    cq_ = nullptr;
    cq_attr.wait_obj = FI_WAIT_NONE;
  }
  if (!cq_) check(call, fi_cq_open(domain_, &cq_attr, &cq_, nullptr), "fi_cq_open");
  check(call, fi_ep_bind(ep_, &av_->fid, 0), "fi_ep_bind(av)");
  // Transmits complete into the CQ only when asked (FI_COMPLETION), receives always: some
  // providers (sockets) report a notification (a write's remote CQ data) only to a receive
  // side bound without FI_SELECTIVE_COMPLETION.
  check(call, fi_ep_bind(ep_, &cq_->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION), "fi_ep_bind(cq, transmit)");
  check(call, fi_ep_bind(ep_, &cq_->fid, FI_RECV), "fi_ep_bind(cq, receive)");
  check(call, fi_enable(ep_), "fi_enable");
  // Some providers (sockets with manual progress) have no wait object to hand out either.
  int wait_fd = -1;
  if (cq_attr.wait_obj != FI_WAIT_NONE && fi_control(&cq_->fid, FI_GETWAIT, &wait_fd) != 0) wait_fd = -1;
  // A doorbell to ring peers' threads with where the provider talks through sockets; its
  // port goes to the peers only where a thread answers it.
  const bool doorbell = talks_through_sockets(provider_);
  sleep_.open(call, doorbell ? endpoint_name(call) : std::string(), doorbell, settings.waitable, watch_sockets,
              wait_fd);

  // Registrations: the segments and the pad for peers, with local access too where every
  // local buffer needs a descriptor, and the engine's own buffers.
  local_.open(domain_, ep_, rules_, emulated_, cq_attr.size, settings.bounce_bytes, info_->domain_attr->mr_key_size);
  const uint64_t local = rules_.mr_local ? FI_READ | FI_WRITE | FI_SEND | FI_RECV : 0;
  for (int s = 0; s < kSegments; ++s) {
    base_[s] = bases[s];
    size_[s] = sizes[s];
    if (sizes[s] > 0) mr_[s] = local_.add(call, bases[s], sizes[s], FI_REMOTE_READ | FI_REMOTE_WRITE | local);
  }
  mr_[kOwn] = local_.add(call, &own_, sizeof own_, FI_REMOTE_WRITE | FI_WRITE);
  // Requests come as writes into rings where answers go back as writes and an entry fits in
  // an inject.
  rings_on_ = answers_written_ && settings.n_pes > 0 && inject_size_ >= sizeof(RequestRings::Entry);
  if (rings_on_) {
    ring_pes_ = static_cast<size_t>(settings.n_pes);
    const size_t bytes = RequestRings::memory_bytes(ring_pes_);
    ring_memory_ = ZeroPages(bytes);
    if (!ring_memory_.data()) fatal(call, "cannot reserve %zu bytes for the request rings of %zu PEs", bytes, ring_pes_);
    mr_[kRings] = local_.add(call, ring_memory_.data(), bytes, FI_REMOTE_WRITE);
  }
  operands_.make();
  if (!runs_) runs_.reset(new Outgoing[kRunsInFlight]);
  if (!gather_answers_) gather_answers_.reset(new Outgoing[kGatherAnswers]);
  inbox_.assign(kInbox, Incoming{});
  if (rules_.mr_local) {
    local_.add(call, held_.batches(), kBatches * sizeof(Batch), local);
    local_.add(call, operands_.slots(), OperandSlots::bytes(), local);
    local_.add(call, runs_.get(), kRunsInFlight * sizeof(Outgoing), local);
    local_.add(call, gather_answers_.get(), kGatherAnswers * sizeof(Outgoing), local);
    local_.add(call, inbox_.data(), inbox_.size() * sizeof(Incoming), local);
  }

  // A type is the provider's when it has every operation the API applies to it, fetching
  // and not; otherwise all of that type's atomics are software ones, so that a word never
  // sees both paths.  ofi_rxm emulates atomics with messages that the target's rxm applies:
  // a round trip and the target's progress, as on the software path, but a node peer's
  // atomic on such a word must travel the same way, where on the software path it is a CPU
  // atomic (a window lock of a node peer: 0.2 against 250-350 us).  So with rxm, Auto keeps
  // every type in software.
  using Atomics = Config::Atomics;
  const bool provider_atomics = settings.atomics == Atomics::Provider ||
                                (settings.atomics == Atomics::Auto && !emulates_atomics(provider_));
  for (int t = 0; t < static_cast<int>(AtomicType::Count); ++t) {
    // A provider that grants FI_ATOMIC with no atomic operations behind it gets none asked.
    bool all = choice.atomics && provider_atomics && ep_->atomic;
    for (int o = 0; all && o < static_cast<int>(AtomicOp::Count); ++o) {
      const auto op = static_cast<AtomicOp>(o);
      if (!needed(op, static_cast<AtomicType>(t))) continue;
      size_t count = 0;
      if (op == AtomicOp::CompareSwap)
        all = fi_compare_atomicvalid(ep_, kTypes[t], kOps[o], &count) == 0 && count > 0;
      else if (op == AtomicOp::Read || op == AtomicOp::Swap)
        all = fi_fetch_atomicvalid(ep_, kTypes[t], kOps[o], &count) == 0 && count > 0;
      else {
        size_t fetch_count = 0;
        all = fi_atomicvalid(ep_, kTypes[t], kOps[o], &count) == 0 && count > 0 &&
              fi_fetch_atomicvalid(ep_, kTypes[t], kOps[o], &fetch_count) == 0 && fetch_count > 0;
        array_most_[t][o] = all ? count : 0;
      }
    }
    native_[t] = all;
  }
  for (Incoming& slot : inbox_) post_receive(&slot);
}

std::string Engine::endpoint_name(const char* call) const {
  char name[512];
  size_t length = sizeof name;
  if (fi_getname(&ep_->fid, name, &length) != 0) fatal(call, "libfabric: fi_getname failed");
  return std::string(name, length);
}

// A PE's card (core/cards.h): its endpoint address, then per region (segments, own, rings)
// the base address and the key: 8 bytes, or with FI_MR_RAW the byte string that peers map.
std::string Engine::card() const {
  EndpointCard card;
  card.address = endpoint_name("shmem_init");
  card.regions.resize(kRegions);
  for (int r = 0; r < kRegions; ++r) {
    uint64_t base = r == kOwn     ? reinterpret_cast<uint64_t>(&own_)
                    : r == kRings ? reinterpret_cast<uint64_t>(ring_memory_.data())
                                  : reinterpret_cast<uint64_t>(base_[r]);
    std::string& key = card.regions[static_cast<size_t>(r)].key;
    if (mr_[r] && rules_.mr_raw) {
      size_t size = 0;
      fi_mr_raw_attr(mr_[r], &base, nullptr, &size, 0);  // the size, with -FI_ETOOSMALL
      key.resize(size);
      if (fi_mr_raw_attr(mr_[r], &base, reinterpret_cast<uint8_t*>(key.data()), &size, 0) != 0)
        fatal("shmem_init", "libfabric: fi_mr_raw_attr failed");
    } else if (mr_[r]) {
      const uint64_t k = fi_mr_key(mr_[r]);
      key.assign(reinterpret_cast<const char*>(&k), sizeof k);
    }
    card.regions[static_cast<size_t>(r)].base = base;
  }
  card.doorbell = sleep_.doorbell_port();
  card.secret = secret_;
  return write_card(card);
}

void Engine::connect(const char* call, int pes, int my_pe, Transport::CardOf card_of) {
  static_assert(Peers::kUnresolved == FI_ADDR_NOTAVAIL, "an unresolved peer has no address");
  my_pe_ = my_pe;
  // Remote CQ data names a PE in 30 bits (notifications, signal.cc).
  if (static_cast<size_t>(pes) > (size_t{1} << 30)) fatal(call, "%d PEs: the network engine takes at most 2^30", pes);
  const size_t n = static_cast<size_t>(pes);
  card_of_ = std::move(card_of);
  peers_.reset(n);
  ledger_.reset(n);
  timeout_.reset(n, my_pe);
  rings_.reset(rings_on_ ? n : 0);
  held_.connect(n, answers_written_);
  std::fill(std::begin(list_target_), std::end(list_target_), -1);
  sleep_.connect(n, endpoint_name(call));
  timeout_.set_nudges(sleep_.rings());
}

void Engine::nudge(int pe) {
  if (sleep_.ring(pe) || !sleep_.rings() || pe == my_pe_ || peers_.address(pe) != Peers::kUnresolved) return;
  // A node peer, which this PE reaches through memory, has not been resolved: its card
  // names its doorbell (once; the address goes into the address vector too, unused).
  (void)peer_address("a nonblocking collective's wait", pe);
  sleep_.ring(pe);
}

uint64_t Engine::resolve(const char* call, int pe, bool locked) {
  if (pe < 0 || static_cast<size_t>(pe) >= peers_.size()) fatal(call, "no PE %d in a job of %zu", pe, peers_.size());
  // The card is read outside the lock where it can be (PMIx answers from its own thread);
  // two threads that resolve one PE at once read it both, and the second finds it done.
  const std::string text = card_of_(call, pe);
  std::unique_lock<SpinLock> lock(mutex_, std::defer_lock);
  if (!locked) lock.lock();
  if (const uint64_t done = peers_.address(pe); done != Peers::kUnresolved) return done;
  auto card = read_endpoint_card(text, kRegions);
  if (!card) fatal(call, "PE %d sent a malformed endpoint address (another build of Tandem?)", pe);
  fi_addr_t address = FI_ADDR_NOTAVAIL;
  if (fi_av_insert(av_, card->address.data(), 1, &address, 0, nullptr) != 1)
    fatal(call, "libfabric cannot insert the address of PE %d", pe);
  for (int r = 0; r < kRegions; ++r) {
    PeerSegment& seg = peers_.card(pe).regions[r];
    std::string& key = card->regions[static_cast<size_t>(r)].key;
    seg.base = card->regions[static_cast<size_t>(r)].base;
    if (key.empty()) continue;  // no such segment (an executable without globals)
    if (rules_.mr_raw) {
      const int rc = fi_mr_map_raw(domain_, seg.base, reinterpret_cast<uint8_t*>(key.data()), key.size(), &seg.key, 0);
      if (rc != 0) fatal(call, "libfabric: mapping the key of PE %d failed: %s", pe, fi_strerror(-rc));
      mapped_keys_.push_back(seg.key);
    } else if (key.size() == sizeof seg.key) {
      memcpy(&seg.key, key.data(), sizeof seg.key);
    } else {
      fatal(call, "PE %d sent a malformed endpoint address (a key of %zu bytes)", pe, key.size());
    }
  }
  peers_.card(pe).secret = card->secret;
  if (pe != my_pe_) sleep_.add_peer(pe, card->address, card->doorbell);
  peers_.resolved(pe, address);
  return address;
}

Transport::Stats Engine::stats() const {
  Transport::Stats s;
  s.coalesced_puts = held_.coalesced();
  s.traffic_wakes = sleep_.traffic_wakes();
  s.doorbell_rings = sleep_.doorbell_rings();
  s.rings_sent = sleep_.rings_sent();
  s.rests = sleep_.rests();
  s.watched_connections = sleep_.watched();
  s.requests_served = requests_served_.load(std::memory_order_relaxed);
  s.requests_from_rings = requests_from_rings_.load(std::memory_order_relaxed);
  s.messages_dropped = refused_.load(std::memory_order_relaxed);
  return s;
}

void Engine::close() {
  if (!ep_) return;
  for (uint64_t key : mapped_keys_) fi_mr_unmap_key(domain_, key);
  mapped_keys_.clear();
  local_.close();  // every registration, mr_ among them
  for (auto*& mr : mr_) mr = nullptr;
  fi_close(&ep_->fid);
  fi_close(&av_->fid);
  fi_close(&cq_->fid);
  fi_close(&domain_->fid);
  fi_close(&fabric_->fid);
  fi_freeinfo(info_);
  inbox_.clear();
  answer_slots_.release_all();
  rings_on_ = false;
  rings_.reset(0);
  ring_memory_.release();
  ring_pes_ = 0;
  held_.close();
  for (size_t i = 0; runs_ && i < kRunsInFlight; ++i) runs_[i].in_flight = false;
  for (size_t i = 0; gather_answers_ && i < kGatherAnswers; ++i) gather_answers_[i].in_flight = false;
  gathers_waiting_.clear();
  operands_.free_all();
  sleep_.close();
  ep_ = nullptr;
  info_ = nullptr;
}

LocalMemory::Buffer Engine::stage(const char* call, const void* p, size_t bytes, bool in, LocalMemory::Hold* hold) {
  LocalMemory::Buffer b{const_cast<void*>(p), nullptr};
  if (local_.plain()) return b;
  progress_until(call, [&] {
    std::lock_guard<SpinLock> lock(mutex_);
    if (!(in ? local_.incoming(call, const_cast<void*>(p), bytes, hold, &b) : local_.outgoing(call, p, bytes, hold, &b)))
      return false;
    local_.check(call, b.at, bytes, b.desc);
    return true;
  });
  return b;
}

void Engine::put(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                    bool coalesce) {
  if (held_.hold(call, pe, segment, offset, source, bytes, coalesce)) return;
  pieces_.for_each(bytes, [&](size_t done, size_t chunk) {
    write_message(call, pe, segment, offset + done, static_cast<const char*>(source) + done, chunk, nullptr);
  });
}

void Engine::put_unconfirmed(const char* call, int pe, int segment, uint64_t offset, const void* source,
                                size_t bytes, const uint64_t* data) {
  held_.flush_for(call, pe);
  if (bytes > inject_size_ && bytes <= kBatchBytes) {
    // Too large to inject: a copy in a free batch goes instead, freed by its completion, so
    // the PE need not wait for the write to leave.
    if (Batch* staged = held_.take_batch()) {
      memcpy(staged->data, source, bytes);
      return write_message(call, pe, segment, offset, staged->data, bytes, staged, data, Completion::Local);
    }
  }
  pieces_.for_each(bytes, [&](size_t done, size_t chunk) {
    write_message(call, pe, segment, offset + done, static_cast<const char*>(source) + done, chunk, nullptr,
                  done + chunk == bytes ? data : nullptr, Completion::Local);
  });
  if (bytes > inject_size_) wait_writes(call);  // not injected: the source is read until then
}

void Engine::rma_message(const char* call, int pe, int segment, uint64_t offset, iovec* iov, void** desc,
                         fi_rma_iov* rma, fi_msg_rma* msg) {
  rma->addr = remote_address(call, pe, segment, offset);
  rma->len = iov->iov_len;
  rma->key = remote_key(call, pe, segment);
  *msg = fi_msg_rma{};
  msg->msg_iov = iov;
  msg->desc = desc;
  msg->iov_count = 1;
  msg->addr = peer_address(call, pe);
  msg->rma_iov = rma;
  msg->rma_iov_count = 1;
}

void Engine::write_message(const char* call, int pe, int segment, uint64_t offset, const void* source,
                              size_t bytes, void* context, const uint64_t* data, Completion completion) {
  // Flags replace the endpoint's op_flags: ask for delivery-complete again where quiet
  // counts on it, also for an injected write (fi_inject_write would count it done once it
  // is sent, with tcp once it is in the socket, so quiet could return before it landed).
  // With Order All or Rma, the first write to a PE since the last confirm_writes() is
  // delivery-complete too: when it stays the only one, as with a put and a quiet, its own
  // acknowledgement completes it and quiet sends that PE nothing more.
  const bool landed = order_ == Order::None || completion == Completion::Landed ||
                      (completion == Completion::Confirmed && ledger_.note_write(pe, true));
  uint64_t flags = landed ? FI_DELIVERY_COMPLETE : 0;
  if (landed && bytes == 0) {
    // shm (libfabric 1.17) never completes an empty delivery-complete write: a byte of this
    // PE's pad goes to the target's instead, at the cost of the byte.
    segment = kOwn;
    offset = offsetof(Own, pad);
    source = own_.pad;
    bytes = 1;
  }
  const bool injected = !context && bytes <= inject_size_;  // the source is free at once
  if (injected) flags |= FI_INJECT;
  // Counted where it must land, or holds the source until it completes; a counted injected
  // write is copied by the provider.
  void* owner = context;
  if (landed || !injected) {
    flags |= FI_COMPLETION;
    if (!owner) owner = &counted_write_;
    writes_issued_.fetch_add(1);  // sequentially consistent: see ProgressSleep::sleeping_
  }
  LocalMemory::Hold hold;
  const LocalMemory::Buffer buffer = injected ? LocalMemory::Buffer{const_cast<void*>(source), nullptr}
                                              : stage(call, source, bytes, false, &hold);
  iovec iov{buffer.at, bytes};
  void* desc = buffer.desc;
  fi_rma_iov rma;
  fi_msg_rma msg;
  rma_message(call, pe, segment, offset, &iov, &desc, &rma, &msg);
  if (data) {
    flags |= FI_REMOTE_CQ_DATA;
    msg.data = *data;
  }
  timeout_.sized(bytes);
  if (flags & FI_COMPLETION) {
    post_with(call, "a write to", pe, owner, hold, [&](void* context_to_post) {
      msg.context = context_to_post;
      return fi_writemsg(ep_, &msg, flags);
    });
  } else {
    Backoff backoff = Backoff::without_progress();
    post(call, "a write to", pe, backoff, [&] { return fi_writemsg(ep_, &msg, flags); });
  }
  if (bytes > inject_size_) wake_if_sleeping();
}

void Engine::read_message(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes,
                             void* context) {
  LocalMemory::Hold hold;
  const LocalMemory::Buffer buffer = stage(call, dest, bytes, true, &hold);
  iovec iov{buffer.at, bytes};
  void* desc = buffer.desc;
  fi_rma_iov rma;
  fi_msg_rma msg;
  rma_message(call, pe, segment, offset, &iov, &desc, &rma, &msg);
  reads_issued_.fetch_add(1, std::memory_order_acq_rel);
  timeout_.sized(bytes);
  post_with(call, "a read from", pe, context, hold, [&](void* context_to_post) {
    msg.context = context_to_post;
    return fi_readmsg(ep_, &msg, FI_COMPLETION);
  });
}

void Engine::get(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes) {
  held_.flush_for(call, pe);
  pieces_.for_each(bytes, [&](size_t done, size_t chunk) {
    read_message(call, pe, segment, offset + done, static_cast<char*>(dest) + done, chunk, &counted_read_);
  });
}

void Engine::get_now(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes) {
  const bool word = (bytes == 4 || bytes == 8) && offset % bytes == 0;
  const bool ring = rings_with(call, pe) && bytes > 0 && bytes <= cell_read_most();
  if (ring && writes_requests_to(call, pe)) {
    // A ring entry is a write: behind this PE's writes to `pe`; and it keeps its place among
    // this PE's requests there (lists of puts included).  A word comes back as an atomic
    // fetch's value; other bytes into a cell, while one is free.
    if (word) {
      flush(call);
      const AtomicType type = bytes == 8 ? AtomicType::UInt64 : AtomicType::UInt32;
      return software_atomic(call, pe, segment, offset, AtomicOp::Read, type, nullptr, nullptr, dest);
    }
    if (read_into_cell(call, pe, segment, offset, dest, bytes)) return;
  }
  get(call, pe, segment, offset, dest, bytes);
  wait_reads(call);
  // The ring at `pe` is not open yet: a request that fetches nothing (a read of the word
  // around `offset`) opens it, as a message (which could pass writes, so not the get
  // itself), for the gets after this one.
  if (ring && !writes_requests_to(call, pe))
    software_atomic(call, pe, segment, offset & ~uint64_t{3}, AtomicOp::Read, AtomicType::UInt32, nullptr, nullptr,
                    nullptr);
}

}  // namespace tandem::ofi
