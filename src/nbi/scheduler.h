// The operation path: every RMA becomes an Op handed to the scheduler, which decides when
// and how it is carried out: a CPU copy for a node peer, an RDMA operation for a PE on
// another node.  An intra-node nbi Op of at least TANDEM_DEFER_THRESHOLD bytes is held until
// the next quiet or fence; quiet posts what the network still waits for, then runs the held
// copies, then polls the network's completions.  Atomics go through here too, so that all
// atomics on one type take one path and stay atomic with each other: CPU atomics when all PEs
// share memory or the network serves that type in software (its target applies them with CPU
// atomics), the provider's atomics otherwise, also to node peers and to the PE itself.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>

#include "core/backoff.h"
#include "nbi/op.h"
#include "nbi/op_queue.h"
#include "transport/ofi/transport.h"
#include "transport/shm.h"

namespace tandem {

class Scheduler {
 public:
  // TANDEM_DEFER_THRESHOLD=auto: copies are held only while the network is in use (the
  // current or the last epoch posted network operations), from a size that follows the
  // measured copy bandwidth (see adapt()).
  static constexpr size_t kAutoThreshold = ~size_t{0} - 1;
  // `network`: the inter-node engine when PEs span nodes, else null.  `stats`: count what
  // stats() reports that costs a look at the network (TANDEM_STATS).
  void configure(size_t defer_threshold, ofi::Transport* network, bool stats = false) {
    auto_ = defer_threshold == kAutoThreshold;
    defer_threshold_ = auto_ ? measure_auto_threshold() : defer_threshold;
    network_ = network;
    stats_ = stats;
    for (int t = 0; t < static_cast<int>(ofi::AtomicType::Count); ++t)
      cpu_atomics_[t] = !network || !network->native(static_cast<ofi::AtomicType>(t));
  }
  // Blocking: returns once the source buffer may be reused (puts) or the data arrived (gets).
  void submit(const char* call, const Op& op);
  // Non-blocking: may return before the transfer happened; completed by quiet().
  void submit_nbi(const char* call, const Op& op);
  // Makes every put submitted so far land before any later write (for put-with-signal: the
  // signal must not overtake the data).
  void complete_puts(const char* call);
  // Completes every submitted Op and atomic.
  void quiet(const char* call);
  // Orders Ops to each PE: those before the fence land before those after it.
  void fence(const char* call);
  // A put-with-signal: `data`, then the signal update at `signal`, which never overtakes
  // it.  An nbi one whose data is held back holds its signal back behind it.
  void put_signal(const char* call, const Op& data, const Target& signal, uint64_t value, bool add, bool nbi);
  // A signal update alone (shmem_signal_set/add, a put-with-signal of no data): on a node
  // peer a CPU atomic where the network's signals are applied by CPUs (cpu_signals()); on
  // another node, an empty write carrying it where it rides on writes, else an atomic.
  void update_signal(const char* call, const Target& signal, uint64_t value, bool add);
  // Whether a put-with-signal to `remote` costs no more than the put: a node peer's signal
  // follows the copy, a network that keeps atomics behind writes posts it right behind the
  // data, and one that keeps writes in order carries it on the data's write (for a small
  // value, ofi::Transport::signal_rides_write); otherwise the signal waits for the data's
  // completion.
  bool signal_rides(const Target& remote) const {
    return remote.mapped || !network_ || network_->order() == ofi::Transport::Order::All ||
           network_->signals_ride_writes();
  }
  // Sets the word at `remote` (another node's) to `value` where the network keeps writes in
  // order, and returns true; false (nothing done) where it does not.  For a word that one PE
  // alone sets to ever larger values and its owner polls (a barrier counter): the write
  // costs no acknowledgement, and quiet does not wait for it.
  bool set_word_in_order(const char* call, const Target& remote, uint64_t value) {
    if (!network_ || network_->order() == ofi::Transport::Order::None) return false;
    note_network();
    network_->put_word(call, remote.pe, remote.segment, remote.offset, value);
    return true;
  }
  // True where writes to another node land in the order they were posted (or there is no
  // network): then set_word_in_order() applies, and a put_unconfirmed() lands before it.
  bool writes_in_order() const { return !network_ || network_->order() != ofi::Transport::Order::None; }
  // True where a write to another node can carry a word for its target's notification
  // handler (remote CQ data): then put_unconfirmed() takes `data`.
  bool writes_carry_data() const { return network_ && network_->notifies_by_data(); }
  // True where the bytes of a write to another node land in their order
  // (ofi::Transport::writes_land_in_order): then a word written at the end of the data, in
  // the same write, says that the data is there, read with load_landed().
  bool writes_land_in_order() const { return network_ && network_->writes_land_in_order(); }
  // Such a word of this PE's memory, or nullopt while the network may be copying into it.
  std::optional<uint64_t> load_landed(const uint64_t* word) { return network_->load_landed(word); }
  // Writes `bytes` from `source` to `remote` (another node's), for data that its target reads
  // once a word says so: a word written after it with set_word_in_order(), or `data`, which
  // the write carries and the target's progress hands to the notification handler once the
  // bytes have landed.  The source is free on return; quiet does not wait for the write.
  void put_unconfirmed(const char* call, const Target& remote, const void* source, size_t bytes,
                       const uint64_t* data = nullptr) {
    note_network();
    network_->put_unconfirmed(call, remote.pe, remote.segment, remote.offset, source, bytes, data);
  }
  // A notified put or get (`data`), then its notification with `tag` to the PE whose memory
  // it touched, published once the data landed there (put) or was read (get).  Blocking:
  // returns as submit() does.  An nbi one whose copy is held holds its notification behind
  // it; across nodes the notification rides on the data's write (put) or follows the read.
  void notified(const char* call, const Op& data, int tag, bool nbi);
  // How a notification goes out, which notified access (src/notify, a room above this one)
  // knows and shmem_init hands over: `publish` it from this PE with `tag` into the lane of
  // node peer `pe` (this PE included), after the data it covers is visible there; or `data`,
  // the 8 bytes of remote CQ data that carry it across the network.
  struct Notifications {
    void (*publish)(const char* call, int pe, int tag) = nullptr;
    uint64_t (*data)(int tag) = nullptr;
  };
  void set_notifications(Notifications n) { notifications_ = n; }
  // The threshold in force, and a line saying how it was chosen (SHMEM_INFO).
  size_t defer_threshold() const { return defer_threshold_.load(std::memory_order_relaxed); }
  std::string describe_threshold() const;
  // Ops held back, not yet carried out: copies, and writes for the progress thread.
  size_t held() const { return deferred_.size() + writes_.size(); }
  // For a PE about to wait for another: runs what it holds (copies, writes for the progress
  // thread), which may be what the other waits for (a held notified put's notification).
  void run_all_held(const char* call) {
    if (held() == 0) return;
    drain_writes(call);
    drain(call);
  }
  // The end of a batch (shmem_ctx_session_stop): runs what is held and writes the open
  // batch of coalesced puts, so that nothing of the batch waits for the next quiet.
  void push_held(const char* call) {
    run_all_held(call);
    if (network_) network_->flush(call);
  }
  // The progress thread's duties.  `pushes` (it has a core of its own): it pushes the
  // network's writes out while the PE copies or computes; otherwise a held copy that runs
  // while writes are in flight pushes them itself between its pieces.  `writes`
  // (TANDEM_PROXY_WRITES): it posts the large nbi puts to other nodes (kProxyWriteMin bytes
  // or more), which with tcp costs the poster the time to hand the data to the kernel, so
  // the PE goes on at once.  `copies` (TANDEM_PROXY_COPIES): it runs the held copies as
  // soon as they are held.  The thread calls run_held(); holding wakes it.
  void set_progress_thread(bool pushes, bool writes, bool copies) {
    thread_pushes_ = pushes;
    proxy_writes_ = writes;
    proxy_copies_ = copies;
  }
  bool proxy_writes() const { return proxy_writes_; }
  bool proxy_copies() const { return proxy_copies_; }
  // Whether the progress thread has Ops to run: held writes, or held copies with
  // TANDEM_PROXY_COPIES.
  bool proxy_work() const { return writes_.size() > 0 || (proxy_copies_ && deferred_.size() > 0); }
  // The progress thread's share: the held writes, then (TANDEM_PROXY_COPIES) the copies.
  void run_held(const char* call) {
    drain_writes(call);
    if (proxy_copies_) drain(call);
  }

