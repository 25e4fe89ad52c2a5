#include "stdin_forwarder.h"

#include <unistd.h>

#include <cerrno>

namespace tandem::oshrun {
namespace {
constexpr std::size_t kReadChunk = 64 * 1024;
}

bool StdinForwarder::open() {
  if (!make_pipe(pipe_) || !set_nonblocking(pipe_.write_end.get())) return false;
  if (!fd_is_open(STDIN_FILENO)) source_ = -1;
  return true;
}

pollfd StdinForwarder::poll_request() const {
  if (!pipe_.write_end.valid()) return pollfd{-1, 0, 0};
  if (!buffer_.empty()) return pollfd{pipe_.write_end.get(), POLLOUT, 0};
  if (source_ >= 0) return pollfd{source_, POLLIN, 0};
  return pollfd{-1, 0, 0};
}

void StdinForwarder::on_ready(short revents) {
  if (revents == 0) return;
  if (!buffer_.empty()) {
    write_sink();
  } else {
    read_source();
  }
}

void StdinForwarder::read_source() {
  char chunk[kReadChunk];
  ssize_t n;
  do {
    n = ::read(source_, chunk, sizeof chunk);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (n <= 0) {
    // End of input (or an unreadable stdin): PE 0 sees end of file.
    source_ = -1;
    pipe_.write_end.reset();
    return;
  }
  buffer_.assign(chunk, static_cast<std::size_t>(n));
  write_sink();
}

void StdinForwarder::write_sink() {
  ssize_t n;
  do {
    n = ::write(pipe_.write_end.get(), buffer_.data(), buffer_.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (n < 0) {  // PE 0 closed its stdin: nothing more to deliver
    stop();
    return;
  }
  buffer_.erase(0, static_cast<std::size_t>(n));
  if (buffer_.empty() && source_ < 0) pipe_.write_end.reset();
}

void StdinForwarder::stop() {
  pipe_.write_end.reset();
  buffer_.clear();
  source_ = -1;
}

}  // namespace tandem::oshrun
