// The program's signal dispositions, kept across a stretch of libfabric calls: libraries it
// loads (the PSM ones) and providers that open endpoints (shm, which would remove its files
// on SIGINT, SIGTERM, SIGSEGV and SIGBUS and re-raise) install handlers of their own, and
// shmem_init must leave the program's handlers, or the defaults, in force.
#pragma once

#include <signal.h>

namespace tandem::ofi {

class KeptSignalHandlers {
 public:
  KeptSignalHandlers() {
    for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, nullptr, &kept_[sig]);
  }
  ~KeptSignalHandlers() {
    for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, &kept_[sig], nullptr);
  }
  KeptSignalHandlers(const KeptSignalHandlers&) = delete;
  KeptSignalHandlers& operator=(const KeptSignalHandlers&) = delete;

 private:
  struct sigaction kept_[NSIG];
};

}  // namespace tandem::ofi
