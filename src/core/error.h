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

}  // namespace tandem

// The public name of the routine being defined: the pshmem_X bodies report shmem_X.
#define TANDEM_CALL (__func__ + 1)
