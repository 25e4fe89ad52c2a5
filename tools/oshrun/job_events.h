// Requests that reach oshrun on PMIx's progress thread and must be acted on by the main
// thread (which owns the PEs): a mutex-protected queue plus a self-pipe that wakes poll().
#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "fd_util.h"

namespace tandem::oshrun {

struct AbortRequest {
  int rank = -1;
  int status = 1;
  std::string message;
};

class JobEvents {
 public:
  // False if the self-pipe cannot be made.
  bool open();

  // Safe from any thread, including inside a PMIx callback: takes a lock, writes one byte.
  void post_abort(AbortRequest request);

  // The descriptor the main loop polls for readability.
  int wakeup_fd() const { return wakeup_.read_end.get(); }
  // Main thread: empties the pipe and returns the requests queued so far, oldest first.
  std::vector<AbortRequest> take();

 private:
  Pipe wakeup_;
  std::mutex mutex_;
  std::vector<AbortRequest> aborts_;
};

}  // namespace tandem::oshrun
