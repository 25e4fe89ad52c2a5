// For the fuzz targets: the library's error exits, which no parser may reach on any input
// (a parser reports a bad value to its caller; the caller decides to end the PE).  Reaching
// one aborts, which the fuzzer reports with the input that did it.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"

namespace tandem {

namespace {
[[noreturn]] void reached(const char* what, const char* call, const char* format, va_list args) {
  fprintf(stderr, "%s reached from a parser (%s): ", what, call);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  abort();
}
}  // namespace

void fatal(const char* call, const char* format, ...) {
  va_list args;
  va_start(args, format);
  reached("a fatal error", call, format, args);
}

void warn(const char* call, const char* format, ...) {
  va_list args;
  va_start(args, format);
  reached("a warning", call, format, args);
}

}  // namespace tandem
