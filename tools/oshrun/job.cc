// Job: the event loop and the teardown policy.

#include "job.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <climits>
#include <vector>

#include "shm_cleanup.h"

namespace tandem::oshrun {
namespace {

using namespace std::chrono_literals;

// SIGTERM first, SIGKILL after this: together well inside the 5 s a failed job may take.
constexpr auto kGracePeriod = 1500ms;
// After SIGKILL, how long to wait for the kernel before leaving a PE behind.
constexpr auto kKillWait = 3s;
// After the last PE ends, how long its descendants may keep its output pipes open.
constexpr auto kDrainWait = 1s;

// abort(status) follows exit(status): the low eight bits, but never 0 for a non-zero status.
int exit_code_for_abort(int status) {
  int code = status & 0xff;
  return (status != 0 && code == 0) ? 1 : code;
}

}  // namespace

int Job::run() {
  if (options_.timeout_s > 0) {
    job_deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(options_.timeout_s));
  }
  launch_all();
  supervise();
  pes_.close_output();
  remove_leftover_shm(pes_.pids(), options_.verbose);
  return exit_status_.value_or(0);
}

void Job::fail(int status) {
  if (!exit_status_) exit_status_ = status;
}

void Job::begin_teardown(int sig) {
  if (tearing_down_) return;
  tearing_down_ = true;
  pes_.signal_all(sig);
  pes_.signal_all(SIGCONT);  // a stopped PE acts on the signal only once it runs again
  kill_deadline_ = Clock::now() + kGracePeriod;
}

void Job::kill_now() {
  tearing_down_ = true;
  if (killed_) return;
  killed_ = true;
  pes_.signal_all(SIGKILL);
  give_up_deadline_ = Clock::now() + kKillWait;
}

void Job::on_signals() {
  for (int sig : signals_.take()) {
    if (sig == SIGCHLD) continue;  // reap() runs on every turn of the loop
    if (SignalRouter::is_forwarded_only(sig)) {
      pes_.signal_all(sig);
    } else if (!tearing_down_) {
      say("oshrun: received signal " + std::to_string(sig) +
          "; forwarding it to the PEs and terminating the job");
      fail(128 + sig);
      begin_teardown(sig);
    } else {
      kill_now();  // asked twice: stop waiting for a graceful end
    }
  }
}

// Runs on every turn before reap(): a PE's abort request is queued before its PMIx_Abort
// returns, hence before it can exit, so the abort is seen before the PE's exit status.
void Job::on_aborts() {
  for (const AbortRequest& request : events_.take()) {
    if (tearing_down_) continue;
    if (request.status != 0 || options_.verbose) {
      std::string line = "oshrun: PE " + std::to_string(request.rank) +
                         " called abort with status " + std::to_string(request.status);
      if (!request.message.empty()) line += " (" + request.message + ")";
      say(line + "; terminating the job");
    }
    fail(exit_code_for_abort(request.status));
    begin_teardown(SIGTERM);
  }
}

void Job::reap() {
  for (;;) {
    int wait_status = 0;
    pid_t pid = ::waitpid(-1, &wait_status, WNOHANG);
    if (pid < 0 && errno == EINTR) continue;
    if (pid <= 0) return;
    if (PeProcess* pe = pes_.find(pid)) on_pe_exit(*pe, wait_status);
  }
}

void Job::on_pe_exit(PeProcess& pe, int wait_status) {
  if (!pe.running) return;
  pes_.mark_exited(pe);
  if (pe.rank == 0) stdin_.stop();
  if (!confirm_exec(pe)) return;  // the exit status is exec's failure, reported as such
  PeExit how = describe_wait_status(wait_status);
  std::string line = "oshrun: PE " + std::to_string(pe.rank) + " (pid " + std::to_string(pe.pid) +
                     ") " + how.description;
  if (how.success || tearing_down_) {
    if (options_.verbose) say(line);
    return;
  }
  say(pes_.running() > 0 ? line + "; terminating the job" : line);
  fail(how.status);
  begin_teardown(SIGTERM);
}

void Job::on_deadlines(Clock::time_point now) {
  if (!tearing_down_ && job_deadline_ && now >= *job_deadline_) {
    say("oshrun: job exceeded --timeout " + options_.timeout_text + "; terminating");
    fail(124);
    begin_teardown(SIGTERM);
  }
  if (tearing_down_ && !killed_ && pes_.running() > 0 && kill_deadline_ && now >= *kill_deadline_)
    kill_now();
  if (!finishing_ && pes_.running() > 0 && killed_ && now >= *give_up_deadline_) {
    say("oshrun: " + std::to_string(pes_.running()) +
        " PE(s) did not end after SIGKILL; not waiting for them");
    finishing_ = true;
    drain_deadline_ = now;
  }
  if (!finishing_ && pes_.running() == 0) {
    // Whatever the PEs started and left running must not outlive the job.
    pes_.signal_all(SIGKILL);
    stdin_.stop();
    finishing_ = true;
    drain_deadline_ = now + kDrainWait;
  }
}

bool Job::finished(Clock::time_point now) const {
  return finishing_ && (pes_.output_closed() || now >= *drain_deadline_);
}

int Job::poll_timeout_ms(Clock::time_point now) const {
  std::optional<Clock::time_point> next;
  auto consider = [&](const std::optional<Clock::time_point>& t, bool active) {
    if (active && t && (!next || *t < *next)) next = t;
  };
  consider(job_deadline_, !tearing_down_);
  consider(kill_deadline_, tearing_down_ && !killed_);
  consider(give_up_deadline_, killed_ && !finishing_);
  consider(drain_deadline_, finishing_);
  if (!next) return -1;
  if (*next <= now) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(*next - now).count();
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
}

void Job::supervise() {
  std::vector<pollfd> fds;
  std::vector<OutputStream*> streams;
  for (;;) {
    on_aborts();
    on_signals();
    reap();
    Clock::time_point now = Clock::now();
    on_deadlines(now);
    if (finished(now)) return;

    fds.clear();
    streams.clear();
    fds.push_back({signals_.fd(), POLLIN, 0});
    fds.push_back({events_.wakeup_fd(), POLLIN, 0});
    fds.push_back(stdin_.poll_request());
    for (auto& pe : pes_.all()) {
      for (OutputStream* stream : {pe.out.get(), pe.err.get()}) {
        if (!stream->open()) continue;
        fds.push_back({stream->fd(), POLLIN, 0});
        streams.push_back(stream);
      }
    }
    int ready = ::poll(fds.data(), fds.size(), poll_timeout_ms(Clock::now()));
    if (ready <= 0) continue;  // timeout, or EINTR
    for (std::size_t i = 0; i < streams.size(); ++i)
      if (fds[3 + i].revents != 0) streams[i]->on_readable();
    if (fds[2].fd >= 0) stdin_.on_ready(fds[2].revents);
  }
}

}  // namespace tandem::oshrun
