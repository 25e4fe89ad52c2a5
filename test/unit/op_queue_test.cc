#include "nbi/op_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "nbi/scheduler.h"

using tandem::Op;
using tandem::OpQueue;

TEST(OpQueue, DrainsInSubmissionOrder) {
  OpQueue q;
  EXPECT_TRUE(q.empty());
  for (int i = 0; i < 5; ++i) q.push(Op{Op::Kind::Put, tandem::Target{nullptr, i, 0, 0}, nullptr, static_cast<size_t>(i)});
  EXPECT_EQ(q.size(), 5u);
  std::vector<int> seen;
  q.drain([&](const Op& op) { seen.push_back(op.remote.pe); });
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(q.empty());
}

TEST(OpQueue, ConcurrentPushesAreAllDrained) {
  OpQueue q;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&q, t] {
      for (int i = 0; i < 1000; ++i) q.push(Op{Op::Kind::Get, tandem::Target{nullptr, t, 0, 0}, nullptr, 1});
    });
  size_t drained = 0;
  for (int round = 0; round < 100; ++round) q.drain([&](const Op&) { ++drained; });
  for (auto& th : threads) th.join();
  q.drain([&](const Op&) { ++drained; });
  EXPECT_EQ(drained, 4000u);
}

TEST(Scheduler, HoldsLargeNbiCopiesUntilQuiet) {
  tandem::Scheduler s;
  s.configure(1024, nullptr);
  std::vector<char> from(4096, 'x'), to(4096, 0), small_from(16, 'y'), small_to(16, 0);
  s.submit_nbi("test", Op{Op::Kind::Put, tandem::Target{to.data(), 0, 0, 0}, from.data(), from.size()});
  s.submit_nbi("test", Op{Op::Kind::Put, tandem::Target{small_to.data(), 0, 0, 0}, small_from.data(), small_from.size()});
  EXPECT_EQ(s.held(), 1u);
  EXPECT_EQ(to[0], 0) << "large copy deferred";
  EXPECT_EQ(small_to[0], 'y') << "small copy done on the call site";
  s.quiet("test");
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(to[4095], 'x');
}

TEST(Scheduler, HoldsAnNbiSignalBehindItsHeldData) {
  tandem::Scheduler s;
  s.configure(1024, nullptr);
  std::vector<char> from(4096, 'x'), to(4096, 0);
  uint64_t sig = 1;
  const tandem::Target sig_target{reinterpret_cast<char*>(&sig), 0, 0, 0};
  s.put_signal("test", Op{Op::Kind::Put, tandem::Target{to.data(), 0, 0, 0}, from.data(), from.size()},
               sig_target, 5, true, true);
  EXPECT_EQ(to[0], 0) << "large copy deferred";
  EXPECT_EQ(sig, 1u) << "the signal waits for its data";
  s.fence("test");
  EXPECT_EQ(to[4095], 'x');
  EXPECT_EQ(sig, 6u) << "SHMEM_SIGNAL_ADD";
  // Blocking, or below the threshold: data and signal at once.
  std::vector<char> small(16, 'y');
  s.put_signal("test", Op{Op::Kind::Put, tandem::Target{to.data(), 0, 0, 0}, small.data(), small.size()},
               sig_target, 9, false, true);
  EXPECT_EQ(to[0], 'y');
  EXPECT_EQ(sig, 9u) << "SHMEM_SIGNAL_SET";
  s.put_signal("test", Op{Op::Kind::Put, tandem::Target{to.data(), 0, 0, 0}, from.data(), from.size()},
               sig_target, 10, false, false);
  EXPECT_EQ(to[0], 'x');
  EXPECT_EQ(sig, 10u);
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(s.stats().deferred_ops, 1u);
  EXPECT_EQ(s.stats().deferred_bytes, 4096u);
}

