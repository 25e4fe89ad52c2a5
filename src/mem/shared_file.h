// Memory that one PE creates and its node's peers map: the symmetric heap and the globals.
// Two kinds, chosen by TANDEM_SHARED_MEMORY:
//  - a memfd, which no file system's size limits (a container's small /dev/shm does not
//    apply) and which nothing outside the processes names, so a crash leaves nothing
//    behind.  Peers open it through /proc/<pid>/fd/<fd>, which needs a shared PID namespace
//    and the creator's permission to be traced (the same user).
//  - a file /dev/shm/tandem-<pid>-<what>, created exclusive with mode 0600 and unlinked as
//    soon as every peer has mapped it (a launcher removes what a crashed PE left).  Pages of
//    such a file beyond the mount's size fault with SIGBUS when touched, so its pages are
//    reserved (fallocate) before they are handed out, where a shortage can be reported.
// A peer learns where to find it from its locator, a short text sent in the PE's card.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/cards.h"  // SharedLocator, kSharedFilePrefix
#include "core/config.h"

namespace tandem {

class SharedFile {
 public:
  // TANDEM_SHARED_MEMORY's choice (core/config.h).
  using Kind = Config::SharedMemory;
  // Creates `size` bytes (sparse) of `kind` (Auto: a memfd where the kernel allows one, else
  // a file in /dev/shm).  Ends the PE on failure.
  static SharedFile create(const char* call, const std::string& what, size_t size, Kind kind);
  SharedFile() = default;
  SharedFile(SharedFile&& other) noexcept { *this = std::move(other); }
  SharedFile& operator=(SharedFile&& other) noexcept;
  ~SharedFile();

  // What a peer passes to map_peer.
  const std::string& locator() const { return locator_; }
  int fd() const { return fd_; }
  size_t size() const { return size_; }
  bool is_memfd() const { return memfd_; }
  // Makes [offset, offset + len) safe to touch: reserves the pages of a file in /dev/shm
  // (nothing to do for a memfd).  Returns 0, or the errno (ENOSPC: /dev/shm is full).
  int reserve(size_t offset, size_t len) const;
  // Every peer has mapped it: removes the file's name, or closes the memfd's descriptor
  // (a file keeps its descriptor for reserve).  Mappings stay valid; safe to call twice.
  void peers_mapped();

  // Maps PE `pe`'s memory from its locator (read-write, shared).  Ends the PE on failure.
  static void* map_peer(const char* call, int pe, const std::string& locator, size_t size);

 private:
  std::string locator_;
  int fd_ = -1;
  size_t size_ = 0;
  bool memfd_ = false;
  bool linked_ = false;
};

// The line for a reserve() that failed with `err` on `bytes` bytes of `what` ("the
// symmetric heap"): the size, the space free in /dev/shm and the settings to change.
std::string dev_shm_shortage(size_t bytes, const char* what, int err);

// Unlinks every file this process created and has not unlinked yet (for exit paths).
void unlink_all_shared_files();

// Unlinks /dev/shm/tandem-<pid>-* files of this user whose creating process no longer exists
// and that were last modified at least `min_age` ago; returns how many.  They are what a job
// killed as a whole (launcher and PEs together, SIGKILL) during shmem_init leaves: a PE's
// files are linked only from their creation until its node's peers have mapped them, and a
// launcher that dies with its PEs cannot remove them.  The age keeps the sweep away from a
// job still starting in another PID namespace that shares /dev/shm.
int remove_stale_shared_files(std::chrono::seconds min_age);

}  // namespace tandem