  // What TANDEM_STATS=1 reports at finalize.
  struct Stats {
    uint64_t deferred_ops = 0;
    uint64_t deferred_bytes = 0;
    uint64_t overlapped_bytes = 0;  // held copies run while network operations were in flight
    uint64_t early_drains = 0;      // held copies run on a call site, the queue being full
  };
  Stats stats() const;

  // An atomic at `remote`, returning the old value when `fetch` (else T()).
  template <typename T>
  T atomic(const char* call, const Target& remote, shm::AmoOp op, T operand, T compare, bool fetch);
  // Applies `op` with operands[i] to element i of the array at `remote`, each element
  // atomically and nothing fetched (a window's accumulate); complete at the next quiet,
  // until which `operands` must not change.
  template <typename T>
  void atomic_array(const char* call, const Target& remote, shm::AmoOp op, const T* operands, size_t count);
  // A strided put or get (shmem_iput and its kin, the blocks of an alltoalls): `blocks`
  // blocks of `block` elements of `elem` bytes, `remote_stride` elements apart at `remote` and
  // `local_stride` apart at `local`.  A node peer's are copied now.  Across nodes, blocks
  // without gaps at either end are one Op; small blocks travel packed where the network
  // scatters and gathers them (ofi::Transport::put_strided, get_strided); gets of small
  // blocks close together read the span they cover (see scheduler.cc); the rest is an Op a
  // block.  Returns true where Ops remain in flight until the next quiet; a get that returns
  // false has landed.
  bool submit_strided(const char* call, Op::Kind kind, const Target& remote, char* local, ptrdiff_t remote_stride,
                      ptrdiff_t local_stride, size_t elem, size_t block, size_t blocks);

