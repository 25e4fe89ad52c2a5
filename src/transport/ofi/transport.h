// The inter-node engine as the rest of the library sees it: one libfabric RDM endpoint per
// PE with RMA and atomics, reached through ofi::Transport.  Each call forwards to the engine
// (engine.h, which describes how operations are issued and counted), so that a change
// inside the transport recompiles only the transport.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/awaited_pe.h"
#include "core/config.h"
#include "transport/ofi/provider.h"
#include "transport/ofi/types.h"

namespace tandem::ofi {

class Engine;

class Transport {
 public:
  Transport();
  ~Transport();
  static constexpr int kSegments = 2;  // 0: symmetric heap, 1: globals

  struct Settings {
    std::string provider;  // a libfabric provider name such as "tcp;ofi_rxm"; empty: choose()'s
    Rules required;        // rules to follow whatever the provider imposes (TANDEM_OFI_REQUIRE)
    size_t bounce_bytes = 0;  // FI_MR_LOCAL: private buffers copied up to this size (local.h)
    bool waitable = false;    // a progress thread will sleep in wait_for_activity()
    // A network namespace file that this thread enters first, so the endpoint (and threads
    // started afterwards) live there; connections made before, such as PMIx's, stay.
    std::string netns;
    // Which atomics are the provider's (the others take the software path): Auto, those it
    // has every operation for unless it emulates them with messages (ofi_rxm); Provider,
    // those it has every operation for; Software, none (TANDEM_ATOMICS).
    Config::Atomics atomics = Config::Atomics::Auto;
    bool coalesce = false;          // nbi puts may be coalesced (see put())
    bool notify_messages = false;   // notifications travel as messages, never as remote CQ data
    int n_pes = 0;                  // PEs in the job: the request rings' size (request_rings.h)
  };
  // Opens an endpoint on the provider chosen (provider.h) and registers the segments.
  // Ends the PE on failure.
  void open(const char* call, const Settings& settings, char* const bases[kSegments], const size_t sizes[kSegments]);
  // What peers need to reach this PE: endpoint address, keys and segment bases.
  std::string card() const;
  // A PE's card (card()), read where the engine first needs it: from any thread, also with
  // the engine's lock held (so it must not call into the engine).
  using CardOf = std::function<std::string(const char* call, int pe)>;
  // Readies the engine for `pes` PEs, this one `my_pe`.  A peer's card is read, its address
  // inserted and its keys and bases recorded when this PE first addresses it or hears
  // from it.
  void connect(const char* call, int pes, int my_pe, CardOf card_of);
  void close();
  bool is_open() const;
  const std::string& provider() const;
  // The rules in force, and those of them that TANDEM_OFI_REQUIRE imposed where the provider
  // does not.
  const Rules& rules() const;
  const Rules& emulated() const;
  // How operations to one target stay in order, the first of these the provider grants:
  //   All: writes, reads, atomics and messages (FI_ORDER_RAW|WAW|SAW).  Puts and atomics
  //        complete locally; quiet confirms (confirm_writes); fence costs nothing.
  //   Rma: RMA writes and reads among themselves (FI_ORDER_RMA_RAW|RMA_WAW).  Puts complete
  //        locally and quiet confirms, which spares the target an acknowledgement per put
  //        (with tcp, a system call on the path of every answer); atomics, and the data
  //        writes that a signal or a notification message follows, are delivery-complete;
  //        atomics and messages may pass writes, so the first of them after a fence
  //        confirms and waits, as quiet does (order_writes()).  A signal rides on its data's
  //        write (signal_rides_write()).
  //   In both, the first write to a PE after a confirmation is delivery-complete: a put
  //   followed by quiet then costs one acknowledgement, as without the order.
  //   None: every write and atomic is delivery-complete, and a counted write has landed.
  using Order = ofi::Order;
  Order order() const;

