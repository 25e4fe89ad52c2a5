#include "core/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <mutex>
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

#if defined(__x86_64__)
// The switch: saves the callee-saved registers, the SSE and x87 control words and the stack
// pointer of the running code in *from, and goes on where `to` was saved (or, the first
// time, at the entry that Fiber's constructor placed on its stack).  No system call, where
// swapcontext() saves and restores the signal mask with two.
extern "C" void tandem_fiber_switch(void** from, void* to);
asm(R"(
  .text
  .globl tandem_fiber_switch
  .hidden tandem_fiber_switch
  .type tandem_fiber_switch, @function
tandem_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size tandem_fiber_switch, .-tandem_fiber_switch
)");
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

Fiber::Fiber() : stack_(take_stack()) {
#ifdef TANDEM_FIBER_TSAN
  tsan_fiber_ = __tsan_create_fiber(0);
#endif
}

void Fiber::start(void (*body)(void*), void* arg) {
  if (!done_) fatal("a nonblocking collective", "internal error: a fiber started again before its body returned");
  body_ = body;
  arg_ = arg;
  done_ = false;
#if defined(__x86_64__)
  // What tandem_fiber_switch pops the first time, from a 16-byte aligned top: the control
  // words (the creator's), six registers, then entry() as the return address, above which
  // entry() finds the stack as a call leaves it (a return address slot, never used).
  auto* top = reinterpret_cast<uint64_t*>(stack_ + kStackBytes);
  top[-1] = 0;
  top[-2] = reinterpret_cast<uint64_t>(&Fiber::entry);
  for (int i = 3; i <= 8; ++i) top[-i] = 0;
  uint32_t words[2] = {0, 0};
  asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(words[0]), "=m"(words[1]));
  memcpy(&top[-9], words, sizeof(uint64_t));
  fiber_ = &top[-9];
#else
  getcontext(&fiber_);
  fiber_.uc_stack.ss_sp = stack_;
  fiber_.uc_stack.ss_size = kStackBytes;
  fiber_.uc_link = nullptr;
  makecontext(&fiber_, &Fiber::entry, 0);
#endif
}

Fiber::~Fiber() {
#ifdef TANDEM_FIBER_TSAN
  __tsan_destroy_fiber(tsan_fiber_);
#endif
  give_back(stack_);
}

__attribute__((noinline)) Fiber* Fiber::current() { return current_; }

void Fiber::switch_to(Context* save, Context* to) {
#if defined(__x86_64__)
  tandem_fiber_switch(save, *to);
#else
  swapcontext(save, to);
#endif
}

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
  switch_to(&resumer_, &fiber_);
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
  switch_to(&fiber_, &resumer_);
  if (ending) __builtin_unreachable();
  // Resumed, perhaps by another thread: its stack is the one to go back to next.
#ifdef TANDEM_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fiber_fake_, &resumer_bottom_, &resumer_size_);
#endif
}

void Fiber::entry() {
  Fiber* f = current_;
#ifdef TANDEM_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &f->resumer_bottom_, &f->resumer_size_);
#endif
  f->body_(f->arg_);
  f->done_ = true;
  f->switch_out(true);
}

}  // namespace tandem