 private:
  // submit_strided()'s ways across nodes: the network's scatters (complete at the next
  // quiet) and gathers (complete on return), each false where the network does not take
  // them; and the span read of a get.
  bool put_strided(const char* call, const Target& remote, const void* source, size_t source_stride, size_t stride,
                   size_t block, size_t blocks);
  bool get_strided(const char* call, const Target& remote, void* dest, size_t dest_stride, size_t stride, size_t block,
                   size_t blocks);
  void get_span(const char* call, const Target& from, char* dest, ptrdiff_t dst, ptrdiff_t sst, size_t elem,
                size_t block, size_t blocks);
  template <typename T>
  static constexpr ofi::AtomicType atomic_type() {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMOs are on 4- and 8-byte types");
    if constexpr (std::is_floating_point_v<T>) return sizeof(T) == 4 ? ofi::AtomicType::Float : ofi::AtomicType::Double;
    else if constexpr (sizeof(T) == 4) return std::is_signed_v<T> ? ofi::AtomicType::Int32 : ofi::AtomicType::UInt32;
    else return std::is_signed_v<T> ? ofi::AtomicType::Int64 : ofi::AtomicType::UInt64;
  }
  void network_atomic(const char* call, const Target& remote, shm::AmoOp op, ofi::AtomicType type,
                      const void* operand, const void* compare, void* result);
  void network_atomic_array(const char* call, const Target& remote, shm::AmoOp op, ofi::AtomicType type,
                            const void* operands, size_t count);
  // Whether an nbi `op` is held: a copy to a node peer (or this PE) of defer_threshold_
  // bytes or more; with auto, only while the network is in use.
  bool holds(const Op& op) const {
    return op.remote.mapped && op.bytes >= defer_threshold_.load(std::memory_order_relaxed) &&
           (!auto_ || network_in_use());
  }
  // A network operation was posted in this epoch.
  void note_network() { epoch_network_ops_.fetch_add(1, std::memory_order_relaxed); }
  // The end of an epoch (quiet, fence): whether it used the network tells whether the next
  // one may (auto's holding, the queue's soft bound).
  void end_epoch() {
    network_used_.store(epoch_network_ops_.exchange(0, std::memory_order_relaxed) > 0, std::memory_order_relaxed);
  }
  // This epoch or the last one posted network operations, or writes wait for the thread.
  bool network_in_use() const {
    return network_used_.load(std::memory_order_relaxed) || epoch_network_ops_.load(std::memory_order_relaxed) > 0 ||
           writes_.size() > 0;
  }
  // auto: the threshold from a copy of `bytes` that took `ns` (see kHoldCostRatio).
  void adapt(size_t bytes, double ns);
  size_t measure_auto_threshold();
  // Holds `op`, and `behind` right after it when given; runs the queue on this call site
  // once it grows past its bounds.
  void hold(const char* call, const Op& op, const Op* behind = nullptr);
  // Runs the held Ops, oldest first.
  void drain(const char* call);
  // Copies a held Put or Get (auto: and learns from its speed).
  void copy_held(const Op& op);
  // The copy, in pieces with a push of the network between them while writes are in flight.
  void copy_pieces(const Op& op);
  void post_write(const char* call, const Op& op) {
    network_->put(call, op.remote.pe, op.remote.segment, op.remote.offset, op.local, op.bytes, true);
  }
  // Posts the writes held for the progress thread that it has not posted yet (waiting for
  // those it is posting).
  void drain_writes(const char* call) {
    writes_.drain([&](const Op& op) { post_write(call, op); });
  }
  std::atomic<size_t> defer_threshold_{~size_t{0}};
  bool auto_ = false;
  double copy_bytes_per_ns_ = 0;  // auto: measured at configure, then from held copies
  double hold_ns_ = 0;            // auto: what holding one Op costs, measured at configure
  std::atomic<bool> network_used_{false};        // the last epoch posted network operations
  std::atomic<uint64_t> epoch_network_ops_{0};   // network operations posted in this one
  ofi::Transport* network_ = nullptr;
  Notifications notifications_;
  bool stats_ = false;
  bool proxy_copies_ = false;
  bool proxy_writes_ = false;
  bool thread_pushes_ = false;
  OpQueue writes_;  // nbi puts to other nodes for the progress thread to post
  bool cpu_atomics_[static_cast<int>(ofi::AtomicType::Count)] = {true, true, true, true, true, true};
  OpQueue deferred_;
  std::atomic<uint64_t> held_bytes_{0};
  std::atomic<uint64_t> deferred_ops_{0}, deferred_bytes_{0}, overlapped_bytes_{0}, early_drains_{0};
};

inline Scheduler& scheduler() { return Singleton<Scheduler>::get(); }

template <typename T>
T Scheduler::atomic(const char* call, const Target& remote, shm::AmoOp op, T operand, T compare, bool fetch) {
  constexpr ofi::AtomicType type = atomic_type<T>();
  if (remote.mapped && cpu_atomics_[static_cast<int>(type)]) {
    // With a network, this type's atomics from other nodes are served by this PE's progress:
    // a PE that polls with atomics on its own memory (shmem_test_lock in a loop) must still
    // serve them, or their initiators, holding the lock, wait forever.  A look now and then
    // does (every 50 us): a look each time cost a system call per CPU atomic (a window lock
    // epoch between node peers, three atomics, took 1.6 us instead of 0.5).
    look_now_and_then();
    return shm::amo(op, reinterpret_cast<T*>(remote.mapped), operand, compare);
  }
  T result{};
  network_atomic(call, remote, op, type, &operand, &compare, fetch || op == shm::AmoOp::Fetch ? &result : nullptr);
  return result;
}

template <typename T>
void Scheduler::atomic_array(const char* call, const Target& remote, shm::AmoOp op, const T* operands, size_t count) {
  constexpr ofi::AtomicType type = atomic_type<T>();
  if (remote.mapped && cpu_atomics_[static_cast<int>(type)]) {
    look_now_and_then();  // as in atomic()
    T* words = reinterpret_cast<T*>(remote.mapped);
    for (size_t i = 0; i < count; ++i) shm::amo(op, words + i, operands[i]);
    return;
  }
  network_atomic_array(call, remote, op, type, operands, count);
}

}  // namespace tandem
