// oshrun as a PMIx server: the private rendezvous directory, the server module the PMIx
// library calls back into, the job's namespace and the per-PE client registration.
//
// Everything here except the module callbacks runs on the main thread.  The callbacks run
// on PMIx's progress thread; they never call back into blocking server APIs, and hand
// anything that concerns the PEs to the main thread through JobEvents.
#pragma once

#include <string>

#include "job_directory.h"
#include "job_events.h"

namespace tandem::oshrun {

class PmixHost {
 public:
  explicit PmixHost(JobEvents& events) : events_(events) {}
  PmixHost(const PmixHost&) = delete;
  PmixHost& operator=(const PmixHost&) = delete;
  ~PmixHost() { stop(); }

  // Makes the private temporary directory and initialises the PMIx server library.
  bool start();
  // Registers the namespace oshrun.<pid> with the job-level and per-PE information.
  bool register_job(int num_pes);
  // Registers PE `rank` as an expected client and adds its PMIx connection variables to
  // `env` (an argv-style array that PMIx may realloc).  Call before forking the PE.
  bool prepare_client(int rank, char*** env);
  // Removes the private directory; the server itself ends with the process (see the
  // definition for why it is not finalised).  Idempotent.
  void stop();

  const std::string& nspace() const { return nspace_; }
  const std::string& tmpdir() const { return directory_.path(); }

  // Called from the PMIx progress thread when a PE calls PMIx_Abort.
  void on_abort(int rank, int status, const char* message);

 private:
  JobEvents& events_;
  JobDirectory directory_;
  std::string nspace_;
};

}  // namespace tandem::oshrun
