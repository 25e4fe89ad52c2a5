#include "job_events.h"

#include <unistd.h>

#include <cerrno>

namespace tandem::oshrun {

bool JobEvents::open() {
  if (!make_pipe(wakeup_)) return false;
  // Neither end may block: a full pipe already guarantees a wakeup.
  return set_nonblocking(wakeup_.read_end.get()) && set_nonblocking(wakeup_.write_end.get());
}

void JobEvents::post_abort(AbortRequest request) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    aborts_.push_back(std::move(request));
  }
  char byte = 1;
  while (::write(wakeup_.write_end.get(), &byte, 1) < 0 && errno == EINTR) {
  }
}

std::vector<AbortRequest> JobEvents::take() {
  char sink[256];
  while (::read(wakeup_.read_end.get(), sink, sizeof sink) > 0) {
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(aborts_, {});
}

}  // namespace tandem::oshrun
