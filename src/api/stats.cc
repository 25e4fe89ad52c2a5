// TANDEM_STATS=1: what each PE counted, printed at finalize (man 7 tandem).
#include <cstdio>

#include "core/runtime.h"
#include "nbi/progress_thread.h"
#include "nbi/scheduler.h"
#include "transport/ofi/transport.h"

namespace tandem {

void report_stats(const ofi::Transport* network, const ProgressThread& thread) {
  const Runtime& r = rt();
  const Scheduler::Stats s = scheduler().stats();
  const ofi::Transport::Stats n = network ? network->stats() : ofi::Transport::Stats{};
  fprintf(stderr,
          "Tandem stats: PE %d: %llu nbi copies held back (%llu bytes), %llu bytes of them copied "
          "while network transfers were in flight, %llu early runs of a full queue, %llu small puts "
          "coalesced\n",
          r.my_pe, static_cast<unsigned long long>(s.deferred_ops),
          static_cast<unsigned long long>(s.deferred_bytes), static_cast<unsigned long long>(s.overlapped_bytes),
          static_cast<unsigned long long>(s.early_drains),
          static_cast<unsigned long long>(n.coalesced_puts));
  if (thread.running() && !network) {
    fprintf(stderr, "Tandem stats: PE %d: peers rang its bell %llu times, and its progress thread resumed its "
            "requests %llu times\n", r.my_pe, static_cast<unsigned long long>(thread.rings_heard()),
            static_cast<unsigned long long>(thread.serves()));
    fprintf(stderr, "Tandem stats: PE %d: it rang peers' bells %llu times\n", r.my_pe,
            static_cast<unsigned long long>(node_rings_sent()));
  } else if (thread.running()) {
    fprintf(stderr, "Tandem stats: PE %d: the progress thread woke %llu times for traffic (connections watched: %zu)\n",
            r.my_pe, static_cast<unsigned long long>(n.traffic_wakes), n.watched_connections);
    fprintf(stderr, "Tandem stats: PE %d: peers rang its doorbell %llu times\n", r.my_pe,
            static_cast<unsigned long long>(n.doorbell_rings));
    fprintf(stderr, "Tandem stats: PE %d: it rang peers' doorbells %llu times, and its progress thread rested %llu times\n",
            r.my_pe, static_cast<unsigned long long>(n.rings_sent), static_cast<unsigned long long>(n.rests));
  }
  if (network) {
    fprintf(stderr, "Tandem stats: PE %d: %llu software requests served (atomics and gets), %llu of them written into its rings\n",
            r.my_pe, static_cast<unsigned long long>(n.requests_served),
            static_cast<unsigned long long>(n.requests_from_rings));
    fprintf(stderr, "Tandem stats: PE %d: %llu messages dropped as not from the job\n", r.my_pe,
            static_cast<unsigned long long>(n.messages_dropped));
  }
}

}  // namespace tandem
