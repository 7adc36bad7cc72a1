//===- ProfileTest.cpp - the op timer of the ckpt runtime -----------------===//
//
// ckptRuntimeProfileBegin / End / Reset / Read (Runtime.h), which the marks
// of ckpt-profile-ops call: times add up per id, an End without its Begin
// counts nothing, Reset forgets. Times are only bounded from below (a sleep
// lasts at least its duration), never from above.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <chrono>
#include <thread>

namespace {

struct Profile : ::testing::Test {
  void SetUp() override { ckptRuntimeProfileReset(); }
  void TearDown() override { ckptRuntimeProfileReset(); }
};

TEST_F(Profile, AddsUpTheRunsOfEachId) {
  for (int i = 0; i < 3; ++i) {
    ckptRuntimeProfileBegin(2);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ckptRuntimeProfileEnd(2);
  }
  ckptRuntimeProfileBegin(0);
  ckptRuntimeProfileEnd(0);
  double seconds = -1;
  EXPECT_EQ(ckptRuntimeProfileRead(2, &seconds), 3u);
  EXPECT_GE(seconds, 0.003);
  EXPECT_EQ(ckptRuntimeProfileRead(0, &seconds), 1u);
  EXPECT_GE(seconds, 0.0);
  // An id between them that never ran, and one past the end.
  EXPECT_EQ(ckptRuntimeProfileRead(1, &seconds), 0u);
  EXPECT_EQ(seconds, 0.0);
  EXPECT_EQ(ckptRuntimeProfileRead(7, nullptr), 0u);
}

TEST_F(Profile, AnEndWithoutItsBeginCountsNothing) {
  ckptRuntimeProfileEnd(0);
  ckptRuntimeProfileBegin(1);
  ckptRuntimeProfileEnd(0); // another id's end
  ckptRuntimeProfileEnd(1);
  ckptRuntimeProfileEnd(1); // a second end
  ckptRuntimeProfileEnd(-1);
  EXPECT_EQ(ckptRuntimeProfileRead(0, nullptr), 0u);
  EXPECT_EQ(ckptRuntimeProfileRead(1, nullptr), 1u);
  EXPECT_EQ(ckptRuntimeProfileRead(-1, nullptr), 0u);
}

TEST_F(Profile, ResetForgetsEveryId) {
  ckptRuntimeProfileBegin(0);
  ckptRuntimeProfileEnd(0);
  ckptRuntimeProfileReset();
  double seconds = -1;
  EXPECT_EQ(ckptRuntimeProfileRead(0, &seconds), 0u);
  EXPECT_EQ(seconds, 0.0);
}

TEST_F(Profile, ThreadsTimeTheirOwnOps) {
  // Begin on one thread, End on another: the other thread has no Begin.
  ckptRuntimeProfileBegin(0);
  std::thread([] { ckptRuntimeProfileEnd(0); }).join();
  EXPECT_EQ(ckptRuntimeProfileRead(0, nullptr), 0u);
  std::thread([] {
    ckptRuntimeProfileBegin(0);
    ckptRuntimeProfileEnd(0);
  }).join();
  ckptRuntimeProfileEnd(0);
  EXPECT_EQ(ckptRuntimeProfileRead(0, nullptr), 2u);
}

} // namespace
