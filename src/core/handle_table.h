// The objects behind the handles the API gives out (contexts, teams).
//
// A handle is a pointer, and programs pass garbage ones: a destroyed context, a pointer that
// never was a team.  The objects therefore live in one range of address space, reserved at
// first use and never given back, and a handle is live only if it points at the start of a
// slot of that range whose flag says so.  Checking a handle reads nothing outside the table,
// so it never faults and never reads freed memory; a destroyed slot is reused by a later
// create.  The range is reserved, not committed: pages are touched only as slots are used.
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "core/spin_lock.h"

namespace tandem {

template <typename T, size_t kCapacity>
class HandleTable {
 public:
  // A new object in a free slot, or nullptr when every slot is taken (or the range could not
  // be reserved).
  template <typename... Args>
  T* create(Args&&... args) {
    std::lock_guard<SpinLock> lock(mutex_);
    if (!reserve()) return nullptr;
    size_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else if (used_.load(std::memory_order_relaxed) < kCapacity) {
      index = used_.load(std::memory_order_relaxed);
      used_.store(index + 1, std::memory_order_release);
    } else {
      return nullptr;
    }
    Slot& slot = slots_.load(std::memory_order_relaxed)[index];
    T* object = new (slot.storage) T(std::forward<Args>(args)...);
    slot.live.store(true, std::memory_order_release);
    return object;
  }

  // True when `p` is an object of this table that was created and not destroyed since.
  bool live(const void* p) const {
    const Slot* slots = slots_.load(std::memory_order_acquire);
    if (slots == nullptr) return false;
    const uintptr_t offset = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(slots);
    if (offset >= used_.load(std::memory_order_acquire) * sizeof(Slot) || offset % sizeof(Slot) != 0) return false;
    return slots[offset / sizeof(Slot)].live.load(std::memory_order_acquire);
  }

  // Ends the object's life; `p` must be live.
  void destroy(T* p) {
    std::lock_guard<SpinLock> lock(mutex_);
    Slot* slot = reinterpret_cast<Slot*>(p);
    slot->live.store(false, std::memory_order_release);
    p->~T();
    free_.push_back(static_cast<size_t>(slot - slots_.load(std::memory_order_relaxed)));
  }

 private:
  struct Slot {
    alignas(T) unsigned char storage[sizeof(T)];
    std::atomic<bool> live;
  };

  bool reserve() {
    if (slots_.load(std::memory_order_relaxed)) return true;
    void* range = mmap(nullptr, kCapacity * sizeof(Slot), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED) return false;
    slots_.store(static_cast<Slot*>(range), std::memory_order_release);  // zero-filled: no slot live
    return true;
  }

  std::atomic<Slot*> slots_{nullptr};
  std::atomic<size_t> used_{0};  // slots ever handed out: the live ones lie below
  std::vector<size_t> free_;
  SpinLock mutex_;  // held for a slot taken or given back, and its object made or ended
};

}  // namespace tandem
