#include "environment.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

extern char** environ;

namespace tandem::oshrun {
namespace {

std::string_view name_of(std::string_view entry) { return entry.substr(0, entry.find('=')); }

// When oshrun itself runs under another PMIx launcher, its contact variables (server URIs,
// namespace, rank...) must not reach the PEs: a client that found a stale one would talk
// to the wrong server.  User tuning (PMIX_MCA_*) stays.
bool is_foreign_pmix_variable(std::string_view name) {
  return name.starts_with("PMIX_") && !name.starts_with("PMIX_MCA_");
}

// Sets NAME=value, replacing an earlier NAME unless `keep_existing`.
void set_variable(EnvironmentList& env, std::string_view name, std::string_view value,
                  bool keep_existing = false) {
  std::string entry = std::string(name) + "=" + std::string(value);
  for (auto& existing : env) {
    if (name_of(existing) == name) {
      if (!keep_existing) existing = std::move(entry);
      return;
    }
  }
  env.push_back(std::move(entry));
}

// A PE that also calls MPI_Init must find its MPI ranks in this job.  Open MPI 4 takes a
// process that no launcher it knows (its own mpirun, Slurm, Flux, LSF) claims for a
// singleton: it starts a PMIx server of its own and runs MPI on one process, and a SHMEM
// library initialised after it joins that server.  These settings make it use the PMIx
// server it was started with, as under srun.  Its per-job session files go into oshrun's
// own directory, which goes with the job (Open MPI removes them only under mpirun).  A
// setting of the user's wins; other MPIs and programs without MPI ignore them.
void add_mpi_settings(EnvironmentList& env, const std::string& job_directory) {
  set_variable(env, "OMPI_MCA_schizo", "^orte", true);
  set_variable(env, "OMPI_MCA_ess", "pmi", true);
  set_variable(env, "OMPI_MCA_orte_tmpdir_base", job_directory, true);
}

}  // namespace

EnvironmentList build_pe_environment(const Options& options, const std::string& job_directory) {
  EnvironmentList env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    if (entry.find('=') == std::string_view::npos || is_foreign_pmix_variable(name_of(entry)))
      continue;
    env.emplace_back(entry);
  }
  for (const auto& var : options.exports) {
    if (var.value) {
      set_variable(env, var.name, *var.value);
    } else if (const char* inherited = std::getenv(var.name.c_str())) {
      set_variable(env, var.name, inherited);
    } else {
      std::fprintf(stderr, "oshrun: warning: -x %s: %s is not set in oshrun's environment\n",
                   var.name.c_str(), var.name.c_str());
    }
  }
  add_mpi_settings(env, job_directory);
  set_variable(env, "TANDEM_LAUNCHER", "oshrun");
  if (options.virtual_nodes > 0)
    set_variable(env, "TANDEM_VIRTUAL_NODES", std::to_string(options.virtual_nodes));
  return env;
}

CEnvironment::CEnvironment(const EnvironmentList& vars) {
  envp_ = static_cast<char**>(std::calloc(vars.size() + 1, sizeof(char*)));
  if (envp_ == nullptr) return;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    envp_[i] = ::strdup(vars[i].c_str());
    if (envp_[i] == nullptr) {
      release();
      return;
    }
  }
}

CEnvironment::~CEnvironment() { release(); }

void CEnvironment::release() {
  if (envp_ == nullptr) return;
  for (char** e = envp_; *e != nullptr; ++e) std::free(*e);
  std::free(envp_);
  envp_ = nullptr;
}

}  // namespace tandem::oshrun
