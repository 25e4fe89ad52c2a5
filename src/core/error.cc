#include "core/error.h"

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/runtime.h"

namespace tandem {

namespace {
void vreport(const char* kind, const char* call, const char* format, va_list args) {
  char message[1024];
  vsnprintf(message, sizeof message, format, args);
  std::string where;
  // A PE is named once shmem_init knows its number, also while it is still starting.
  if (rt().initialized || (rt().my_pe >= 0 && !rt().finalized)) where = "PE " + std::to_string(rt().my_pe);
  else where = "a PE not yet initialised (pid " + std::to_string(getpid()) + ")";
  // One write, so that lines of different PEs do not interleave.
  std::string line = "tandem: " + std::string(kind) + call + " on " + where + ": " + message + "\n";
  fflush(stdout);
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}
}  // namespace

void fatal(const char* call, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vreport("", call, format, args);
  va_end(args);
  exit_pe(1);
}

void warn(const char* call, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vreport("warning: ", call, format, args);
  va_end(args);
}

namespace {
void (*exit_hook)() = nullptr;
}

void set_exit_hook(void (*hook)()) { exit_hook = hook; }

void restore_crash_signals() {
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGHUP}) {
    struct sigaction current;
    if (sigaction(sig, nullptr, &current) != 0) continue;
    void* handler = (current.sa_flags & SA_SIGINFO) ? reinterpret_cast<void*>(current.sa_sigaction)
                                                    : reinterpret_cast<void*>(current.sa_handler);
    if (handler == reinterpret_cast<void*>(SIG_DFL) || handler == reinterpret_cast<void*>(SIG_IGN)) continue;
    Dl_info where;
    if (dladdr(handler, &where) == 0 || where.dli_fname == nullptr) continue;
    if (std::string(where.dli_fname).find("libinfinipath") == std::string::npos) continue;
    signal(sig, SIG_DFL);
  }
}

void exit_pe(int status) {
  if (exit_hook) exit_hook();
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}

}  // namespace tandem
