//===- AllocTrackerTest.cpp - the ckpt runtime's allocation counters ------===//

#include "ckpt/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

CkptRuntimeStats stats() {
  CkptRuntimeStats s;
  ckptRuntimeGetStats(&s);
  return s;
}

class AllocTracker : public ::testing::Test {
protected:
  void SetUp() override {
    ckptRuntimeFreeAll();
    ckptRuntimeReset();
  }
  void TearDown() override { ckptRuntimeFreeAll(); }
};

TEST_F(AllocTracker, CountsLivePeakAndTotal) {
  void *a = _mlir_memref_to_llvm_alloc(100);
  void *b = _mlir_memref_to_llvm_alloc(28);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.liveBytes, 128u);
  EXPECT_EQ(s.peakBytes, 128u);
  EXPECT_EQ(s.allocCount, 2u);

  _mlir_memref_to_llvm_free(a);
  void *c = _mlir_memref_to_llvm_alloc(50);
  s = stats();
  EXPECT_EQ(s.liveBytes, 78u);
  EXPECT_EQ(s.peakBytes, 128u);
  EXPECT_EQ(s.totalBytes, 178u);
  EXPECT_EQ(s.allocCount, 3u);
  EXPECT_EQ(s.freeCount, 1u);

  _mlir_memref_to_llvm_free(b);
  _mlir_memref_to_llvm_free(c);
  s = stats();
  EXPECT_EQ(s.liveBytes, 0u);
  EXPECT_EQ(s.peakBytes, 128u);
  EXPECT_EQ(s.freeCount, 3u);
  EXPECT_EQ(s.unknownFrees, 0u);
}

TEST_F(AllocTracker, AlignedAllocCountsTheRequestedSize) {
  void *p = _mlir_memref_to_llvm_aligned_alloc(64, 100);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  void *q = _mlir_memref_to_llvm_aligned_alloc(1, 8); // tiny alignment
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(stats().liveBytes, 108u);
  size_t size = 0;
  EXPECT_EQ(ckptRuntimeFindAllocation(p, &size), 1);
  EXPECT_EQ(size, 100u);
  EXPECT_EQ(ckptRuntimeFindAllocation(static_cast<char *>(p) + 1, &size), 0);
  _mlir_memref_to_llvm_free(p);
  _mlir_memref_to_llvm_free(q);
  EXPECT_EQ(stats().liveBytes, 0u);
}

TEST_F(AllocTracker, UnknownAndNullFreesAreCountedNotFatal) {
  int local = 0;
  _mlir_memref_to_llvm_free(&local); // never allocated by the runtime
  _mlir_memref_to_llvm_free(reinterpret_cast<void *>(0xdeadbeef));
  _mlir_memref_to_llvm_free(nullptr); // free(NULL) is fine, not an error
  void *p = _mlir_memref_to_llvm_alloc(16);
  _mlir_memref_to_llvm_free(p);
  _mlir_memref_to_llvm_free(p); // double free: the second one is unknown
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.unknownFrees, 3u);
  EXPECT_EQ(s.freeCount, 1u);
  EXPECT_EQ(s.liveBytes, 0u);
}

TEST_F(AllocTracker, ZeroSizedAllocationsAreDistinctAndCounted) {
  void *a = _mlir_memref_to_llvm_alloc(0);
  void *b = _mlir_memref_to_llvm_alloc(0);
  ASSERT_NE(a, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(stats().allocCount, 2u);
  EXPECT_EQ(stats().liveBytes, 0u);
  _mlir_memref_to_llvm_free(a);
  _mlir_memref_to_llvm_free(b);
  EXPECT_EQ(stats().freeCount, 2u);
}

// A reset starts a new epoch: earlier allocations no longer count, and
// freeing them later is neither an error nor a change of the counters.
TEST_F(AllocTracker, ResetStartsANewEpoch) {
  void *old = _mlir_memref_to_llvm_alloc(1000);
  ckptRuntimeReset();
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.liveBytes, 0u);
  EXPECT_EQ(s.peakBytes, 0u);
  EXPECT_EQ(s.allocCount, 0u);

  void *fresh = _mlir_memref_to_llvm_alloc(10);
  _mlir_memref_to_llvm_free(old);
  s = stats();
  EXPECT_EQ(s.liveBytes, 10u);
  EXPECT_EQ(s.peakBytes, 10u);
  EXPECT_EQ(s.freeCount, 0u);
  EXPECT_EQ(s.unknownFrees, 0u);
  _mlir_memref_to_llvm_free(fresh);
  EXPECT_EQ(stats().freeCount, 1u);
}

