// A fiber: a function that runs on a stack of its own and can stop part way (yield) to be
// resumed later, by the thread that started it or by another.  The nonblocking collectives
// run the blocking algorithms on fibers: where the algorithm would wait for a peer, the
// fiber yields, and whoever drives the PE's progress (a library call, a test or wait of the
// request, the progress thread) resumes it.
//
// A fiber runs one body after another: start() sets the next one going on the same stack
// once the last has returned, so a fiber kept for a stream of bodies (a team's requests)
// costs no allocation per body.
//
// Stacks come from a pool: kStackBytes of address space each, mapped without reserving
// memory, below a page left inaccessible (an overflow faults there instead of writing into
// whatever lies below), and kept for the next fiber when one is destroyed: only the pages a
// fiber touched cost memory, and making one costs no system call once the pool holds a stack.
//
// Switching saves and restores the registers a call preserves and the stack pointer (on
// x86-64 in a few instructions, elsewhere with swapcontext, which also saves the signal
// mask: two system calls a switch).
//
// A fiber never resumes another (resume() on a fiber is a fatal error), and the caller of
// resume() must make sure that no two threads resume one fiber at once.
#pragma once

#include <ucontext.h>

#include <cstddef>

namespace tandem {

class Fiber {
 public:
  static constexpr size_t kStackBytes = 1 << 20;

  Fiber();
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // The next body, `body(arg)`, from the top of the stack at the next resume(); the fiber
  // must be new or done (its last body returned).
  void start(void (*body)(void*), void* arg);
  // Runs the fiber until it yields or its body returns; true once the body has returned
  // (or none was started).
  bool resume();
  bool done() const { return done_; }

  // The fiber that the calling thread runs, or nullptr on a thread's own stack.  Out of line
  // on purpose: a fiber may be resumed by another thread, and code that yields in a loop
  // must read the thread's variable anew after each yield, which the compiler could
  // otherwise keep from before it.
  static Fiber* current();
  // What the fiber's creator keeps with it (the collectives' working memory).
  void* data() const { return data_; }
  void set_data(void* data) { data_ = data; }
  // Called on this fiber: back to the thread that resumed it, until the next resume().
  // `network`: what the fiber waits for comes from another node (its arrival wakes the
  // progress thread), not from this node's memory (which nothing announces).
  void yield(bool network);
  bool waits_on_network() const { return waits_on_network_; }

 private:
  // Where a switch left off: the stack pointer, on x86-64 (fiber.cc's switch), else a
  // ucontext.
#if defined(__x86_64__)
  using Context = void*;
#else
  using Context = ucontext_t;
#endif
  static void entry();
  void switch_out(bool ending);
  // Saves the running code in *save and goes on at *to.
  static void switch_to(Context* save, Context* to);

  void (*body_)(void*) = nullptr;
  void* arg_ = nullptr;
  char* stack_ = nullptr;  // the usable stack, kStackBytes above the guard page
  Context fiber_{};
  Context resumer_{};
  bool done_ = true;
  bool waits_on_network_ = false;
  void* data_ = nullptr;
  // The sanitizers' view of the switches: AddressSanitizer's fake stacks and the bounds of
  // the stack that resumed the fiber; ThreadSanitizer's fibers.
  void* fiber_fake_ = nullptr;
  void* resumer_fake_ = nullptr;
  const void* resumer_bottom_ = nullptr;
  size_t resumer_size_ = 0;
  void* tsan_fiber_ = nullptr;
  void* tsan_resumer_ = nullptr;

  static thread_local Fiber* current_;
};

}  // namespace tandem
