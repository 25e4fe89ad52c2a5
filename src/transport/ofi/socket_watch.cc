#include "transport/ofi/socket_watch.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

#include "transport/ofi/socket_name.h"

namespace tandem::ofi {

void SocketWatch::start(const std::string& own) {
  stop();
  const SocketName name(own);
  if (!name.ok()) return;
  own_any_ = name.wildcard();
  own_ = name.key(!own_any_);
  on_ = true;
  rescan();
}

void SocketWatch::add_peer(const std::string& name) {
  std::string k = SocketName(name).key(true);
  if (k.empty()) {
    on_ = false;
    return;
  }
  std::lock_guard<std::mutex> lock(peers_mutex_);
  peers_.insert(std::lower_bound(peers_.begin(), peers_.end(), k), std::move(k));
}

void SocketWatch::stop() {
  on_ = false;
  sockets_.clear();
  dropped_.clear();
  std::lock_guard<std::mutex> lock(peers_mutex_);
  peers_.clear();
}

bool SocketWatch::rescan() {
  if (!on_) return false;
  std::lock_guard<std::mutex> lock(peers_mutex_);
  std::vector<int> found;
  std::vector<unsigned long> still_dropped;
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return false;
  while (dirent* entry = readdir(dir)) {
    char* end;
    const long fd = strtol(entry->d_name, &end, 10);
    if (*end || end == entry->d_name || fd == dirfd(dir)) continue;
    struct stat st;
    if (fstat(static_cast<int>(fd), &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    if (std::find(dropped_.begin(), dropped_.end(), st.st_ino) != dropped_.end()) {
      still_dropped.push_back(st.st_ino);
      continue;
    }
    int type = 0, listening = 0;
    socklen_t type_length = sizeof type, listening_length = sizeof listening;
    if (getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_TYPE, &type, &type_length) != 0 || type != SOCK_STREAM ||
        getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_ACCEPTCONN, &listening, &listening_length) != 0 || listening)
      continue;
    sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&address), &length) != 0) continue;
    if (SocketName(&address, length).key(!own_any_) == own_) {
      found.push_back(static_cast<int>(fd));
      continue;
    }
    length = sizeof address;
    if (getpeername(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&address), &length) == 0 &&
        std::binary_search(peers_.begin(), peers_.end(), SocketName(&address, length).key(true)))
      found.push_back(static_cast<int>(fd));
  }
  closedir(dir);
  dropped_.swap(still_dropped);
  if (found == sockets_) return false;
  sockets_.swap(found);
  return true;
}

void SocketWatch::drop(int fd) {
  struct stat st;
  if (fstat(fd, &st) == 0) dropped_.push_back(st.st_ino);
}

}  // namespace tandem::ofi
