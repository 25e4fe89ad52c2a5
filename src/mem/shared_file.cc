#include "mem/shared_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <set>

#include "core/error.h"
#include "core/pid_name.h"

namespace tandem {

namespace {
// Whether `pid` has ended: no such process, or a zombie that its parent has not reaped yet
// (the PEs of a launcher killed with them are reparented, and some inits reap late).
// EPERM from kill means a live process of another user.
bool process_gone(pid_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  char path[32];
  snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = fopen(path, "re");
  if (f == nullptr) return false;
  char line[512];
  const bool read = fgets(line, sizeof line, f) != nullptr;
  fclose(f);
  const char* paren = read ? strrchr(line, ')') : nullptr;  // the name may hold anything
  return paren != nullptr && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

// Names still linked, so that an exit path can remove them.  A plain array of fixed
// strings would do too; the set is touched only at init and exit.
std::mutex linked_mutex;
std::set<std::string>& linked_names() {
  static std::set<std::string> names;
  return names;
}
bool linked_here(const std::string& name) {
  std::lock_guard<std::mutex> lock(linked_mutex);
  return linked_names().count(name) != 0;
}
}  // namespace

SharedFile SharedFile::create(const char* call, const std::string& what, size_t size, Kind kind) {
  SharedFile f;
  f.size_ = size;
  if (kind != Kind::DevShm) {
    const std::string label = std::string(kSharedFilePrefix) + what;
    f.fd_ = memfd_create(label.c_str(), MFD_CLOEXEC);
    if (f.fd_ < 0 && kind == Kind::Memfd)
      fatal(call, "cannot create a memfd of %zu bytes for the %s (TANDEM_SHARED_MEMORY=memfd): %s", size,
            what.c_str(), strerror(errno));
  }
  if (f.fd_ >= 0) {
    struct stat st;
    if (fstat(f.fd_, &st) != 0 || ftruncate(f.fd_, static_cast<off_t>(size)) != 0)
      fatal(call, "cannot size a memfd to %zu bytes for the %s: %s", size, what.c_str(), strerror(errno));
    f.memfd_ = true;
    f.locator_ = memfd_locator(getpid(), f.fd_, static_cast<uint64_t>(st.st_ino));
    return f;
  }
  f.locator_ = file_locator(getpid(), what);
  const char* name = f.locator_.c_str();
  f.fd_ = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  // The name holds this process's pid and this process has not made it: an ended process
  // that had the same pid left it (killed before its node peers mapped it, and not yet old
  // enough for the stale-file sweep).  It is nobody's now.
  if (f.fd_ < 0 && errno == EEXIST && !linked_here(f.locator_) && shm_unlink(name) == 0)
    f.fd_ = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (f.fd_ < 0) fatal(call, "cannot create shared memory /dev/shm%s: %s", name, strerror(errno));
  {
    std::lock_guard<std::mutex> lock(linked_mutex);
    linked_names().insert(f.locator_);
  }
  f.linked_ = true;
  if (ftruncate(f.fd_, static_cast<off_t>(size)) != 0) {
    int err = errno;
    f.peers_mapped();
    fatal(call, "cannot size shared memory /dev/shm%s to %zu bytes: %s", name, size, strerror(err));
  }
  return f;
}

SharedFile& SharedFile::operator=(SharedFile&& other) noexcept {
  std::swap(locator_, other.locator_);
  std::swap(fd_, other.fd_);
  std::swap(size_, other.size_);
  std::swap(memfd_, other.memfd_);
  std::swap(linked_, other.linked_);
  return *this;
}

SharedFile::~SharedFile() {
  peers_mapped();
  if (fd_ >= 0) close(fd_);
}

int SharedFile::reserve(size_t offset, size_t len) const {
  if (memfd_ || len == 0) return 0;
  if (fd_ < 0) return EBADF;
  return posix_fallocate(fd_, static_cast<off_t>(offset), static_cast<off_t>(len));
}

void SharedFile::peers_mapped() {
  if (memfd_ && fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
  if (!linked_) return;
  shm_unlink(locator_.c_str());
  linked_ = false;
  std::lock_guard<std::mutex> lock(linked_mutex);
  linked_names().erase(locator_);
}

void* SharedFile::map_peer(const char* call, int pe, const std::string& locator, size_t size) {
  const auto where = parse_shared_locator(locator);
  if (!where) fatal(call, "PE %d sent an unreadable shared-memory locator", pe);
  std::string path = where->memfd ? "/proc/" + std::to_string(where->pid) + "/fd/" + std::to_string(where->fd)
                                  : where->name;
  int fd = where->memfd ? open(path.c_str(), O_RDWR | O_CLOEXEC) : shm_open(path.c_str(), O_RDWR | O_CLOEXEC, 0);
  struct stat st;
  if (fd >= 0 && where->memfd && (fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_ino) != where->inode)) {
    close(fd);
    fd = -1;
    errno = ESRCH;  // another process's descriptor: the peer's pid means something else here
  }
  if (fd < 0 && where->memfd)
    fatal(call,
          "cannot open PE %d's shared memory (its memfd, %s): %s; a node's PEs must share a PID namespace and "
          "/proc to share memfds, else set TANDEM_SHARED_MEMORY=dev-shm",
          pe, path.c_str(), strerror(errno));
  if (fd < 0) fatal(call, "cannot open PE %d's shared memory /dev/shm%s: %s", pe, path.c_str(), strerror(errno));
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  int err = errno;
  close(fd);
  if (p == MAP_FAILED) fatal(call, "cannot map PE %d's shared memory %s: %s", pe, path.c_str(), strerror(err));
  return p;
}

std::string dev_shm_shortage(size_t bytes, const char* what, int err) {
  struct statvfs vfs;
  const unsigned long long free_bytes =
      statvfs("/dev/shm", &vfs) == 0 ? static_cast<unsigned long long>(vfs.f_bavail) * vfs.f_frsize : 0;
  char line[512];
  snprintf(line, sizeof line,
           "cannot reserve %zu bytes of %s in /dev/shm (%llu bytes are free there): %s; give /dev/shm more room "
           "or set TANDEM_SHARED_MEMORY=memfd",
           bytes, what, free_bytes, strerror(err));
  return line;
}

void unlink_all_shared_files() {
  std::lock_guard<std::mutex> lock(linked_mutex);
  for (const auto& n : linked_names()) shm_unlink(n.c_str());
  linked_names().clear();
}

int remove_stale_shared_files(std::chrono::seconds min_age) {
  DIR* dir = opendir("/dev/shm");
  if (dir == nullptr) return 0;
  const uid_t me = geteuid();
  const time_t now = time(nullptr);
  int removed = 0;
  while (const dirent* entry = readdir(dir)) {
    const char* name = entry->d_name;
    const long pid = pid_in_name(name, kSharedFilePrefix, '-');
    if (pid <= 0) continue;
    struct stat st;
    if (fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != me ||
        !S_ISREG(st.st_mode) || now - st.st_mtime < min_age.count())
      continue;
    if (!process_gone(static_cast<pid_t>(pid))) continue;
    if (unlinkat(dirfd(dir), name, 0) == 0) ++removed;
  }
  closedir(dir);
  return removed;
}

}  // namespace tandem
