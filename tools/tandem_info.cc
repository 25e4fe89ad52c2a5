// tandem_info: what this Tandem is and what it finds on this machine: version, build
// configuration, every environment variable (value and default), the hwloc topology, and
// the libfabric providers.
#include "config.h"

#include <hwloc.h>
#include <rdma/fabric.h>
#include <shmem.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "core/config.h"

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

void print_providers() {
  fi_info* hints = fi_allocinfo();
  if (!hints) return;
  hints->caps = FI_RMA | FI_ATOMIC;
  hints->ep_attr->type = FI_EP_RDM;
  fi_info* found = nullptr;
  int rc = fi_getinfo(FI_VERSION(1, 11), nullptr, nullptr, 0, hints, &found);
  fi_freeinfo(hints);
  if (rc != 0) {
    printf("  none with RDM endpoints, RMA and atomics (%s)\n", fi_strerror(-rc));
    return;
  }
  std::set<std::string> seen;
  for (fi_info* i = found; i; i = i->next) {
    std::string name = i->fabric_attr->prov_name;
    if (!seen.insert(name).second) continue;
    printf("  %-16s mr_mode 0x%x, %s progress\n", name.c_str(), i->domain_attr->mr_mode,
           i->domain_attr->data_progress == FI_PROGRESS_AUTO ? "automatic" : "manual");
  }
  fi_freeinfo(found);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("usage: tandem_info\nPrints Tandem's version, build configuration, environment variables,\n"
           "the machine's topology and the libfabric providers it finds.\n");
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
  printf("libfabric %u.%u providers with RDM endpoints, RMA and atomics:\n",
         FI_MAJOR(fi_version()), FI_MINOR(fi_version()));
  print_providers();
  return 0;
}
