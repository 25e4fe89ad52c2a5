#include "shm_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_set>

namespace tandem::oshrun {
namespace {

constexpr const char* kShmDir = "/dev/shm";
constexpr std::string_view kPrefix = "tandem-";

// The <pid> of a file a PE makes: "tandem-<pid>-..." (the runtime's segments), or
// "<pid>:<uid>:<n>" (an endpoint's region of libfabric's shm provider, which a PE that ends
// without closing its endpoint leaves behind); -1 when the name has another shape.
long pid_in_name(std::string_view name) {
  char end = ':';
  if (name.starts_with(kPrefix)) {
    name.remove_prefix(kPrefix.size());
    end = '-';
  }
  std::size_t at = name.find(end);
  if (at == 0 || at == std::string_view::npos) return -1;
  long pid = 0;
  for (char c : name.substr(0, at)) {
    if (c < '0' || c > '9' || pid > 100000000) return -1;
    pid = pid * 10 + (c - '0');
  }
  return pid;
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
    long pid = pid_in_name(entry->d_name);
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
