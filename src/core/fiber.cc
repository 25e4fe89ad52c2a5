#include "core/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <utility>
#include <vector>

#include "core/error.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define TANDEM_FIBER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define TANDEM_FIBER_TSAN 1
#endif

namespace tandem {

thread_local Fiber* Fiber::current_ = nullptr;

namespace {

// The stacks of fibers that ended, for the next ones; each is guard page + kStackBytes.
std::mutex pool_mutex;
std::vector<char*> pool;

size_t page_bytes() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

char* take_stack() {
  {
    std::lock_guard<std::mutex> lock(pool_mutex);
    if (!pool.empty()) {
      char* stack = pool.back();
      pool.pop_back();
      return stack;
    }
  }
  const size_t guard = page_bytes();
  void* p = mmap(nullptr, guard + Fiber::kStackBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) fatal("a nonblocking collective", "could not map a stack of %zu bytes for it", Fiber::kStackBytes);
  mprotect(p, guard, PROT_NONE);
  return static_cast<char*>(p) + guard;
}

void give_back(char* stack) {
  std::lock_guard<std::mutex> lock(pool_mutex);
  pool.push_back(stack);
}

}  // namespace

Fiber::Fiber(std::function<void()> body) : body_(std::move(body)), stack_(take_stack()) {
  getcontext(&fiber_);
  fiber_.uc_stack.ss_sp = stack_;
  fiber_.uc_stack.ss_size = kStackBytes;
  fiber_.uc_link = nullptr;
  makecontext(&fiber_, &Fiber::start, 0);
#ifdef TANDEM_FIBER_TSAN
  tsan_fiber_ = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
#ifdef TANDEM_FIBER_TSAN
  __tsan_destroy_fiber(tsan_fiber_);
#endif
  give_back(stack_);
}

__attribute__((noinline)) Fiber* Fiber::current() { return current_; }

bool Fiber::resume() {
  if (done_) return true;
  if (current_) fatal("a nonblocking collective", "internal error: a fiber resumed another");
  current_ = this;
#ifdef TANDEM_FIBER_TSAN
  tsan_resumer_ = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
#ifdef TANDEM_FIBER_ASAN
  __sanitizer_start_switch_fiber(&resumer_fake_, stack_, kStackBytes);
#endif
  swapcontext(&resumer_, &fiber_);
#ifdef TANDEM_FIBER_ASAN
  __sanitizer_finish_switch_fiber(resumer_fake_, nullptr, nullptr);
#endif
  current_ = nullptr;
  return done_;
}

void Fiber::yield(bool network) {
  waits_on_network_ = network;
  switch_out(false);
}

// From the fiber's stack back to the resumer's; a fiber that ends never comes back.
void Fiber::switch_out(bool ending) {
#ifdef TANDEM_FIBER_TSAN
  __tsan_switch_to_fiber(tsan_resumer_, 0);
#endif
#ifdef TANDEM_FIBER_ASAN
  __sanitizer_start_switch_fiber(ending ? nullptr : &fiber_fake_, resumer_bottom_, resumer_size_);
#endif
  if (ending) {
    setcontext(&resumer_);
    __builtin_unreachable();
  }
  swapcontext(&fiber_, &resumer_);
  // Resumed, perhaps by another thread: its stack is the one to go back to next.
#ifdef TANDEM_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fiber_fake_, &resumer_bottom_, &resumer_size_);
#endif
}

void Fiber::start() {
  Fiber* f = current_;
#ifdef TANDEM_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &f->resumer_bottom_, &f->resumer_size_);
#endif
  f->body_();
  f->body_ = nullptr;  // what the body holds goes now, on the fiber's own stack
  f->done_ = true;
  f->switch_out(true);
}

}  // namespace tandem
