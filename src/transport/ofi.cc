#include "transport/ofi.h"

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/backoff.h"
#include "core/error.h"
#include "transport/ofi_post.h"

namespace tandem::ofi {

namespace {

constexpr fi_op kOps[] = {FI_ATOMIC_READ, FI_ATOMIC_WRITE, FI_ATOMIC_WRITE, FI_CSWAP, FI_SUM,
                          FI_BAND,        FI_BOR,          FI_BXOR,         FI_MIN,   FI_MAX};
constexpr fi_datatype kTypes[] = {FI_INT32, FI_INT64, FI_UINT32, FI_UINT64, FI_FLOAT, FI_DOUBLE};

void check(const char* call, int rc, const char* what) {
  if (rc != 0) fatal(call, "libfabric: %s failed: %s", what, fi_strerror(-rc));
}

// The operations the API applies to a type: all on integers; on floating types fetch, set
// and swap, and the sum, min and max of window accumulates.
bool needed(AtomicOp op, AtomicType type) {
  return !(type == AtomicType::Float || type == AtomicType::Double) ||
         !(op == AtomicOp::CompareSwap || op == AtomicOp::And || op == AtomicOp::Or || op == AtomicOp::Xor);
}

// The message of an atomic on `target` at `peer` with the operands in `operand`.
fi_msg_atomic atomic_message(const fi_ioc* operand, const fi_rma_ioc* target, fi_addr_t peer, fi_datatype type,
                             fi_op op, void* context) {
  fi_msg_atomic msg{};
  msg.msg_iov = operand;
  msg.iov_count = 1;
  msg.addr = peer;
  msg.rma_iov = target;
  msg.rma_iov_count = 1;
  msg.datatype = type;
  msg.op = op;
  msg.context = context;
  return msg;
}

}  // namespace

const char* atomic_op_name(AtomicOp op) {
  static const char* names[] = {"fetch", "set", "swap", "compare_swap", "add", "and", "or", "xor", "min", "max"};
  return names[static_cast<int>(op)];
}

const char* atomic_type_name(AtomicType type) {
  static const char* names[] = {"int32", "int64", "uint32", "uint64", "float", "double"};
  return names[static_cast<int>(type)];
}

void Transport::open(const char* call, const std::string& provider, char* const bases[kSegments],
                     const size_t sizes[kSegments], bool waitable, const std::string& netns,
                     bool software_atomics, bool coalesce, bool notify_messages) {
  if (!netns.empty()) {
    const int fd = ::open(netns.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || setns(fd, CLONE_NEWNET) != 0)
      fatal(call, "cannot enter the network namespace TANDEM_NETNS=%s: %s", netns.c_str(), strerror(errno));
    ::close(fd);
  }
  // The provider: the one named, else libfabric's first choice among those with everything
  // Tandem needs.  With it, the strongest order it grants (see Order).  Messages carry
  // software atomics; with Order All they must not pass earlier writes either (a fence
  // orders puts before atomics).
  auto query = [&](const std::string& name, Order order) {
    fi_info* hints = fi_allocinfo();
    if (!hints) fatal(call, "libfabric: out of memory");
    hints->caps = FI_RMA | FI_ATOMIC | FI_MSG | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE |
                  FI_SEND | FI_RECV;
    hints->ep_attr->type = FI_EP_RDM;
    hints->mode = 0;
    hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;  // Transport serialises its calls itself
    hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;  // every wait drives progress
    if (order == Order::All) hints->tx_attr->msg_order = FI_ORDER_RAW | FI_ORDER_WAW | FI_ORDER_SAW;
    else if (order == Order::Rma) hints->tx_attr->msg_order = FI_ORDER_RMA_RAW | FI_ORDER_RMA_WAW;
    else hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    if (!name.empty()) hints->fabric_attr->prov_name = strdup(name.c_str());
    fi_info* found = nullptr;
    const int rc = fi_getinfo(FI_VERSION(1, 11), nullptr, nullptr, 0, hints, &found);
    fi_freeinfo(hints);
    if (rc != 0 && found) {
      fi_freeinfo(found);
      found = nullptr;
    }
    return std::pair<fi_info*, int>{found, rc};
  };
  std::string name = provider;
  if (name.empty()) {
    auto [first, rc] = query("", Order::None);
    if (!first)
      fatal(call,
            "libfabric finds no provider with reliable endpoints, RMA, atomics, messages and delivery-complete "
            "writes (%s); tandem_info lists the providers, TANDEM_OFI_PROVIDER picks one",
            fi_strerror(-rc));
    name = first->fabric_attr->prov_name;
    fi_freeinfo(first);
  }
  for (Order order : {Order::All, Order::Rma, Order::None}) {
    auto [found, rc] = query(name, order);
    if (found) {
      info_ = found;
      order_ = order;
      break;
    }
    if (order == Order::None) {
      fatal(call,
            "the libfabric provider %s lacks reliable endpoints, RMA, atomics, messages or ordered or "
            "delivery-complete writes (%s); tandem_info lists the providers, TANDEM_OFI_PROVIDER picks one",
            name.c_str(), fi_strerror(-rc));
    }
  }
  provider_ = info_->fabric_attr->prov_name;
  virtual_addresses_ = (info_->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
  provider_keys_ = (info_->domain_attr->mr_mode & FI_MR_PROV_KEY) != 0;
  max_message_ = info_->ep_attr->max_msg_size ? info_->ep_attr->max_msg_size : SIZE_MAX;
  inject_size_ = info_->tx_attr->inject_size;
  notify_by_data_ = !notify_messages && info_->domain_attr->cq_data_size >= sizeof(uint64_t);
  coalesce_ = coalesce;
  if (!batches_) batches_.reset(new Batch[kBatches]);  // coalesced puts, staged writes

  check(call, fi_fabric(info_->fabric_attr, &fabric_, nullptr), "fi_fabric");
  check(call, fi_domain(fabric_, info_, &domain_, nullptr), "fi_domain");
  check(call, fi_endpoint(domain_, info_, &ep_, nullptr), "fi_endpoint");
  fi_av_attr av_attr{};
  av_attr.type = FI_AV_TABLE;
  check(call, fi_av_open(domain_, &av_attr, &av_, nullptr), "fi_av_open");
  fi_cq_attr cq_attr{};
  cq_attr.format = FI_CQ_FORMAT_DATA;  // remote CQ data: notifications
  cq_attr.wait_obj = waitable ? FI_WAIT_FD : FI_WAIT_NONE;
  // Room for a completion of everything the endpoint can have in flight at once (posts
  // beyond that are refused until progress has read completions).
  cq_attr.size = info_->tx_attr->size + info_->rx_attr->size;
  check(call, fi_cq_open(domain_, &cq_attr, &cq_, nullptr), "fi_cq_open");
  check(call, fi_ep_bind(ep_, &av_->fid, 0), "fi_ep_bind(av)");
  // Transmits complete into the CQ only when asked (FI_COMPLETION), receives always: some
  // providers (sockets) report a notification (a write's remote CQ data) only to a receive
  // side bound without FI_SELECTIVE_COMPLETION.
  check(call, fi_ep_bind(ep_, &cq_->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION), "fi_ep_bind(cq, transmit)");
  check(call, fi_ep_bind(ep_, &cq_->fid, FI_RECV), "fi_ep_bind(cq, receive)");
  check(call, fi_enable(ep_), "fi_enable");
  // Some providers (sockets with manual progress) have no wait object to hand out; then
  // wait_for_activity() polls with short sleeps instead.
  if (waitable && fi_control(&cq_->fid, FI_GETWAIT, &wait_fd_) != 0) wait_fd_ = -1;
  // The pipe that ends a progress thread's sleep (wake()), whichever way it sleeps.
  if (pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) != 0) fatal(call, "cannot create a pipe: %s", strerror(errno));

  for (int s = 0; s < kSegments; ++s) {
    base_[s] = bases[s];
    size_[s] = sizes[s];
    if (sizes[s] == 0) continue;
    check(call,
          fi_mr_reg(domain_, bases[s], sizes[s], FI_REMOTE_READ | FI_REMOTE_WRITE, 0,
                    static_cast<uint64_t>(s), 0, &mr_[s], nullptr),
          "fi_mr_reg of a symmetric segment");
    if (info_->domain_attr->mr_mode & FI_MR_ENDPOINT) {
      check(call, fi_mr_bind(mr_[s], &ep_->fid, 0), "fi_mr_bind");
      check(call, fi_mr_enable(mr_[s]), "fi_mr_enable");
    }
  }

  // A type is the provider's when it has every operation the API applies to it, fetching
  // and not; otherwise all of that type's atomics are software ones, so that a word never
  // sees both paths.
  for (int t = 0; t < static_cast<int>(AtomicType::Count); ++t) {
    bool all = !software_atomics;
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
  inbox_.assign(kInbox, Incoming{});
  for (Incoming& slot : inbox_) post_receive(&slot);
  if (!operand_slots_) operand_slots_.reset(new OperandSlot[kOperandSlots]);
  if (!runs_) runs_.reset(new Outgoing[kRunsInFlight]);
}

std::string Transport::card() const {
  char name[512];
  size_t length = sizeof name;
  if (fi_getname(&ep_->fid, name, &length) != 0) fatal("shmem_init", "libfabric: fi_getname failed");
  std::string card(reinterpret_cast<const char*>(&length), sizeof length);
  card.append(name, length);
  for (int s = 0; s < kSegments; ++s) {
    const uint64_t base = reinterpret_cast<uint64_t>(base_[s]);
    const uint64_t key = mr_[s] ? fi_mr_key(mr_[s]) : 0;
    card.append(reinterpret_cast<const char*>(&base), sizeof base);
    card.append(reinterpret_cast<const char*>(&key), sizeof key);
  }
  return card;
}

void Transport::connect(const char* call, const std::vector<std::string>& cards, int my_pe) {
  my_pe_ = my_pe;
  // Remote CQ data names a PE in 30 bits (notifications, ofi_signal.cc).
  if (cards.size() > (size_t{1} << 30)) fatal(call, "%zu PEs: the network engine takes at most 2^30", cards.size());
  peer_address_.assign(cards.size(), FI_ADDR_NOTAVAIL);
  ledger_.reset(cards.size());
  timeout_.reset(cards.size(), my_pe);
  peer_segment_.assign(cards.size() * kSegments, PeerSegment{0, 0});
  for (size_t pe = 0; pe < cards.size(); ++pe) {
    const std::string& card = cards[pe];
    size_t length = 0;
    if (card.size() < sizeof length) fatal(call, "PE %zu sent a malformed endpoint address", pe);
    memcpy(&length, card.data(), sizeof length);
    if (card.size() != sizeof length + length + kSegments * 2 * sizeof(uint64_t))
      fatal(call, "PE %zu sent a malformed endpoint address", pe);
    fi_addr_t address = FI_ADDR_NOTAVAIL;
    if (fi_av_insert(av_, card.data() + sizeof length, 1, &address, 0, nullptr) != 1)
      fatal(call, "libfabric cannot insert the address of PE %zu", pe);
    peer_address_[pe] = address;
    const char* p = card.data() + sizeof length + length;
    for (int s = 0; s < kSegments; ++s) {
      PeerSegment& seg = peer_segment_[pe * kSegments + static_cast<size_t>(s)];
      memcpy(&seg.base, p, sizeof seg.base);
      memcpy(&seg.key, p + sizeof seg.base, sizeof seg.key);
      p += 2 * sizeof(uint64_t);
    }
  }
}

void Transport::close() {
  if (!ep_) return;
  for (auto*& mr : mr_)
    if (mr) {
      fi_close(&mr->fid);
      mr = nullptr;
    }
  fi_close(&ep_->fid);
  fi_close(&av_->fid);
  fi_close(&cq_->fid);
  fi_close(&domain_->fid);
  fi_close(&fabric_->fid);
  fi_freeinfo(info_);
  inbox_.clear();
  open_batch_ = nullptr;
  batch_open_ = false;
  run_pe_ = -1;
  for (size_t i = 0; batches_ && i < kBatches; ++i) batches_[i].in_flight = false;
  for (size_t i = 0; runs_ && i < kRunsInFlight; ++i) runs_[i].in_flight = false;
  for (size_t i = 0; operand_slots_ && i < kOperandSlots; ++i) operand_slots_[i].busy = false;
  for (int& fd : wake_pipe_)
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  wait_fd_ = -1;
  ep_ = nullptr;
  info_ = nullptr;
}

uint64_t Transport::remote_address(int pe, int segment, uint64_t offset) const {
  const PeerSegment& seg = peer_segment_[static_cast<size_t>(pe) * kSegments + static_cast<size_t>(segment)];
  return virtual_addresses_ ? seg.base + offset : offset;
}

void Transport::put(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                    bool coalesce) {
  if (coalesce && coalesce_ && bytes <= kCoalescedPutMax) {
    if (absorb(call, pe, segment, offset, source, bytes)) return;
  } else {
    flush(call);
  }
  for_each_piece(bytes, [&](size_t done, size_t chunk) {
    write_message(call, pe, segment, offset + done, static_cast<const char*>(source) + done, chunk, nullptr);
  });
}

void Transport::put_unconfirmed(const char* call, int pe, int segment, uint64_t offset, const void* source,
                                size_t bytes, const uint64_t* data) {
  flush(call);
  if (bytes > inject_size_ && bytes <= kBatchBytes) {
    // Too large to inject: a copy in a free batch goes instead, freed by its completion, so
    // the PE need not wait for the write to leave.
    if (Batch* staged = take_batch()) {
      memcpy(staged->data, source, bytes);
      return write_message(call, pe, segment, offset, staged->data, bytes, staged, data, Completion::Local);
    }
  }
  for_each_piece(bytes, [&](size_t done, size_t chunk) {
    write_message(call, pe, segment, offset + done, static_cast<const char*>(source) + done, chunk, nullptr,
                  done + chunk == bytes ? data : nullptr, Completion::Local);
  });
  if (bytes > inject_size_) wait_writes(call);  // not injected: the source is read until then
}

void Transport::rma_message(int pe, int segment, uint64_t offset, iovec* iov, fi_rma_iov* rma, void* context,
                            fi_msg_rma* msg) const {
  rma->addr = remote_address(pe, segment, offset);
  rma->len = iov->iov_len;
  rma->key = peer_segment_[static_cast<size_t>(pe) * kSegments + static_cast<size_t>(segment)].key;
  *msg = fi_msg_rma{};
  msg->msg_iov = iov;
  msg->iov_count = 1;
  msg->addr = peer_address_[static_cast<size_t>(pe)];
  msg->rma_iov = rma;
  msg->rma_iov_count = 1;
  msg->context = context;
}

void Transport::write_message(const char* call, int pe, int segment, uint64_t offset, const void* source,
                              size_t bytes, void* context, const uint64_t* data, Completion completion) {
  iovec iov{const_cast<void*>(source), bytes};
  fi_rma_iov rma;
  fi_msg_rma msg;
  rma_message(pe, segment, offset, &iov, &rma, context, &msg);
  // Flags replace the endpoint's op_flags: ask for delivery-complete again where quiet
  // counts on it, also for an injected write (fi_inject_write would count it done once it
  // is sent, with tcp once it is in the socket, so quiet could return before it landed).
  // With Order All or Rma, the first write to a PE since the last confirm_writes() is
  // delivery-complete too: when it stays the only one, as with a put and a quiet, its own
  // acknowledgement completes it and quiet sends that PE nothing more.
  const bool landed = order_ == Order::None || completion == Completion::Landed ||
                      (completion == Completion::Confirmed && ledger_.note_write(pe, true));
  uint64_t flags = landed ? FI_DELIVERY_COMPLETE : 0;
  const bool injected = !context && bytes <= inject_size_;  // the source is free at once
  if (injected) flags |= FI_INJECT;
  // Counted where it must land, or holds the source until it completes; a counted injected
  // write is copied by the provider.
  if (landed || !injected) {
    flags |= FI_COMPLETION;
    if (!context) msg.context = &counted_write_;
    writes_issued_.fetch_add(1);  // sequentially consistent: see sleeping_
  }
  if (data) {
    flags |= FI_REMOTE_CQ_DATA;
    msg.data = *data;
  }
  Backoff backoff = Backoff::without_progress();
  post(call, "a write to", pe, backoff, [&] { return fi_writemsg(ep_, &msg, flags); });
  if (bytes > inject_size_) wake_if_sleeping();
}

void Transport::read_message(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes,
                             void* context) {
  iovec iov{dest, bytes};
  fi_rma_iov rma;
  fi_msg_rma msg;
  rma_message(pe, segment, offset, &iov, &rma, context, &msg);
  reads_issued_.fetch_add(1, std::memory_order_acq_rel);
  Backoff backoff = Backoff::without_progress();
  post(call, "a read from", pe, backoff, [&] { return fi_readmsg(ep_, &msg, FI_COMPLETION); });
}

void Transport::get(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes) {
  flush(call);
  for_each_piece(bytes, [&](size_t done, size_t chunk) {
    read_message(call, pe, segment, offset + done, static_cast<char*>(dest) + done, chunk, &counted_read_);
  });
}

void Transport::atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op,
                       AtomicType type, const void* operand, const void* compare, void* result) {
  settle_fence(call);
  post_atomic(call, pe, segment, offset, op, type, operand, compare, result);
}

void Transport::post_atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op,
                            AtomicType type, const void* operand, const void* compare, void* result) {
  flush(call);
  if (!native_[static_cast<int>(type)])
    return software_atomic(call, pe, segment, offset, op, type, operand, compare, result);
  const fi_addr_t peer = peer_address_[static_cast<size_t>(pe)];
  const uint64_t key = peer_segment_[static_cast<size_t>(pe) * kSegments + static_cast<size_t>(segment)].key;
  const uint64_t address = remote_address(pe, segment, offset);
  const fi_op fop = kOps[static_cast<int>(op)];
  const fi_datatype ftype = kTypes[static_cast<int>(type)];
  uint64_t scratch = 0;  // FI_ATOMIC_READ ignores its operand but wants a buffer
  const void* buffer = operand ? operand : &scratch;
  Backoff backoff = Backoff::without_progress();
  OperandSlot* slot = nullptr;
  if (!result) {
    if (order_ == Order::All) ledger_.note_write(pe, false);
    slot = take_operand_slot(call);
    memcpy(slot->operand, buffer, atomic_type_size(type));
  }
  if (!result) atomics_issued_.fetch_add(1, std::memory_order_acq_rel);
  (result ? reads_issued_ : writes_issued_).fetch_add(1, std::memory_order_acq_rel);
  post(call, "an atomic on", pe, backoff, [&] {
    if (slot) return write_atomic(peer, slot->operand, 1, address, key, ftype, fop, slot);
    const fi_ioc operands{const_cast<void*>(buffer), 1};
    fi_ioc results{result, 1};
    const fi_rma_ioc target{address, 1, key};
    const fi_msg_atomic msg = atomic_message(&operands, &target, peer, ftype, fop, &counted_read_);
    if (op != AtomicOp::CompareSwap) return fi_fetch_atomicmsg(ep_, &msg, &results, nullptr, 1, FI_COMPLETION);
    fi_ioc comparand{const_cast<void*>(compare), 1};
    return fi_compare_atomicmsg(ep_, &msg, &comparand, nullptr, 1, &results, nullptr, 1, FI_COMPLETION);
  });
  if (result) wait_reads(call);
}

