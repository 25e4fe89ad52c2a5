// Per-PE state that a PE keeps only for the peers it deals with: an array indexed by PE
// whose entries live on pages of kPage, a page made when one of its entries is first
// taken, so that the PEs a PE never reaches cost it a pointer per kPage of them (man 7
// tandem, SCALING) instead of an entry each.  A page, once made, stays until reset(): the
// references at() gives stay valid, and the entries keep the synchronisation their own
// type gives them (atomics, or a lock of the caller's).  Pages are made lock-free: two
// threads that take the first entry of one page at once make it once.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

namespace tandem {

template <typename T, size_t kPage = 64>
class PeerPages {
 public:
  PeerPages() = default;
  PeerPages(const PeerPages&) = delete;
  PeerPages& operator=(const PeerPages&) = delete;
  ~PeerPages() { reset(0); }

  // Room for `pes` entries, every one as T{} and no page made.
  void reset(size_t pes) {
    for (size_t p = 0; p < pages(); ++p) delete[] pages_[p].load(std::memory_order_relaxed);
    pes_ = pes;
    pages_.reset(pes ? new std::atomic<T*>[pages()]() : nullptr);
  }
  size_t size() const { return pes_; }

  // `pe`'s entry, its page made if need be.
  T& at(size_t pe) {
    std::atomic<T*>& slot = pages_[pe / kPage];
    T* page = slot.load(std::memory_order_acquire);
    if (__builtin_expect(page == nullptr, 0)) page = make(slot);
    return page[pe % kPage];
  }
  // `pe`'s entry if its page was made, else nullptr (the entry is T{}).
  const T* find(size_t pe) const {
    const T* page = pages_[pe / kPage].load(std::memory_order_acquire);
    return page ? page + pe % kPage : nullptr;
  }
  // How many pages are made (TANDEM_STATS, tests).
  size_t pages_made() const {
    size_t n = 0;
    for (size_t p = 0; p < pages(); ++p) n += pages_[p].load(std::memory_order_relaxed) != nullptr;
    return n;
  }

 private:
  size_t pages() const { return (pes_ + kPage - 1) / kPage; }
  static T* make(std::atomic<T*>& slot) {
    T* fresh = new T[kPage]();
    T* expected = nullptr;
    if (slot.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel, std::memory_order_acquire))
      return fresh;
    delete[] fresh;  // another thread made it first
    return expected;
  }

  size_t pes_ = 0;
  std::unique_ptr<std::atomic<T*>[]> pages_;
};

}  // namespace tandem