TEST_F(AllocTracker, FreeAllReclaimsEverything) {
  for (int i = 0; i < 5; ++i)
    _mlir_memref_to_llvm_alloc(8);
  EXPECT_EQ(ckptRuntimeFreeAll(), 5u);
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.liveBytes, 0u);
  EXPECT_EQ(s.freeCount, 5u);
  EXPECT_EQ(s.peakBytes, 40u);
  EXPECT_EQ(ckptRuntimeFreeAll(), 0u);
}

TEST_F(AllocTracker, DeviceCountersAreSeparate) {
  // Device pointers are opaque to the tracker: any distinct addresses do.
  int storage[2] = {0, 0};
  ckptRuntimeRecordDeviceAlloc(&storage[0], 4096);
  ckptRuntimeRecordDeviceAlloc(&storage[1], 1024);
  void *host = _mlir_memref_to_llvm_alloc(7);
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.deviceLiveBytes, 5120u);
  EXPECT_EQ(s.devicePeakBytes, 5120u);
  EXPECT_EQ(s.deviceAllocCount, 2u);
  EXPECT_EQ(s.liveBytes, 7u);
  EXPECT_EQ(ckptRuntimeRecordDeviceFree(&storage[0]), 1);
  EXPECT_EQ(ckptRuntimeRecordDeviceFree(&storage[0]), 0);
  EXPECT_EQ(ckptRuntimeRecordDeviceFree(nullptr), 0);
  s = stats();
  EXPECT_EQ(s.deviceLiveBytes, 1024u);
  EXPECT_EQ(s.devicePeakBytes, 5120u);
  EXPECT_EQ(s.deviceTotalBytes, 5120u);
  EXPECT_EQ(s.deviceFreeCount, 1u);
  EXPECT_EQ(s.deviceUnknownFrees, 1u);
  EXPECT_EQ(s.unknownFrees, 0u);
  EXPECT_EQ(ckptRuntimeFindAllocation(&storage[1], nullptr), 0);
  EXPECT_EQ(ckptRuntimeRecordDeviceFree(&storage[1]), 1);
  _mlir_memref_to_llvm_free(host);
}

TEST_F(AllocTracker, HostCopiesAreCountedApart) {
  // Allocations between ckptRuntimeBeginHostCopy and ckptRuntimeEndHostCopy
  // (ckpt-lower-host-copies: the host copies of offloaded values) count in
  // their own pool; freeing one through the hook counts it there.
  void *step = _mlir_memref_to_llvm_aligned_alloc(16, 64);
  ckptRuntimeBeginHostCopy();
  void *copy = _mlir_memref_to_llvm_aligned_alloc(16, 48);
  ckptRuntimeEndHostCopy();
  void *after = _mlir_memref_to_llvm_alloc(32);
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.liveBytes, 96u);
  EXPECT_EQ(s.peakBytes, 96u);
  EXPECT_EQ(s.allocCount, 2u);
  EXPECT_EQ(s.hostCopyLiveBytes, 48u);
  EXPECT_EQ(s.hostCopyPeakBytes, 48u);
  EXPECT_EQ(s.hostCopyTotalBytes, 48u);
  EXPECT_EQ(s.hostCopyAllocCount, 1u);
  _mlir_memref_to_llvm_free(copy);
  s = stats();
  EXPECT_EQ(s.hostCopyLiveBytes, 0u);
  EXPECT_EQ(s.hostCopyPeakBytes, 48u);
  EXPECT_EQ(s.hostCopyFreeCount, 1u);
  EXPECT_EQ(s.liveBytes, 96u);
  EXPECT_EQ(s.freeCount, 0u);
  EXPECT_EQ(s.unknownFrees, 0u);
  // A reset zeroes them; a live host copy is reclaimed by FreeAll.
  ckptRuntimeBeginHostCopy();
  void *left = _mlir_memref_to_llvm_alloc(8);
  ckptRuntimeEndHostCopy();
  ckptRuntimeReset();
  s = stats();
  EXPECT_EQ(s.hostCopyPeakBytes, 0u);
  EXPECT_EQ(s.hostCopyAllocCount, 0u);
  (void)left;
  EXPECT_EQ(ckptRuntimeFreeAll(), 3u); // step, after, left
  (void)step;
  (void)after;
}

