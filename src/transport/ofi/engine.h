// The inter-node engine behind ofi::Transport (transport.h forwards each of its calls here;
// only the engine's own files include this header): one libfabric RDM endpoint per PE with
// RMA and atomics.  The symmetric heap and globals are registered once; a peer is resolved
// from its card when this PE first addresses it or hears from it (peers.h), so an operation
// costs a check and a table index beyond the libfabric call.
// Completion is counted from the completion queue: operations that must be waited for
// (reads, fetching atomics, atomics, writes not injected, delivery-complete writes) complete
// into it and are counted there, writes and reads apart.
// No completion counter is bound: with one, tcp;ofi_rxm turns every injected write into one
// with a completion (a provider buffer, a completion entry and a signal of its wait object
// each), and the waits read the counter and the queue both.  With a provider that keeps
// writes to one target in order, puts are injected without a completion where they fit,
// and quiet confirms them with an empty delivery-complete write to each PE written to (it
// cannot pass them); otherwise writes are delivery-complete and a counted write means
// "landed".  Where the order covers RMA alone (tcp;ofi_rxm with atomics), atomics and the
// writes that a notification message must follow are delivery-complete, and the first
// atomic or message after a fence confirms as quiet does (see Order; atomic()).
// Atomics on a type the provider lacks an operation for (or on every type, when asked) take
// a software path instead: a request (a message, or a write into a ring) that the target's
// progress serves with a CPU atomic and answers; see atomic().
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <sys/types.h>

#include "core/config.h"
#include "core/spin_lock.h"
#include "core/zero_pages.h"
#include "transport/ofi/answer_slots.h"
#include "transport/ofi/held_puts.h"
#include "transport/ofi/local.h"
#include "transport/ofi/message.h"
#include "transport/ofi/net_timeout.h"
#include "transport/ofi/operand_slots.h"
#include "transport/ofi/pe_activity.h"
#include "transport/ofi/peers.h"
#include "transport/ofi/pieces.h"
#include "transport/ofi/progress_sleep.h"
#include "transport/ofi/provider.h"
#include "transport/ofi/request_rings.h"
#include "transport/ofi/transport.h"
#include "transport/ofi/write_ledger.h"

struct fi_info;
struct fid_fabric;
struct fid_domain;
struct fid_ep;
struct fid_av;
struct fid_cq;
struct fid_mr;
struct fi_msg_rma;
struct fi_cq_data_entry;
struct fi_rma_iov;
struct iovec;

namespace tandem {
class Backoff;
}

