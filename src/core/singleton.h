// The library's process-wide objects (the runtime, the scheduler): made on first use and
// never destroyed (exit paths and atexit handlers may still use them), and reached with one
// load: every communication call asks for them, and a function-local static costs a call
// and its guard's check each time.
#pragma once

#include <atomic>

namespace tandem {

template <typename T>
class Singleton {
 public:
  static T& get() {
    T* made = instance_.load(std::memory_order_acquire);
    return __builtin_expect(made != nullptr, 1) ? *made : make();
  }

 private:
  static T& make() {
    static T* made = [] {
      T* t = new T;
      instance_.store(t, std::memory_order_release);
      return t;
    }();
    return *made;
  }
  static inline std::atomic<T*> instance_{nullptr};
};

}  // namespace tandem