namespace {
// A stand-in for libckpt_cuda_runtime.so's page-locked allocator.
int externalAllocs = 0, externalReleases = 0;
void *externalAlloc(size_t size) {
  ++externalAllocs;
  return std::malloc(size + 4096); // Distinct from the default's blocks.
}
void externalRelease(void *ptr) {
  ++externalReleases;
  std::free(ptr);
}
void *failingAlloc(size_t) { return nullptr; }
} // namespace

TEST_F(AllocTracker, HostCopiesComeFromTheHostCopyAllocator) {
  // With an allocator set, host copies (and only they) come from it, count
  // as before, and go back to it when freed, by the hook or by FreeAll.
  externalAllocs = externalReleases = 0;
  ckptRuntimeSetHostCopyAllocator(externalAlloc, externalRelease);
  void *step = _mlir_memref_to_llvm_aligned_alloc(16, 64);
  ckptRuntimeBeginHostCopy();
  void *copy = _mlir_memref_to_llvm_aligned_alloc(64, 48);
  void *plain = _mlir_memref_to_llvm_alloc(8);
  // More than a page of alignment: the default's.
  void *wide = _mlir_memref_to_llvm_aligned_alloc(8192, 8);
  ckptRuntimeEndHostCopy();
  EXPECT_EQ(externalAllocs, 2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(wide) % 8192, 0u);
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.liveBytes, 64u);
  EXPECT_EQ(s.hostCopyLiveBytes, 64u);
  EXPECT_EQ(s.hostCopyAllocCount, 3u);
  _mlir_memref_to_llvm_free(copy);
  EXPECT_EQ(externalReleases, 1);
  EXPECT_EQ(stats().hostCopyLiveBytes, 16u);
  // Set back to the default: what the allocator made goes back to it still.
  ckptRuntimeSetHostCopyAllocator(nullptr, nullptr);
  ckptRuntimeBeginHostCopy();
  void *later = _mlir_memref_to_llvm_alloc(8);
  ckptRuntimeEndHostCopy();
  EXPECT_EQ(externalAllocs, 2);
  EXPECT_EQ(ckptRuntimeFreeAll(), 4u); // step, plain, wide, later
  EXPECT_EQ(externalReleases, 2);      // plain
  // An allocator that has nothing falls back to the default.
  ckptRuntimeSetHostCopyAllocator(failingAlloc, externalRelease);
  ckptRuntimeBeginHostCopy();
  void *fallback = _mlir_memref_to_llvm_aligned_alloc(16, 32);
  ckptRuntimeEndHostCopy();
  ckptRuntimeSetHostCopyAllocator(nullptr, nullptr);
  ASSERT_NE(fallback, nullptr);
  EXPECT_EQ(stats().hostCopyLiveBytes, 32u);
  _mlir_memref_to_llvm_free(fallback);
  EXPECT_EQ(externalReleases, 2);
  (void)step;
  (void)plain;
  (void)later;
}

