// tandem_info: what this Tandem is and what it finds on this machine: version, build
// configuration, every environment variable (value and default), the hwloc topology, and
// the libfabric providers.
#include "config.h"

#include <dlfcn.h>
#include <hwloc.h>
#include <pmix.h>
#include <rdma/fabric.h>
#include <shmem.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/config.h"
#include "transport/ofi/provider.h"

namespace {

void print_topology() {
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0 || hwloc_topology_load(topology) != 0) {
    printf("  (hwloc could not read the topology)\n");
    return;
  }
  auto count = [&](hwloc_obj_type_t type) { return hwloc_get_nbobjs_by_type(topology, type); };
  printf("  packages %d, NUMA nodes %d, cores %d, hardware threads %d\n", count(HWLOC_OBJ_PACKAGE),
         count(HWLOC_OBJ_NUMANODE), count(HWLOC_OBJ_CORE), count(HWLOC_OBJ_PU));
  hwloc_topology_destroy(topology);
}

// The file each library Tandem stands on was loaded from: where a site's copy was configured
// (--with-ofi, --with-pmix, --with-hwloc), these must be in that copy.
const char* file_of(const void* symbol) {
  Dl_info info;
  return dladdr(symbol, &info) != 0 && info.dli_fname != nullptr ? info.dli_fname : "(unknown)";
}

void print_libraries() {
  printf("  libfabric %u.%u: %s\n", FI_MAJOR(fi_version()), FI_MINOR(fi_version()),
         tandem::ofi::library_file());
  printf("  PMIx %s: %s\n", PMIx_Get_version(), file_of(reinterpret_cast<const void*>(&PMIx_Get_version)));
  const unsigned hwloc = hwloc_get_api_version();
  printf("  hwloc (API %u.%u): %s\n", hwloc >> 16, (hwloc >> 8) & 0xff,
         file_of(reinterpret_cast<const void*>(&hwloc_get_api_version)));
}

// Every provider libfabric lists, in the order Tandem tries them when TANDEM_OFI_PROVIDER is
// unset: whether it can serve, under which order, atomics and rules, or why not.
void print_providers() {
  tandem::ofi::Rules required;
  std::string bad;
  const char* require = getenv("TANDEM_OFI_REQUIRE");
  if (require && !tandem::ofi::parse_required(require, &required, &bad))
    printf("  (TANDEM_OFI_REQUIRE names \"%s\", which is not a rule: ignored here)\n", bad.c_str());
  const auto rows = tandem::ofi::survey(required);
  if (rows.empty()) printf("  none: libfabric lists no provider\n");
  for (const auto& row : rows) {
    const char* use = row.chosen ? "chosen" : !row.usable ? "no" : row.automatic ? "yes" : "if named";
    printf("  %-24s %-8s %s\n", row.name.c_str(), use, row.detail.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("usage: tandem_info\nPrints Tandem's version, build configuration, environment variables,\n"
           "the machine's topology and the libfabric providers it finds: whether each can serve\n"
           "Tandem, under which rules, or why not (TANDEM_OFI_REQUIRE adds rules).\n");
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "--roff-environment")) {
    // The ENVIRONMENT section of man 7 tandem is made from the same table.
    for (const auto& e : tandem::config_table()) {
      printf(".TP\n.B %s\n", e.name);
      printf("%s (default: %s).", e.meaning, e.fallback);
      if (e.alias) printf(" The deprecated name\n.B %s\nis read when this one is unset.", e.alias);
      printf("\n");
    }
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "--version")) {
    printf("%s\n", PACKAGE_VERSION);
    return 0;
  }
  printf("Tandem %s (OpenSHMEM %d.%d, vendor string \"%s\")\n", PACKAGE_VERSION,
         SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION, SHMEM_VENDOR_STRING);
  printf("Build:\n  configure %s\n  sanitizers: %s\n", TANDEM_CONFIGURE_ARGS, TANDEM_SANITIZERS);
  printf("Environment:\n%s", tandem::config_report().c_str());
  printf("Topology (hwloc %s):\n", HWLOC_API_VERSION >= 0x20000 ? "2" : "1");
  print_topology();
  printf("Libraries:\n");
  print_libraries();
  printf("libfabric providers, in the order Tandem tries them (TANDEM_OFI_PROVIDER unset):\n"
         "  %-24s %-8s %s\n", "provider", "usable", "order; atomics; rules (or why not)");
  print_providers();
  return 0;
}
