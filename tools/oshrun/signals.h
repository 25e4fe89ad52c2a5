// oshrun's signals arrive as data on a signalfd read by the main loop, so nothing runs in
// signal-handler context.  install() must run before any thread exists (PMIx starts its
// progress thread in PMIx_server_init), so every thread inherits the blocked mask.
#pragma once

#include <vector>

#include "fd_util.h"
#include "pe_launch.h"

namespace tandem::oshrun {

class SignalRouter {
 public:
  // Records in `child` the signal state PEs must start with: what oshrun started with.
  bool install(ChildState& child);

  int fd() const { return fd_.get(); }
  // Signals received since the last call (SIGCHLD included), oldest first.
  std::vector<int> take();

  // Signals that end the job: forwarded to every PE, then the job is torn down.
  // A signal that was ignored when oshrun started (nohup, a background job of a
  // non-interactive shell) stays ignored.
  static bool is_terminating(int sig);
  // Signals passed on to the PEs without ending the job.
  static bool is_forwarded_only(int sig);

 private:
  UniqueFd fd_;
};

}  // namespace tandem::oshrun
