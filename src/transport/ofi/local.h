// The inter-node engine's local side under the rules of RDMA NICs (provider.h).
// FI_MR_LOCAL: every local buffer an operation hands the provider needs a descriptor.  The
// symmetric segments and the engine's own buffers are registered once; a private buffer (the
// stack, malloc) goes through a registered bounce slot up to TANDEM_OFI_BOUNCE bytes, which
// costs a copy, and beyond that is registered for the operation alone, which costs a
// registration and leaves the reuse of registrations to the provider's own cache (verbs and
// efa keep one, invalidated when memory is unmapped; a cache of Tandem's could not see that).
// FI_CONTEXT/FI_CONTEXT2: every operation with a completion carries a context of the
// provider's (struct fi_context2) that stays untouched until it completes; the engine's
// record of what the completion means rides along.  Without these rules the operation's own
// record goes as its context, as before, and nothing is copied or registered.
// When TANDEM_OFI_REQUIRE imposes a rule the provider does not, its use is also checked: a
// descriptor must belong to a live registration that covers the buffer, and a completion
// must come for a context that is in flight (the provider context is scribbled over, as a
// provider may).
#pragma once

#include <rdma/fabric.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "transport/ofi/provider.h"

struct fid_domain;
struct fid_ep;
struct fid_mr;

namespace tandem::ofi {

// A key for the provider to use, drawn at random (getrandom) and cut to `key_bytes`: the
// first key a PE requests, so that a process outside the job that reaches the endpoint cannot
// guess the keys of its memory, as it could counters that start where every job starts.
uint64_t random_key(size_t key_bytes);

class LocalMemory {
 public:
  // What an operation holds until it completes.
  struct Hold {
    char* bounce = nullptr;     // a bounce slot, freed at completion
    size_t used = 0;            // of its bytes
    char* copy_from = nullptr;  // at completion, copy_bytes from here (in the slot) to copy_to
    void* copy_to = nullptr;
    size_t copy_bytes = 0;
    fid_mr* registration = nullptr;  // the operation's own, closed at completion
  };
  // A local buffer as the provider gets it.
  struct Buffer {
    void* at;
    void* desc;
  };

  LocalMemory();
  ~LocalMemory();
  // `contexts`: the most operations with a completion in flight at once.  `bounce_bytes`:
  // private buffers up to this size are copied through bounce slots.  `key_bytes`: the
  // provider's key size (mr_key_size).
  void open(fid_domain* domain, fid_ep* ep, const Rules& rules, const Rules& checked, size_t contexts,
            size_t bounce_bytes, size_t key_bytes);
  void close();

  // Registers [base, base + bytes) with `access` (FI_READ, FI_REMOTE_WRITE, ...), bound to
  // the endpoint where the provider asks; a region with local access is a buffer the
  // engine's operations use (descriptor lookups find it).  Closed by close().
  fid_mr* add(const char* call, void* base, size_t bytes, uint64_t access);

  // The buffer an operation reads (a write's source, an atomic's operand, a send) or writes
  // (a read's destination, a fetched result), as the provider gets it: unchanged, with the
  // descriptor of the registered region it lies in; else in `hold`'s bounce slot (copied in
  // now, or copied out at completion), or registered for the operation.  False where no
  // bounce slot is free: the caller drives progress, which frees them, and asks again.
  // Requires the engine's lock (a registration is a call into the provider).
  bool outgoing(const char* call, const void* p, size_t bytes, Hold* hold, Buffer* out);
  bool incoming(const char* call, void* p, size_t bytes, Hold* hold, Buffer* out);
  // Whether outgoing() and incoming() can take the caller's buffer unchanged without a lock:
  // no descriptors are needed.
  bool plain() const { return !rules_.mr_local; }

  // The context to post an operation with: a pooled record of `owner` and `hold`, or `owner`
  // itself where no rule asks for a context and nothing is held.  Null while every pooled
  // record is in flight (the caller drives progress and asks again).  Under the engine's lock.
  void* context(void* owner, const Hold& hold);
  // A completion's context back to its owner, once the hold is settled (a bounce copy, a
  // registration closed); null stays null.  `remote_data`: the entry carries remote CQ data
  // (it may be an incoming write's, with no context of this PE's).  Under the engine's lock.
  void* complete(void* context, bool remote_data = false);

  // With checked descriptors: ends the PE unless `desc` is that of a live registration
  // covering [p, p + bytes).  Under the engine's lock.
  void check(const char* call, const void* p, size_t bytes, void* desc) const {
    if (checked_.mr_local && bytes > 0) check_descriptor(call, p, bytes, desc);
  }

 private:
  struct Context;
  struct Region {
    const char* base;
    size_t bytes;
    fid_mr* mr;
    void* desc;
  };
  const Region* region_of(const void* p, size_t bytes) const;
  bool stage(const char* call, void* p, size_t bytes, bool in, Hold* hold, Buffer* out);
  void check_descriptor(const char* call, const void* p, size_t bytes, void* desc) const;
  void settle(Hold& hold);

  fid_domain* domain_ = nullptr;
  // The keys requested for registrations: from a random start drawn at open (random_key).
  std::atomic<uint64_t> next_key_{0};
  uint64_t key_mask_ = ~uint64_t{0};
  fid_ep* ep_ = nullptr;
  Rules rules_;
  Rules checked_;
  std::vector<Region> regions_;      // registered once, with local access
  std::vector<Region> temporaries_;  // registered for one operation (tracked when checked)
  std::unique_ptr<Context[]> contexts_;
  size_t context_count_ = 0;
  Context* free_contexts_ = nullptr;
  // Bounce slots: slot_bytes_ each, in one registered arena.
  std::unique_ptr<char[]> arena_;
  size_t slot_bytes_ = 0;
  size_t slots_ = 0;
  std::unique_ptr<std::atomic<bool>[]> slot_busy_;
  std::atomic<size_t> next_slot_{0};
};

}  // namespace tandem::ofi
