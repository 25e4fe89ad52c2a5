#include "core/error.h"

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

namespace {
char null_fault_line[320];
size_t null_fault_length = 0;  // up to the address, which the handler appends

void on_null_fault(int, siginfo_t* info, void*) {
  // Async-signal-safe: one write of the prepared line with the address in hex.  The
  // handler is reset (SA_RESETHAND): the faulting access runs again and the PE dies of the
  // signal.  Faults elsewhere, or sent by a process (si_code <= 0), pass unexplained.
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  if (info->si_code <= 0 || address >= 4096) return;
  char line[sizeof null_fault_line + 32];
  memcpy(line, null_fault_line, null_fault_length);
  size_t n = null_fault_length;
  line[n++] = '0';
  line[n++] = 'x';
  int shift = 12;
  while (shift > 0 && (address >> shift) == 0) shift -= 4;
  for (; shift >= 0; shift -= 4) line[n++] = "0123456789abcdef"[(address >> shift) & 0xf];
  line[n++] = '\n';
  ssize_t ignored = write(STDERR_FILENO, line, n);
  (void)ignored;
}
}  // namespace

void explain_null_faults(const char* call) {
  if (null_fault_length > 0) return;
  struct sigaction current;
  if (sigaction(SIGSEGV, nullptr, &current) != 0) return;
  if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) return;
  const int n = snprintf(null_fault_line, sizeof null_fault_line,
                         "tandem: %s on PE %d: returned a null pointer for a zero size, and this PE then died "
                         "of a segmentation fault in the first page of memory (a use of that pointer?) at ",
                         call, rt().my_pe);
  if (n <= 0 || static_cast<size_t>(n) >= sizeof null_fault_line) return;
  null_fault_length = static_cast<size_t>(n);
  struct sigaction action {};
  action.sa_sigaction = on_null_fault;
  action.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
}

void exit_pe(int status) {
  if (exit_hook) exit_hook();
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}

}  // namespace tandem
