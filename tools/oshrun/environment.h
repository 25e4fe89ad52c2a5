// The environment every PE starts with: oshrun's own, minus another launcher's PMIx
// contact details, plus -x settings, what an MPI library in the PEs needs to take its ranks
// from this job, and Tandem's launcher variables.  PMIx then adds
// each PE's own connection details (PMIx_server_setup_fork).
#pragma once

#include <string>
#include <vector>

#include "options.h"

namespace tandem::oshrun {

// "NAME=value" strings, one per variable, no duplicates.
using EnvironmentList = std::vector<std::string>;

// `job_directory`: oshrun's private directory, removed with the job.
EnvironmentList build_pe_environment(const Options& options, const std::string& job_directory);

// A NULL-terminated array of malloc'd strings, the layout PMIx_server_setup_fork extends
// with realloc.  Owns its contents.
class CEnvironment {
 public:
  explicit CEnvironment(const EnvironmentList& vars);
  CEnvironment(const CEnvironment&) = delete;
  CEnvironment& operator=(const CEnvironment&) = delete;
  ~CEnvironment();

  bool valid() const { return envp_ != nullptr; }
  char*** address() { return &envp_; }
  char** get() const { return envp_; }

 private:
  void release();

  char** envp_ = nullptr;
};

}  // namespace tandem::oshrun
