// The network timeout's bookkeeping (TANDEM_NET_TIMEOUT; how the inter-node engine uses it:
// timeout.cc).  A wait keeps a Wait and asks due() each turn; the clock is read every
// kTurns turns only.  No completion of this PE's operations for half the timeout: probe the
// candidates, the PEs that operations went to since this PE last had none outstanding (the
// epoch moves on each time it has none); no completion for the whole timeout: report the
// candidates whose probe was not answered.  Probes, their answers and other PEs' operations
// arriving here are not completions of this PE's operations.  A wait on memory with nothing
// outstanding watches the one PE it waits for instead (Engine::watch_idle): a probe at half
// the timeout, a report at the timeout when it is still out.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/awaited_pe.h"

namespace tandem::ofi {

class NetTimeout {
 public:
  void set(double seconds) { timeout_ns_ = static_cast<int64_t>(seconds * 1e9); }
  bool on() const { return timeout_ns_ > 0; }
  // Whether a wait without a completion for kNudgeNs rings the candidates' doorbells
  // (doorbell.h), whether or not the timeout is on; kNudgeNsPerByte longer for each byte
  // that the operations since the last idle() carry, so that a transfer that is merely long
  // rings no one (waking the target's thread costs a get of 1 MiB on 2 cores 15%).
  void set_nudges(bool on) { nudges_ = on; }
  // Whether completions are timed (the timeout or the nudges need them).
  bool timing() const { return on() || nudges_; }
  static constexpr int64_t kNudgeNs = 50000;
  static constexpr int64_t kNudgeNsPerByte = 1;
  // An operation of `bytes` goes out (counted approximately when threads race: it only
  // stretches the nudge).
  void sized(size_t bytes) {
    epoch_bytes_.store(epoch_bytes_.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
  }
  // For `pes` PEs, of which this one is `my_pe`: none a candidate, no probe out.
  void reset(size_t pes, int my_pe) {
    my_pe_ = my_pe;
    peer_epoch_.assign(pes, 0);
    probes_.reset(new std::atomic<uint8_t>[pes]());
    pes_ = pes;
  }

  // One wait's watch: when it began (its first check) and whether it probed.
  struct Wait {
    int64_t start_ns = 0;
    unsigned turns = 0;
    bool nudged = false;
    bool probed = false;
  };
  static constexpr unsigned kTurns = 16;
  // Whether this turn of wait `w` is one to check() on.
  bool due(Wait& w) const { return timing() && w.turns++ % kTurns == 0; }
  enum class Verdict : uint8_t { Wait, Nudge, Probe, Report };
  // Where wait `w` stands: keep waiting; past the nudge's time without a completion, ring
  // the doorbells (once per stretch past it, where nudges are on); past half the timeout, probe
  // (likewise); past the timeout, report (`*idle_ns`: how long without one).
  Verdict check(Wait& w, int64_t* idle_ns);
  // Where a wait with nothing outstanding, for PE `a.pe`, stands (never Nudge): keep waiting;
  // probe the PE (half the timeout since it was last heard from); report it (its probe still
  // unanswered at the timeout, `*silent_ns` since it was heard from).
  Verdict check_idle(AwaitedPe& a, int64_t* silent_ns) const;

  // An operation of this PE's completed.
  void completed();
  // No operation of this PE is outstanding: PEs written to before stop being candidates.
  void idle() {
    epoch_.fetch_add(1, std::memory_order_relaxed);
    epoch_bytes_.store(0, std::memory_order_relaxed);
  }
  // An operation goes to `pe`: a candidate until the next idle().
  void issued(int pe) {
    if (static_cast<size_t>(pe) < peer_epoch_.size() && pe != my_pe_)
      __atomic_store_n(&peer_epoch_[static_cast<size_t>(pe)], epoch_.load(std::memory_order_relaxed),
                       __ATOMIC_RELAXED);
  }
  // Calls send(pe) for each candidate, counting a probe out to it, unless one is out already.
  template <typename Send>
  void probe(Send send) {
    for_each_candidate([&](int p) { probe_one(p, send); });
  }
  // The same for PE `pe` alone.
  template <typename Send>
  void probe_one(int pe, Send send) {
    std::atomic<uint8_t>& probe = probes_[static_cast<size_t>(pe)];
    uint8_t none = kNone, answered = kAnswered;
    if (probe.compare_exchange_strong(none, kOut) || probe.compare_exchange_strong(answered, kOut)) send(pe);
  }
  // The probe of `pe` was answered.
  void answered(int pe) {
    if (static_cast<size_t>(pe) < pes_) probes_[static_cast<size_t>(pe)].store(kAnswered, std::memory_order_release);
  }
  // Whether the last probe of `pe` was answered.
  bool was_answered(int pe) const {
    return probes_[static_cast<size_t>(pe)].load(std::memory_order_acquire) == kAnswered;
  }
  // Calls f(pe) for each candidate.
  template <typename F>
  void for_each_candidate(F f) const {
    const uint32_t epoch = epoch_.load(std::memory_order_relaxed);
    for (size_t p = 0; p < pes_; ++p)
      if (__atomic_load_n(&peer_epoch_[p], __ATOMIC_RELAXED) == epoch) f(static_cast<int>(p));
  }
  // Ends the PE in `call`, naming `pe` when known (>= 0), else the candidates whose probe is
  // still out, else every candidate.
  [[noreturn]] void report(const char* call, int pe, int64_t idle_ns) const;
  // Ends the PE in `call`, which waited for `pe` with nothing outstanding and has not heard
  // from it for `silent_ns` (its probe unanswered).
  [[noreturn]] void report_silent(const char* call, int pe, int64_t silent_ns) const;

 private:
  static constexpr uint8_t kNone = 0, kOut = 1, kAnswered = 2;  // a PE's probe
  int64_t timeout_ns_ = 0;
  bool nudges_ = false;
  int my_pe_ = -1;
  std::atomic<int64_t> last_completion_ns_{0};
  std::atomic<uint32_t> epoch_{1};
  std::atomic<uint64_t> epoch_bytes_{0};  // bytes of the operations since the last idle()
  std::vector<uint32_t> peer_epoch_;  // per PE: epoch_ when an operation last went to it
  std::unique_ptr<std::atomic<uint8_t>[]> probes_;
  size_t pes_ = 0;
};

}  // namespace tandem::ofi
