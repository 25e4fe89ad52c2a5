// Starting one PE: fork, put it in its own process group, tie its life to oshrun's,
// wire its standard streams, restore the signal state oshrun started with, exec.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "fd_util.h"

namespace tandem::oshrun {

// The program to exec, resolved once for all PEs.
class ProgramImage {
 public:
  // Searches $PATH (when `name` has no '/') the way a shell would.  On failure, error()
  // is the errno to report.
  explicit ProgramImage(std::vector<std::string> command);

  const std::string& name() const { return command_.front(); }
  int error() const { return error_; }
  const char* path() const { return path_.c_str(); }
  char* const* argv() const { return argv_.data(); }
  // argv for running the file as a shell script when it has no "#!" line (ENOEXEC).
  char* const* script_argv() const { return script_argv_.data(); }

 private:
  std::vector<std::string> command_;
  std::string path_;
  std::string shell_ = "/bin/sh";
  int error_ = 0;
  std::vector<char*> argv_;
  std::vector<char*> script_argv_;
};

// The process state a PE gets back from what oshrun changed for itself: its blocked
// signals and signal dispositions (an ignored SIGPIPE must not be inherited by accident)
// and its open-files limit.
struct ChildState {
  sigset_t mask;                          // the mask oshrun started with
  std::vector<int> signals;               // signals whose disposition to restore
  std::vector<struct sigaction> actions;  // ...to these (as found at oshrun's start)
  bool restore_nofile = false;
  struct rlimit nofile;                   // RLIMIT_NOFILE as found at oshrun's start
};

struct LaunchedPe {
  pid_t pid = -1;
  UniqueFd stdout_fd;  // read ends, non-blocking
  UniqueFd stderr_fd;
  UniqueFd exec_report;  // see read_exec_report()
};

// Forks PE `rank` and returns without waiting for its exec, so that the PEs exec while
// oshrun forks the next ones.  `stdin_fd` becomes the PE's standard input (oshrun keeps
// its own copy open).  False (with a message printed) when no process could be started.
bool launch_pe(int rank, const ProgramImage& program, char** envp, int stdin_fd,
               const ChildState& child_state, LaunchedPe& out);

// Waits until the PE has exec'd or failed to; returns 0 or the errno of the failed exec
// (the PE then exits with status 127).  Closes `report`; 0 once it is closed.
int read_exec_report(UniqueFd& report);

}  // namespace tandem::oshrun
