// Symmetric globals: the executable's writable data (.data and .bss, after RELRO) is copied
// into a shared-memory file and mapped back over itself, so that node peers can map the same
// file and reach this PE's globals with plain loads and stores.  Must run before the program
// or the library starts threads.  Globals of shared libraries are not covered, and a child
// made by fork() after init gets a private copy (see the atfork handler).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mem/shared_file.h"

namespace tandem {

struct DataRange {
  char* start = nullptr;
  size_t size = 0;
  uintptr_t load_bias = 0;  // where the executable was loaded (its symbols' values + this)
};

// The page-aligned writable range of the main executable that follows RELRO.
DataRange find_executable_data();

// Moves `range` onto new shared memory of `kind` and returns it (the caller calls
// peers_mapped once peers have mapped it).  Ends the PE on failure.
SharedFile share_data_segment(const char* call, DataRange range, SharedFile::Kind kind);

}  // namespace tandem
