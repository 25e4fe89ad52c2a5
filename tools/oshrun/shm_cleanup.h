// Removing shared-memory files that PEs left behind.  The runtime names them
// /dev/shm/tandem-<pid>-<something>, <pid> being the creating PE's process id, and unlinks
// them itself; a PE that dies at the wrong moment cannot, so oshrun does at job end.  The
// same for the regions /dev/shm/<pid>:<uid>:<n> of libfabric's shm provider
// (TANDEM_OFI_PROVIDER=shm), which a PE that ends without closing its endpoint leaves.
#pragma once

#include <sys/types.h>

#include <vector>

namespace tandem::oshrun {

// Unlinks /dev/shm/tandem-<pid>-* and /dev/shm/<pid>:* owned by this user for each pid.  Returns how many
// files were removed.
int remove_leftover_shm(const std::vector<pid_t>& pids, bool verbose);

}  // namespace tandem::oshrun
