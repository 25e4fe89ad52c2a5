#include "mem/global_objects.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <gtest/gtest.h>

using tandem::GlobalObject;
using tandem::GlobalObjectTable;

// A global of this executable that the table must find by its symbol.
long global_objects_probe[7] = {1, 2, 3, 4, 5, 6, 7};

namespace {

uintptr_t executable_load_bias() {
  uintptr_t bias = 0;
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t, void* out) {
        *static_cast<uintptr_t*>(out) = info->dlpi_addr;
        return 1;  // the first object is the executable
      },
      &bias);
  return bias;
}

std::vector<char> executable_image() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Turns every section of `type` into SHT_NULL, as if strip had removed it.
void hide_sections(std::vector<char>& image, uint32_t type) {
  auto* eh = reinterpret_cast<ElfW(Ehdr)*>(image.data());
  auto* sections = reinterpret_cast<ElfW(Shdr)*>(image.data() + eh->e_shoff);
  for (size_t i = 0; i < eh->e_shnum; ++i)
    if (sections[i].sh_type == type) sections[i].sh_type = SHT_NULL;
}

const uintptr_t kEverywhere = ~uintptr_t{0};

}  // namespace

TEST(GlobalObjectTable, FindsTheObjectThatContainsAnAddress) {
  GlobalObjectTable t({{0x1000, 32, "a"}, {0x1040, 8, "b"}});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.containing(0x1000)->name, "a");
  EXPECT_EQ(t.containing(0x101f)->name, "a");
  EXPECT_EQ(t.containing(0x1020), nullptr) << "padding between objects";
  EXPECT_EQ(t.containing(0x0fff), nullptr) << "before the first object";
  EXPECT_EQ(t.containing(0x1047)->name, "b");
  EXPECT_EQ(t.containing(0x1048), nullptr) << "past the last object";
}

TEST(GlobalObjectTable, DropsEmptyObjectsKeepsTheLargestAliasAndMergesOverlaps) {
  GlobalObjectTable t({{0x2000, 0, "empty"},
                       {0x1000, 8, "short_alias"},
                       {0x1000, 16, "long_alias"},
                       {0x3000, 64, "outer"},
                       {0x3010, 8, "inner"},
                       {0x3030, 32, "overlapping"}});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.containing(0x2000), nullptr) << "an object of size 0 contains nothing";
  ASSERT_NE(t.containing(0x100f), nullptr);
  EXPECT_EQ(t.containing(0x100f)->size, 16u) << "aliases: the largest size wins";
  const GlobalObject* outer = t.containing(0x3010);
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->name, "outer");
  EXPECT_EQ(outer->start, 0x3000u);
  EXPECT_EQ(outer->size, 0x50u) << "overlapping objects make one extent";
}

TEST(GlobalObjectTable, ReadsTheRunningExecutablesSymbols) {
  const auto probe = reinterpret_cast<uintptr_t>(global_objects_probe);
  GlobalObjectTable t = GlobalObjectTable::from_executable(executable_load_bias(), 0, kEverywhere);
  const GlobalObject* o = t.containing(probe + 3 * sizeof(long));
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->name, "global_objects_probe");
  EXPECT_EQ(o->start, probe) << "the load bias is added to the symbol's value";
  EXPECT_EQ(o->size, sizeof global_objects_probe);
}

TEST(GlobalObjectTable, KeepsOnlyObjectsInTheGivenRange) {
  const auto probe = reinterpret_cast<uintptr_t>(global_objects_probe);
  GlobalObjectTable t = GlobalObjectTable::from_executable(executable_load_bias(), probe + 1, kEverywhere);
  EXPECT_EQ(t.containing(probe), nullptr);
}

