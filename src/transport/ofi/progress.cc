// Progress and completion for the inter-node engine: driving the provider (progress(), the
// progress thread's wait_for_activity()), and the waits that quiet, fence and the blocking
// calls rest on (counted writes and reads, software atomics' answers, pending signals, the
// writes that quiet confirms).
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "core/backoff.h"
#include "core/error.h"
#include "transport/ofi/engine.h"
#include "transport/ofi/post.h"

namespace tandem::ofi {

bool Engine::pe_driving() { return pe_.driving(sleep_.last_pause_ns()); }

ssize_t Engine::read_cq(fi_cq_data_entry* entries, ServedRequests* served) {
  const ssize_t n = fi_cq_read(cq_, entries, kCqBatch);
  ssize_t kept = 0;
  for (ssize_t i = 0; i < n; ++i) {
    fi_cq_data_entry& e = entries[i];
    e.op_context = local_.complete(e.op_context, e.flags & FI_REMOTE_CQ_DATA);
    if (apply_signal(e)) continue;
    if (Incoming* slot = entry_of(inbox_.data(), inbox_.size(), e.op_context);
        slot && !admit(*slot, e.len)) {
      slot->head.kind = Message::Refused;  // deliver() posts the buffer again, outside the lock
      entries[kept++] = e;
      continue;
    }
    apply_request(e.op_context, served);
    entries[kept++] = e;
  }
  // The provider copied what arrived, written answers and requests among it, inside
  // fi_cq_read.
  if (answer_slots_.any_busy() || rings_.awaiting_acks()) collect_answers();
  if (rings_.any_scanned()) {
    rings_.scan(ring_entries(), std::size(served->at) - served->n,
                [&](int origin, const RequestRings::Entry& entry) { serve_entry(origin, entry, served); });
  }
  return n < 0 ? n : kept;
}

void Engine::progress() {
  pe_.count_turn();
  fi_cq_data_entry entries[kCqBatch];
  ServedRequests served;
  ssize_t n;
  {
    std::lock_guard<SpinLock> lock(mutex_);
    n = read_cq(entries, &served);
  }
  handle_completions(entries, n, served);
}

void Engine::look() {
  flush("progress");
  pe_.count_look();
  read_cq_unless_busy();
}

bool Engine::read_cq_unless_busy() {
  // A thread that holds the lock is inside the provider, which progresses the endpoint for
  // everyone: this read may pass.  The caller looks again on its next call.
  std::unique_lock<SpinLock> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  fi_cq_data_entry entries[kCqBatch];
  ServedRequests served;
  const ssize_t n = read_cq(entries, &served);
  lock.unlock();
  handle_completions(entries, n, served);
  return true;
}

std::optional<uint64_t> Engine::load_landed(const uint64_t* word) {
  // The provider copies what arrives only inside calls made under the lock.
  std::unique_lock<SpinLock> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return std::nullopt;
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

void Engine::handle_completions(fi_cq_data_entry* entries, ssize_t n, const ServedRequests& served) {
  if (n == -FI_EAVAIL) report_error("progress");
  for (size_t i = 0; i < served.n; ++i) {
    const Served& s = served.at[i];
    if (s.cookie == 0) {
      // One Ack per ring: the last one served.
      bool later = false;
      for (size_t j = i + 1; j < served.n && !later; ++j) later = served.at[j].origin == s.origin;
      if (!later) send_ack(s.origin);
      continue;
    }
    if (s.read) {
      answer_read(s);
      continue;
    }
    Message answer{};
    answer.kind = Message::Answer;
    answer.operand = s.value;
    answer.cookie = AnswerSlots::expand(s.cookie);
    send_answer(answer, s.origin);
  }
  bool own = false;  // an operation of this PE's completed (the network timeout's measure)
  // Notifications arrive as remote CQ data.  Counted writes and reads, receives (software
  // atomic requests and answers), batches' writes, put_signal_nbi's data writes and
  // get_notify_nbi's reads complete into the CQ.
  for (ssize_t i = 0; i < n; ++i) {
    void* context = entries[i].op_context;
    // This PE's own operations first: a write that carried a notification completes with
    // FI_REMOTE_CQ_DATA set too with some providers (sockets).
    if (context == &counted_write_) {
      count_write();
    } else if (context == &counted_read_) {
      count_read();
    } else if (context == &counted_atomic_) {
      count_write();
      count_atomic();
    } else if (OperandSlots::Slot* slot = entry_of(operands_.slots(), OperandSlots::kSlots, context)) {
      count_write();
      count_atomic();
      slot->busy.store(false, std::memory_order_release);  // counted first, then free
    } else if (Batch* batch = held_.batch_of(context)) {
      count_write();
      batch->in_flight.store(false, std::memory_order_release);  // counted first, then free
    } else if (!context && !(entries[i].flags & FI_REMOTE_CQ_DATA)) {
      // An operation posted without FI_COMPLETION that the provider reports all the same
      // (net does for writes): nothing of Tandem's waits for it.
      continue;
    } else if (gather_answered(context)) {
      continue;  // a gather's answer left: its buffer takes the next
    } else if (!run_sent(context)) {
      if (entries[i].flags & FI_REMOTE_CQ_DATA) {
        if (!answer_confirmation(entries[i].data)) notification_handler_(entries[i].data);
        continue;
      }
      if (!signal_data_landed(context) && !deliver(static_cast<Incoming*>(context))) continue;
    }
    own = true;
  }
  if (own && timeout_.timing()) timeout_.completed();
  if (n > 0 && signals_pending_.load(std::memory_order_relaxed) > 0) post_ready_signals();
}

void Engine::wait_for_activity(int timeout_us, bool (*busy)(), bool requests) {
  // Sleep (progress_sleep.h) on the CQ's file descriptor (once fi_trywait says nothing is
  // pending) or on the provider's sockets, without holding the lock; then progress.
  // Without either, sleep kPollSleepUs between progress calls: incoming operations wait at
  // most that long, and the thread still leaves the core mostly idle.
  //
  // While the PE drives progress itself (it waits in the library), the thread keeps off the
  // lock and pauses: a turn of its own would only make the PE wait, and each look costs the
  // PE's core a switch.  A PE inside the provider (the lock taken) drives too: the thread
  // never waits for the lock, which would spin on a core that the PEs need.  A peer that
  // rings the doorbell meanwhile has waited kNudgeNs for an operation that nobody served:
  // unless the PE took a turn within kDrivingNowNs (it still drives, and the operation is
  // merely long, a large transfer say), it has gone from its wait to computing, and the
  // thread serves at once; the turns it took before are then behind the thread's next
  // question, which sees the PE computing and sleeps on traffic (the operation that rang
  // often needs a second service: a quiet's, after its put).  Either way it looks again
  // after the shortest pause: a PE still in its wait (a barrier that its peer left first)
  // may leave it for computing just after, and the peer rings once.
  //
  // With `requests` in flight (transport.h) the PE counts as driving while it took a turn
  // or a look (note_present() counts as one) within kRequestsDrivingNs, however long the
  // thread paused: a PE that posted a collective and went off to compute finds its part
  // done once the pause ends, where a thread that slept on traffic as soon as the PE left a
  // turn woke for traffic the PE's wait, a few microseconds later, took itself (perf/nbc,
  // fcollect of 8 B-64 KiB on 2 virtual nodes, Full 1.3-7x the blocking routine's).
  constexpr int64_t kDrivingNowNs = 10000, kRequestsDrivingNs = 200000;
  const bool rung = requests && sleep_.rung_since_presence(pe_);
  if (!rung && (requests ? pe_.since_last_ns() < kRequestsDrivingNs : pe_driving() || sleep_.take_pe_drove())) {
    if (sleep_.pause_while_driving()) {
      if (pe_.since_last_ns() >= kDrivingNowNs && read_cq_unless_busy()) (void)pe_driving();
      sleep_.shorten_pause();
    }
    return;
  }
  // A batch of puts that its PE left open while it computes goes out once no put has joined
  // it for a look: the sleep then lasts at most kOpenBatchLookUs.
  constexpr int kOpenBatchLookUs = 1000;
  flush_if_idle();
  if (held_.holding() && timeout_us > kOpenBatchLookUs) timeout_us = kOpenBatchLookUs;
  // The PE inside the provider (posting a stream of operations, say) drives as a wait does:
  // the pause goes on doubling.
  if (!read_cq_unless_busy()) {
    sleep_.note_pe_drove();
    return;
  }
  // What that read landed (a peer's stamp, written without a completion) may be what a
  // request waits for: the requests move on before the thread sleeps, where they would wait
  // for the next traffic or the sleep's end (up to a millisecond).
  if (requests && run_background) (void)run_background();
  if (sleep_.wait_fd() >= 0) {
    std::unique_lock<SpinLock> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
      sleep_.note_pe_drove();
      return;
    }
    fid* fids[1] = {&cq_->fid};
    if (fi_trywait(fabric_, fids, 1) != FI_SUCCESS) return;
  } else if (sleep_.watching()) {
    timeout_us = sleep_.prepare_watch(timeout_us);
  } else if (timeout_us > ProgressSleep::kPollSleepUs) {
    timeout_us = ProgressSleep::kPollSleepUs;
  }
  if (!sleep_.sleep(timeout_us, busy)) return;
  // Woken by traffic that the PE, if it drives meanwhile, takes itself: the thread then
  // pauses as above instead of sleeping on the wait object again, which the PE's traffic
  // would end at once.
  if ((!requests && pe_driving()) || !read_cq_unless_busy()) sleep_.note_pe_drove();
}

namespace {
// What an error of a completion most likely means, for the message that ends the job.
const char* likely_cause(int err) {
  switch (err) {
    case ENOTCONN: case ECONNRESET: case ECONNABORTED: case EPIPE: case ECONNREFUSED:
      return "the connection was lost: the peer ended or its node went down, or the connection was reset on the way";
    case EHOSTUNREACH: case ENETUNREACH: case ENETDOWN: case EHOSTDOWN:
      return "the peer's node cannot be reached: a link or route between the nodes is down";
    case ETIMEDOUT:
      return "the provider gave up waiting for the peer: a link is down or the peer's node is gone";
    default:
      return nullptr;
  }
}
}  // namespace

void Engine::report_error(const char* call) {
  fi_cq_err_entry error{};
  if (fi_cq_readerr(cq_, &error, 0) == 1) {
    error.op_context = local_.complete(error.op_context);
    const char* what = error.op_context == &counted_write_  ? "a write or atomic"
                       : error.op_context == &counted_read_ ? "a read or fetching atomic"
                                                            : "an operation";
    // Completions do not say which PE an operation went to; the PEs that operations went to
    // since this PE last had nothing outstanding are where it went (net_timeout.h).
    std::string peers;
    int count = 0;
    timeout_.for_each_candidate([&](int p) { peers += (count++ ? ", " : "") + std::to_string(p); });
    const std::string to = count == 0 ? "" : count == 1 ? " to PE " + peers : " to one of PEs " + peers;
    const char* detail = fi_cq_strerror(cq_, error.prov_errno, error.err_data, nullptr, 0);
    // An operation cancelled (tcp's, when its connection fails) says why in the provider's
    // error, which is an errno where the provider's text for it is the system's.
    const char* cause = likely_cause(error.err);
    if (!cause && error.prov_errno > 0 && std::strcmp(detail, std::strerror(error.prov_errno)) == 0)
      cause = likely_cause(error.prov_errno);
    fatal(call, "libfabric: %s%s failed: %s (%s)%s%s", what, to.c_str(), fi_strerror(error.err), detail,
          cause ? "; " : "", cause ? cause : "");
  }
  fatal(call, "libfabric: an operation failed");
}

void Engine::wait_count(const char* call, const std::atomic<uint64_t>& issued, const std::atomic<uint64_t>& done) {
  // Until everything issued so far has completed, others' operations too: completions are
  // counted in the order they come, so a count that reached the issued count as it was on
  // entry may include a later operation's completion and not this thread's own.
  auto caught_up = [&] { return done.load(std::memory_order_acquire) >= issued.load(std::memory_order_acquire); };
  if (caught_up()) return;
  if (Fiber* fiber = Fiber::current()) {
    // A nonblocking collective's quiet (coll/nbc.h): the completions come from the network,
    // and the PE goes on with its own work until they have; whoever resumes the fiber
    // drives the progress meanwhile (a wait's pause, a test, the progress thread).
    NetTimeout::Wait stall;
    progress();
    while (!caught_up()) {
      watch(call, stall, -1);
      fiber->yield(true);
    }
    return;
  }
  progress_until(call, caught_up);
}

bool Engine::in_flight() {
  progress();
  const bool any = writes_done_.load(std::memory_order_acquire) < writes_issued_.load(std::memory_order_acquire) ||
                   reads_done_.load(std::memory_order_acquire) < reads_issued_.load(std::memory_order_acquire) ||
                   software_answered_.load(std::memory_order_acquire) < software_sent_.load(std::memory_order_acquire);
  if (!any && signals_pending_.load() == 0) timeout_.idle();
  return any;
}

void Engine::wait_reads(const char* call) {
  flush(call);
  wait_count(call, reads_issued_, reads_done_);
}

void Engine::wait_writes(const char* call) {
  flush(call);
  wait_count(call, writes_issued_, writes_done_);
}

void Engine::order_writes(const char* call) {
  flush(call);
  wait_signals(call);
  progress();  // at least one turn, as in quiet()
  // With Order All nothing can pass the writes.  With Rma the writes after the fence stay
  // behind those before it, but atomics and messages can pass them: unless an atomic, a
  // software request or a signal that the target applies is still out (those must land
  // first), the fence is left pending, and the first atomic or message after it settles it
  // (settle_fence()).  A put, a fence and a flag's put cost no round trip.
  if (order_ == Order::Rma && atomics_done_.load(std::memory_order_acquire) >= atomics_issued_.load() &&
      software_answered_.load(std::memory_order_acquire) >= software_sent_.load() && !ledger_.signals_out()) {
    fence_pending_.store(true, std::memory_order_release);
    return;
  }
  complete_fence(call);
}

void Engine::complete_fence(const char* call) {
  fence_pending_.store(false, std::memory_order_relaxed);
  if (order_ == Order::Rma) confirm_writes(call);
  if (order_ != Order::All) wait_writes(call);
  wait_software(call);
}

void Engine::confirm_writes(const char* call) {
  // Empty writes: a read would do as well, but with tcp a read right behind a write takes
  // twice a read's round trip, where a delivery-complete write takes one.
  std::vector<int> writes, signals;
  ledger_.take(writes, signals);
  for (int pe : writes) write_message(call, pe, 0, 0, nullptr, 0, nullptr, nullptr, Completion::Landed);
  confirm_signals(call, signals);
}

void Engine::quiet(const char* call) {
  fence_pending_.store(false, std::memory_order_relaxed);  // what follows completes everything
  held_.quieted();
  if (!maybe_in_flight() && !ledger_.any_open()) {
    // Nothing of this PE's to complete or confirm (its puts went to node peers, say): no
    // turn of progress, which with tcp is a system call, but the look now and then that
    // other calls on local memory get, so that a program that polls memory with quiet in
    // a loop still lets the operations aimed at this PE land.  PEs whose one write has
    // landed turn clean, as below.
    if (order_ != Order::None) confirm_writes(call);
    look_now_and_then();
    timeout_.idle();
    return;
  }
  flush(call);
  wait_signals(call);  // every signal posted: the waits below then cover them
  // At least one turn of progress: a program may poll memory with quiet in a loop and rely
  // on it for the operations that target this PE.
  progress();
  if (order_ != Order::None) confirm_writes(call);
  wait_writes(call);
  wait_reads(call);
  wait_software(call);
  timeout_.idle();
}

}  // namespace tandem::ofi
