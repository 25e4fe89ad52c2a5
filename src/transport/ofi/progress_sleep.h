// How the inter-node engine's progress thread waits (Engine::wait_for_activity, which
// decides when it serves): what it sleeps on and the state of its pauses.
//
// While its PE waits in the library (it drives progress itself), the thread keeps off the
// provider and pauses, watching only its wake pipe and its doorbell (doorbell.h), for a
// time that doubles while the PE keeps driving.  Otherwise it sleeps on what brings
// traffic: the completion queue's wait object, or where the provider talks through sockets
// its connections (socket_watch.h; the queue's wait object would cost every message a
// signal), plus the wake pipe and the doorbell; without either it sleeps kPollSleepUs.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <poll.h>

#include "transport/ofi/doorbell.h"
#include "transport/ofi/pe_activity.h"
#include "transport/ofi/socket_watch.h"

namespace tandem::ofi {

class ProgressSleep {
 public:
  // The shortest pause, and the longest sleep without anything to sleep on.
  static constexpr int kPollSleepUs = 50;

  // Opens the wake pipe, and the doorbell on the address of the endpoint named `own_name`
  // where `doorbell` (the provider talks through sockets); peers learn its port only where
  // a thread `answers` it.  The thread sleeps on `wait_fd` (-1: none), or on the provider's
  // sockets where `watch_sockets`.
  void open(const char* call, const std::string& own_name, bool doorbell, bool answers, bool watch_sockets,
            int wait_fd);
  // The port this PE gives its peers (0: none).
  uint16_t doorbell_port() const { return doorbell_port_; }
  // Starts the socket watch of the endpoint named `own_name`, for a job of `pes` PEs.
  void connect(size_t pes, const std::string& own_name);
  // A peer that this PE reaches or hears from, with the endpoint name and doorbell port its
  // card gave: from any thread, once per peer.
  void add_peer(int pe, const std::string& name, uint16_t doorbell_port);
  void close();

