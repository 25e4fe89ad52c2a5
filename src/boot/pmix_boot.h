// Bootstrap through PMIx: rank, size, and exchanges of small blobs at init, each read where
// it is needed: every PE's, or a peer's when this PE first needs it.
// Works under oshrun and under any PMIx launcher (mpirun, srun --mpi=pmix, prterun).
#pragma once

#include <string>

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

  // Publishes `blob` under `key`; readable by the other PEs after the next exchange().
  void publish(const char* call, const std::string& key, const std::string& blob);
  // (Collectively) makes every PE's published blobs readable by every PE.
  void exchange(const char* call);
  // The blob PE `pe` published under `key` before the last exchange(); from any thread.
  std::string get(const char* call, const std::string& key, int pe) const;
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