TEST(Scheduler, RunsAFullQueueOnTheCallSiteWhenTheNetworkIsIdle) {
  tandem::Scheduler s;
  s.configure(1, nullptr);
  const size_t mib = size_t{1} << 20;
  std::vector<char> from(mib, 'z');
  std::vector<std::vector<char>> to(16, std::vector<char>(mib, 0));
  for (size_t i = 0; i < 15; ++i)
    s.submit_nbi("test", Op{Op::Kind::Put, tandem::Target{to[i].data(), 0, 0, 0}, from.data(), mib});
  EXPECT_EQ(s.held(), 15u) << "below the bound: held";
  EXPECT_EQ(to[0][0], 0);
  s.submit_nbi("test", Op{Op::Kind::Put, tandem::Target{to[15].data(), 0, 0, 0}, from.data(), mib});
  EXPECT_EQ(s.held(), 0u) << "16 MiB held and no network transfer to overlap with: run now";
  EXPECT_EQ(to[0][mib - 1], 'z');
  EXPECT_EQ(to[15][0], 'z');
  EXPECT_EQ(s.stats().early_drains, 1u);
  EXPECT_EQ(s.stats().overlapped_bytes, 0u);
}

TEST(Scheduler, GetsCopyTheOtherWay) {
  tandem::Scheduler s;
  s.configure(8, nullptr);
  char remote[16] = "remote data", local[16] = {};
  s.submit_nbi("test", Op{Op::Kind::Get, tandem::Target{remote, 0, 0, 0}, local, sizeof remote});
  EXPECT_EQ(local[0], 0) << "deferred";
  s.fence("test");
  EXPECT_STREQ(local, "remote data");
}

TEST(Scheduler, BlockingSubmitCompletesAtOnce) {
  tandem::Scheduler s;
  s.configure(1, nullptr);
  char from[8] = "abcdefg", to[8] = {};
  s.submit("test", Op{Op::Kind::Put, tandem::Target{to, 0, 0, 0}, from, sizeof from});
  EXPECT_STREQ(to, "abcdefg");
  EXPECT_EQ(s.held(), 0u);
}

TEST(OpQueue, DrainWaitsForAnotherThreadsDrain) {
  // A drain that finds the queue emptied by a concurrent drain must still return only after
  // that drain has carried the Ops out.
  OpQueue q;
  std::atomic<bool> started{false}, finished{false};
  q.push(Op{Op::Kind::Put, tandem::Target{nullptr, 0, 0, 0}, nullptr, 1});
  std::thread slow([&] {
    q.drain([&](const Op&) {
      started = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      finished = true;
    });
  });
  while (!started) std::this_thread::yield();
  q.drain([](const Op&) { FAIL() << "the Op was taken by the other drain"; });
  EXPECT_TRUE(finished) << "drain returned while another thread was still carrying out an Op";
  slow.join();
  EXPECT_TRUE(q.empty());
}

TEST(Scheduler, AutoThresholdHoldsNothingWithoutANetwork) {
  tandem::Scheduler s;
  s.configure(tandem::Scheduler::kAutoThreshold, nullptr);
  EXPECT_GE(s.defer_threshold(), size_t{1} << 10);
  EXPECT_LE(s.defer_threshold(), size_t{1} << 20);
  EXPECT_NE(s.describe_threshold().find("auto, now"), std::string::npos) << s.describe_threshold();
  // All PEs share memory: nothing to overlap a copy with, so even a large one is done at once.
  std::vector<char> from(size_t{4} << 20, 'x'), to(size_t{4} << 20, 0);
  s.submit_nbi("test", Op{Op::Kind::Put, tandem::Target{to.data(), 0, 0, 0}, from.data(), from.size()});
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(to.back(), 'x');
  s.quiet("test");
}

TEST(Scheduler, DescribesFixedThresholds) {
  tandem::Scheduler s;
  s.configure(8192, nullptr);
  EXPECT_EQ(s.describe_threshold(), "8192 bytes");
  s.configure(~size_t{0}, nullptr);
  EXPECT_EQ(s.describe_threshold(), "off");
}
