#include "mem/global_objects.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace tandem {

namespace {

// A view of the image that refuses every read past its end: the file is read, not trusted.
struct Image {
  const unsigned char* bytes;
  size_t size;

  bool holds(uint64_t offset, uint64_t count, uint64_t each) const {
    if (offset > size) return false;
    if (each != 0 && count > (size - offset) / each) return false;
    return true;
  }
  template <typename T>
  const T* at(uint64_t offset) const {
    return holds(offset, 1, sizeof(T)) ? reinterpret_cast<const T*>(bytes + offset) : nullptr;
  }
};

// The section headers, or an empty span when the image has none that can be read.
struct Sections {
  const ElfW(Shdr)* table = nullptr;
  size_t count = 0;
};

Sections section_headers(const Image& image) {
  const auto* eh = image.at<ElfW(Ehdr)>(0);
  if (eh == nullptr || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) return {};
  // Only the running program's own format is read; a different class would be misparsed.
  if (eh->e_ident[EI_CLASS] != (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32)) return {};
  if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(ElfW(Shdr))) return {};
  const auto* first = image.at<ElfW(Shdr)>(eh->e_shoff);
  if (first == nullptr) return {};
  // With 0xff00 sections or more, the count lives in the first header's sh_size.
  const uint64_t count = eh->e_shnum != 0 ? eh->e_shnum : first->sh_size;
  if (!image.holds(eh->e_shoff, count, sizeof(ElfW(Shdr)))) return {};
  return {first, static_cast<size_t>(count)};
}

const ElfW(Shdr)* find_section(const Sections& sections, uint32_t type) {
  for (size_t i = 0; i < sections.count; ++i)
    if (sections.table[i].sh_type == type) return &sections.table[i];
  return nullptr;
}

}  // namespace

GlobalObjectTable::GlobalObjectTable(std::vector<GlobalObject> objects) {
  std::erase_if(objects, [](const GlobalObject& o) { return o.size == 0; });
  std::sort(objects.begin(), objects.end(), [](const GlobalObject& a, const GlobalObject& b) {
    return a.start != b.start ? a.start < b.start : a.size > b.size;
  });
  for (auto& o : objects) {
    if (!objects_.empty() && o.start - objects_.back().start < objects_.back().size) {
      GlobalObject& last = objects_.back();
      last.size = std::max(last.size, static_cast<size_t>(o.start - last.start) + o.size);
      continue;
    }
    objects_.push_back(std::move(o));
  }
}

GlobalObjectTable GlobalObjectTable::from_elf(const void* data, size_t size, uintptr_t load_bias,
                                              uintptr_t lo, uintptr_t hi) {
  const Image image{static_cast<const unsigned char*>(data), size};
  const Sections sections = section_headers(image);
  const ElfW(Shdr)* symtab = find_section(sections, SHT_SYMTAB);
  if (symtab == nullptr) symtab = find_section(sections, SHT_DYNSYM);
  if (symtab == nullptr || symtab->sh_entsize != sizeof(ElfW(Sym)) || symtab->sh_link >= sections.count)
    return {};
  const ElfW(Shdr)& strtab = sections.table[symtab->sh_link];
  const uint64_t n_symbols = symtab->sh_size / sizeof(ElfW(Sym));
  if (!image.holds(symtab->sh_offset, n_symbols, sizeof(ElfW(Sym))) ||
      !image.holds(strtab.sh_offset, strtab.sh_size, 1))
    return {};
  const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(image.bytes + symtab->sh_offset);
  const auto* names = reinterpret_cast<const char*>(image.bytes + strtab.sh_offset);

  std::vector<GlobalObject> objects;
  for (uint64_t i = 0; i < n_symbols; ++i) {
    const ElfW(Sym)& s = symbols[i];
    if (ELF64_ST_TYPE(s.st_info) != STT_OBJECT || s.st_size == 0) continue;
    if (s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS || s.st_shndx == SHN_COMMON) continue;
    const uintptr_t start = static_cast<uintptr_t>(s.st_value) + load_bias;
    if (start < lo || start >= hi) continue;
    std::string name;
    if (s.st_name < strtab.sh_size)
      name.assign(names + s.st_name, strnlen(names + s.st_name, strtab.sh_size - s.st_name));
    objects.push_back({start, static_cast<size_t>(s.st_size), std::move(name)});
  }
  return GlobalObjectTable(std::move(objects));
}

GlobalObjectTable GlobalObjectTable::from_executable(uintptr_t load_bias, uintptr_t lo, uintptr_t hi) {
  const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st;
  GlobalObjectTable table;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    const size_t size = static_cast<size_t>(st.st_size);
    void* image = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (image != MAP_FAILED) {
      table = from_elf(image, size, load_bias, lo, hi);
      munmap(image, size);
    }
  }
  close(fd);
  return table;
}

const GlobalObject* GlobalObjectTable::containing(uintptr_t addr) const {
  auto after = std::upper_bound(objects_.begin(), objects_.end(), addr,
                                [](uintptr_t a, const GlobalObject& o) { return a < o.start; });
  if (after == objects_.begin()) return nullptr;
  const GlobalObject& o = *(after - 1);
  return addr - o.start < o.size ? &o : nullptr;
}

}  // namespace tandem
