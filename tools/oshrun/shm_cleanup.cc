#include "shm_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/pid_name.h"
#include "mem/shared_file.h"

namespace tandem::oshrun {
namespace {

constexpr const char* kShmDir = "/dev/shm";
// The pid of the process that made a file: "tandem-<pid>-..." (the runtime's segments), or
// "<pid>:<uid>:<n>" (an endpoint's region of libfabric's shm provider, which a PE that ends
// without closing its endpoint leaves behind); -1 for any other name.
long creator_pid(std::string_view name) {
  const long pid = pid_in_name(name, kSharedFilePrefix, '-');
  return pid >= 0 ? pid : pid_in_name(name, "", ':');
}

}  // namespace

int remove_leftover_shm(const std::vector<pid_t>& pids, bool verbose) {
  if (pids.empty()) return 0;
  std::unordered_set<long> wanted(pids.begin(), pids.end());
  DIR* dir = ::opendir(kShmDir);
  if (dir == nullptr) return 0;
  const uid_t me = ::geteuid();
  int removed = 0;
  while (dirent* entry = ::readdir(dir)) {
    long pid = creator_pid(entry->d_name);
    if (pid < 0 || !wanted.contains(pid)) continue;
    // Another user's file that happens to match is not ours to remove.
    struct stat st;
    if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        st.st_uid != me || S_ISDIR(st.st_mode))
      continue;
    if (::unlinkat(::dirfd(dir), entry->d_name, 0) == 0) {
      ++removed;
      if (verbose) std::fprintf(stderr, "oshrun: removed leftover %s/%s\n", kShmDir, entry->d_name);
    }
  }
  ::closedir(dir);
  return removed;
}

}  // namespace tandem::oshrun
