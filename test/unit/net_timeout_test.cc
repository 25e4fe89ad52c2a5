#include "transport/ofi/net_timeout.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

using tandem::ofi::NetTimeout;

namespace {

std::vector<int> probed(NetTimeout& t) {
  std::vector<int> sent;
  t.probe([&](int pe) { sent.push_back(pe); });
  return sent;
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// A timeout of 1 s over 6 PEs, this one PE 0, and one wait.
class NetTimeoutOn : public testing::Test {
 protected:
  void SetUp() override {
    t.set(1);
    t.reset(6, 0);
  }
  NetTimeout t;
  NetTimeout::Wait w;
  int64_t idle = 0;
};

}  // namespace

TEST(NetTimeout, OffUnlessSet) {
  NetTimeout t;
  NetTimeout::Wait w;
  EXPECT_FALSE(t.on());
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(t.due(w));
  t.set(0.5);
  EXPECT_TRUE(t.on());
  int due = 0;
  for (unsigned i = 0; i < 10 * NetTimeout::kTurns; ++i) due += t.due(w);
  EXPECT_EQ(due, 10);  // the clock is read every kTurns turns only
}

// The nudges alone (no timeout): after NetTimeout::kNudgeNs without a completion, once per
// stretch; never a probe or a report.
TEST(NetTimeout, NudgesOncePerStretch) {
  NetTimeout t;
  t.reset(4, 0);
  t.set_nudges(true);
  EXPECT_FALSE(t.on());
  EXPECT_TRUE(t.timing());
  NetTimeout::Wait w;
  int64_t idle = 0;
  EXPECT_TRUE(t.due(w));
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);  // the wait begins
  sleep_ms(1);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Nudge);
  EXPECT_GE(idle, NetTimeout::kNudgeNs);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);  // once
  sleep_ms(10);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);  // no timeout to probe for
  t.completed();
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);
  sleep_ms(1);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Nudge);  // a new stretch
}

// A transfer that is merely long rings no one: the nudge waits kNudgeNsPerByte longer per
// byte of the operations since the last idle().
TEST(NetTimeout, NudgesLaterForLargeTransfers) {
  NetTimeout t;
  t.reset(2, 0);
  t.set_nudges(true);
  NetTimeout::Wait w;
  int64_t idle = 0;
  t.sized(100'000'000 / NetTimeout::kNudgeNsPerByte);  // 100 ms
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);
  sleep_ms(2);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);
  t.idle();  // nothing outstanding: the bytes no longer count
  sleep_ms(1);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Nudge);
}

TEST(NetTimeout, NudgesTheCandidates) {
  NetTimeout t;
  t.reset(6, 0);
  t.issued(2);
  t.idle();
  t.issued(4);
  t.issued(5);
  std::vector<int> rung;
  t.for_each_candidate([&](int pe) { rung.push_back(pe); });
  EXPECT_EQ(rung, (std::vector<int>{4, 5}));
}

TEST_F(NetTimeoutOn, NudgesThenProbes) {
  t.set_nudges(true);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);
  sleep_ms(550);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Nudge);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Probe);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);
}

TEST_F(NetTimeoutOn, WaitsThenProbesOnceThenReports) {
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);  // the wait begins
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);
  sleep_ms(550);  // past half the timeout (a margin of 450 ms for a loaded machine)
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Probe);
  EXPECT_GE(idle, 500'000'000);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);  // probed once
  sleep_ms(500);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Report);
  EXPECT_GE(idle, 1'000'000'000);
}

TEST_F(NetTimeoutOn, ACompletionRestartsTheClock) {
  t.check(w, &idle);
  sleep_ms(550);
  t.completed();
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Wait);
  EXPECT_LT(idle, 500'000'000);
  sleep_ms(550);
  EXPECT_EQ(t.check(w, &idle), NetTimeout::Verdict::Probe);  // a new stretch past half: probes again
}

TEST_F(NetTimeoutOn, ProbesTheCandidatesOfTheCurrentEpochOnce) {
  t.issued(1);
  t.issued(2);
  t.idle();  // nothing outstanding: 1 and 2 are no longer candidates
  t.issued(3);
  t.issued(0);  // this PE itself never is
  t.issued(5);
  t.issued(9);  // no such PE: ignored
  EXPECT_EQ(probed(t), (std::vector<int>{3, 5}));
  EXPECT_TRUE(probed(t).empty());  // out already
  t.answered(5);
  EXPECT_EQ(probed(t), (std::vector<int>{5}));  // answered: may be probed again
}

TEST_F(NetTimeoutOn, ReportNamesThePeersThatDoNotAnswer) {
  t.issued(2);
  t.issued(4);
  probed(t);
  t.answered(2);
  EXPECT_EXIT(t.report("shmem_quiet", -1, 2'000'000'000), testing::ExitedWithCode(1),
              "shmem_quiet.*PE 4 is unreachable.*for 2 s");
  EXPECT_EXIT(t.report("shmem_getmem", 5, 1'000'000'000), testing::ExitedWithCode(1), "PE 5 is unreachable");
}

TEST_F(NetTimeoutOn, ReportNamesEveryCandidateWithoutProbes) {
  t.issued(1);
  t.issued(3);
  EXPECT_EXIT(t.report("shmem_quiet", -1, 1'000'000'000), testing::ExitedWithCode(1), "PEs 1, 3 are unreachable");
  t.idle();
  EXPECT_EXIT(t.report("shmem_quiet", -1, 1'000'000'000), testing::ExitedWithCode(1),
              "no network operation has completed for 1 s");
}

// A wait with nothing outstanding, for PE 3: looked at first, then a probe once PE 3 has not
// been heard from for half the timeout, a report at the timeout while the probe is out.
TEST_F(NetTimeoutOn, IdleWaitProbesItsPeThenReports) {
  tandem::AwaitedPe a;
  a.pe = 3;
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Wait);  // the wait begins
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Wait);
  sleep_ms(550);
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Probe);
  EXPECT_GE(idle, 500'000'000);
  std::vector<int> sent;
  t.probe_one(a.pe, [&](int pe) { sent.push_back(pe); });
  EXPECT_EQ(sent, (std::vector<int>{3}));
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Wait);  // probed once
  sleep_ms(500);
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Report);
  EXPECT_GE(idle, 1'000'000'000);
}

// An answered probe means the PE lives: the wait starts over, and probes again half a
// timeout later.
TEST_F(NetTimeoutOn, IdleWaitStartsOverWhenAnswered) {
  tandem::AwaitedPe a;
  a.pe = 2;
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Wait);
  sleep_ms(550);
  ASSERT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Probe);
  t.probe_one(a.pe, [](int) {});
  t.answered(2);
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Wait);  // heard from: starts over
  sleep_ms(100);
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Wait);
  sleep_ms(450);
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Probe);
  t.probe_one(a.pe, [](int) {});
  sleep_ms(500);
  EXPECT_EQ(t.check_idle(a, &idle), NetTimeout::Verdict::Report);  // this probe unanswered
}