TEST(CopyQueue, CopiesEndInOrderAndWaitsSeeThem) {
  // Tickets count the copies issued; waiting for one waits for it and every
  // copy before it (one copy thread, in issue order), so a copy that reads
  // what the one before it wrote sees it.
  std::vector<int32_t> a(1024), b(1024, 0), c(1024, 0);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<int32_t>(i * 7 + 1);
  auto address = [](void *p) { return reinterpret_cast<int64_t>(p); };
  int64_t first = ckptRuntimeCopyAsync(address(b.data()), address(a.data()),
                                       a.size() * sizeof(int32_t));
  int64_t second = ckptRuntimeCopyAsync(address(c.data()), address(b.data()),
                                        b.size() * sizeof(int32_t));
  EXPECT_GT(second, first);
  ckptRuntimeWaitCopy(second);
  EXPECT_EQ(b, a);
  EXPECT_EQ(c, a);
  ckptRuntimeWaitCopy(first); // Ended already: returns.
  // Nothing to copy: no ticket, and waiting for none returns.
  EXPECT_EQ(ckptRuntimeCopyAsync(address(c.data()), address(a.data()), 0), 0);
  ckptRuntimeWaitCopy(0);
}

TEST_F(AllocTracker, DeviceAllocationsAreFoundListedAndLaunchesCounted) {
  int storage[3] = {0, 0, 0};
  ckptRuntimeRecordDeviceAlloc(&storage[0], 64);
  ckptRuntimeReset(); // Listed and found across epochs, like host ones.
  ckptRuntimeRecordDeviceAlloc(&storage[1], 32);
  ckptRuntimeRecordLaunch();
  ckptRuntimeRecordLaunch();
  void *host = _mlir_memref_to_llvm_alloc(8);
  size_t size = 0;
  EXPECT_EQ(ckptRuntimeFindDeviceAllocation(&storage[0], &size), 1);
  EXPECT_EQ(size, 64u);
  EXPECT_EQ(ckptRuntimeFindDeviceAllocation(&storage[1], nullptr), 1);
  EXPECT_EQ(ckptRuntimeFindDeviceAllocation(&storage[2], &size), 0);
  EXPECT_EQ(ckptRuntimeFindDeviceAllocation(host, &size), 0);
  EXPECT_EQ(stats().kernelLaunches, 2u);

  // The count of live device allocations, whatever the capacity given.
  EXPECT_EQ(ckptRuntimeListDeviceAllocations(nullptr, 0), 2u);
  void *one[1] = {nullptr};
  EXPECT_EQ(ckptRuntimeListDeviceAllocations(one, 1), 2u);
  EXPECT_TRUE(one[0] == &storage[0] || one[0] == &storage[1]);
  void *all[4] = {nullptr, nullptr, nullptr, nullptr};
  ASSERT_EQ(ckptRuntimeListDeviceAllocations(all, 4), 2u);
  EXPECT_NE(all[0], all[1]);
  EXPECT_EQ(all[2], nullptr);

  EXPECT_EQ(ckptRuntimeRecordDeviceFree(&storage[0]), 1);
  EXPECT_EQ(ckptRuntimeRecordDeviceFree(&storage[1]), 1);
  EXPECT_EQ(ckptRuntimeListDeviceAllocations(nullptr, 0), 0u);
  ckptRuntimeReset();
  EXPECT_EQ(stats().kernelLaunches, 0u);
  _mlir_memref_to_llvm_free(host);
}

TEST_F(AllocTracker, ThreadSafe) {
  constexpr int kThreads = 4, kIterations = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < kIterations; ++i) {
        void *a = _mlir_memref_to_llvm_alloc(16);
        void *b = _mlir_memref_to_llvm_aligned_alloc(64, 64);
        _mlir_memref_to_llvm_free(a);
        _mlir_memref_to_llvm_free(b);
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  CkptRuntimeStats s = stats();
  EXPECT_EQ(s.allocCount, 2u * kThreads * kIterations);
  EXPECT_EQ(s.freeCount, 2u * kThreads * kIterations);
  EXPECT_EQ(s.totalBytes, 80u * kThreads * kIterations);
  EXPECT_EQ(s.liveBytes, 0u);
  EXPECT_LE(s.peakBytes, 80u * kThreads);
  EXPECT_EQ(s.unknownFrees, 0u);
}

} // namespace
