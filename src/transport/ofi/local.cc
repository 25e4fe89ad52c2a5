#include "transport/ofi/local.h"

#include <sys/random.h>
#include <unistd.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>

#include <algorithm>
#include <cstring>

#include "core/clock.h"
#include "core/error.h"

namespace tandem::ofi {

// A pooled operation context: the provider's part first, so that the completion's
// op_context is the record itself.
struct LocalMemory::Context {
  fi_context2 provider;
  void* owner;
  Hold hold;
  Context* next;     // in the free list
  bool in_flight;
};

namespace {
constexpr size_t kArenaBytes = size_t{1} << 20;  // bounce slots in all
constexpr size_t kMinSlotBytes = 64;             // an atomic's operand, comparand and result
constexpr size_t kMinSlots = 16;
constexpr unsigned char kScribble = 0xa5;        // over a context a provider may use
}  // namespace

namespace {
// The bits a key of `key_bytes` bytes has (0: the provider does not say; 8 bytes).
uint64_t key_mask(size_t key_bytes) {
  return key_bytes > 0 && key_bytes < sizeof(uint64_t) ? (uint64_t{1} << (8 * key_bytes)) - 1 : ~uint64_t{0};
}
}  // namespace

uint64_t random_key(size_t key_bytes) {
  uint64_t key = 0;
  if (getrandom(&key, sizeof key, 0) != static_cast<ssize_t>(sizeof key))
    key = static_cast<uint64_t>(monotonic_ns()) * 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(getpid());
  return key & key_mask(key_bytes);
}

LocalMemory::LocalMemory() = default;
LocalMemory::~LocalMemory() = default;

void LocalMemory::open(fid_domain* domain, fid_ep* ep, const Rules& rules, const Rules& checked, size_t contexts,
                       size_t bounce_bytes, size_t key_bytes) {
  domain_ = domain;
  key_mask_ = key_mask(key_bytes);
  next_key_.store(random_key(key_bytes), std::memory_order_relaxed);
  ep_ = ep;
  rules_ = rules;
  checked_ = checked;
  regions_.clear();
  temporaries_.clear();
  free_contexts_ = nullptr;
  context_count_ = 0;
  if (rules.context || rules.mr_local) {
    // Held buffers need a record at completion even where the provider takes no context.
    context_count_ = std::max<size_t>(contexts, 64);
    contexts_.reset(new Context[context_count_]());
    for (size_t i = context_count_; i-- > 0;) {
      contexts_[i].next = free_contexts_;
      free_contexts_ = &contexts_[i];
    }
  }
  slots_ = 0;
  if (rules.mr_local) {
    slot_bytes_ = (std::max(bounce_bytes, kMinSlotBytes) + 63) / 64 * 64;
    slots_ = std::max(kMinSlots, kArenaBytes / slot_bytes_);
    arena_.reset(new char[slots_ * slot_bytes_]);
    slot_busy_.reset(new std::atomic<bool>[slots_]());
    add("shmem_init", arena_.get(), slots_ * slot_bytes_, FI_READ | FI_WRITE | FI_SEND | FI_RECV);
  }
}

void LocalMemory::close() {
  for (Region& r : regions_) fi_close(&r.mr->fid);
  regions_.clear();
  for (size_t i = 0; i < context_count_; ++i)
    if (contexts_[i].in_flight && contexts_[i].hold.registration) fi_close(&contexts_[i].hold.registration->fid);
  temporaries_.clear();
  contexts_.reset();
  context_count_ = 0;
  free_contexts_ = nullptr;
  arena_.reset();
  slot_busy_.reset();
  slots_ = 0;
}

fid_mr* LocalMemory::add(const char* call, void* base, size_t bytes, uint64_t access) {
  fid_mr* mr = nullptr;
  // Requested keys count up from a random start; providers with FI_MR_PROV_KEY pick their own.
  const uint64_t key = next_key_.fetch_add(1, std::memory_order_relaxed) & key_mask_;
  const int rc = fi_mr_reg(domain_, base, bytes, access, 0, key, 0, &mr, nullptr);
  if (rc != 0) fatal(call, "libfabric: fi_mr_reg of %zu bytes failed: %s", bytes, fi_strerror(-rc));
  if (rules_.mr_endpoint) {
    if (fi_mr_bind(mr, &ep_->fid, 0) != 0 || fi_mr_enable(mr) != 0)
      fatal(call, "libfabric: binding a registration to the endpoint failed");
  }
  if (access & (FI_READ | FI_WRITE | FI_SEND | FI_RECV))
    regions_.push_back(Region{static_cast<const char*>(base), bytes, mr, fi_mr_desc(mr)});
  return mr;
}

const LocalMemory::Region* LocalMemory::region_of(const void* p, size_t bytes) const {
  const char* c = static_cast<const char*>(p);
  for (const Region& r : regions_)
    if (c >= r.base && c + bytes <= r.base + r.bytes) return &r;
  return nullptr;
}

bool LocalMemory::outgoing(const char* call, const void* p, size_t bytes, Hold* hold, Buffer* out) {
  return stage(call, const_cast<void*>(p), bytes, false, hold, out);
}

bool LocalMemory::incoming(const char* call, void* p, size_t bytes, Hold* hold, Buffer* out) {
  return stage(call, p, bytes, true, hold, out);
}

bool LocalMemory::stage(const char* call, void* p, size_t bytes, bool in, Hold* hold, Buffer* out) {
  *out = Buffer{p, nullptr};
  if (!rules_.mr_local || bytes == 0) return true;
  if (const Region* r = region_of(p, bytes)) {
    out->desc = r->desc;
    return true;
  }
  if (bytes <= slot_bytes_ && !(hold->bounce && hold->used + bytes > slot_bytes_)) {
    if (!hold->bounce) {
      const size_t first = next_slot_.fetch_add(1, std::memory_order_relaxed);
      for (size_t k = 0; k < slots_ && !hold->bounce; ++k) {
        const size_t s = (first + k) % slots_;
        bool free = false;
        if (slot_busy_[s].compare_exchange_strong(free, true, std::memory_order_acquire))
          hold->bounce = arena_.get() + s * slot_bytes_;
      }
      if (!hold->bounce) return false;
    }
    char* at = hold->bounce + hold->used;
    hold->used += (bytes + 15) / 16 * 16;
    if (in) {  // one destination per operation: its result or its data
      hold->copy_from = at;
      hold->copy_to = p;
      hold->copy_bytes = bytes;
    } else {
      memcpy(at, p, bytes);
    }
    *out = Buffer{at, region_of(at, bytes)->desc};
    return true;
  }
  if (hold->registration) fatal(call, "an operation needs two registrations of its own");
  fid_mr* mr = nullptr;
  const uint64_t key = next_key_.fetch_add(1, std::memory_order_relaxed) & key_mask_;
  const int rc = fi_mr_reg(domain_, p, bytes, in ? FI_READ : FI_WRITE, 0, key, 0, &mr, nullptr);
  if (rc != 0) fatal(call, "libfabric: registering a local buffer of %zu bytes failed: %s", bytes, fi_strerror(-rc));
  if (rules_.mr_endpoint && (fi_mr_bind(mr, &ep_->fid, 0) != 0 || fi_mr_enable(mr) != 0))
    fatal(call, "libfabric: binding a registration to the endpoint failed");
  hold->registration = mr;
  *out = Buffer{p, fi_mr_desc(mr)};
  if (checked_.mr_local) temporaries_.push_back(Region{static_cast<const char*>(p), bytes, mr, out->desc});
  return true;
}

void* LocalMemory::context(void* owner, const Hold& hold) {
  if (!rules_.context && !hold.bounce && !hold.registration) return owner;
  Context* c = free_contexts_;
  if (!c) return nullptr;
  free_contexts_ = c->next;
  if (checked_.context) memset(&c->provider, kScribble, sizeof c->provider);
  c->owner = owner;
  c->hold = hold;
  c->in_flight = true;
  return c;
}

void LocalMemory::settle(Hold& hold) {
  if (hold.copy_bytes) memcpy(hold.copy_to, hold.copy_from, hold.copy_bytes);
  if (hold.bounce) slot_busy_[static_cast<size_t>(hold.bounce - arena_.get()) / slot_bytes_].store(false, std::memory_order_release);
  if (hold.registration) {
    if (checked_.mr_local)
      temporaries_.erase(std::find_if(temporaries_.begin(), temporaries_.end(),
                                      [&](const Region& r) { return r.mr == hold.registration; }));
    fi_close(&hold.registration->fid);
  }
  hold = Hold{};
}

void* LocalMemory::complete(void* context, bool remote_data) {
  Context* c = static_cast<Context*>(context);
  if (!contexts_ || c < contexts_.get() || c >= contexts_.get() + context_count_) {
    // An incoming write's remote CQ data belongs to no operation of this PE's (shm gives it
    // a context of its own making all the same).
    if (checked_.context && context && !remote_data)
      fatal("progress", "libfabric: a completion came for context %p, which Tandem did not post with FI_CONTEXT2", context);
    return context;
  }
  if (!c->in_flight) fatal("progress", "libfabric: a second completion came for one operation's context");
  void* owner = c->owner;
  settle(c->hold);
  c->in_flight = false;
  c->next = free_contexts_;
  free_contexts_ = c;
  return owner;
}

void LocalMemory::check_descriptor(const char* call, const void* p, size_t bytes, void* desc) const {
  const char* c = static_cast<const char*>(p);
  auto covers = [&](const Region& r) { return c >= r.base && c + bytes <= r.base + r.bytes && r.desc == desc; };
  if (std::any_of(regions_.begin(), regions_.end(), covers) ||
      std::any_of(temporaries_.begin(), temporaries_.end(), covers))
    return;
  fatal(call, "FI_MR_LOCAL: %zu bytes at %p go to the provider with a descriptor (%p) of no live registration covering them",
        bytes, p, desc);
}

}  // namespace tandem::ofi
