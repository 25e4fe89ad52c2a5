// The private temporary directory of one oshrun (for the PMIx server's files):
// $TMPDIR/oshrun.<pid>.XXXXXX, removed when oshrun ends.
//
// An oshrun killed outright cannot remove its directory, so each directory holds a lock
// file that its oshrun keeps locked for life; the next oshrun removes every directory
// whose lock it can take (the kernel drops the lock when its holder dies, whatever the
// pid namespace).
#pragma once

#include <string>

#include "fd_util.h"

namespace tandem::oshrun {

class JobDirectory {
 public:
  JobDirectory() = default;
  JobDirectory(const JobDirectory&) = delete;
  JobDirectory& operator=(const JobDirectory&) = delete;
  ~JobDirectory() { remove(); }

  // Removes stale directories of dead oshruns, then makes and locks this one.  False
  // (with a message printed) on failure.
  bool create();
  // Idempotent.
  void remove();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  UniqueFd lock_;
};

}  // namespace tandem::oshrun