namespace tandem::ofi {

class Engine {
 public:
  // The calls of Transport, as transport.h describes them.
  static constexpr int kSegments = Transport::kSegments;
  using Settings = Transport::Settings;
  void open(const char* call, const Settings& settings, char* const bases[kSegments], const size_t sizes[kSegments]);
  std::string card() const;
  void connect(const char* call, int pes, int my_pe, Transport::CardOf card_of);
  void close();
  bool is_open() const { return ep_ != nullptr; }
  const std::string& provider() const { return provider_; }
  const Rules& rules() const { return rules_; }
  const Rules& emulated() const { return emulated_; }
  using Order = ofi::Order;
  Order order() const { return order_; }
  void put(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
           bool coalesce = false);
  void put_unconfirmed(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                       const uint64_t* data = nullptr);
  void put_word(const char* call, int pe, int segment, uint64_t offset, uint64_t value) {
    put_unconfirmed(call, pe, segment, offset, &value, sizeof value);
  }
  void flush(const char* call) { held_.flush(call); }
  void poll(const char* call, AwaitedPe* awaited = nullptr) {
    flush(call);
    progress();
    if (timeout_.timing()) watch_outstanding(call, awaited);
  }
  void flush_if_idle() { held_.flush_if_idle(); }
  Transport::Stats stats() const;
  void get(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes);
  void get_now(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes);
  bool put_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, const void* source,
                   size_t source_stride, size_t block, size_t blocks);
  bool get_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, void* dest,
                   size_t dest_stride, size_t block, size_t blocks);
  void put_notify(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                  uint64_t data);
  void get_notify_nbi(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes, uint64_t data);
  void notify(const char* call, int pe, uint64_t data);
  void on_notification(void (*handler)(uint64_t data)) { notification_handler_ = handler; }
  bool notifies_by_data() const { return notify_by_data_; }
  bool writes_land_in_order() const { return answers_written_; }
  std::optional<uint64_t> load_landed(const uint64_t* word);
  bool native(AtomicType type) const { return native_[static_cast<int>(type)]; }
  void atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
              const void* operand, const void* compare, void* result);
  void warm_up(const char* call, int pe);
  void atomic_array(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
                    const void* operands, size_t count);
  void put_signal_nbi(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                      int signal_segment, uint64_t signal_offset, uint64_t value, bool add);
  bool signal_rides_write(int signal_segment, uint64_t signal_offset, uint64_t value) const;
  bool signals_ride_writes() const { return order_ == Order::Rma && notify_by_data_; }
  bool cpu_signals() const { return order_ != Order::All || !native(AtomicType::UInt64); }
  void quiet(const char* call);
  void order_writes(const char* call);
  void wait_reads(const char* call);
  void wait_writes(const char* call);
  bool in_flight();
  bool maybe_in_flight() const {
    return held_.holding() || signals_pending_.load() > 0 ||
           writes_done_.load(std::memory_order_acquire) < writes_issued_.load() ||
           reads_done_.load(std::memory_order_acquire) < reads_issued_.load() ||
           software_answered_.load(std::memory_order_acquire) < software_sent_.load(std::memory_order_acquire);
  }
  void progress();
  void look();
  void note_present() { pe_.count_look(); }
  void wait_for_activity(int timeout_us, bool (*busy)() = nullptr, bool requests = false);
  bool rest_while_present(int64_t window_ns) { return sleep_.rest_while_present(pe_, window_ns); }
  void nudge(int pe);
  bool pe_driving();
  void wake_if_sleeping() { sleep_.wake_if_sleeping(); }
  void nbi_posted() { sleep_.wake_from_long_pause(); }
  void push() { in_flight(); }
  void wake() { sleep_.wake(); }
  size_t inject_size() const { return inject_size_; }
  void set_timeout(double seconds) { timeout_.set(seconds); }
 private:
  std::string endpoint_name(const char* call) const;  // as fi_getname gives it
  static constexpr int kCqBatch = 8;  // completion entries read per turn
  // One read of the CQ, skipped when another thread holds the lock (look(), the progress
  // thread); false if skipped.
  bool read_cq_unless_busy();
  // One read of the CQ under the lock: the entries' contexts back to their owners
  // (LocalMemory::complete), then, entry by entry, the signals among them applied
  // (apply_signal()) and left out, and the atomics of received requests applied
  // (apply_request()); returns the entries left.  Both are applied here, in the order they
  // arrived: the threads that read the CQ serve what they read after releasing the lock,
  // and two of them could otherwise apply one PE's updates out of its order.  The requests
  // served from the rings go into `served`, answered after the lock.
  using Served = RequestRings::Served;
  using ServedRequests = RequestRings::ServedBatch<kCqBatch>;
  ssize_t read_cq(fi_cq_data_entry* entries, ServedRequests* served);
  // Serves what one read of the CQ returned (`n` entries, or a negative error) and sends
  // the answers of the requests it served from the rings.
  void handle_completions(fi_cq_data_entry* entries, ssize_t n, const ServedRequests& served);
  // Drives progress until `done` has caught up with `issued`.
  void wait_count(const char* call, const std::atomic<uint64_t>& issued, const std::atomic<uint64_t>& done);
  // The contexts of counted writes and reads that have no context of their own: their
  // completions only count.
  char counted_write_ = 0;
  char counted_read_ = 0;
  char counted_atomic_ = 0;  // an atomic on an array: a counted write, and an atomic
  // Non-fetching atomics of the provider's, issued and complete (a fence waits for them).
  std::atomic<uint64_t> atomics_issued_{0};
  std::atomic<uint64_t> atomics_done_{0};
  void count_atomic() { atomics_done_.fetch_add(1, std::memory_order_acq_rel); }
  // A fence left pending (order_writes(), Order Rma): the next atomic or message settles it.
  std::atomic<bool> fence_pending_{false};
  void settle_fence(const char* call) {
    if (fence_pending_.load(std::memory_order_acquire)) complete_fence(call);
  }
  // The fence itself: every write before it confirmed, every atomic and request answered.
  void complete_fence(const char* call);
  // atomic() and notify() without settling a pending fence: for the signals and
  // notifications that progress posts once their data has landed.
  void post_atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
                   const void* operand, const void* compare, void* result);
  void post_notification(const char* call, int pe, uint64_t data);
  void count_write() { writes_done_.fetch_add(1, std::memory_order_acq_rel); }
  void count_read() { reads_done_.fetch_add(1, std::memory_order_acq_rel); }
  // Ends the PE with the error the CQ holds, naming what failed by its context.
  [[noreturn]] void report_error(const char* call);
  // A peer's address, and the base and key of each of its regions (peers.h): read from its
  // card (card_of_), and its address inserted into the address vector, when this PE first
  // addresses it or hears from it (resolve()); from any thread.  `locked`: the caller holds
  // mutex_.
  uint64_t peer_address(const char* call, int pe, bool locked = false) {
    const uint64_t address = peers_.address(pe);
    return address != Peers::kUnresolved ? address : resolve(call, pe, locked);
  }
  const PeerSegment& peer_segment(const char* call, int pe, int region, bool locked = false) {
    peer_address(call, pe, locked);
    return peers_.card(pe).regions[region];
  }
  // Stamps `m` with `pe`'s secret, which admit() at `pe` asks of every message.
  void seal(const char* call, Message& m, int pe) {
    peer_address(call, pe);
    m.proof = peers_.card(pe).secret;
  }
  uint64_t resolve(const char* call, int pe, bool locked);
  uint64_t remote_address(const char* call, int pe, int segment, uint64_t offset) {
    const PeerSegment& seg = peer_segment(call, pe, segment);
    return rules_.virtual_addresses ? seg.base + offset : offset;
  }
  uint64_t remote_key(const char* call, int pe, int segment) { return peer_segment(call, pe, segment).key; }
  // Posts one operation: `issue` (the libfabric call) runs under the lock and is retried,
  // driving progress, while the provider answers -FI_EAGAIN; any other failure ends the PE
  // with "libfabric: <what> PE <pe> failed" (`what`: "a write to", say).
  template <typename Issue>
  void post(const char* call, const char* what, int pe, Backoff& backoff, Issue issue);
  // One injected write of `length` bytes from `source` to `offset` in `pe`'s region `segment`
  // (kRings, kOwn: where requests and answers go), posted as post() posts (`what` names it):
  // the source is free on return, and no completion follows.  `before` runs under the lock
  // just before each try (it may fill the source from state the lock guards).
  template <typename Before = void (*)()>
  void inject_into(const char* call, const char* what, int pe, int segment, uint64_t offset, const void* source,
                   size_t length, Before before = [] {});
  // post() for an operation with a completion, whose meaning is `owner` (&counted_write_, a
  // batch, ...): `issue(context)` gets the context to post with (LocalMemory::context()),
  // which also carries what `hold` holds until the completion.
  template <typename Issue>
  void post_with(const char* call, const char* what, int pe, void* owner, const LocalMemory::Hold& hold,
                 Issue issue);
  // `p` (`bytes` that the operation reads, or with `in` writes) as the provider gets it
  // (LocalMemory::outgoing, incoming), driving progress while no bounce slot is free; its
  // descriptor checked where TANDEM_OFI_REQUIRE imposed FI_MR_LOCAL (LocalMemory::check).
  LocalMemory::Buffer stage(const char* call, const void* p, size_t bytes, bool in, LocalMemory::Hold* hold);

  // The software atomic path (its messages: message.h).
  struct Reply;
  // Run requests in flight at once.
  static constexpr size_t kRunsInFlight = 16;
  void software_atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op,
                       AtomicType type, const void* operand, const void* compare, void* result);
  // `count` elements' worth: runs of up to kRunBytes, a single element alone.
  void software_atomic_run(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
                           const void* operands, size_t count);
  // A buffer for a run request or a scatter, free once its earlier send has completed
  // (driving progress until one is); send_run() sends its head and `payload` bytes after it
  // to `pe` as a request to answer.
  Outgoing* take_run(const char* call);
  void send_run(const char* call, int pe, Outgoing* run, size_t payload, bool list = false);
  // Sends `out`'s head and `payload` bytes after it to `pe`; its completion comes back with
  // `out` as its context.
  void send_outgoing(const char* call, const char* what, int pe, Outgoing* out, size_t payload);
  // Waits while kInbox requests of this PE are unanswered, then counts one more and returns
  // the cookie the request carries: where answers are written (answers_written_), a slot
  // claimed for it (driving progress while none is free), else `reply`'s address or 0.
  // `list_pe`: the request is a list of puts to that PE.
  uint64_t reserve_answer(const char* call, Reply* reply = nullptr, int list_pe = -1);
  void count_request(const char* call);  // reserve_answer()'s first half
  // and its second, where answers are written; `list_pe`: the slot answers a list to that PE
  uint64_t claim_slot(const char* call, Reply* reply, int list_pe = -1);
  // What a claim of slot `cookie` (claim_slot(), a cell's in read_into_cell()) notes, under
  // mutex_: no ring entry yet, and the list it answers, if any.
  void claimed(uint64_t cookie, int list_pe);
  // The answers written into this PE's slots, and the Acks into its ring memory, that have
  // landed (under mutex_): replies filled, requests counted as answered.
  void collect_answers();
  // For the completions: true when `context` is a run request's, whose send is now done.
  bool run_sent(void* context);
  // Receive buffers posted for requests and answers; also the most requests one PE has
  // unanswered (it waits for answers beyond that), and its answer slots.
  static constexpr size_t kInbox = AnswerSlots::kSlots;
  // Drives progress until `ready()`; `pe`, when known, is the PE whose answer it waits for.
  template <typename Ready>
  void progress_until(const char* call, Ready ready, int pe = -1);
  void post_receive(Incoming* slot);
  // Applies the atomic of a request or run request, or the copies of a scatter or list, that
  // `context`, a receive buffer, holds (read_cq()), after the requests its initiator wrote
  // into its ring before it (into `served`); it leaves the answer to deliver().
  void apply_request(void* context, ServedRequests* served);
  // Where this PE and `pe` exchange requests through rings (request_rings.h).
  bool rings_with(const char* call, int pe, bool locked = false) {
    return rings_on_ && peer_segment(call, pe, kRings, locked).base != 0;
  }
  // Whether a software request to `pe` goes into its ring now (write_request() true).
  bool writes_requests_to(const char* call, int pe);
  // Counts `request` and writes it into this PE's ring at `pe`, waiting for room (true); a
  // fetching one (`reply` given) claims an answer slot.  False where it must travel as a
  // message instead (rings_with() false, or the first request to `pe`), nothing counted.
  bool write_request(const char* call, int pe, const Message& request, Reply* reply);
  // A blocking get of `bytes` (1..cell_read_most()) from `pe` as a request written into
  // its ring, answered into one of this PE's answer cells; false, nothing done, where
  // requests to `pe` do not go into its ring or every slot with a cell is taken.
  bool read_into_cell(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes);
  // write_request()'s last step: the entry of `request` (`cookie`: its answer slot's, 0 for
  // none; `read`: a read of `request.compare` bytes into the slot's cell) into the ring.
  void write_entry(const char* call, int pe, const Message& request, uint64_t cookie, bool read);
  // Writes into `pe`'s memory how many entries of its ring here this PE has consumed.
  void send_ack(int pe);
  // The cookie a request message to `pe` carries (request_rings.h: with_sent()).
  uint64_t message_cookie(const char* call, int pe, uint64_t cookie);
  // Applies the request of a ring entry, from `origin`, into `served` (under the lock).
  void serve_entry(int origin, const RequestRings::Entry& entry, ServedRequests* served);
  // Answers a read served from a ring: its bytes and the tag, written into the initiator's
  // cell in one injected write.
  void answer_read(const Served& served);
  // The most bytes a blocking get reads into a cell: as many as one injected write carries
  // with the tag, AnswerSlots::kCellBytes at most.
  size_t cell_read_most() const {
    if (inject_size_ < sizeof(uint64_t)) return 0;
    return std::min((inject_size_ - sizeof(uint64_t)) & ~size_t{7}, AnswerSlots::kCellBytes);
  }
  // Whether a message that arrived in `slot` (`len` bytes) may be served (admit.cc);
  // false, once with a warning, if not.
  bool admit(const Incoming& slot, size_t len);
  // Serves a received message; true when it completes an operation of this PE's (an answer).
  bool deliver(Incoming* slot);
  // Gathers (strided.cc).  The answers go out from buffers of their own, so
  // that a receive buffer takes messages again at once (an answer of kRunBytes completes
  // only once its initiator has received it: answers waiting in receive buffers on two PEs
  // that gather from each other would wait for each other); a gather that finds none free
  // waits in gathers_waiting_ until an answer's send completes (gather_answered()).
  struct Gathering;
  static constexpr size_t kGatherAnswers = 8;
  std::unique_ptr<Outgoing[]> gather_answers_;
  SpinLock gathers_lock_;
  std::deque<Message> gathers_waiting_;
  void answer_gather(const Message& request);
  void send_gathered(Outgoing* answer, const Message& request);
  bool gather_answered(void* context);
  // An answer to a gather of this PE's: its blocks into place, the call told (true).
  bool take_gathered(Incoming* slot);
  void wait_software(const char* call);

  // The puts held to go together (held_puts.h), which send through the calls above and
  // write_message().
  friend class HeldPuts;
  HeldPuts held_{*this};
  // Posts one write (no larger than the provider's largest message); no flush, no
  // coalescing.  With a completion to the CQ for `context` (progress() hands it on and counts
  // it) when given, else injected when small enough; carrying `*data` as remote CQ data when
  // given.  A write without `context` is counted (its completion goes to the CQ) when it
  // must land or is too large to inject; otherwise it is injected with no completion at all.
  // What its completion means: Confirmed (landed, or confirmed by quiet under Order All and
  // Rma), Landed (landed, whatever the order), Local (left this PE; nobody confirms it:
  // put_word).
  enum class Completion : uint8_t { Confirmed, Landed, Local };
  void write_message(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                     void* context, const uint64_t* data = nullptr, Completion completion = Completion::Confirmed);
  // With Order All or Rma: posts an empty delivery-complete write to every PE with writes
  // not yet confirmed, behind them, so that once the writes are counted complete
  // (wait_writes) every earlier one has landed.  The network timeout posts it too, without
  // waiting: a PE that does not answer it is named.
  void confirm_writes(const char* call);
  // Signals that ride on writes (signal.cc).  A PE sent one (ledger_.note_signal()) is
  // confirmed by confirm_writes() with confirm_signals(): a write whose remote CQ data asks
  // the target's progress for an answer, which it sends once it has applied every signal
  // that came before.  apply_signal(): under the lock, as `entry` is read from the CQ,
  // applies it if it is a signal (true), so that no thread answers a confirmation before the
  // signals ahead of it are applied.  answer_confirmation(): answers `data` if it asks for a
  // confirmation.
  void confirm_signals(const char* call, const std::vector<int>& pes);
  bool apply_signal(const fi_cq_data_entry& entry);
  bool answer_confirmation(uint64_t data);
  // Sends a software-path answer (or a probe's answer) to `pe` (software_atomic.cc):
  // written into its slot where the request's cookie names one, else as a message.
  void send_answer(const Message& answer, int pe);
  // Posts a non-fetching atomic on `count` elements (libfabric's fi_datatype and fi_op),
  // counted (the caller counts it issued) with its completion for `context`,
  // delivery-complete unless the order is All; returns what libfabric returned.
  ssize_t write_atomic(uint64_t peer, const LocalMemory::Buffer& operands, size_t count, uint64_t address, uint64_t key,
                       int datatype, int op, void* context);
  // The operands of single non-fetching atomics (operand_slots.h): a slot taken, driving
  // progress while every one is in flight.
  OperandSlots::Slot* take_operand_slot(const char* call);
  OperandSlots operands_;
  // Fills `msg`, the message of one RMA operation on (pe, segment, offset) for fi_writemsg
  // or fi_readmsg, and `rma`; `iov` holds the local buffer, `desc` its descriptor.
  void rma_message(const char* call, int pe, int segment, uint64_t offset, iovec* iov, void** desc, fi_rma_iov* rma,
                   fi_msg_rma* msg);
  // Posts one read, counted, whose completion comes to the CQ with `context`
  // (&counted_read_ when it has none of its own).
  void read_message(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes,
                    void* context);
  void (*notification_handler_)(uint64_t data) = nullptr;
  bool notify_by_data_ = true;  // notifications as remote CQ data (else as messages)
  // Sends a notification as a message (software_atomic.cc).
  void send_notification(const char* call, int pe, uint64_t data);
  int list_target_[kInbox] = {};  // per answer slot: the PE of the list it answers, or -1
  // put_signal_nbi's data writes and get_notify_nbi's reads (signal.cc).  progress(): a
  // piece of a signal's data landed, or a read completed (true), or `context` is a receive
  // buffer; post_ready_signals() posts the signals and notifications whose data has landed
  // or been read, wait_signals() waits until none is left to post.
  struct PendingSignal;
  // The update of a signal that does not ride on a write: the provider's atomic, or a
  // software atomic where cpu_signals().  No fence settled.
  void post_signal(const char* call, int pe, int segment, uint64_t offset, uint64_t value, bool add);
  // Posts `bytes` as writes with a completion each; once the last has landed, progress()
  // carries out `then` (a signal or a notification).  Bytes > 0.
  void write_then(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                  const PendingSignal& then);
  // Writes `bytes` with `data` as the CQ data of its last piece only, the pieces before it
  // landing first (an ordered provider keeps writes in order; otherwise they are waited for).
  void write_carrying(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                      uint64_t data, Completion completion);
  bool signal_data_landed(void* context);
  void post_ready_signals();
  void wait_signals(const char* call);
  std::atomic<uint64_t> signals_pending_{0};
  std::mutex signals_mutex_;
  std::vector<PendingSignal*> signals_ready_;
  std::string provider_;
  fi_info* info_ = nullptr;
  fid_fabric* fabric_ = nullptr;
  fid_domain* domain_ = nullptr;
  fid_ep* ep_ = nullptr;
  fid_av* av_ = nullptr;
  fid_cq* cq_ = nullptr;
  fid_mr* mr_[kRegions] = {};  // the regions peers reach (peers.h)
  char* base_[kSegments] = {};
  size_t size_[kSegments] = {};
  Own own_{};  // region kOwn (peers.h)
  AnswerSlots answer_slots_;
  bool answers_written_ = false;  // requests ask for written answers (talks_through_sockets())
  // Requests written into rings (answers_written_, and room for an entry in an inject): this
  // PE's rings, one per initiator; the target each answer slot's request was written to
  // (-1: it went as a message, or asks for a confirmation).
  bool rings_on_ = false;
  ZeroPages ring_memory_;  // RequestRings::memory_bytes(ring_pes_): an initiator's ring costs once used
  size_t ring_pes_ = 0;
  const RequestRings::Entry* ring_entries() const {
    return static_cast<const RequestRings::Entry*>(ring_memory_.data());
  }
  RequestRings rings_;
  int ring_target_[kInbox] = {};
  uint32_t ring_number_[kInbox] = {};  // and its number in that ring
  std::atomic<uint64_t> requests_served_{0};      // TANDEM_STATS: requests and run requests
  std::atomic<uint64_t> requests_from_rings_{0};  // of them
  Rules rules_;     // in force
  Rules emulated_;  // imposed by TANDEM_OFI_REQUIRE alone
  LocalMemory local_;
  Pieces pieces_;  // how a put or a get is cut into operations
  size_t inject_size_ = 0;
  Peers peers_;
  uint64_t secret_ = 0;  // this PE's, which its card gives (admit())
  std::vector<uint64_t> mapped_keys_;      // FI_MR_RAW: peers' keys mapped by resolve()
  Transport::CardOf card_of_;
  // One lock around every libfabric call: application threads (SHMEM_THREAD_MULTIPLE) and the
  // progress thread share the endpoint, and the provider is asked for FI_THREAD_DOMAIN.
  SpinLock mutex_;
  ProgressSleep sleep_;  // how the progress thread waits
  Order order_ = Order::None;
  WriteLedger ledger_;  // the PEs that confirm_writes() confirms (Order All, Rma)
  PeActivity pe_;  // progress() and look() by the PE's threads: pe_driving()
  // Counted operations are counted as issued before they are posted, and as done when the
  // CQ reports them (whichever thread reads it): done at least as large as issued means
  // every counted operation posted so far has completed.
  std::atomic<uint64_t> writes_issued_{0};
  std::atomic<uint64_t> reads_issued_{0};
  std::atomic<uint64_t> writes_done_{0};
  std::atomic<uint64_t> reads_done_{0};
  // Per type: the provider has every operation the API needs on it (and was not told to
  // leave atomics to software).
  bool native_[static_cast<int>(AtomicType::Count)] = {};
  // Per type and non-fetching operation on a native type: the most elements one provider
  // atomic takes.
  size_t array_most_[static_cast<int>(AtomicType::Count)][static_cast<int>(AtomicOp::Count)] = {};
  int my_pe_ = -1;
  std::vector<Incoming> inbox_;  // posted receive buffers for requests and replies
  std::atomic<uint64_t> refused_{0};  // messages dropped by admit()
  std::unique_ptr<Outgoing[]> runs_;
  // Software atomics sent and answered.
  std::atomic<uint64_t> software_sent_{0};
  std::atomic<uint64_t> software_answered_{0};

  // The network timeout (timeout.cc): every wait loop calls watch() each turn.
  NetTimeout timeout_;
  void watch(const char* call, NetTimeout::Wait& w, int pe = -1) {
    if (timeout_.due(w)) check_stall(call, w, pe);
  }
  void check_stall(const char* call, NetTimeout::Wait& w, int pe);
  // A wait on memory (Backoff's progress, through poll()): watched while operations of this
  // PE are outstanding, and otherwise, where it waits for a PE on another node (`awaited`),
  // by probes of that PE (watch_idle).
  void watch_outstanding(const char* call, AwaitedPe* awaited);
  void watch_idle(const char* call, AwaitedPe& awaited);
  // Probes (Message::Probe) go as injected messages, where the provider injects one.
  bool probes_fit() const { return inject_size_ >= sizeof(Message); }
  void send_probe(const char* call, int pe);
  void probe_candidates(const char* call);
};

}  // namespace tandem::ofi
