// A file in /dev/shm that one PE creates and its node's peers map.  Created exclusive with
// mode 0600 and named tandem-<pid>-<what>, so that a launcher can remove what a crashed PE
// left behind; unlinked as soon as every peer has mapped it.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace tandem {

// The start of every name SharedFile::create gives: tandem-<pid>-<what>.
inline constexpr std::string_view kSharedFilePrefix = "tandem-";

class SharedFile {
 public:
  // Creates /dev/shm/tandem-<pid>-<what> of `size` bytes (sparse).  Ends the PE on failure.
  static SharedFile create(const char* call, const std::string& what, size_t size);
  SharedFile() = default;
  SharedFile(SharedFile&& other) noexcept { *this = std::move(other); }
  SharedFile& operator=(SharedFile&& other) noexcept;
  ~SharedFile();

  const std::string& name() const { return name_; }
  int fd() const { return fd_; }
  size_t size() const { return size_; }
  // Removes the name; mappings stay valid.  Safe to call more than once.
  void unlink();

  // Maps a peer's file by name (read-write, shared).  Ends the PE on failure.
  static void* map_peer(const char* call, const std::string& name, size_t size);

 private:
  std::string name_;
  int fd_ = -1;
  size_t size_ = 0;
  bool linked_ = false;
};

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
