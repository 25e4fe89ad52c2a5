#include "mem/shared_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

using tandem::SharedFile;

namespace {
std::string name_for(const std::string& what) {
  return "/" + std::string(tandem::kSharedFilePrefix) + std::to_string(getpid()) + "-" + what;
}
}  // namespace

// A file that an ended process with this process's pid left under this process's name is
// replaced, not a reason to fail: pids are reused, and a PE killed during its start leaves
// its files until the stale-file sweep, 10 minutes later.
TEST(SharedFile, ReplacesALeftoverOfAnEarlierProcessWithThePid) {
  const std::string name = name_for("unit-leftover");
  int left = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  ASSERT_GE(left, 0);
  ASSERT_EQ(ftruncate(left, 12345), 0);
  close(left);

  SharedFile f = SharedFile::create("test", "unit-leftover", 4096);
  struct stat st;
  ASSERT_EQ(fstat(f.fd(), &st), 0);
  EXPECT_EQ(st.st_size, 4096) << "the leftover was opened instead of a new file";
}
