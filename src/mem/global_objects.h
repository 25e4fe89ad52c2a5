// The executable's global objects, by address: what SHMEM_DEBUG's bounds check knows about
// symmetric globals.  The heap's allocator knows every heap object's extent; for .data and
// .bss only the executable's symbol table does, so under SHMEM_DEBUG init reads it once
// (.symtab, else .dynsym) and keeps the objects that lie in the symmetric data segment.
// A stripped executable gives an empty table: no check, no error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tandem {

struct GlobalObject {
  uintptr_t start;
  size_t size;
  std::string name;
};

class GlobalObjectTable {
 public:
  GlobalObjectTable() = default;
  // Objects of size 0 are dropped, objects at one address (aliases) kept once with the
  // largest size, and objects that overlap merged into one extent named after the first:
  // the check must never reject a transfer that stays inside some object.
  explicit GlobalObjectTable(std::vector<GlobalObject> objects);

  // Reads the STT_OBJECT symbols of an ELF image (the bytes of an executable file) whose
  // run-time address (value + load_bias) lies in [lo, hi).  A malformed or stripped image
  // gives an empty table.
  static GlobalObjectTable from_elf(const void* image, size_t size, uintptr_t load_bias,
                                    uintptr_t lo, uintptr_t hi);
  // The same from the running executable (/proc/self/exe).
  static GlobalObjectTable from_executable(uintptr_t load_bias, uintptr_t lo, uintptr_t hi);

  // The object whose extent contains addr, or nullptr (not an object start: padding, or an
  // address the table does not know).
  const GlobalObject* containing(uintptr_t addr) const;

  size_t size() const { return objects_.size(); }

 private:
  std::vector<GlobalObject> objects_;  // sorted by start, disjoint
};

}  // namespace tandem
