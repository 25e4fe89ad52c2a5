#include "pe_launch.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tandem::oshrun {
namespace {

// 0 if `path` names an executable regular file, else the errno exec would give.
int check_executable(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) return EACCES;
  if (::access(path.c_str(), X_OK) != 0) return errno;
  return 0;
}

// Everything at or above 3 becomes close-on-exec: PMIx's sockets and oshrun's pipes to
// other PEs must not leak into this one.  Runs in the forked child: system calls only.
void mark_inherited_fds_cloexec() {
  if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  struct rlimit limit;
  rlim_t max_fd = 65536;
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < max_fd)
    max_fd = limit.rlim_cur;
  for (int fd = 3; fd < static_cast<int>(max_fd); ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

[[noreturn]] void child_fail(int report_fd, int error) {
  while (::write(report_fd, &error, sizeof error) < 0 && errno == EINTR) {
  }
  ::_exit(127);
}

// The forked child, up to exec.  Only async-signal-safe calls: PMIx's threads may hold
// locks (malloc's included) at the moment of fork.
[[noreturn]] void run_child(pid_t oshrun_pid, const ProgramImage& program, char** envp,
                            int stdin_fd, int stdout_fd, int stderr_fd,
                            const ChildState& state, int report_fd) {
  // Its own process group: a Ctrl-C at the terminal reaches oshrun alone, which forwards
  // it once; and a signal to the group also reaches the PE's own children.
  ::setpgid(0, 0);
  // A PE must not outlive oshrun.  If oshrun died before the prctl, the parent changed.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != oshrun_pid) ::_exit(127);

  if (::dup2(stdin_fd, STDIN_FILENO) < 0 || ::dup2(stdout_fd, STDOUT_FILENO) < 0 ||
      ::dup2(stderr_fd, STDERR_FILENO) < 0)
    child_fail(report_fd, errno);
  mark_inherited_fds_cloexec();

  if (state.restore_nofile) ::setrlimit(RLIMIT_NOFILE, &state.nofile);
  for (std::size_t i = 0; i < state.signals.size(); ++i)
    ::sigaction(state.signals[i], &state.actions[i], nullptr);
  ::sigprocmask(SIG_SETMASK, &state.mask, nullptr);

  ::execve(program.path(), program.argv(), envp);
  if (errno == ENOEXEC) ::execve("/bin/sh", program.script_argv(), envp);
  child_fail(report_fd, errno);
}

// The child's verdict on exec: EOF (the close-on-exec report pipe closed by a successful
// exec) or an errno.
int read_exec_result(int fd) {
  int error = 0;
  std::size_t got = 0;
  auto* bytes = reinterpret_cast<char*>(&error);
  while (got < sizeof error) {
    ssize_t n = ::read(fd, bytes + got, sizeof error - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got == sizeof error ? error : 0;
}

}  // namespace

ProgramImage::ProgramImage(std::vector<std::string> command) : command_(std::move(command)) {
  const std::string& name = command_.front();
  if (name.find('/') != std::string::npos) {
    path_ = name;
    error_ = check_executable(path_);
  } else {
    const char* search = std::getenv("PATH");
    std::string dirs = search != nullptr ? search : "/usr/local/bin:/usr/bin:/bin";
    error_ = ENOENT;
    std::size_t start = 0;
    while (start <= dirs.size()) {
      std::size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      std::string dir = dirs.substr(start, end - start);
      std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
      int e = check_executable(candidate);
      if (e == 0) {
        path_ = candidate;
        error_ = 0;
        break;
      }
      if (e == EACCES) error_ = EACCES;  // like a shell: "permission denied" beats "not found"
      start = end + 1;
    }
    if (error_ != 0) path_ = name;
  }

  for (auto& word : command_) argv_.push_back(word.data());
  argv_.push_back(nullptr);
  script_argv_.push_back(shell_.data());
  script_argv_.push_back(path_.data());
  for (std::size_t i = 1; i < command_.size(); ++i) script_argv_.push_back(command_[i].data());
  script_argv_.push_back(nullptr);
}

int read_exec_report(UniqueFd& report) {
  if (!report.valid()) return 0;
  int error = read_exec_result(report.get());
  report.reset();
  return error;
}

bool launch_pe(int rank, const ProgramImage& program, char** envp, int stdin_fd,
               const ChildState& child_state, LaunchedPe& out) {
  Pipe out_pipe, err_pipe, report;
  if (!make_pipe(out_pipe) || !make_pipe(err_pipe) || !make_pipe(report)) {
    std::fprintf(stderr, "oshrun: cannot create pipes for PE %d: %s\n", rank,
                 std::strerror(errno));
    return false;
  }
  const pid_t self = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "oshrun: cannot start PE %d: fork: %s\n", rank, std::strerror(errno));
    return false;
  }
  if (pid == 0) {
    run_child(self, program, envp, stdin_fd, out_pipe.write_end.get(), err_pipe.write_end.get(),
              child_state, report.write_end.get());
  }
  // Either this or the child's own setpgid wins; both ask for the same thing.
  ::setpgid(pid, pid);
  out_pipe.write_end.reset();
  err_pipe.write_end.reset();
  report.write_end.reset();
  set_nonblocking(out_pipe.read_end.get());
  set_nonblocking(err_pipe.read_end.get());
  out.pid = pid;
  out.stdout_fd = std::move(out_pipe.read_end);
  out.stderr_fd = std::move(err_pipe.read_end);
  out.exec_report = std::move(report.read_end);
  return true;
}

}  // namespace tandem::oshrun
