#include "pmix_host.h"

#include <hwloc.h>
#include <pmix_server.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "job_info.h"

namespace tandem::oshrun {
namespace {

// ---- the server module: PMIx's progress thread calls these ----

pmix_status_t on_client_finalized(const pmix_proc_t*, void*, pmix_op_cbfunc_t cbfunc,
                                  void* cbdata) {
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, cbdata);
  return PMIX_SUCCESS;
}

// The whole job ends whatever `procs` says: a partial abort would leave the survivors
// waiting on peers that are gone.
pmix_status_t on_abort(const pmix_proc_t* proc, void* server_object, int status,
                       const char msg[], pmix_proc_t[], size_t, pmix_op_cbfunc_t cbfunc,
                       void* cbdata) {
  if (server_object != nullptr) {
    int rank = proc != nullptr ? static_cast<int>(proc->rank) : -1;
    static_cast<PmixHost*>(server_object)->on_abort(rank, status, msg);
  }
  // The main thread has the request queued already; the PE may now go on (and exit).
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, cbdata);
  return PMIX_SUCCESS;
}

// PMIx hands the host a malloc'd blob that the host owns from then on (PMIx does not
// free it after fence_nb returns, and reads it on another event after the callback), so
// the release function frees exactly that blob.
void release_fence_data(void* blob) { std::free(blob); }

// Every participant is one of our local clients, so the collected data is already
// complete: return it as the result of the fence.
pmix_status_t on_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char* data,
                       size_t ndata, pmix_modex_cbfunc_t cbfunc, void* cbdata) {
  if (cbfunc == nullptr) {
    std::free(data);
    return PMIX_SUCCESS;
  }
  cbfunc(PMIX_SUCCESS, data, ndata, cbdata, release_fence_data, data);
  return PMIX_SUCCESS;
}

// Only asked about processes PMIx does not host locally; oshrun hosts every PE.
pmix_status_t on_direct_modex(const pmix_proc_t*, const pmix_info_t[], size_t,
                              pmix_modex_cbfunc_t, void*) {
  return PMIX_ERR_NOT_FOUND;
}

pmix_server_module_t make_module() {
  pmix_server_module_t module;
  std::memset(&module, 0, sizeof module);
  module.client_connected = nullptr;  // PEs need no approval to connect
  module.client_finalized = on_client_finalized;
  module.abort = on_abort;
  module.fence_nb = on_fence;
  module.direct_modex = on_direct_modex;
  return module;
}

pmix_server_module_t g_module = make_module();

// This machine's topology, loaded without hwloc's x86 component unless the user's
// HWLOC_COMPONENTS says otherwise; nullptr if hwloc cannot load one (the server then
// discovers it itself).  It lives as long as the process: the PMIx server keeps it.
hwloc_topology_t load_topology() {
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return nullptr;
  // The I/O objects PMIx's own discovery keeps (the NICs' locality).
  hwloc_topology_set_io_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
#if HWLOC_API_VERSION >= 0x00020100
  if (std::getenv("HWLOC_COMPONENTS") == nullptr)
    hwloc_topology_set_components(topology, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
#endif
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    return nullptr;
  }
  return topology;
}

}  // namespace

bool PmixHost::start() {
  if (!directory_.create()) return false;
  JobInfoList info;
  info.add_string(PMIX_SERVER_TMPDIR, directory_.path());
  info.add_string(PMIX_SYSTEM_TMPDIR, directory_.path());
  pmix_data_array_t array;
  if (!info.convert(array)) {
    std::fprintf(stderr, "oshrun: cannot build the PMIx server settings\n");
    return false;
  }
  // The server is handed the machine's topology instead of discovering it: hwloc's x86
  // component moves a process onto every CPU in turn to read CPUID there, half of oshrun's
  // start-up on an idle 2-core machine, seconds when the CPUs are busy, and more the more
  // CPUs a node has; Linux's sysfs, which hwloc reads anyway, gives what the PEs' placement
  // needs.  The PEs keep the user's hwloc settings.
  hwloc_topology_t topology = load_topology();
  pmix_topology_t handed = {const_cast<char*>("hwloc"), topology};
  // PMIx keeps the pointer (not a copy) for good, so the entry is added past the converted
  // list, whose destruction would destroy a copied topology.
  std::vector<pmix_info_t> settings(static_cast<pmix_info_t*>(array.array),
                                    static_cast<pmix_info_t*>(array.array) + array.size);
  if (topology != nullptr) {
    pmix_info_t entry;
    std::memset(&entry, 0, sizeof entry);
    PMIX_LOAD_KEY(entry.key, PMIX_TOPOLOGY2);
    entry.value.type = PMIX_TOPO;
    entry.value.data.topo = &handed;
    settings.push_back(entry);
  }
  pmix_status_t rc = PMIx_server_init(&g_module, settings.data(), settings.size());
  PMIx_Data_array_destruct(&array);
  if (rc != PMIX_SUCCESS) {
    std::fprintf(stderr, "oshrun: cannot start the PMIx server (PMIx_server_init: %s)\n",
                 PMIx_Error_string(rc));
    return false;
  }
  return true;
}

bool PmixHost::register_job(int num_pes) {
  nspace_ = "oshrun." + std::to_string(::getpid());
  pmix_data_array_t array;
  if (!build_job_info(nspace_, num_pes, array)) {
    std::fprintf(stderr, "oshrun: cannot build the PMIx job information\n");
    return false;
  }
  pmix_nspace_t ns;
  PMIX_LOAD_NSPACE(ns, nspace_.c_str());
  pmix_status_t rc = PMIx_server_register_nspace(
      ns, num_pes, static_cast<pmix_info_t*>(array.array), array.size, nullptr, nullptr);
  PMIx_Data_array_destruct(&array);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
    std::fprintf(stderr, "oshrun: cannot register the job with PMIx: %s\n",
                 PMIx_Error_string(rc));
    return false;
  }
  return true;
}

bool PmixHost::prepare_client(int rank, char*** env) {
  pmix_proc_t proc;
  PMIX_PROC_LOAD(&proc, nspace_.c_str(), static_cast<pmix_rank_t>(rank));
  pmix_status_t rc =
      PMIx_server_register_client(&proc, ::geteuid(), ::getegid(), this, nullptr, nullptr);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
    std::fprintf(stderr, "oshrun: cannot register PE %d with PMIx: %s\n", rank,
                 PMIx_Error_string(rc));
    return false;
  }
  rc = PMIx_server_setup_fork(&proc, env);
  if (rc != PMIX_SUCCESS) {
    std::fprintf(stderr, "oshrun: cannot prepare PE %d's PMIx environment: %s\n", rank,
                 PMIx_Error_string(rc));
    return false;
  }
  return true;
}

void PmixHost::on_abort(int rank, int status, const char* message) {
  events_.post_abort(AbortRequest{rank, status, message != nullptr ? message : ""});
}

void PmixHost::stop() {
  // Once every PE has been reaped there is nothing left for the PMIx server to serve, and
  // oshrun exits right after this.  PMIx 4.2 cannot be torn down safely after an abnormal
  // end: PMIx_server_deregister_nspace can deadlock against the progress thread's handling
  // of the PEs' lost connections, and PMIx_server_finalize can release a peer that handling
  // already released.  So the server is left to die with the process; everything it wrote
  // lives in the private directory removed here.
  directory_.remove();
}

}  // namespace tandem::oshrun
