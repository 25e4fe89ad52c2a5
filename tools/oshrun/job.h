// The job from first fork to last reaped PE: launching, the event loop (signals, PMIx
// abort requests, output, stdin, deadlines), and tearing everything down when one PE
// fails, the user interrupts, or --timeout expires.
#pragma once

#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>

#include "environment.h"
#include "job_events.h"
#include "options.h"
#include "pe_set.h"
#include "pmix_host.h"
#include "signals.h"
#include "stdin_forwarder.h"

namespace tandem::oshrun {

class Job {
 public:
  Job(const Options& options, PmixHost& pmix, JobEvents& events, SignalRouter& signals,
      const ChildState& child_state);

  // Starts the PEs and supervises them to the end.  Returns oshrun's exit status: 0, or
  // the status of the first failure (a PE's exit status or 128+signal, the status given
  // to abort, 124 for --timeout, 127 when the program cannot be executed, 128+signal when
  // oshrun itself was signalled).
  int run();

 private:
  using Clock = std::chrono::steady_clock;

  void launch_all();
  bool launch_one(int rank, const ProgramImage& program,
                  const EnvironmentList& environment);
  // Reads PE `pe`'s exec report; on a failed exec, reports it and tears the job down.
  bool confirm_exec(PeProcess& pe);
  void supervise();
  int poll_timeout_ms(Clock::time_point now) const;
  bool finished(Clock::time_point now) const;

  void on_signals();
  void on_aborts();
  void reap();
  void on_pe_exit(PeProcess& pe, int wait_status);
  void on_deadlines(Clock::time_point now);

  // Remembers `status` as the job's exit status unless a failure came first.
  void fail(int status);
  // Sends `sig` to every PE and arms the SIGKILL that follows the grace period.
  void begin_teardown(int sig);
  void kill_now();
  void say(const std::string& line);

  const Options& options_;
  PmixHost& pmix_;
  JobEvents& events_;
  SignalRouter& signals_;
  const ChildState& child_state_;
  OutputSink stdout_sink_{STDOUT_FILENO};
  OutputSink own_stderr_sink_{STDERR_FILENO};
  // stdout's sink when both go to the same file, so that line starts are tracked once.
  OutputSink& stderr_sink_;
  PeSet pes_;
  StdinForwarder stdin_;

  std::optional<int> exit_status_;
  bool exec_failure_reported_ = false;
  bool tearing_down_ = false;
  bool killed_ = false;
  bool finishing_ = false;
  std::optional<Clock::time_point> job_deadline_;
  std::optional<Clock::time_point> kill_deadline_;
  std::optional<Clock::time_point> give_up_deadline_;
  std::optional<Clock::time_point> drain_deadline_;
};

}  // namespace tandem::oshrun
