// The network timeout (TANDEM_NET_TIMEOUT): a wait on the network that sees no completion at
// all for the timeout ends the PE, naming the call and the PE that does not answer, instead
// of hanging.  A peer that is slow but answers keeps completions coming and is never
// reported; the clock is read every few turns of a wait only.
//
// Completions counted do not say which PE an operation went to, so the unreachable PE is
// found in two steps: every operation records the epoch it was issued in (NetTimeout::issued), and
// the epoch moves on whenever this PE has nothing outstanding, so the PEs that operations
// went to in the current epoch are the candidates.  At half the timeout each candidate gets
// a probe, a message that its progress answers; at the timeout the candidates whose probe
// has not been answered are the unreachable ones.  Where puts complete locally (Order All,
// Rma), the PEs written to but not confirmed count as outstanding, and at half the timeout
// each gets the delivery-complete write that quiet would send (confirm_writes).  Only
// completions of this PE's own operations count as progress, not probes, their answers or
// others' operations arriving.  A retry of a busy provider knows its target and names it
// directly.
//
// A wait on memory while this PE has nothing outstanding has no completion to wait for:
// what it waits for is another PE's write, which a link down for good never brings (the
// writer's own write, where it completes once it is in a socket, leaves nothing outstanding
// there either, so every PE of a collective could wait for good).  Where the wait knows the
// PE on another node that it waits for (the collectives', a lock's grant, an access epoch's
// post: core/awaited_pe.h), it probes that PE once it has waited half the timeout, again
// each half timeout while the PE answers, and reports it once a probe has gone unanswered
// for the rest of the timeout.  A probe is answered by the peer's progress (its progress
// thread while it computes), so a PE that waits long for a slow peer is never reported.
#include <rdma/fabric.h>
#include <rdma/fi_endpoint.h>

#include <algorithm>
#include <string>
#include <utility>

#include "core/backoff.h"
#include "core/clock.h"
#include "core/error.h"
#include "transport/ofi/engine.h"
#include "transport/ofi/post.h"