TEST(GlobalObjectTable, AStrippedOrMalformedImageGivesAnEmptyTable) {
  std::vector<char> image = executable_image();
  ASSERT_GT(image.size(), sizeof(ElfW(Ehdr)));
  hide_sections(image, SHT_SYMTAB);
  hide_sections(image, SHT_DYNSYM);
  EXPECT_EQ(GlobalObjectTable::from_elf(image.data(), image.size(), executable_load_bias(), 0, kEverywhere).size(), 0u);

  image = executable_image();
  EXPECT_EQ(GlobalObjectTable::from_elf(image.data(), sizeof(ElfW(Ehdr)), 0, 0, kEverywhere).size(), 0u)
      << "section headers past the end of the image";
  std::vector<char> garbage(4096, 'x');
  EXPECT_EQ(GlobalObjectTable::from_elf(garbage.data(), garbage.size(), 0, 0, kEverywhere).size(), 0u);
}

// A minimal ELF image: one symbol table of `type` (and its string table) holding an object
// "table_object" at 0x1000 (32 bytes), a function, an undefined object and an empty object.
std::vector<char> synthetic_image(uint32_t type) {
  const char strings[] = "\0table_object\0a_function\0undefined\0empty";
  auto sym = [](uint32_t name, unsigned char kind, uint16_t section, uint64_t value, uint64_t size) {
    ElfW(Sym) s{};
    s.st_name = name;
    s.st_info = static_cast<unsigned char>(ELF64_ST_INFO(STB_GLOBAL, kind));
    s.st_shndx = section;
    s.st_value = value;
    s.st_size = size;
    return s;
  };
  const ElfW(Sym) symbols[] = {sym(0, STT_NOTYPE, SHN_UNDEF, 0, 0), sym(1, STT_OBJECT, 1, 0x1000, 32),
                               sym(14, STT_FUNC, 1, 0x1100, 16), sym(25, STT_OBJECT, SHN_UNDEF, 0, 8),
                               sym(35, STT_OBJECT, 1, 0x1200, 0)};
  const size_t symbols_at = sizeof(ElfW(Ehdr));
  const size_t strings_at = symbols_at + sizeof symbols;
  const size_t sections_at = (strings_at + sizeof strings + 7) / 8 * 8;
  ElfW(Shdr) sections[3] = {};
  sections[1].sh_type = type;
  sections[1].sh_offset = symbols_at;
  sections[1].sh_size = sizeof symbols;
  sections[1].sh_entsize = sizeof(ElfW(Sym));
  sections[1].sh_link = 2;
  sections[2].sh_type = SHT_STRTAB;
  sections[2].sh_offset = strings_at;
  sections[2].sh_size = sizeof strings;
  ElfW(Ehdr) eh{};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
  eh.e_shoff = sections_at;
  eh.e_shentsize = sizeof(ElfW(Shdr));
  eh.e_shnum = 3;
  std::vector<char> image(sections_at + sizeof sections);
  memcpy(image.data(), &eh, sizeof eh);
  memcpy(image.data() + symbols_at, symbols, sizeof symbols);
  memcpy(image.data() + strings_at, strings, sizeof strings);
  memcpy(image.data() + sections_at, sections, sizeof sections);
  return image;
}

TEST(GlobalObjectTable, ReadsDefinedObjectsOfEitherSymbolTable) {
  for (uint32_t type : {SHT_SYMTAB, SHT_DYNSYM}) {
    std::vector<char> image = synthetic_image(type);
    GlobalObjectTable t = GlobalObjectTable::from_elf(image.data(), image.size(), 0x500000, 0, kEverywhere);
    EXPECT_EQ(t.size(), 1u) << "only the defined, non-empty object";
    const GlobalObject* o = t.containing(0x501000 + 31);
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->name, "table_object");
    EXPECT_EQ(o->start, 0x501000u);
    EXPECT_EQ(o->size, 32u);
    // Cut anywhere, the image must be refused or read in part, never read past its end.
    for (size_t cut = 0; cut < image.size(); ++cut)
      EXPECT_LE(GlobalObjectTable::from_elf(image.data(), cut, 0, 0, kEverywhere).size(), 1u);
  }
}