void Transport::warm_up(const char* call, int pe) {
  uint64_t word = 0;
  get(call, pe, 0, 0, &word, sizeof word);
  wait_reads(call);
  atomic(call, pe, 0, 0, AtomicOp::Read, AtomicType::UInt64, nullptr, nullptr, &word);
}

void Transport::atomic_array(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
                             const void* operands, size_t count) {
  settle_fence(call);
  const size_t size = atomic_type_size(type);
  const auto* bytes = static_cast<const char*>(operands);
  if (!native_[static_cast<int>(type)]) {
    flush(call);
    return software_atomic_run(call, pe, segment, offset, op, type, operands, count);
  }
  const size_t most = array_most_[static_cast<int>(type)][static_cast<int>(op)];
  if (most <= 1) {
    for (size_t i = 0; i < count; ++i) atomic(call, pe, segment, offset + i * size, op, type, bytes + i * size, nullptr, nullptr);
    return;
  }
  flush(call);
  if (order_ == Order::All) ledger_.note_write(pe, false);
  const fi_addr_t peer = peer_address_[static_cast<size_t>(pe)];
  const uint64_t key = peer_segment_[static_cast<size_t>(pe) * kSegments + static_cast<size_t>(segment)].key;
  const uint64_t address = remote_address(pe, segment, offset);
  Backoff backoff = Backoff::without_progress();
  for (size_t done = 0; done < count;) {
    const size_t chunk = count - done < most ? count - done : most;
    atomics_issued_.fetch_add(1, std::memory_order_acq_rel);
    writes_issued_.fetch_add(1, std::memory_order_acq_rel);
    post(call, "an atomic on", pe, backoff, [&] {
      return write_atomic(peer, bytes + done * size, chunk, address + done * size, key, kTypes[static_cast<int>(type)],
                          kOps[static_cast<int>(op)], &counted_atomic_);
    });
    done += chunk;
  }
}

