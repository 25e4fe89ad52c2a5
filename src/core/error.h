// The one error path: a message that names the call, the PE and the bad argument, then the
// job ends.  Used by every layer; nothing else prints errors.
#pragma once

#include <cstdarg>

namespace tandem {

// "tandem: <call> on PE <pe>: <message>" on stderr, then the job exits with status 1.
[[noreturn]] void fatal(const char* call, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
// The same line as a warning; the job goes on.
void warn(const char* call, const char* format, ...) __attribute__((format(printf, 2, 3)));
// Ends this PE at once with `status` (after flushing stdio); the launcher ends the rest.
[[noreturn]] void exit_pe(int status);
// Work for exit_pe to do first (the memory layer removes its files); one hook.
void set_exit_hook(void (*hook)());
// A PE that crashes must die of its signal, so that the launcher sees it and ends the job.
// libinfinipath (loaded with libfabric's psm provider, here only when the program loads
// libfabric itself: Tandem loads it later and keeps the signal dispositions the program had,
// see transport/ofi/library.cc) installs handlers for the crash
// signals that print a backtrace and call exit(): that runs the at-exit shmem_finalize, a
// collective, inside a signal handler on a possibly broken heap, and the job hangs.  It does
// the same for the launcher's SIGTERM (and SIGINT, SIGHUP): a PE told to end then runs
// finalize against peers that are gone and reports their broken connections.  This puts
// back the default action for those signals where their handler lives in that library.
void restore_crash_signals();
// After `call` (shmem_malloc, shmem_calloc, shmem_align...) returned a null pointer for a zero
// size on this PE: a segmentation fault in the first page of memory later (a write through
// that pointer, the likely cause) adds a line that says so, naming the call and the
// address, before the PE dies of the signal as it would have.  Only where SIGSEGV has its
// default action (a handler of the program's or of a tool's is left alone); the first such
// call is the one named.
void explain_null_faults(const char* call);

}  // namespace tandem

// The public name of the routine being defined: the pshmem_X bodies report shmem_X.
#define TANDEM_CALL (__func__ + 1)
