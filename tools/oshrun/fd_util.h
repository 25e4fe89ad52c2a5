// File-descriptor helpers for oshrun: an owning handle, pipes that do not leak
// into the PEs, and writes that survive partial progress and non-blocking targets.
#pragma once

#include <cstddef>
#include <utility>

namespace tandem::oshrun {

// Owns one file descriptor; closes it when destroyed or reset.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

// Both ends close-on-exec: the child side is dup2()ed onto 0/1/2, which clears the flag.
bool make_pipe(Pipe& out);
bool set_nonblocking(int fd);
// True when `fd` refers to an open file description.
bool fd_is_open(int fd);
// True when both descriptors refer to the same file (a terminal, `2>&1`...).
bool same_file(int a, int b);

// Writes all of `data`, retrying on EINTR and waiting on EAGAIN (the descriptor may be
// non-blocking because another process shares it).  False on any other error (EPIPE...).
bool write_all(int fd, const char* data, std::size_t size);

}  // namespace tandem::oshrun
