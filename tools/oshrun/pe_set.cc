#include "pe_set.h"

#include <signal.h>
#include <sys/wait.h>

namespace tandem::oshrun {

PeExit describe_wait_status(int wait_status) {
  PeExit result;
  if (WIFEXITED(wait_status)) {
    result.status = WEXITSTATUS(wait_status);
    result.success = result.status == 0;
    result.description = "exited with status " + std::to_string(result.status);
  } else if (WIFSIGNALED(wait_status)) {
    int sig = WTERMSIG(wait_status);
    result.status = 128 + sig;
    result.description = "was killed by signal " + std::to_string(sig);
  } else {
    result.status = 1;
    result.description = "ended in an unknown way (wait status " + std::to_string(wait_status) + ")";
  }
  return result;
}

void PeSet::add(int rank, LaunchedPe launched) {
  PeProcess pe;
  pe.rank = rank;
  pe.pid = launched.pid;
  pe.running = true;
  pe.exec_report = std::move(launched.exec_report);
  pe.out = std::make_unique<OutputStream>(rank, StreamKind::kStdout,
                                          std::move(launched.stdout_fd), out_, tag_);
  pe.err = std::make_unique<OutputStream>(rank, StreamKind::kStderr,
                                          std::move(launched.stderr_fd), err_, tag_);
  index_by_pid_[pe.pid] = pes_.size();
  pes_.push_back(std::move(pe));
  ++running_;
}

PeProcess* PeSet::find(pid_t pid) {
  auto it = index_by_pid_.find(pid);
  return it == index_by_pid_.end() ? nullptr : &pes_[it->second];
}

void PeSet::mark_exited(PeProcess& pe) {
  if (!pe.running) return;
  pe.running = false;
  --running_;
}

std::vector<pid_t> PeSet::pids() const {
  std::vector<pid_t> result;
  for (const auto& pe : pes_) result.push_back(pe.pid);
  return result;
}

// A PE's process group keeps its number while any member lives, so signalling the group
// of a PE already reaped reaches exactly what it left behind (or nothing: ESRCH).
void PeSet::signal_all(int sig) const {
  for (const auto& pe : pes_) {
    if (::kill(-pe.pid, sig) != 0 && pe.running) ::kill(pe.pid, sig);
  }
}

bool PeSet::output_closed() const {
  for (const auto& pe : pes_)
    if (pe.out->open() || pe.err->open()) return false;
  return true;
}

void PeSet::close_output() {
  for (auto& pe : pes_) {
    pe.out->close();
    pe.err->close();
  }
}

}  // namespace tandem::oshrun
