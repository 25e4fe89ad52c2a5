// Bootstrap through PMIx: rank, size, and one all-to-all exchange of small blobs at init.
// Works under oshrun and under any PMIx launcher (mpirun, srun --mpi=pmix, prterun).
#pragma once

#include <string>
#include <vector>

namespace tandem {

class PmixBoot {
 public:
  // Connects to the launcher's PMIx server.  On failure, explains and ends the PE.
  void init(const char* call);
  void finalize();

  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::string& job() const { return nspace_; }
  // The name of this PE's node as the launcher gives it (PMIX_HOSTNAME); "" if it gives none.
  std::string host() const;

  // Publishes `blob` under `key`, then (collectively) gathers every PE's blob.
  std::vector<std::string> allgather(const char* call, const std::string& key,
                                     const std::string& blob);
  // A collective fence carrying no data (slow: for init and finalize only).
  void fence(const char* call);
  // Asks the launcher to end the whole job with `status`; returns if it cannot.
  void abort_job(int status, const char* message);

 private:
  bool up_ = false;
  int rank_ = 0;
  int size_ = 1;
  std::string nspace_;
};

}  // namespace tandem
