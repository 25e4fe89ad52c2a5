#include <gtest/gtest.h>

#include <cstring>

#include "transport/ofi/local.h"
#include "transport/ofi/message.h"

using namespace tandem::ofi;

namespace {
// A PE of a job of 4 with a heap of 1 MiB and 64 KiB of globals.
constexpr size_t kSizes[2] = {1 << 20, 1 << 16};
constexpr size_t kPes = 4;

const char* problem(const Message& m, const char* operands = nullptr, size_t carried = 0) {
  static char none[kRunBytes];
  return message_problem(m, operands ? operands : none, kMessageBytes + carried, kPes, kSizes, 2);
}

Message request(uint64_t offset) {
  Message m{};
  m.kind = Message::Request;
  m.op = AtomicOp::Write;
  m.type = AtomicType::UInt64;
  m.origin = 1;
  m.offset = offset;
  return m;
}
}  // namespace

TEST(Admit, WellFormedMessagesPass) {
  EXPECT_EQ(problem(request(0)), nullptr);
  EXPECT_EQ(problem(request((1 << 20) - 8)), nullptr);
  Message run = request(64);
  run.kind = Message::RunRequest;
  run.compare = 16;
  EXPECT_EQ(problem(run, nullptr, 16 * 8), nullptr);
  Message scatter{};
  scatter.kind = Message::Scatter;
  scatter.segment = 1;
  scatter.offset = 4096;
  scatter.operand = 256;  // stride
  scatter.compare = scatter_shape(8, 16);
  EXPECT_EQ(problem(scatter, nullptr, 128), nullptr);
  Message answer{};
  answer.kind = Message::Answer;
  answer.origin = 3;
  EXPECT_EQ(problem(answer), nullptr);
}

TEST(Admit, WhatReachesOutsideASegmentIsRefused) {
  EXPECT_NE(problem(request(1 << 20)), nullptr);
  EXPECT_NE(problem(request(~uint64_t{0} - 7)), nullptr) << "an offset that wraps around";
  EXPECT_NE(problem(request(4)), nullptr) << "a misaligned 8-byte atomic";
  Message other = request(0);
  other.segment = 2;
  EXPECT_NE(problem(other), nullptr) << "a segment this PE does not have";
  other.segment = 200;
  EXPECT_NE(problem(other), nullptr);
  Message scatter{};
  scatter.kind = Message::Scatter;
  scatter.offset = (1 << 16) - 8;
  scatter.compare = scatter_shape(8, 2);
  scatter.operand = 8;
  scatter.segment = 1;
  EXPECT_NE(problem(scatter, nullptr, 16), nullptr) << "the second block past the globals' end";
  scatter.offset = 8;
  scatter.operand = static_cast<uint64_t>(-16);  // a stride backwards, past the start
  EXPECT_NE(problem(scatter, nullptr, 16), nullptr);
  scatter.operand = uint64_t{1} << 62;
  scatter.compare = scatter_shape(8, 5);
  EXPECT_NE(problem(scatter, nullptr, 40), nullptr) << "a span that overflows";
}

TEST(Admit, WhatDoesNotFitTheMessageIsRefused) {
  Message run = request(0);
  run.kind = Message::RunRequest;
  run.compare = 16;
  EXPECT_NE(problem(run, nullptr, 15 * 8), nullptr) << "operands cut short";
  run.compare = kRunBytes;  // elements, far more than a run carries
  EXPECT_NE(problem(run, nullptr, kRunBytes), nullptr);
  Message list{};
  list.kind = Message::List;
  list.compare = 24;
  char records[24] = {};
  const uint64_t record = list_record((1 << 20) - 8, 16);  // 16 bytes from 8 before the end
  memcpy(records, &record, sizeof record);
  EXPECT_NE(problem(list, records, 24), nullptr);
  EXPECT_NE(message_problem(request(0), records, kMessageBytes - 1, kPes, kSizes, 2), nullptr) << "a cut head";
}

TEST(Admit, StrangeKindsAndOriginsAreRefused) {
  Message m = request(0);
  m.origin = 4;
  EXPECT_NE(problem(m), nullptr);
  m.origin = -1;
  EXPECT_NE(problem(m), nullptr);
  for (uint8_t kind : {0, 7, 12, 13, 255}) {
    Message k{};
    k.kind = static_cast<Message::Kind>(kind);
    EXPECT_NE(problem(k), nullptr) << int{kind};
  }
  m = request(0);
  m.op = AtomicOp::Count;
  EXPECT_NE(problem(m), nullptr);
}

// Keys are drawn at random for each job, within the provider's key size.
TEST(Admit, KeysAreDrawnAtRandom) {
  EXPECT_NE(random_key(8), random_key(8));
  for (int i = 0; i < 100; ++i) EXPECT_LT(random_key(2), 1u << 16);
}
