#include "mem/shared_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

using tandem::parse_shared_locator;
using tandem::SharedFile;

namespace {
std::string name_for(const std::string& what) {
  return tandem::file_locator(getpid(), what);
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

  SharedFile f = SharedFile::create("test", "unit-leftover", 4096, SharedFile::Kind::DevShm);
  struct stat st;
  ASSERT_EQ(fstat(f.fd(), &st), 0);
  EXPECT_EQ(st.st_size, 4096) << "the leftover was opened instead of a new file";
}

// A memfd: nothing in /dev/shm, and a peer maps it through /proc/<pid>/fd/<fd> and sees the
// creator's stores.
TEST(SharedFile, MemfdIsMappedByItsLocator) {
  SharedFile f = SharedFile::create("test", "unit-memfd", 1 << 20, SharedFile::Kind::Memfd);
  ASSERT_TRUE(f.is_memfd());
  EXPECT_NE(access(("/dev/shm" + name_for("unit-memfd")).c_str(), F_OK), 0);
  auto* mine = static_cast<char*>(mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd(), 0));
  ASSERT_NE(mine, MAP_FAILED);
  auto* peer = static_cast<char*>(SharedFile::map_peer("test", 1, f.locator(), 1 << 20));
  mine[12345] = 42;
  EXPECT_EQ(peer[12345], 42);
  f.peers_mapped();
  EXPECT_EQ(f.fd(), -1) << "a memfd's descriptor is closed once peers have mapped it";
  peer[7] = 9;
  EXPECT_EQ(mine[7], 9) << "the mappings outlive the descriptor";
  munmap(mine, 1 << 20);
  munmap(peer, 1 << 20);
}

// A locator whose pid and descriptor name another file (a peer in another PID namespace)
// is refused by the inode check, with a message naming the setting to change.
TEST(SharedFile, MemfdOfAnotherFileIsRefused) {
  SharedFile f = SharedFile::create("test", "unit-memfd", 4096, SharedFile::Kind::Memfd);
  const std::string wrong = "memfd:" + std::to_string(getpid()) + ":" + std::to_string(f.fd()) + ":1";
  EXPECT_EXIT(SharedFile::map_peer("test", 3, wrong, 4096), testing::ExitedWithCode(1),
              "cannot open PE 3's shared memory .*TANDEM_SHARED_MEMORY=dev-shm");
}

// A file in /dev/shm has its pages reserved before use; a memfd needs nothing.
TEST(SharedFile, ReserveTakesTheFilesPages) {
  SharedFile f = SharedFile::create("test", "unit-reserve", 1 << 20, SharedFile::Kind::DevShm);
  struct stat st;
  ASSERT_EQ(fstat(f.fd(), &st), 0);
  EXPECT_EQ(st.st_blocks, 0);
  EXPECT_EQ(f.reserve(0, 1 << 16), 0);
  ASSERT_EQ(fstat(f.fd(), &st), 0);
  EXPECT_GE(st.st_blocks * 512, 1 << 16);
  SharedFile m = SharedFile::create("test", "unit-reserve-memfd", 1 << 20, SharedFile::Kind::Memfd);
  EXPECT_EQ(m.reserve(0, 1 << 16), 0);
}

TEST(SharedLocator, ParsesBothShapes) {
  EXPECT_EQ(tandem::memfd_locator(123, 7, 9876543210u), "memfd:123:7:9876543210");
  auto m = parse_shared_locator("memfd:123:7:9876543210");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->memfd);
  EXPECT_EQ(m->pid, 123);
  EXPECT_EQ(m->fd, 7);
  EXPECT_EQ(m->inode, 9876543210u);
  auto f = parse_shared_locator("/tandem-4567-heap");
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->memfd);
  EXPECT_EQ(f->pid, 4567);
  EXPECT_EQ(f->name, "/tandem-4567-heap");
}

TEST(SharedLocator, RefusesEverythingElse) {
  for (const char* bad : {"", "memfd:", "memfd:1:2", "memfd:1:2:", "memfd:0:2:3", "memfd:1:2:3:4", "memfd:-1:2:3",
                          "memfd:1::3", "memfd:01:2:3", "memfd:1:02:3", "memfd:99999999999999999999999:1:1", "memfd:1:2:99999999999999999999999",
                          "/tandem-", "/tandem-12-", "/tandem--heap", "/tandem-12-../../etc/passwd", "/tandem-12-a/b",
                          "/other-12-heap", "tandem-12-heap", "/tandem-12-heap\n"})
    EXPECT_FALSE(parse_shared_locator(bad)) << bad;
}
