#include "mem/data_segment.h"

#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/error.h"

namespace tandem {

namespace {

uintptr_t page_down(uintptr_t a, uintptr_t page) { return a & ~(page - 1); }
uintptr_t page_up(uintptr_t a, uintptr_t page) { return (a + page - 1) & ~(page - 1); }

int find_in_main_program(struct dl_phdr_info* info, size_t, void* out) {
  // The first object reported is the main program.
  auto* range = static_cast<DataRange*>(out);
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  range->load_bias = info->dlpi_addr;
  uintptr_t relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) relro_end = page_up(info->dlpi_addr + ph.p_vaddr + ph.p_memsz, page);
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    uintptr_t start = page_down(info->dlpi_addr + ph.p_vaddr, page);
    const uintptr_t end = page_up(info->dlpi_addr + ph.p_vaddr + ph.p_memsz, page);
    if (relro_end > start && relro_end <= end) start = relro_end;
    if (end > start) {
      range->start = reinterpret_cast<char*>(start);
      range->size = end - start;
    }
  }
  return 1;  // stop after the main program
}

// Reads the live data word by word: the globals include sanitizer red zones, which a
// checked memcpy would refuse to read.
__attribute__((no_sanitize("address"))) bool copy_nonzero_pages(char* to, const char* from,
                                                                size_t size, size_t page) {
  bool any = false;
  for (size_t off = 0; off < size; off += page) {
    const auto* src = reinterpret_cast<const volatile uint64_t*>(from + off);
    auto* dst = reinterpret_cast<uint64_t*>(to + off);
    bool zero = true;
    for (size_t i = 0; i < page / sizeof(uint64_t); ++i)
      if (src[i] != 0) { zero = false; break; }
    if (zero) continue;  // the file is sparse: zero pages cost nothing
    for (size_t i = 0; i < page / sizeof(uint64_t); ++i) dst[i] = src[i];
    any = true;
  }
  return any;
}

DataRange shared_range;

// A child made by fork() would otherwise share its globals with the parent PE.
void give_child_private_globals() {
  if (shared_range.size == 0) return;
  void* copy = mmap(nullptr, shared_range.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) return;
  memcpy(copy, shared_range.start, shared_range.size);
  if (mremap(copy, shared_range.size, shared_range.size, MREMAP_MAYMOVE | MREMAP_FIXED,
             shared_range.start) == MAP_FAILED)
    munmap(copy, shared_range.size);
}

}  // namespace

DataRange find_executable_data() {
  DataRange range;
  dl_iterate_phdr(find_in_main_program, &range);
  return range;
}

SharedFile share_data_segment(const char* call, DataRange range, SharedFile::Kind kind) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  SharedFile file = SharedFile::create(call, "data", range.size, kind);
  if (int err = file.reserve(0, range.size)) fatal(call, "%s", dev_shm_shortage(range.size, "the globals", err).c_str());
  void* staging = mmap(nullptr, range.size, PROT_READ | PROT_WRITE, MAP_SHARED, file.fd(), 0);
  if (staging == MAP_FAILED) fatal(call, "cannot map the globals' shared copy: %s", strerror(errno));
  copy_nonzero_pages(static_cast<char*>(staging), range.start, range.size, page);
  munmap(staging, range.size);
  void* placed = mmap(range.start, range.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                      file.fd(), 0);
  if (placed != range.start)
    fatal(call, "cannot map the globals' shared copy over the program's data: %s", strerror(errno));
  shared_range = range;
  static bool registered = false;
  if (!registered) {
    pthread_atfork(nullptr, nullptr, give_child_private_globals);
    registered = true;
  }
  return file;
}

}  // namespace tandem