ssize_t Transport::write_atomic(uint64_t peer, const void* operands, size_t count, uint64_t address, uint64_t key,
                                int datatype, int op, void* context) {
  const fi_ioc operand{const_cast<void*>(operands), count};
  const fi_rma_ioc target{address, count, key};
  const fi_msg_atomic msg =
      atomic_message(&operand, &target, peer, static_cast<fi_datatype>(datatype), static_cast<fi_op>(op), context);
  // Counted done once landed, unless quiet's confirming write follows it (Order All).
  return fi_atomicmsg(ep_, &msg, order_ == Order::All ? FI_COMPLETION : FI_COMPLETION | FI_DELIVERY_COMPLETE);
}

Transport::OperandSlot* Transport::take_operand_slot(const char* call) {
  Backoff backoff = Backoff::without_progress();
  NetTimeout::Wait stall;
  for (;;) {
    const size_t first = next_operand_slot_.fetch_add(1, std::memory_order_relaxed);
    for (size_t k = 0; k < kOperandSlots; ++k) {
      OperandSlot& slot = operand_slots_[(first + k) % kOperandSlots];
      bool free = false;
      if (slot.busy.compare_exchange_strong(free, true, std::memory_order_acquire)) return &slot;
    }
    // Every slot's atomic is in flight: completions free them.
    progress();
    watch(call, stall);
    backoff.pause();
  }
}

}  // namespace tandem::ofi
