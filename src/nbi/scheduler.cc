#include "nbi/scheduler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/backoff.h"
#include "core/clock.h"
#include "core/fiber.h"
#include "transport/ofi/transport.h"

namespace tandem {

namespace {

// A put lands as shm::copy promises; a get writes this PE's own memory, where no peer polls
// for its last word, so memcpy stores in whichever order is fastest.
void copy(const Op& op) {
  if (op.kind == Op::Kind::Put) shm::copy(op.remote.mapped, op.local, op.bytes);
  else memcpy(op.local, op.remote.mapped, op.bytes);
}

ofi::AtomicOp network_op(shm::AmoOp op) {
  switch (op) {
    case shm::AmoOp::Fetch: return ofi::AtomicOp::Read;
    case shm::AmoOp::Set: return ofi::AtomicOp::Write;
    case shm::AmoOp::Swap: return ofi::AtomicOp::Swap;
    case shm::AmoOp::CompareSwap: return ofi::AtomicOp::CompareSwap;
    case shm::AmoOp::Add: return ofi::AtomicOp::Sum;
    case shm::AmoOp::And: return ofi::AtomicOp::And;
    case shm::AmoOp::Or: return ofi::AtomicOp::Or;
    case shm::AmoOp::Xor: return ofi::AtomicOp::Xor;
    case shm::AmoOp::Min: return ofi::AtomicOp::Min;
    case shm::AmoOp::Max: return ofi::AtomicOp::Max;
  }
  __builtin_unreachable();
}

double now_ns() { return static_cast<double>(monotonic_ns()); }

// A get of small blocks that lie close together on a PE across nodes reads the span they
// cover in one network operation, into a buffer here, and copies the blocks out of it:
// there a network operation costs as much as moving kilobytes, so a get moves at most
// kSpanGap unwanted bytes per block to save an operation per block (two PEs on 2 virtual
// nodes getting 2048 one-byte elements 2 bytes apart from each other with shmem_char_iget:
// 6.5 us an element one by one, 0.01 through the span).  Blocks of up to kSpanBlock bytes;
// spans read kSpanChunk bytes at a time.  Where the network gathers small blocks instead
// (get_strided()), a span more than kSpanWide times the bytes wanted is left to it
// (2 PEs on 2 virtual nodes, shmem_char_iget of 2048 bytes: 32 bytes apart, 0.012-0.014 us
// an element through the span against 0.014-0.019 gathered; 64 apart, even; 128 apart,
// 0.023-0.039 against 0.015-0.019; 1 KiB apart, 0.19-0.30 against 0.019-0.027).
constexpr size_t kSpanBlock = 1024, kSpanGap = 1024, kSpanWide = 32, kSpanChunk = size_t{256} << 10;

bool reads_span(size_t elem, ptrdiff_t stride, size_t block, size_t blocks) {
  const size_t block_bytes = block * elem;
  return blocks > 1 && block_bytes <= kSpanBlock && static_cast<size_t>(stride) * elem <= block_bytes + kSpanGap;
}

}  // namespace

// TANDEM_DEFER_THRESHOLD=auto.  Holding a copy saves the network operations posted after it
// in its epoch the time the copy takes, and costs a queue entry (hold_ns_, measured at init)
// and a source that is read again later, further from the core (not measured).  A copy is
// held when it takes at least kHoldCostRatio queue entries' time: from copy bandwidth x
// hold_ns_ x kHoldCostRatio bytes, clamped to [kAutoMin, kAutoMax].  The ratio puts the
// threshold at 5-7 KiB on these machines, where the fixed 8 KiB default was measured to pay
// off.  The copy bandwidth is measured at init and then follows the held copies of
// kAutoSample bytes or more (a moving average), so the threshold moves with the job's copies
// (cache-cold buffers, other PEs' traffic).
constexpr double kHoldCostRatio = 8;
constexpr size_t kAutoMin = size_t{1} << 10;
constexpr size_t kAutoMax = size_t{1} << 20;
constexpr size_t kAutoSample = size_t{64} << 10;

size_t Scheduler::measure_auto_threshold() {
  // Copy bandwidth: an 8 MiB copy between fresh buffers (more than the caches keep, as a held
  // copy's source often is by the time it runs), best of 2 after a first that faults the
  // pages in.
  const size_t bytes = size_t{8} << 20;
  std::vector<char> from(bytes, 1), to(bytes, 0);
  double best = 1e300;
  for (int i = 0; i < 3; ++i) {
    const double t0 = now_ns();
    shm::copy(to.data(), from.data(), bytes);
    const double t = now_ns() - t0;
    if (i > 0) best = std::min(best, t);
  }
  copy_bytes_per_ns_ = static_cast<double>(bytes) / std::max(best, 1.0);
  // Holding: a push and a drain of empty Ops, per Op, once the queue has its memory.
  OpQueue probe;
  const int ops = 256;
  double t0 = 0;
  for (int round = 0; round < 2; ++round) {
    t0 = now_ns();
    for (int i = 0; i < ops; ++i) probe.push(Op{});
    probe.drain([](const Op&) {});
  }
  hold_ns_ = (now_ns() - t0) / ops;
  adapt(0, 0);
  return defer_threshold_.load(std::memory_order_relaxed);
}

void Scheduler::adapt(size_t bytes, double ns) {
  if (bytes >= kAutoSample && ns > 0)
    copy_bytes_per_ns_ = 0.875 * copy_bytes_per_ns_ + 0.125 * (static_cast<double>(bytes) / ns);
  const double threshold = copy_bytes_per_ns_ * hold_ns_ * kHoldCostRatio;
  defer_threshold_.store(std::clamp(static_cast<size_t>(threshold), kAutoMin, kAutoMax), std::memory_order_relaxed);
}

std::string Scheduler::describe_threshold() const {
  char line[200];
  const size_t t = defer_threshold();
  if (auto_)
    snprintf(line, sizeof line, "auto, now %zu bytes (copies at %.1f GB/s, holding one costs %.0f ns), held only "
             "while the network is in use", t, copy_bytes_per_ns_, hold_ns_);
  else if (t == ~size_t{0})
    snprintf(line, sizeof line, "off");
  else
    snprintf(line, sizeof line, "%zu bytes", t);
  return line;
}

void Scheduler::submit(const char* call, const Op& op) {
  if (op.remote.mapped) {
    if (network_) look_now_and_then();  // a program may spin on node-local copies too
    return copy(op);
  }
  note_network();
  const Target& t = op.remote;
  if (op.kind == Op::Kind::Put) {
    network_->put(call, t.pe, t.segment, t.offset, op.local, op.bytes);
    if (op.bytes > network_->inject_size()) network_->wait_writes(call);  // source reusable
  } else {
    network_->get_now(call, t.pe, t.segment, t.offset, op.local, op.bytes);
  }
}

// The held queue's bounds.  Holding a copy pays off only while network operations are in
// flight to overlap with it, or may still come before the next quiet (this epoch or the
// last one used the network).  Past kHoldSoftLimit bytes the queue is run on the next nbi
// call site that finds neither (nothing to overlap with, and the quiet it would otherwise
// lengthen); past kHoldHardLimit it is run whatever the network does, so that held
// descriptors and a quiet's work stay bounded.
constexpr uint64_t kHoldSoftLimit = uint64_t{16} << 20;
constexpr uint64_t kHoldHardLimit = uint64_t{64} << 20;

void Scheduler::hold(const char* call, const Op& op, const Op* behind) {
  deferred_.push(op);
  if (behind) deferred_.push(*behind);
  held_bytes_.fetch_add(op.bytes, std::memory_order_relaxed);
  deferred_ops_.fetch_add(1, std::memory_order_relaxed);
  deferred_bytes_.fetch_add(op.bytes, std::memory_order_relaxed);
  if (proxy_copies_) {
    network_->wake_if_sleeping();
    network_->nbi_posted();
  }
  const uint64_t held = held_bytes_.load(std::memory_order_relaxed);
  if (held >= kHoldHardLimit ||
      (held >= kHoldSoftLimit && !(network_ && (network_in_use() || network_->in_flight())))) {
    early_drains_.fetch_add(1, std::memory_order_relaxed);
    drain(call);
  }
}

void Scheduler::update_signal(const char* call, const Target& signal, uint64_t value, bool add) {
  if (signal.mapped && (!network_ || network_->cpu_signals())) {
    // Signals from other nodes are applied by this node's CPUs too: a CPU atomic is atomic
    // with respect to them.
    if (network_) look_now_and_then();  // a program may spin on signal updates
    shm::amo(add ? shm::AmoOp::Add : shm::AmoOp::Set, reinterpret_cast<uint64_t*>(signal.mapped), value);
    return;
  }
  if (!signal.mapped) {
    note_network();
    return network_->put_signal_nbi(call, signal.pe, signal.segment, signal.offset, nullptr, 0, signal.segment,
                                    signal.offset, value, add);
  }
  atomic<uint64_t>(call, signal, add ? shm::AmoOp::Add : shm::AmoOp::Set, value, 0, false);
}

void Scheduler::drain(const char* call) {
  if (deferred_.empty()) return;
  // Asking the network costs a look at its counters (system calls with tcp): only for stats.
  const bool overlapping = stats_ && network_ && network_->in_flight();
  uint64_t bytes = 0;
  deferred_.drain([&](const Op& op) {
    if (op.kind == Op::Kind::Signal) {
      shm::order_stores();  // the data before it is visible first
      update_signal(call, op.remote, op.signal, op.signal_add);
    } else if (op.kind == Op::Kind::Notify) {
      notifications_.publish(call, op.remote.pe, static_cast<int>(op.signal));  // releases the copy before it
    } else {
      copy_held(op);
      bytes += op.bytes;
    }
  });
  held_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  if (overlapping) overlapped_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

// A held copy longer than this runs in pieces while network writes are in flight, with a
// push of the network between them: a manual-progress provider (tcp) sends queued data
// only when called, so a long copy would leave the link idle once the socket's buffer is
// drained.  About 25 us of copying per piece at 10 GB/s, against 2-5 us per push.
constexpr size_t kCopyPiece = size_t{256} << 10;

void Scheduler::copy_held(const Op& op) {
  const double t0 = auto_ && op.bytes >= kAutoSample ? now_ns() : 0;
  copy_pieces(op);
  if (t0 > 0) adapt(op.bytes, now_ns() - t0);
}

void Scheduler::copy_pieces(const Op& op) {
  if (thread_pushes_ || !network_ || op.bytes <= kCopyPiece || !network_->maybe_in_flight()) return copy(op);
  for (size_t done = 0; done < op.bytes; done += kCopyPiece) {
    Op piece = op;
    piece.remote.mapped += done;
    piece.local = static_cast<char*>(op.local) + done;
    piece.bytes = op.bytes - done < kCopyPiece ? op.bytes - done : kCopyPiece;
    copy(piece);
    if (network_->maybe_in_flight()) network_->push();
  }
}

// Writes this large or larger go to the progress thread with TANDEM_PROXY_WRITES: posting
// one costs the poster about 8 us per 64 KiB with tcp (the provider hands the data to the
// kernel there and then), against well under a microsecond to queue it.
constexpr size_t kProxyWriteMin = size_t{64} << 10;

void Scheduler::submit_nbi(const char* call, const Op& op) {
  if (holds(op)) return hold(call, op);
  if (op.remote.mapped) {
    if (network_) look_now_and_then();  // a program may spin on node-local copies too
    return copy(op);
  }
  note_network();
  const Target& t = op.remote;
  if (op.kind == Op::Kind::Put && proxy_writes_ && op.bytes >= kProxyWriteMin) {
    writes_.push(op);
    network_->wake_if_sleeping();
    network_->nbi_posted();
    return;
  }
  if (op.kind == Op::Kind::Put) post_write(call, op);
  else network_->get(call, t.pe, t.segment, t.offset, op.local, op.bytes);
  network_->nbi_posted();
}

void Scheduler::put_signal(const char* call, const Op& data, const Target& signal, uint64_t value, bool add,
                           bool nbi) {
  if (nbi && holds(data)) {
    Op update{Op::Kind::Signal, signal, nullptr, 0};
    update.signal = value;
    update.signal_add = add;
    return hold(call, data, &update);
  }
  // Off the node, an nbi one goes at once; so does a blocking one whose signal rides on its
  // data's write, which then waits only until its source is free.
  if (!data.remote.mapped && (nbi || network_->signal_rides_write(signal.segment, signal.offset, value))) {
    note_network();
    const Target& t = data.remote;
    network_->put_signal_nbi(call, t.pe, t.segment, t.offset, data.local, data.bytes, signal.segment, signal.offset,
                             value, add);
    if (!nbi && data.bytes > network_->inject_size()) network_->wait_writes(call);
    if (nbi) network_->nbi_posted();
    return;
  }
  submit(call, data);
  if (!data.remote.mapped) complete_puts(call);
  update_signal(call, signal, value, add);
}

void Scheduler::notified(const char* call, const Op& data, int tag, bool nbi) {
  const Target& t = data.remote;
  if (t.mapped) {
    if (nbi && holds(data)) {
      Op notification{Op::Kind::Notify, t, nullptr, 0};
      notification.signal = static_cast<uint64_t>(tag);
      return hold(call, data, &notification);
    }
    copy(data);
    // publish() releases the copy's stores (memcpy fences its own streaming stores).
    return notifications_.publish(call, t.pe, tag);
  }
  const uint64_t notification = notifications_.data(tag);
  if (data.kind == Op::Kind::Get && !nbi) {
    submit(call, data);  // the data is here: the owner may reuse it
    return network_->notify(call, t.pe, notification);
  }
  note_network();
  if (data.kind == Op::Kind::Put) {
    network_->put_notify(call, t.pe, t.segment, t.offset, data.local, data.bytes, notification);
    if (!nbi && data.bytes > network_->inject_size()) network_->wait_writes(call);  // source reusable
  } else {
    network_->get_notify_nbi(call, t.pe, t.segment, t.offset, data.local, data.bytes, notification);
  }
  if (nbi) network_->nbi_posted();
}

void Scheduler::complete_puts(const char* call) {
  drain_writes(call);
  if (network_) network_->order_writes(call);
  shm::order_stores();
}

void Scheduler::quiet(const char* call) {
  // Network operations were posted on their call sites (or are being posted by the progress
  // thread); the held copies run while they travel, then the writes the progress thread has
  // not posted yet are posted, and the completions are polled last.
  drain(call);
  drain_writes(call);
  if (network_) network_->quiet(call);
  end_epoch();
  shm::order_stores();
}

void Scheduler::fence(const char* call) {
  drain(call);
  drain_writes(call);
  end_epoch();
  if (network_) network_->order_writes(call);
  shm::order_stores();
}

Scheduler::Stats Scheduler::stats() const {
  return Stats{deferred_ops_.load(), deferred_bytes_.load(), overlapped_bytes_.load(), early_drains_.load()};
}

void Scheduler::network_atomic(const char* call, const Target& remote, shm::AmoOp op, ofi::AtomicType type,
                               const void* operand, const void* compare, void* result) {
  note_network();
  network_->atomic(call, remote.pe, remote.segment, remote.offset, network_op(op),
                   type, op == shm::AmoOp::Fetch ? nullptr : operand,
                   op == shm::AmoOp::CompareSwap ? compare : nullptr, result);
}

bool Scheduler::submit_strided(const char* call, Op::Kind kind, const Target& remote, char* local,
                               ptrdiff_t remote_stride, ptrdiff_t local_stride, size_t elem, size_t block,
                               size_t blocks) {
  const bool put = kind == Op::Kind::Put;
  if (remote.mapped) {
    if (network_) look_now_and_then();
    if (put) shm::copy_strided(remote.mapped, remote_stride, local, local_stride, elem, block, blocks);
    else shm::copy_strided(local, local_stride, remote.mapped, remote_stride, elem, block, blocks);
    return false;
  }
  const size_t remote_bytes = static_cast<size_t>(remote_stride) * elem, local_bytes = static_cast<size_t>(local_stride) * elem;
  if (remote_stride == static_cast<ptrdiff_t>(block) && local_stride == static_cast<ptrdiff_t>(block)) {
    submit_nbi(call, Op{kind, remote, local, blocks * block * elem});  // no gaps at either end
    return true;
  }
  const bool span = !put && reads_span(elem, remote_stride, block, blocks);
  if (!put && (!span || static_cast<size_t>(remote_stride) > kSpanWide * block) &&
      get_strided(call, remote, local, local_bytes, remote_bytes, block * elem, blocks))
    return false;
  if (span) {
    get_span(call, remote, local, local_stride, remote_stride, elem, block, blocks);
    return false;
  }
  if (put && put_strided(call, remote, local, local_bytes, remote_bytes, block * elem, blocks)) return true;
  for (size_t i = 0; i < blocks; ++i) {
    Target t = remote;
    t.offset += i * remote_bytes;
    submit_nbi(call, Op{kind, t, local + i * local_bytes, block * elem});
  }
  return true;
}

// The span read: blocks of `block` elements of size `elem`, `sst` apart at `from` (a PE
// across nodes), `dst` apart at `dest`.
void Scheduler::get_span(const char* call, const Target& from, char* dest, ptrdiff_t dst, ptrdiff_t sst, size_t elem,
                         size_t block, size_t blocks) {
  // A thread's buffer, kept for its next span read; but a nonblocking collective's fiber
  // (an alltoalls) may be resumed by another thread after the read, and the thread that
  // began it may read a span of its own meanwhile: a fiber's buffer is the read's own.
  thread_local std::vector<char> kept;
  std::vector<char> own;
  std::vector<char>& buffer = Fiber::current() ? own : kept;
  const size_t stride_bytes = static_cast<size_t>(sst) * elem, block_bytes = block * elem;
  const size_t per_chunk = (kSpanChunk - block_bytes) / stride_bytes + 1;  // >= 1: block_bytes <= kSpanBlock
  for (size_t i = 0; i < blocks;) {
    const size_t n = std::min(per_chunk, blocks - i);
    const size_t span = (n - 1) * stride_bytes + block_bytes;
    if (buffer.size() < span) buffer.resize(span);
    Target t = from;
    t.offset += i * stride_bytes;
    submit(call, Op{Op::Kind::Get, t, buffer.data(), span});
    shm::copy_strided(dest + static_cast<ptrdiff_t>(i) * dst * static_cast<ptrdiff_t>(elem), dst, buffer.data(), sst,
                      elem, block, n);
    i += n;
  }
}

bool Scheduler::put_strided(const char* call, const Target& remote, const void* source, size_t source_stride,
                            size_t stride, size_t block, size_t blocks) {
  if (!network_ || !network_->put_strided(call, remote.pe, remote.segment, remote.offset, stride, source,
                                          source_stride, block, blocks))
    return false;
  note_network();
  return true;
}

bool Scheduler::get_strided(const char* call, const Target& remote, void* dest, size_t dest_stride, size_t stride,
                            size_t block, size_t blocks) {
  if (!network_ || !network_->get_strided(call, remote.pe, remote.segment, remote.offset, stride, dest, dest_stride,
                                          block, blocks))
    return false;
  note_network();
  return true;
}

void Scheduler::network_atomic_array(const char* call, const Target& remote, shm::AmoOp op, ofi::AtomicType type,
                                     const void* operands, size_t count) {
  note_network();
  network_->atomic_array(call, remote.pe, remote.segment, remote.offset, network_op(op), type, operands, count);
}

}  // namespace tandem
