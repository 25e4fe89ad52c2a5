#include "job_directory.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "core/pid_name.h"

namespace tandem::oshrun {
namespace {

constexpr std::string_view kPrefix = "oshrun.";
constexpr const char* kLockName = "oshrun.lock";

// PMIx puts its contact files and data store in this directory, and may put Unix
// sockets there (paths limited to 108 bytes): an odd or long $TMPDIR falls back to /tmp.
std::string base_directory() {
  const char* env = std::getenv("TMPDIR");
  struct stat st;
  if (env != nullptr && env[0] == '/' && std::strlen(env) <= 48 && ::stat(env, &st) == 0 &&
      S_ISDIR(st.st_mode))
    return env;
  return "/tmp";
}

// "oshrun.<digits>.<suffix>": the shape create() gives its directories.
bool looks_like_job_directory(std::string_view name) {
  return pid_in_name(name, kPrefix, '.') >= 0 && !name.ends_with('.');
}

// A directory is stale when its lock file exists and can be locked: its oshrun is gone.
// No lock file (an oshrun between mkdtemp and taking its lock, or another program's
// directory) means "not provably stale": it is left alone.
bool is_stale(int base_fd, const char* name) {
  struct stat st;
  if (::fstatat(base_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
      st.st_uid != ::geteuid())
    return false;
  std::string lock_path = std::string(name) + "/" + kLockName;
  UniqueFd lock(::openat(base_fd, lock_path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  return lock.valid() && ::flock(lock.get(), LOCK_EX | LOCK_NB) == 0;
}

void remove_stale_directories(const std::string& base) {
  DIR* dir = ::opendir(base.c_str());
  if (dir == nullptr) return;
  while (dirent* entry = ::readdir(dir)) {
    if (!looks_like_job_directory(entry->d_name) || !is_stale(::dirfd(dir), entry->d_name))
      continue;
    std::error_code ignored;
    std::filesystem::remove_all(base + "/" + entry->d_name, ignored);
  }
  ::closedir(dir);
}

}  // namespace

bool JobDirectory::create() {
  const std::string base = base_directory();
  remove_stale_directories(base);

  std::string path = base + "/" + std::string(kPrefix) + std::to_string(::getpid()) + ".XXXXXX";
  if (::mkdtemp(path.data()) == nullptr) {
    std::fprintf(stderr, "oshrun: cannot create a temporary directory %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  path_ = path;
  // Locked under a temporary name, then renamed: whoever finds "oshrun.lock" finds it
  // already locked.
  const std::string unlocked = path_ + "/" + kLockName + ".new";
  lock_.reset(::open(unlocked.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (!lock_.valid() || ::flock(lock_.get(), LOCK_EX) != 0 ||
      ::rename(unlocked.c_str(), (path_ + "/" + kLockName).c_str()) != 0) {
    std::fprintf(stderr, "oshrun: cannot lock the temporary directory %s: %s\n", path_.c_str(),
                 std::strerror(errno));
    remove();
    return false;
  }
  return true;
}

void JobDirectory::remove() {
  if (!path_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    path_.clear();
  }
  lock_.reset();
}

}  // namespace tandem::oshrun
