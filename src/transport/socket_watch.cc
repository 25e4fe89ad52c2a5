#include "transport/socket_watch.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tandem::ofi {

namespace {

// A socket address as a comparable string: family and port, then (`with_address`) the
// address bytes; empty if `name` is no IPv4 or IPv6 address.
std::string key(const void* name, size_t length, bool with_address) {
  sockaddr_storage a{};
  if (length < sizeof(sa_family_t) || length > sizeof a) return {};
  memcpy(&a, name, length);
  std::string k(1, static_cast<char>(a.ss_family));
  if (a.ss_family == AF_INET && length >= sizeof(sockaddr_in)) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(a);
    k.append(reinterpret_cast<const char*>(&in.sin_port), sizeof in.sin_port);
    if (with_address) k.append(reinterpret_cast<const char*>(&in.sin_addr), sizeof in.sin_addr);
    return k;
  }
  if (a.ss_family == AF_INET6 && length >= sizeof(sockaddr_in6)) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
    k.append(reinterpret_cast<const char*>(&in6.sin6_port), sizeof in6.sin6_port);
    if (with_address) k.append(reinterpret_cast<const char*>(&in6.sin6_addr), sizeof in6.sin6_addr);
    return k;
  }
  return {};
}

// Whether `name` (an IPv4 or IPv6 address, `length` bytes) is the wildcard address.
bool wildcard(const void* name, size_t length) {
  sockaddr_storage a{};
  memcpy(&a, name, length);
  if (a.ss_family == AF_INET) return reinterpret_cast<const sockaddr_in&>(a).sin_addr.s_addr == htonl(INADDR_ANY);
  return IN6_IS_ADDR_UNSPECIFIED(&reinterpret_cast<const sockaddr_in6&>(a).sin6_addr);
}

}  // namespace

void SocketWatch::start(const std::string& own, const std::vector<std::string>& peers) {
  on_ = false;
  sockets_.clear();
  peers_.clear();
  own_ = key(own.data(), own.size(), true);
  if (own_.empty()) return;
  own_any_ = wildcard(own.data(), own.size());
  if (own_any_) own_ = key(own.data(), own.size(), false);
  for (const std::string& peer : peers) {
    std::string k = key(peer.data(), peer.size(), true);
    if (k.empty()) return;
    peers_.push_back(std::move(k));
  }
  std::sort(peers_.begin(), peers_.end());
  on_ = true;
  rescan();
}

bool SocketWatch::rescan() {
  if (!on_) return false;
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
    if (key(&address, length, !own_any_) == own_) {
      found.push_back(static_cast<int>(fd));
      continue;
    }
    length = sizeof address;
    if (getpeername(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&address), &length) == 0 &&
        std::binary_search(peers_.begin(), peers_.end(), key(&address, length, true)))
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
