#include "nbi/op_queue.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "nbi/scheduler.h"

using tandem::Op;
using tandem::OpQueue;

TEST(OpQueue, DrainsInSubmissionOrder) {
  OpQueue q;
  EXPECT_TRUE(q.empty());
  for (int i = 0; i < 5; ++i) q.push(Op{Op::Kind::Put, i, nullptr, nullptr, static_cast<size_t>(i)});
  EXPECT_EQ(q.size(), 5u);
  std::vector<int> seen;
  q.drain([&](const Op& op) { seen.push_back(op.pe); });
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(q.empty());
}

TEST(OpQueue, ConcurrentPushesAreAllDrained) {
  OpQueue q;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&q, t] {
      for (int i = 0; i < 1000; ++i) q.push(Op{Op::Kind::Get, t, nullptr, nullptr, 1});
    });
  size_t drained = 0;
  for (int round = 0; round < 100; ++round) q.drain([&](const Op&) { ++drained; });
  for (auto& th : threads) th.join();
  q.drain([&](const Op&) { ++drained; });
  EXPECT_EQ(drained, 4000u);
}

TEST(Scheduler, HoldsLargeNbiCopiesUntilQuiet) {
  tandem::Scheduler s;
  s.configure(1024);
  std::vector<char> from(4096, 'x'), to(4096, 0), small_from(16, 'y'), small_to(16, 0);
  s.submit_nbi(Op{Op::Kind::Put, 0, to.data(), from.data(), from.size()});
  s.submit_nbi(Op{Op::Kind::Put, 0, small_to.data(), small_from.data(), small_from.size()});
  EXPECT_EQ(s.held(), 1u);
  EXPECT_EQ(to[0], 0) << "large copy deferred";
  EXPECT_EQ(small_to[0], 'y') << "small copy done on the call site";
  s.quiet();
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(to[4095], 'x');
}

TEST(Scheduler, BlockingSubmitCompletesAtOnce) {
  tandem::Scheduler s;
  s.configure(1);
  char from[8] = "abcdefg", to[8] = {};
  s.submit(Op{Op::Kind::Put, 0, to, from, sizeof from});
  EXPECT_STREQ(to, "abcdefg");
  EXPECT_EQ(s.held(), 0u);
}
