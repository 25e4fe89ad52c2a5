// Zero-filled memory taken straight from the kernel, whose pages cost resident memory only
// once touched: for a table with an entry per PE of the job, of which a PE touches those of
// the few PEs it deals with (man 7 tandem, SCALING).  Released when destroyed.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <utility>

namespace tandem {

class ZeroPages {
 public:
  ZeroPages() = default;
  // data() is nullptr where the kernel refuses the range.
  explicit ZeroPages(size_t bytes) {
    if (bytes == 0) return;
    void* range = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED) return;
    data_ = range;
    size_ = bytes;
  }
  ZeroPages(ZeroPages&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroPages& operator=(ZeroPages&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ZeroPages(const ZeroPages&) = delete;
  ZeroPages& operator=(const ZeroPages&) = delete;
  ~ZeroPages() { release(); }

  void* data() const { return data_; }
  size_t size() const { return size_; }
  void release() {
    if (data_) munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tandem