namespace tandem::ofi {

namespace {

// How often a wait on memory looks for completions while this PE has operations outstanding.
constexpr unsigned kOutstandingLookTurns = 256;

}  // namespace

void NetTimeout::completed() { last_completion_ns_.store(monotonic_ns(), std::memory_order_relaxed); }

NetTimeout::Verdict NetTimeout::check(Wait& w, int64_t* idle_ns) {
  const int64_t now = monotonic_ns();
  if (w.start_ns == 0) {
    w.start_ns = now;
    return Verdict::Wait;
  }
  const int64_t since = std::max(w.start_ns, last_completion_ns_.load(std::memory_order_relaxed));
  *idle_ns = now - since;
  const auto bytes = static_cast<int64_t>(epoch_bytes_.load(std::memory_order_relaxed));
  if (*idle_ns < kNudgeNs + bytes * kNudgeNsPerByte) w.nudged = false;
  else if (!std::exchange(w.nudged, true) && nudges_) return Verdict::Nudge;
  if (!on() || *idle_ns < timeout_ns_ / 2) {
    w.probed = false;
    return Verdict::Wait;
  }
  if (*idle_ns < timeout_ns_) {
    const bool first = !w.probed;
    w.probed = true;
    return first ? Verdict::Probe : Verdict::Wait;
  }
  return Verdict::Report;
}

NetTimeout::Verdict NetTimeout::check_idle(AwaitedPe& a, int64_t* silent_ns) const {
  const int64_t now = monotonic_ns();
  if (a.since_ns == 0 || (a.probed && was_answered(a.pe))) {
    a.since_ns = now;
    a.probed = false;
    return Verdict::Wait;
  }
  *silent_ns = now - a.since_ns;
  if (*silent_ns < timeout_ns_ / 2) return Verdict::Wait;
  if (!a.probed) {
    a.probed = true;
    return Verdict::Probe;
  }
  return *silent_ns >= timeout_ns_ ? Verdict::Report : Verdict::Wait;
}

void NetTimeout::report(const char* call, int pe, int64_t idle_ns) const {
  const double seconds = static_cast<double>(idle_ns) / 1e9;
  std::string named;
  int count = 0;
  auto name = [&](size_t p) {
    named += (count++ ? ", " : "") + std::to_string(p);
  };
  if (pe >= 0) {
    name(static_cast<size_t>(pe));
  } else {
    for (size_t p = 0; p < pes_; ++p)
      if (probes_[p].load(std::memory_order_acquire) == kOut) name(p);
    if (count == 0) for_each_candidate([&](int p) { name(static_cast<size_t>(p)); });
  }
  if (count == 0)
    fatal(call, "no network operation has completed for %.0f s with operations outstanding (TANDEM_NET_TIMEOUT)",
          seconds);
  fatal(call,
        "PE%s %s unreachable: no network operation has completed for %.0f s with operations to it outstanding "
        "(stopped, or the link to it is down; TANDEM_NET_TIMEOUT)",
        count > 1 ? "s" : "", (named + (count > 1 ? " are" : " is")).c_str(), seconds);
}

void NetTimeout::report_silent(const char* call, int pe, int64_t silent_ns) const {
  fatal(call,
        "PE %d is unreachable: it has not answered for %.0f s while this PE waited for it (stopped, or the link to "
        "it is down; TANDEM_NET_TIMEOUT)",
        pe, static_cast<double>(silent_ns) / 1e9);
}

void Engine::check_stall(const char* call, NetTimeout::Wait& w, int pe) {
  int64_t idle_ns = 0;
  switch (timeout_.check(w, &idle_ns)) {
    case NetTimeout::Verdict::Wait:
      return;
    case NetTimeout::Verdict::Nudge:
      if (pe >= 0) sleep_.ring(pe);
      else timeout_.for_each_candidate([&](int p) { sleep_.ring(p); });
      return;
    case NetTimeout::Verdict::Probe:
      // A retry of a busy provider knows its target (pe) and names it directly.
      if (pe < 0) {
        confirm_writes(call);
        probe_candidates(call);
      }
      return;
    case NetTimeout::Verdict::Report:
      timeout_.report(call, pe, idle_ns);
  }
}

void Engine::watch_outstanding(const char* call, AwaitedPe* awaited) {
  thread_local NetTimeout::Wait stall;
  thread_local unsigned turns = 0;
  if (++turns % kOutstandingLookTurns != 0) return;
  // Writes that completed locally but were not confirmed yet (Order All, Rma) are
  // outstanding too: the data may still sit in a socket to a stopped PE.
  const bool unconfirmed = ledger_.any_open();
  if (!unconfirmed && (!maybe_in_flight() || !in_flight())) {
    stall = NetTimeout::Wait{};
    if (awaited && awaited->pe >= 0 && timeout_.on() && probes_fit()) watch_idle(call, *awaited);
    return;
  }
  if (awaited) awaited->since_ns = 0;  // heard from again once nothing is outstanding
  check_stall(call, stall, -1);
}

void Engine::watch_idle(const char* call, AwaitedPe& a) {
  int64_t silent_ns = 0;
  switch (timeout_.check_idle(a, &silent_ns)) {
    case NetTimeout::Verdict::Probe:
      timeout_.probe_one(a.pe, [&](int pe) { send_probe(call, pe); });
      return;
    case NetTimeout::Verdict::Report:
      timeout_.report_silent(call, a.pe, silent_ns);
    default:
      return;
  }
}

void Engine::send_probe(const char* call, int pe) {
  Message m{};
  m.kind = Message::Probe;
  m.origin = my_pe_;
  const fi_addr_t peer = peer_address(call, pe);
  Backoff backoff = Backoff::without_progress();
  seal(call, m, pe);
  post(call, "a probe of", pe, backoff, [&] { return fi_inject(ep_, &m, sizeof m, peer); });
}

void Engine::probe_candidates(const char* call) {
  if (!probes_fit()) return;  // no probes: the report names every candidate
  timeout_.probe([&](int pe) { send_probe(call, pe); });
}

}  // namespace tandem::ofi
