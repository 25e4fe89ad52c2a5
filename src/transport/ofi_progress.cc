// Progress and completion for the inter-node engine: driving the provider (progress(), the
// progress thread's wait_for_activity()), and the waits that quiet, fence and the blocking
// calls rest on (counted writes and reads, software atomics' answers, pending signals).
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include <poll.h>
#include <unistd.h>

#include <vector>

#include "core/backoff.h"
#include "core/error.h"
#include "transport/ofi.h"
#include "transport/ofi_post.h"

namespace tandem::ofi {

namespace {
thread_local bool helper_thread = false;  // the progress thread, not a PE's own
}  // namespace

void Transport::mark_helper_thread() { helper_thread = true; }

void Transport::count_pe_turn() {
  // A plain relaxed store, no read-modify-write: the progress thread only asks whether the
  // count moved, and two PE threads that race here still move it.
  if (!helper_thread) pe_turns_.store(pe_turns_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void Transport::progress() {
  count_pe_turn();
  fi_cq_data_entry entries[kCqBatch];
  ssize_t n;
  {
    std::lock_guard<SpinLock> lock(mutex_);
    n = fi_cq_read(cq_, entries, kCqBatch);
  }
  handle_completions(entries, n);
}

void Transport::look() {
  flush("progress");
  count_pe_turn();
  read_cq_unless_busy();
}

void Transport::read_cq_unless_busy() {
  // A thread that holds the lock is inside the provider, which progresses the endpoint for
  // everyone: this read may pass.  The caller looks again on its next call.
  std::unique_lock<SpinLock> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  fi_cq_data_entry entries[kCqBatch];
  const ssize_t n = fi_cq_read(cq_, entries, kCqBatch);
  lock.unlock();
  handle_completions(entries, n);
}

void Transport::nap(int timeout_us) {
  pollfd wake{wake_pipe_[0], POLLIN, 0};
  const timespec timeout{timeout_us / 1000000, (timeout_us % 1000000) * 1000L};
  if (ppoll(&wake, 1, &timeout, nullptr) > 0) {
    char drained[16];
    ssize_t ignored = read(wake_pipe_[0], drained, sizeof drained);
    (void)ignored;
  }
}

void Transport::assist() {
  flush_if_idle();
  read_cq_unless_busy();
}

void Transport::handle_completions(fi_cq_data_entry* entries, ssize_t n) {
  if (n == -FI_EAVAIL) report_error("progress", "an operation");
  bool own = false;  // an operation of this PE's completed (the network timeout's measure)
  // Notifications arrive as remote CQ data.  Receives (software atomic requests and
  // answers), batches' writes, put_signal_nbi's data writes and get_notify_nbi's reads
  // complete into the CQ.
  for (ssize_t i = 0; i < n; ++i) {
    if (entries[i].flags & FI_REMOTE_CQ_DATA) {
      notification_handler_(entries[i].data);
      continue;
    }
    void* context = entries[i].op_context;
    if (batch_completed(context) || run_sent(context) || signal_data_landed(context)) own = true;
    else if (deliver(static_cast<Incoming*>(context))) own = true;
  }
  if (own && timeout_ns_ > 0) note_completion();
  if (n > 0 && signals_pending_.load(std::memory_order_relaxed) > 0) post_ready_signals();
}

void Transport::wait_for_activity(int timeout_us, bool (*busy)()) {
  // Sleep in poll() on the CQ's file descriptor without holding the lock, once fi_trywait
  // says nothing is pending; then progress under the lock.  Without a wait object, sleep
  // kPollSleepUs between progress calls: incoming operations wait at most that long, and
  // the thread still leaves the core mostly idle.
  constexpr int kPollSleepUs = 50;
  // While the PE drives progress itself (it waits in the library), the thread keeps off the
  // lock and looks again every kPollSleepUs: a turn of its own would only make the PE wait.
  if (pe_driving()) {
    const timespec pause{0, kPollSleepUs * 1000L};
    pollfd wake{wake_pipe_[0], POLLIN, 0};
    ppoll(&wake, 1, &pause, nullptr);
    return;
  }
  progress();
  bool may_sleep = true;
  if (wait_fd_ >= 0) {
    std::lock_guard<SpinLock> lock(mutex_);
    fid* fids[1] = {&cq_->fid};
    may_sleep = fi_trywait(fabric_, fids, 1) == FI_SUCCESS;
  } else if (timeout_us > kPollSleepUs) {
    timeout_us = kPollSleepUs;
  }
  if (!may_sleep) return;
  if (busy) {
    sleeping_.store(true);
    if (busy()) {
      sleeping_.store(false);
      return;
    }
  }
  // Without a wait object the first entry is ignored (poll skips negative descriptors).
  pollfd fds[2] = {{wait_fd_, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
  const timespec timeout{timeout_us / 1000000, (timeout_us % 1000000) * 1000L};
  if (ppoll(fds, 2, &timeout, nullptr) > 0 && (fds[1].revents & POLLIN)) {
    char drained[16];
    ssize_t ignored = read(wake_pipe_[0], drained, sizeof drained);
    (void)ignored;
  }
  sleeping_.store(false);
  if (!pe_driving()) progress();
}

void Transport::wake() {
  const char byte = 1;
  ssize_t ignored = ::write(wake_pipe_[1], &byte, 1);
  (void)ignored;
}

void Transport::report_error(const char* call, const char* what) {
  fi_cq_err_entry error{};
  if (fi_cq_readerr(cq_, &error, 0) == 1)
    fatal(call, "libfabric: %s failed: %s (%s)", what, fi_strerror(error.err),
          fi_cq_strerror(cq_, error.prov_errno, error.err_data, nullptr, 0));
  fatal(call, "libfabric: %s failed", what);
}

bool Transport::catch_up(fid_cntr* counter, const std::atomic<uint64_t>& issued,
                         std::atomic<uint64_t>& done_seen) {
  // Nothing issued since the counter last caught up: done, without reading the counter
  // (each read is a turn of the provider's progress: system calls with tcp).  `done_seen`
  // never exceeds the counter, so this never declares an operation complete too early.
  if (done_seen.load(std::memory_order_acquire) >= issued.load(std::memory_order_acquire)) return false;
  uint64_t done;
  {
    std::lock_guard<SpinLock> lock(mutex_);
    done = fi_cntr_read(counter);
  }
  if (timeout_ns_ > 0 && done > done_seen.load(std::memory_order_relaxed)) note_completion();
  done_seen.store(done, std::memory_order_release);
  // Every operation issued so far, others' too: a counter cannot tell whose completed.
  return done < issued.load(std::memory_order_acquire);
}

void Transport::wait_counter(const char* call, fid_cntr* counter, const std::atomic<uint64_t>* issued,
                             std::atomic<uint64_t>* done_seen, uint64_t* errors_seen) {
  // A counter read is all the counter needs to move.  The rest costs turns too, so it runs
  // every few turns: the error count (a failed operation never completes; the wait ends
  // with its error a few turns later), and progress(), which serves what arrived in the CQ
  // (other PEs' requests, notifications).
  Backoff backoff = Backoff::without_progress();
  StallWatch stall;
  for (unsigned turn = 0; catch_up(counter, *issued, *done_seen); ++turn) {
    count_pe_turn();
    watch(call, stall);
    if (turn % kErrorCheckTurns == 0) {
      uint64_t errors;
      {
        std::lock_guard<SpinLock> lock(mutex_);
        errors = fi_cntr_readerr(counter);
      }
      if (errors > *errors_seen) {
        *errors_seen = errors;
        report_error(call, counter == write_counter_ ? "a write or atomic" : "a read or fetching atomic");
      }
    }
    if (turn % kErrorCheckTurns == kErrorCheckTurns / 2) progress();
    backoff.pause();
  }
}

bool Transport::in_flight() {
  const bool writes = catch_up(write_counter_, writes_issued_, writes_done_seen_);
  const bool reads = catch_up(read_counter_, reads_issued_, reads_done_seen_);
  const bool any = writes || reads ||
                   software_answered_.load(std::memory_order_acquire) < software_sent_.load(std::memory_order_acquire);
  if (!any && signals_pending_.load() == 0) note_idle();
  return any;
}

void Transport::wait_reads(const char* call) {
  flush(call);
  wait_counter(call, read_counter_, &reads_issued_, &reads_done_seen_, &read_errors_seen_);
}

void Transport::wait_writes(const char* call) {
  flush(call);
  wait_counter(call, write_counter_, &writes_issued_, &writes_done_seen_, &write_errors_seen_);
}

void Transport::order_writes(const char* call) {
  flush(call);
  wait_signals(call);
  progress();  // at least one turn, as in quiet()
  // With Order All nothing can pass the writes; with Rma atomics and messages can, so the
  // writes must land first.
  if (order_ == Order::Rma) confirm_writes(call);
  if (order_ != Order::All) wait_writes(call);
  wait_software(call);
}

void Transport::confirm_writes(const char* call) {
  // Empty writes: a read would do as well, but with tcp a read right behind a write takes
  // twice a read's round trip, where a delivery-complete write takes one.
  for (int pe : take_unconfirmed()) write_message(call, pe, 0, 0, nullptr, 0, nullptr, nullptr, Completion::Landed);
}

void Transport::quiet(const char* call) {
  flush(call);
  wait_signals(call);  // every signal posted: the waits below then cover them
  // At least one turn of progress, also when nothing is outstanding: a program may poll
  // memory with quiet in a loop and rely on it for the operations that target this PE.
  progress();
  if (order_ != Order::None) confirm_writes(call);
  wait_writes(call);
  wait_reads(call);
  wait_software(call);
  note_idle();
}

}  // namespace tandem::ofi
