#include "signals.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tandem::oshrun {
namespace {

constexpr int kTerminating[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kForwardedOnly[] = {SIGUSR1, SIGUSR2};

}  // namespace

bool SignalRouter::is_terminating(int sig) {
  for (int s : kTerminating)
    if (s == sig) return true;
  return false;
}

bool SignalRouter::is_forwarded_only(int sig) {
  for (int s : kForwardedOnly)
    if (s == sig) return true;
  return false;
}

bool SignalRouter::install(ChildState& child) {
  sigprocmask(SIG_SETMASK, nullptr, &child.mask);

  sigset_t routed;
  sigemptyset(&routed);
  sigaddset(&routed, SIGCHLD);
  std::vector<int> candidates(std::begin(kTerminating), std::end(kTerminating));
  candidates.insert(candidates.end(), std::begin(kForwardedOnly), std::end(kForwardedOnly));
  for (int sig : candidates) {
    struct sigaction old;
    sigaction(sig, nullptr, &old);
    if (old.sa_handler != SIG_IGN) sigaddset(&routed, sig);
  }

  // Remember what the PEs must get back, then change it for oshrun.
  for (int sig : {SIGCHLD, SIGPIPE}) {
    struct sigaction old;
    sigaction(sig, nullptr, &old);
    child.signals.push_back(sig);
    child.actions.push_back(old);
  }
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  sigemptyset(&action.sa_mask);
  action.sa_handler = SIG_DFL;  // an inherited SIG_IGN would make the kernel reap the PEs
  sigaction(SIGCHLD, &action, nullptr);
  action.sa_handler = SIG_IGN;  // a closed stdout or PE 0 stdin shows up as EPIPE instead
  sigaction(SIGPIPE, &action, nullptr);

  if (sigprocmask(SIG_BLOCK, &routed, nullptr) != 0) return false;
  int fd = signalfd(-1, &routed, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd < 0) {
    std::fprintf(stderr, "oshrun: signalfd: %s\n", std::strerror(errno));
    return false;
  }
  fd_.reset(fd);
  return true;
}

std::vector<int> SignalRouter::take() {
  std::vector<int> signals;
  signalfd_siginfo info[16];
  for (;;) {
    ssize_t n = ::read(fd_.get(), info, sizeof info);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n) / sizeof info[0]; ++i)
      signals.push_back(static_cast<int>(info[i].ssi_signo));
  }
  return signals;
}

}  // namespace tandem::oshrun