  // Peers' doorbells: whether this PE can ring them, and a ring.
  bool rings() const { return doorbell_.fd() >= 0; }
  // True where it rang (this PE knows `pe`'s doorbell).
  bool ring(int pe) {
    if (!doorbell_.ring(pe)) return false;
    rings_sent_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  int wait_fd() const { return wait_fd_; }
  bool watching() const { return watch_.on(); }
  // This PE posts to `pe`: the first time, the thread looks for the new connection before
  // its next sleep.
  void note_reached(int pe) {
    if (reached_ && !reached_[pe].load(std::memory_order_relaxed)) {
      reached_[pe].store(true, std::memory_order_relaxed);
      reached_count_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  // Ends the thread's sleep or pause (from any thread).
  void wake();
  // Ends its sleep where it sleeps in sleep() with `busy` (after work was added; see sleeping_).
  void wake_if_sleeping() {
    if (sleeping_.load() && sleeping_.exchange(false)) wake();
  }

  // The pause while the PE drives: true when a ring of the doorbell ended it (taken); else
  // the next pause is twice as long, up to kDrivingPauseMaxUs, or, once the PE has driven
  // through kLongPausesAfter of those, kDrivingPauseLongUs where peers ring this PE's
  // doorbell (they ring it when an operation aimed here goes unserved, so a PE that left its
  // wait is served all the same).  A pause that wake_from_long_pause() ends starts the
  // doubling again from the shortest.
  bool pause_while_driving();
  // A rest of the progress thread while requests are in flight (Engine::rest_while_present)
  // and its PE may come back: until `window_ns` after the PE was last in the library, on the
  // wake pipe and the doorbell alone.  True when it rested; false, without resting, once the
  // window has passed or where a ring ended a rest since the PE was last in the library
  // (rung_since_presence()), and false when a ring ends this one.
  bool rest_while_present(const PeActivity& pe, int64_t window_ns);
  // Whether a ring ended a rest since the PE was last in the library: the thread then serves
  // until the PE is back.
  bool rung_since_presence(const PeActivity& pe) const { return pe.last_ns() == rung_at_presence_; }
  // The PE posted an nbi operation and may go off to compute with it in flight: a pause
  // longer than kDrivingPauseMaxUs ends, so that the operation waits no longer than it would
  // without the long pauses.
  void wake_from_long_pause() {
    if (pausing_long_.load(std::memory_order_relaxed) && pausing_long_.exchange(false)) wake();
  }
  // The length of the thread's last pause, if it paused since it last slept (else 0).
  int64_t last_pause_ns() const { return last_pause_us_ * 1000; }
  // The next pause is the shortest (after a ring, a wake, a sleep).
  void shorten_pause() {
    driving_pause_us_ = kPollSleepUs;
    pauses_at_most_ = 0;
  }
  // The thread's last turn found the PE driving (or inside the provider): its next wait
  // pauses instead of sleeping on traffic, which the PE's own would end at once.
  void note_pe_drove() { pe_drove_ = true; }
  bool take_pe_drove() { return std::exchange(pe_drove_, false); }

  // The sleep on the socket watch lasts at most kWatchRescanUs, and the watch looks for new
  // connections first where some are due: `timeout_us`, capped.
  int prepare_watch(int timeout_us);
  // Sleeps up to `timeout_us` on what brings traffic; false without sleeping where `busy`
  // (given) says there is work.
  bool sleep(int timeout_us, bool (*busy)());

  // TANDEM_STATS.
  size_t watched() const { return watched_.load(std::memory_order_relaxed); }
  uint64_t traffic_wakes() const { return traffic_wakes_.load(std::memory_order_relaxed); }
  uint64_t doorbell_rings() const { return doorbell_rings_.load(std::memory_order_relaxed); }
  uint64_t rings_sent() const { return rings_sent_.load(std::memory_order_relaxed); }
  uint64_t rests() const { return rests_.load(std::memory_order_relaxed); }

 private:
  static constexpr int kDrivingPauseMaxUs = 400;
  // Each wake of a thread that shares its PE's core takes 10-20 us of that core on these
  // machines (two switches and the thread's turn): one every 400 us cost a PE that waits in
  // the library 5-20% of a small get or collective across nodes (perf/README.md, "What the
  // progress thread costs").
  static constexpr int kDrivingPauseLongUs = 3200;
  static constexpr int kLongPausesAfter = 25;  // pauses of kDrivingPauseMaxUs: 10 ms of driving
  // What sleep() waits on: the wait object (or -1, which poll() skips), the wake pipe, the
  // doorbell (or -1), then the sockets from kFirstSocket on; set_fds() builds it.
  static constexpr size_t kFirstSocket = 3;
  void set_fds();
  // A ring woke the thread: empties the doorbell and counts the ring.
  void take_ring();
  // wake() ended a sleep or pause: empties the wake pipe.
  void drain_wake_pipe();
  // Up to `timeout_us` on the wake pipe and the doorbell alone; true when a ring ended it
  // (taken).
  bool rest(long timeout_us);

  int wait_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  Doorbell doorbell_;
  uint16_t doorbell_port_ = 0;
  bool watch_sockets_ = false;
  SocketWatch watch_;
  // The PEs this PE has posted to; reached_count_ moves when one is reached the first time.
  std::unique_ptr<std::atomic<bool>[]> reached_;
  std::atomic<uint64_t> reached_count_{0};
  uint64_t reached_seen_ = 0;
  bool rescan_due_ = false;  // a sleep timed out or a connection hung up: look again
  std::vector<pollfd> fds_;
  // Set before the thread asks busy() for the last time, read after work was added (a write
  // counted as issued, say; both sequentially consistent), so new work never goes unnoticed
  // by a thread about to sleep.
  std::atomic<bool> sleeping_{false};
  long driving_pause_us_ = kPollSleepUs;
  int pauses_at_most_ = 0;  // pauses of kDrivingPauseMaxUs in a row
  long last_pause_us_ = 0;
  std::atomic<bool> pausing_long_{false};  // in a pause longer than kDrivingPauseMaxUs
  bool pe_drove_ = false;
  int64_t rung_at_presence_ = -1;  // the PE's presence when a ring last ended a rest
  std::atomic<size_t> watched_{0};           // sockets in fds_
  std::atomic<uint64_t> traffic_wakes_{0};   // sleeps that traffic ended
  std::atomic<uint64_t> doorbell_rings_{0};  // rings the thread answered
  std::atomic<uint64_t> rings_sent_{0};      // rings of peers' doorbells (ring())
  std::atomic<uint64_t> rests_{0};           // rests taken (rest_while_present())
};

}  // namespace tandem::ofi
