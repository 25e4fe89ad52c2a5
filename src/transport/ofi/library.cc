// libfabric is loaded when the first PE of a job needs the network, not when the program
// starts.  Debian's libfabric pulls in its PSM libraries, whose constructors time the CPU's
// clock for 100 ms each, bound to one CPU, in every process that loads them; a job whose PEs
// share one node never calls libfabric, so it should not pay for it.
//
// The six functions of libfabric's ABI that Tandem calls (everything else is an inline call
// through the objects they return) are defined here, hidden in libtandem so that a program's
// own use of libfabric is untouched; each forwards to the library, loaded on the first call.
#include "config.h"

#include <dlfcn.h>
#include <link.h>
#include <rdma/fabric.h>
#include <rdma/fi_errno.h>
#include <signal.h>

#include <algorithm>
#include <mutex>
#include <string>

#include "core/error.h"
#include "transport/ofi/answer_slots.h"
#include "transport/ofi/kept_signals.h"
#include "transport/ofi/provider.h"

namespace tandem::ofi {
namespace {

struct Library {
  decltype(&::fi_getinfo) getinfo;
  decltype(&::fi_freeinfo) freeinfo;
  decltype(&::fi_dupinfo) dupinfo;
  decltype(&::fi_fabric) fabric;
  decltype(&::fi_strerror) strerror;
  decltype(&::fi_version) version;
  std::string file;  // the file the loader opened
};

template <typename F>
void resolve(void* handle, const char* path, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(handle, name));
  if (!f) fatal("libfabric", "%s has no %s: %s", path, name, dlerror());
}

// rxm's pools, sized for what Tandem sends through them, unless the user sized them (libfabric
// reads its variables when it first initialises, so this precedes the first call).  rxm makes
// its bounce buffers in chunks of 1024, each buffer FI_OFI_RXM_BUFFER_SIZE bytes, and posts
// FI_OFI_RXM_MSG_RX_SIZE of them per connection to receive messages: at the defaults (16 KiB,
// 128) a PE touched about 90 MB on its first peer across nodes.  Tandem's messages are its
// 48-byte software atomics, notifications and probes and rxm's own for provider atomics; its
// writes and reads bypass the buffers (rxm's inject size over tcp is 64 bytes whatever the
// buffer size).  rxm also keeps two queues of receive entries, about 240 bytes each, as many
// as an endpoint's receive size (FI_OFI_RXM_RX_SIZE, 2048 by default: 1 MB), of which Tandem
// posts one per answer slot.  perf/scale.sh shows the memory; man 7 tandem, PROVIDERS, says
// why.
void size_provider_pools() {
  setenv("FI_OFI_RXM_BUFFER_SIZE", "512", 0);
  setenv("FI_OFI_RXM_MSG_RX_SIZE", "32", 0);
  setenv("FI_OFI_RXM_RX_SIZE", std::to_string(AnswerSlots::kSlots).c_str(), 0);
}

// The largest universe announce_job_size() gives (provider.h says why).
constexpr int kUniverse = 64;

const Library& library() {
  static Library lib;
  static std::once_flag once;
  std::call_once(once, [] {
    size_provider_pools();
    // The libfabric Tandem was built against first, then the loader's search path.  The
    // constructors of libraries it depends on may install signal handlers (the PSM ones
    // catch SIGINT, SIGTERM, SIGSEGV and more to print a backtrace and exit, which would
    // turn oshrun's SIGTERM into an exit on whatever thread takes it): the program's
    // handlers, or the defaults, are kept.  (Handlers there before shmem_init, from a
    // libfabric the program loaded itself, are restore_crash_signals()'s business.)
    const char* paths[] = {TANDEM_FABRIC_LIBDIR "/libfabric.so.1", "libfabric.so.1"};
    void* handle = nullptr;
    const char* path = nullptr;
    {
      KeptSignalHandlers kept;
      for (const char* p : paths) {
        if ((handle = dlopen(p, RTLD_NOW | RTLD_LOCAL))) {
          path = p;
          break;
        }
      }
    }
    if (!handle) fatal("libfabric", "cannot load libfabric.so.1, which PEs on other nodes need: %s", dlerror());
    link_map* map = nullptr;
    lib.file = dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr ? map->l_name : path;
    resolve(handle, path, "fi_getinfo", lib.getinfo);
    resolve(handle, path, "fi_freeinfo", lib.freeinfo);
    resolve(handle, path, "fi_dupinfo", lib.dupinfo);
    resolve(handle, path, "fi_fabric", lib.fabric);
    resolve(handle, path, "fi_strerror", lib.strerror);
    resolve(handle, path, "fi_version", lib.version);
  });
  return lib;
}

}  // namespace
}  // namespace tandem::ofi

const char* tandem::ofi::library_file() { return library().file.c_str(); }

void tandem::ofi::announce_job_size(int n_pes) {
  if (n_pes > 0) setenv("FI_UNIVERSE_SIZE", std::to_string(std::min(n_pes, kUniverse)).c_str(), 0);
}

using tandem::ofi::library;

#define TANDEM_HIDDEN extern "C" __attribute__((visibility("hidden")))

TANDEM_HIDDEN int fi_getinfo(uint32_t version, const char* node, const char* service, uint64_t flags,
                             const struct fi_info* hints, struct fi_info** info) {
  return library().getinfo(version, node, service, flags, hints, info);
}

TANDEM_HIDDEN void fi_freeinfo(struct fi_info* info) { library().freeinfo(info); }

TANDEM_HIDDEN struct fi_info* fi_dupinfo(const struct fi_info* info) { return library().dupinfo(info); }

TANDEM_HIDDEN int fi_fabric(struct fi_fabric_attr* attr, struct fid_fabric** fabric, void* context) {
  return library().fabric(attr, fabric, context);
}

TANDEM_HIDDEN const char* fi_strerror(int errnum) { return library().strerror(errnum); }

TANDEM_HIDDEN uint32_t fi_version(void) { return library().version(); }
