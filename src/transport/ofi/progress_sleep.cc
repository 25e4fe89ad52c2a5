#include "transport/ofi/progress_sleep.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace tandem::ofi {

void ProgressSleep::open(const char* call, const std::string& own_name, bool doorbell, bool answers,
                         bool watch_sockets, int wait_fd) {
  if (doorbell) {
    const uint16_t port = doorbell_.open(own_name);
    doorbell_port_ = answers ? port : 0;
  }
  watch_sockets_ = watch_sockets;
  wait_fd_ = wait_fd;
  if (pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) != 0) fatal(call, "cannot create a pipe: %s", strerror(errno));
}

void ProgressSleep::connect(size_t pes, const std::string& own_name) {
  doorbell_.reset(pes);
  if (!watch_sockets_) return;
  watch_.start(own_name);
  reached_.reset(new std::atomic<bool>[pes]());
}

void ProgressSleep::add_peer(int pe, const std::string& name, uint16_t doorbell_port) {
  doorbell_.add_peer(pe, name, doorbell_port);
  if (watch_sockets_) watch_.add_peer(name);
}

void ProgressSleep::close() {
  doorbell_.close();
  doorbell_port_ = 0;
  for (int& fd : wake_pipe_)
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  wait_fd_ = -1;
  fds_.clear();  // the descriptors above and the provider's sockets are gone
  watch_.stop();
  watch_sockets_ = false;
  reached_.reset();
  watched_ = 0;
}

void ProgressSleep::wake() {
  const char byte = 1;
  ssize_t ignored = ::write(wake_pipe_[1], &byte, 1);
  (void)ignored;
}

bool ProgressSleep::pause_while_driving() {
  const bool long_pause = driving_pause_us_ > kDrivingPauseMaxUs;
  if (long_pause) pausing_long_.store(true);
  const timespec pause{driving_pause_us_ / 1000000, driving_pause_us_ % 1000000 * 1000L};
  pollfd woken[2] = {{wake_pipe_[0], POLLIN, 0}, {doorbell_.fd(), POLLIN, 0}};
  const int ready = ppoll(woken, 2, &pause, nullptr);
  if (long_pause) pausing_long_.store(false);
  last_pause_us_ = driving_pause_us_;
  if (ready > 0 && (woken[1].revents & POLLIN)) {
    take_ring();
    return true;
  }
  if (ready > 0 && (woken[0].revents & POLLIN)) {
    drain_wake_pipe();
    shorten_pause();
    return false;
  }
  // Past kDrivingPauseMaxUs only once the PE has driven for kLongPausesAfter such pauses in
  // a row: a PE that waits briefly between computations (a few barriers, then work) keeps
  // the short pauses, whose timed looks serve it sooner than a peer's ring does.
  long most = kDrivingPauseMaxUs;
  if (driving_pause_us_ >= kDrivingPauseMaxUs && doorbell_port_ && ++pauses_at_most_ > kLongPausesAfter)
    most = kDrivingPauseLongUs;
  driving_pause_us_ = driving_pause_us_ * 2 > most ? most : driving_pause_us_ * 2;
  return false;
}

bool ProgressSleep::rest(long timeout_us) {
  const timespec pause{timeout_us / 1000000, timeout_us % 1000000 * 1000L};
  pollfd woken[2] = {{wake_pipe_[0], POLLIN, 0}, {doorbell_.fd(), POLLIN, 0}};
  const int ready = ppoll(woken, 2, &pause, nullptr);
  if (ready > 0 && (woken[0].revents & POLLIN)) drain_wake_pipe();
  if (ready > 0 && (woken[1].revents & POLLIN)) {
    take_ring();
    return true;
  }
  return false;
}

bool ProgressSleep::rest_while_present(const PeActivity& pe, int64_t window_ns) {
  if (rung_since_presence(pe)) return false;
  const int64_t left_ns = pe.last_ns() + window_ns - monotonic_ns();
  if (left_ns <= 0) return false;
  rests_.fetch_add(1, std::memory_order_relaxed);
  if (!rest(left_ns / 1000 + 1)) return true;
  rung_at_presence_ = pe.last_ns();
  return false;
}

int ProgressSleep::prepare_watch(int timeout_us) {
  // Connections made since the last sleep: those to PEs this one reached for the first time
  // at once, those of PEs that reached this one once a sleep of at most kWatchRescanUs has
  // ended (the provider accepts them in its own time, see socket_watch.h).
  constexpr int kWatchRescanUs = 10000;
  if (timeout_us > kWatchRescanUs) timeout_us = kWatchRescanUs;
  const uint64_t reached = reached_count_.load(std::memory_order_relaxed);
  if (reached != reached_seen_ || rescan_due_ || fds_.empty()) {
    reached_seen_ = reached;
    rescan_due_ = false;
    if (watch_.rescan() || fds_.empty()) set_fds();
  }
  return timeout_us;
}

bool ProgressSleep::sleep(int timeout_us, bool (*busy)()) {
  if (busy) {
    sleeping_.store(true);
    if (busy()) {
      sleeping_.store(false);
      return false;
    }
  }
  if (fds_.empty()) set_fds();
  const timespec timeout{timeout_us / 1000000, (timeout_us % 1000000) * 1000L};
  const int ready = ppoll(fds_.data(), fds_.size(), &timeout, nullptr);
  const bool woken = ready > 0 && (fds_[1].revents & POLLIN);
  const bool rung = ready > 0 && (fds_[2].revents & POLLIN);
  if (woken) drain_wake_pipe();
  if (rung) take_ring();
  if (ready == 0) rescan_due_ = true;
  if (ready > (woken ? 1 : 0) + (rung ? 1 : 0)) traffic_wakes_.fetch_add(1, std::memory_order_relaxed);
  for (size_t i = kFirstSocket; ready > 0 && i < fds_.size(); ++i)
    if (fds_[i].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) {
      watch_.drop(fds_[i].fd);
      rescan_due_ = true;
    }
  sleeping_.store(false);
  shorten_pause();
  last_pause_us_ = 0;
  return true;
}

void ProgressSleep::set_fds() {
  fds_.assign({{wait_fd_, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}, {doorbell_.fd(), POLLIN, 0}});
  for (int fd : watch_.sockets()) fds_.push_back({fd, POLLIN | POLLRDHUP, 0});
  watched_.store(watch_.sockets().size(), std::memory_order_relaxed);
}

void ProgressSleep::drain_wake_pipe() {
  char drained[16];
  ssize_t ignored = read(wake_pipe_[0], drained, sizeof drained);
  (void)ignored;
}

void ProgressSleep::take_ring() {
  doorbell_.drain();
  doorbell_rings_.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace tandem::ofi
