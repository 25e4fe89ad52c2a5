// The running job's PEs: their process ids, their output streams, and the means to
// signal each PE together with whatever it started (its process group).
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "output_forwarder.h"
#include "pe_launch.h"

namespace tandem::oshrun {

struct PeProcess {
  int rank = -1;
  pid_t pid = -1;
  bool running = false;
  std::unique_ptr<OutputStream> out;
  std::unique_ptr<OutputStream> err;
  UniqueFd exec_report;  // open until the PE's exec has been confirmed
};

// What waitpid() said about a PE, in oshrun's terms.
struct PeExit {
  bool success = false;  // exited with status 0
  int status = 0;        // exit status, or 128+signal
  std::string description;  // "exited with status 3", "was killed by signal 9"
};

PeExit describe_wait_status(int wait_status);

class PeSet {
 public:
  PeSet(OutputSink& out, OutputSink& err, bool tag) : out_(out), err_(err), tag_(tag) {}

  void add(int rank, LaunchedPe launched);
  // The PE with process id `pid`, or nullptr (a reaped orphan, say: oshrun is a
  // subreaper for everything the PEs start).
  PeProcess* find(pid_t pid);
  void mark_exited(PeProcess& pe);

  int running() const { return running_; }
  std::vector<pid_t> pids() const;
  std::vector<PeProcess>& all() { return pes_; }

  // Sends `sig` to every PE's process group (reaching the PEs' own children too).
  void signal_all(int sig) const;

  // True when no output stream is still open.
  bool output_closed() const;
  // Stops reading every stream, forwarding what is buffered.
  void close_output();

 private:
  OutputSink& out_;
  OutputSink& err_;
  bool tag_;
  std::vector<PeProcess> pes_;
  std::unordered_map<pid_t, std::size_t> index_by_pid_;
  int running_ = 0;
};

}  // namespace tandem::oshrun
