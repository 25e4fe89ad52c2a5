// Job: starting the PEs one after the other, each registered with PMIx before its fork.

#include <fcntl.h>
#include <signal.h>

#include <cerrno>
#include <cstring>

#include "job.h"

namespace tandem::oshrun {

Job::Job(const Options& options, PmixHost& pmix, JobEvents& events, SignalRouter& signals,
         const ChildState& child_state)
    : options_(options),
      pmix_(pmix),
      events_(events),
      signals_(signals),
      child_state_(child_state),
      stderr_sink_(same_file(STDOUT_FILENO, STDERR_FILENO) ? stdout_sink_ : own_stderr_sink_),
      pes_(stdout_sink_, stderr_sink_, options.tag_output) {}

void Job::say(const std::string& line) { stderr_sink_.write(line + "\n"); }

void Job::launch_all() {
  ProgramImage program(options_.command);
  if (program.error() != 0) {
    say("oshrun: cannot execute " + program.name() + ": " + std::strerror(program.error()));
    fail(127);
    return;
  }
  if (!stdin_.open()) {
    say(std::string("oshrun: cannot create the pipe for PE 0's stdin: ") + std::strerror(errno));
    fail(1);
    return;
  }
  const EnvironmentList environment = build_pe_environment(options_, pmix_.tmpdir());
  if (options_.verbose) {
    say("oshrun: job " + pmix_.nspace() + ", " + std::to_string(options_.num_pes) +
        " PEs, PMIx server directory " + pmix_.tmpdir());
  }
  for (int rank = 0; rank < options_.num_pes; ++rank) {
    if (!launch_one(rank, program, environment)) break;
    if (rank == 0) stdin_.close_child_end();
    // A PE that already failed, or a Ctrl-C, stops the launch early.
    on_aborts();
    on_signals();
    reap();
    if (tearing_down_) break;
  }
  // The PEs exec'd in parallel with the forks; now make sure they all did.
  for (auto& pe : pes_.all())
    if (!confirm_exec(pe)) break;
  if (pes_.all().empty() || !pes_.all().front().running) stdin_.stop();
}

bool Job::launch_one(int rank, const ProgramImage& program, const EnvironmentList& environment) {
  CEnvironment env(environment);
  if (!env.valid()) {
    say("oshrun: out of memory while preparing PE " + std::to_string(rank));
    fail(1);
    begin_teardown(SIGTERM);
    return false;
  }
  if (!pmix_.prepare_client(rank, env.address())) {
    fail(1);
    begin_teardown(SIGTERM);
    return false;
  }
  int stdin_fd = stdin_.child_end();
  UniqueFd dev_null;
  if (rank != 0) {
    dev_null.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    stdin_fd = dev_null.get();
  }
  LaunchedPe launched;
  if (!launch_pe(rank, program, env.get(), stdin_fd, child_state_, launched)) {
    fail(1);
    begin_teardown(SIGTERM);
    return false;
  }
  if (options_.verbose)
    say("oshrun: PE " + std::to_string(rank) + " is pid " + std::to_string(launched.pid));
  pes_.add(rank, std::move(launched));
  return true;
}

bool Job::confirm_exec(PeProcess& pe) {
  int error = read_exec_report(pe.exec_report);
  if (error == 0) return true;
  // Every PE runs the same program: one report says it all.
  if (!exec_failure_reported_) {
    say("oshrun: cannot execute " + options_.command.front() + ": " + std::strerror(error));
    exec_failure_reported_ = true;
  }
  fail(127);
  begin_teardown(SIGTERM);
  return false;
}

}  // namespace tandem::oshrun
