// oshrun: starts the PEs of an OpenSHMEM program on this machine and serves them PMIx.

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "job.h"
#include "job_events.h"
#include "options.h"
#include "pmix_host.h"
#include "signals.h"

using namespace tandem::oshrun;

namespace {

// A PE's pipes must not land on 0, 1 or 2 because one of them was closed when oshrun
// started (dup2 onto itself would keep close-on-exec and the PE would lose the stream).
void ensure_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fd_is_open(fd)) continue;
    int opened = ::open("/dev/null", O_RDWR);
    if (opened >= 0 && opened != fd) {
      ::dup2(opened, fd);
      ::close(opened);
    }
  }
}

// Two pipes per PE: a large job needs more descriptors than the usual soft limit.  The
// PEs get the limit oshrun started with.
void raise_open_file_limit(ChildState& child) {
  struct rlimit limit;
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  rlim_t wanted = limit.rlim_max == RLIM_INFINITY ? rlim_t{1} << 20 : limit.rlim_max;
  if (limit.rlim_cur >= wanted) return;
  child.nofile = limit;
  struct rlimit raised = limit;
  raised.rlim_cur = wanted;
  if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) child.restore_nofile = true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  switch (parse_options(argc, argv, options)) {
    case ParseOutcome::kExitSuccess:
      return 0;
    case ParseOutcome::kExitUsageError:
      return 2;
    case ParseOutcome::kRun:
      break;
  }
  ensure_standard_fds();

  ChildState child_state;
  raise_open_file_limit(child_state);
  // Before PMIx starts its threads: they must inherit the blocked signals.
  SignalRouter signals;
  if (!signals.install(child_state)) return 1;
  // Orphans of the PEs are re-parented to oshrun, which reaps them.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);

  JobEvents events;
  if (!events.open()) return 1;
  PmixHost pmix(events);
  if (!pmix.start() || !pmix.register_job(options.num_pes)) {
    pmix.stop();
    return 1;
  }
  int status;
  {
    Job job(options, pmix, events, signals, child_state);
    status = job.run();
  }
  pmix.stop();
  return status;
}