  // Starts a write of `bytes` from `source` to (pe, segment, offset).  When it returns the
  // source may be reused if `bytes` <= inject size; otherwise only after quiet().
  // `coalesce` (an nbi put, complete only at quiet): a small put that continues the previous
  // one to the same PE and segment may be copied into an open batch, written as one
  // message when the run of contiguous puts ends, the batch is full, or any other operation,
  // wait or flush() comes; where the provider talks through sockets, one that follows a put
  // to the same PE and segment without continuing it, into a list that the target copies
  // into place (batch.cc).
  void put(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
           bool coalesce = false);
  // A write of `bytes` from `source` to (pe, segment, offset) that only its target watches
  // for (Order All or Rma): behind the writes before it, locally complete on return (the
  // source is free), never delivery-complete and never confirmed by quiet.
  // With `data`, the last write carries it as a notification word (see put_notify), which
  // the target hands to the on_notification() handler once that write's bytes have landed.
  void put_unconfirmed(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                       const uint64_t* data = nullptr);
  // put_unconfirmed of an 8-byte `value`.  The target sees the word change from its old
  // value to `value`; the bytes of one write land in order, so a reader that waits for a
  // larger value than the word held never takes a half-written one for it.
  void put_word(const char* call, int pe, int segment, uint64_t offset, uint64_t value);
  // A strided put: `blocks` blocks of `block` bytes, `source_stride` bytes apart at `source`,
  // to (pe, segment, offset), `stride` bytes apart from there.  Where the provider talks
  // through sockets (whose target spends a system call on every write it takes in), blocks
  // of up to kScatterBlock bytes travel packed, up to kRunBytes a message, which the target's
  // progress copies into place (a scatter); the source is free on return and the put is
  // complete after quiet().  False where it does not: the caller writes each block.
  static constexpr size_t kScatterBlock = 1024;
  bool put_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, const void* source,
                   size_t source_stride, size_t block, size_t blocks);
  // A strided get, the other way: where the provider talks through sockets, blocks of up to
  // kGatherBlock bytes come packed, the target's progress copying up to kRunBytes of them
  // into each answer (a gather), and the call returns once all are in place at `dest`,
  // `dest_stride` bytes apart.  False where it does not: the caller reads each block.  An
  // answer costs as much as several reads on tcp;ofi_rxm (a message of kRunBytes goes in
  // segments, about 13 us each pipelined on 2 cores, where a read of a block takes 3.3): 2
  // KiB of 256-byte blocks came 2.1 times as fast as block by block, of 512-byte blocks 0.75
  // times (perf/README.md, "Strided puts and gets across nodes").
  static constexpr size_t kGatherBlock = 256;
  bool get_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, void* dest,
                   size_t dest_stride, size_t block, size_t blocks);
  // Writes the open batch of coalesced puts, if any.
  void flush(const char* call);
  // What a PE that waits does for the network each turn: write the open batch (it must not
  // hold its own puts) and drive progress; `awaited`: the wait's PE on another node, watched
  // by the network timeout (core/awaited_pe.h).  A progress thread calls progress() instead.
  void poll(const char* call, AwaitedPe* awaited = nullptr);
  // The same when no put joined the open batch since the last call (a progress thread's).
  void flush_if_idle();
  // TANDEM_STATS.
  struct Stats {
    uint64_t coalesced_puts = 0;  // puts carried in batches rather than as messages of their own
    // The times a progress thread woke because traffic arrived (not for a pause or a
    // timeout) and because a peer rang its doorbell (doorbell.h), and the connections it
    // sleeps on where the provider talks through sockets (socket_watch.h).
    uint64_t traffic_wakes = 0;
    uint64_t doorbell_rings = 0;
    size_t watched_connections = 0;
    // The rings of peers' doorbells that this PE's waits sent (for a peer's part that was
    // late, or a network operation gone unanswered), and the rests its progress thread took
    // while requests were in flight (progress_sleep.h).
    uint64_t rings_sent = 0;
    uint64_t rests = 0;
    // The software atomic requests this PE served, and those of them that came written into
    // its request rings rather than as messages (request_rings.h).
    uint64_t requests_served = 0;
    uint64_t requests_from_rings = 0;
    // The messages this PE dropped because they did not come from the job (no secret, or a
    // shape the engine does not send); only the first one is warned of.
    uint64_t messages_dropped = 0;
  };
  Stats stats() const;
  // Starts a read into `dest`, complete after quiet() (or wait_reads()).
  void get(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes);
  // A blocking get: `dest` holds the data when it returns.  A word (4 or 8 bytes at an
  // offset that is a multiple of its size) goes as a request written into the target's ring
  // where requests go that way (request_rings.h; the first word get to a PE is a read, and
  // opens the ring behind it), answered into this PE's answer slots as a fetching atomic is: with tcp a read's completion costs the initiator a signal of the
  // provider's wait set, a written answer nothing.  Anything else: get(), then wait_reads().
  void get_now(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes);
  // Notified access (signal.cc): `data` (a notification) travels as a write's remote CQ
  // data, and the target's progress hands it to the on_notification() handler once the
  // write's data has landed there.  Where the provider carries fewer than 8 bytes of remote
  // CQ data (or open() was told so), it travels as a message instead, sent once the data
  // has landed (ordered providers: right after the data's writes, which it cannot pass).
  // put_notify: a put whose last write carries `data` (earlier pieces of a put larger than
  // the provider's largest message land first); the source may be reused as after put().
  // get_notify_nbi: a read, then, once it has completed, a notification alone; both
  // complete after quiet().  notify: a notification alone.
  void put_notify(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                  uint64_t data);
  void get_notify_nbi(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes, uint64_t data);
  void notify(const char* call, int pe, uint64_t data);
  void on_notification(void (*handler)(uint64_t data));
  // true: notifications ride on writes as remote CQ data; false: they are messages.
  bool notifies_by_data() const;
  // true where the bytes of a write land in their order (providers that copy a kernel
  // socket's stream into memory), so that a word at the end of a write, read by
  // load_landed(), says that the whole write is there when it holds a value it held never
  // before and that no other write puts there.
  bool writes_land_in_order() const;
  // The word at `word` (this PE's memory, written by other nodes' writes), read while no
  // thread is inside the provider (which may be copying a write into it, in any order);
  // nullopt while one is.  A write that the provider has copied in part shows a prefix.
  std::optional<uint64_t> load_landed(const uint64_t* word);
  // true: atomics on `type` are the provider's; false: they take the software path, where
  // the target PE's progress applies each one with a CPU atomic on its own memory (so node
  // peers may use CPU atomics on that type too) and answers with the old value.
  bool native(AtomicType type) const;
  // An atomic on one element of `type` at (pe, segment, offset).  `result` receives the old
  // value when non-null and is valid when this returns; without result the operation is
  // complete after quiet(), and ordered by order_writes().
  void atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
              const void* operand, const void* compare, void* result);
  // Reads the first word of `pe`'s heap, then fetches it atomically: rxm grows a pool of
  // 1024 buffers on an endpoint's first read, first atomic and first atomic it answers,
  // which took the PE's first get 8 ms and its first fetch_add 15 ms; shmem_init pays it.
  void warm_up(const char* call, int pe);
  // A non-fetching `op` with operands[i] on element i of the `count` elements of `type` at
  // (pe, segment, offset), each element atomic: as few messages as the provider's atomics
  // on arrays allow (on the software path, one request per kRunBytes of operands).
  // `operands` must stay unchanged until quiet(); the operation is complete after quiet().
  void atomic_array(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type,
                    const void* operands, size_t count);

  // A put of `bytes` (none: the signal alone) to (pe, segment, offset), then an update of the 64-bit signal at
  // (pe, signal_segment, signal_offset): set to `value`, or `add` it.  The signal never
  // arrives before the data; both are complete after quiet(), ordered by order_writes(), and
  // the call returns at once (signal.cc).
  void put_signal_nbi(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes,
                      int signal_segment, uint64_t signal_offset, uint64_t value, bool add);
  // Whether the signal of such a put rides on the data's last write as its remote CQ data
  // (Order Rma, a 32-bit value, a signal in the first GiB of its segment): then the put with
  // its signal costs one message, the target's progress applies the signal once the data
  // has landed, and the source is free once the put's writes have left (wait_writes()).
  bool signal_rides_write(int signal_segment, uint64_t signal_offset, uint64_t value) const;
  // Whether signals ride on writes at all (for some values and places).
  bool signals_ride_writes() const;
  // Whether every signal update that comes from another node is applied by the target PE's
  // CPU: riding on a write, or else on the software atomic path.  Then a node peer may
  // update a signal with a CPU atomic, since signal updates need be atomic only with respect
  // to one another (OpenSHMEM 1.6, 9.8.1).  Where the provider keeps atomics behind writes
  // and has 64-bit atomics (which may be a NIC's), signals are its atomics, node peers' too.
  bool cpu_signals() const;
  // Completes every operation started so far.
  void quiet(const char* call);
  // Makes writes and atomics started so far land before any started afterwards (to any PE).
  void order_writes(const char* call);
  // Completes the reads (gets and fetching atomics) started so far.
  void wait_reads(const char* call);
  // Waits until the writes started so far have completed.
  void wait_writes(const char* call);
  // Whether counted operations this PE started are still incomplete (injected writes are
  // not: they left with the call).  A turn of progress first, which with tcp also pushes
  // queued data out.
  bool in_flight();
  // The same from what was last seen, without a provider call: false means every counted
  // operation started so far has completed; true, that one may still be in flight.
  bool maybe_in_flight() const;
  // Drives the provider's progress (incoming RMA for manual-progress providers) and serves
  // the software atomics that arrived.
  void progress();
  // One look at the network for a call that a PE may spin on without waiting in the library
  // (a test, a signal fetch, a wait whose condition already holds, an atomic or copy on
  // node-local memory): writes the open batch, then one read of the completion queue, which
  // with a manual-progress provider is what lets peers' operations on this PE land and this
  // PE's own queued operations leave.  It never waits for the lock: a thread holding it is
  // in the provider, progressing the endpoint already.
  void look();
  // The PE is in the library in a call that neither waits nor looks (a nonblocking
  // collective's post, a wait that finds its request complete): the progress thread counts
  // it as a look (pe_driving(), and the 200 us of `requests` in wait_for_activity()) and keeps
  // off.  A PE whose collectives all found their data landed (by the thread) would otherwise
  // never count as driving: the thread would sleep on traffic and wake for every message, on
  // a core that a PE needs (a broadcast of 8-64 B across 2 nodes 12-24 us instead of 5-7).
  void note_present();
  // Drives progress, sleeping for up to `timeout_us` when nothing happens (open() with
  // `waitable`) on the provider's sockets where it talks through them (socket_watch.h, and then
  // at most 10 ms, to look for new connections), else on its wait object; wake() ends the sleep
  // early.  A provider with neither gets a short sleep (50 us) instead, so its caller polls.
  // The sleep ends for incoming data, not for a socket that could take more outgoing data.  With
  // `busy` (a progress thread with a core of its own, which keeps pushing writes out with push()
  // while its PE computes or copies) the call returns at once while busy() says there is work,
  // and a write too large to be injected, or wake_if_sleeping(), ends its sleep.  While the PE
  // drives progress itself (or holds the lock) the call only pauses (50 us, doubling up to
  // 400 us while the PE keeps driving, 3.2 ms where peers ring its doorbell: nbi_posted()
  // ends such a pause); otherwise it first writes a batch of puts no put joined since its
  // last look, and sleeps at most 1 ms while a batch is open.  With `requests` (work in
  // flight that only the thread's turns move while the PE computes: the nonblocking
  // collectives) it keeps off while the PE took a turn or look (or note_present()) in the last 200 us, pausing
  // as above, and serves otherwise, at once where a peer rang since the PE was last in the
  // library (rest_while_present()); what its read landed moves the requests on
  // (run_background()) before it sleeps.
  void wait_for_activity(int timeout_us, bool (*busy)() = nullptr, bool requests = false);
  // For a progress thread on a core that a PE needs, while requests are in flight: rests,
  // neither serving the network nor resuming the requests, until `window_ns` have passed
  // since the PE was last in the library, or a peer rings the doorbell, or wake(); returns
  // false, without resting, once the window has passed or where a peer rang since the PE was
  // last in the library (the thread then serves as usual until the PE comes back).
  bool rest_while_present(int64_t window_ns);
  // Rings world PE `pe`'s doorbell (Runtime::nudge, and across nodes Runtime::ring_node): a
  // PE of another node, or a node peer, whose doorbell this PE then learns where it had not
  // resolved it.
  void nudge(int pe);
  // Whether the PE's threads drove progress since the progress thread last asked: they
  // waited in the library, or looked (look(): a test, say) often enough to be spinning on
  // it (every 20 us on average), and need no help from it.  A PE that tests now and then
  // between naps or work does not count: the thread serves the traffic that arrives meanwhile.
  bool pe_driving();
  // Ends a sleep in wait_for_activity() with `busy`, after work busy() reports was added.
  void wake_if_sleeping();
  // An nbi operation was posted: the PE may go off to compute, leaving it in flight; a pause
  // of wait_for_activity() longer than 400 us ends.
  void nbi_posted();
  // One turn of progress (see in_flight()).
  void push();
  void wake();
  size_t inject_size() const;
  // TANDEM_NET_TIMEOUT: a wait on the network (quiet, a blocking get or fetching atomic, a
  // wait for counted operations, a retry of a busy provider, a wait on memory while this PE's operations
  // are outstanding) that sees no completion at all for `seconds` ends the PE with one line
  // naming the call and the unreachable PE (timeout.cc).  0: waits never end so.
  void set_timeout(double seconds);


 private:
  std::unique_ptr<Engine> engine_;
};

}  // namespace tandem::ofi
