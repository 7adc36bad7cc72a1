//===- AllocTracker.cpp - counting allocation hooks for lowered code ------===//
//
// Defines the `_mlir_memref_to_llvm_*` functions that code lowered with
// `finalize-memref-to-llvm{use-generic-functions=1}` calls, and counts live,
// peak and total bytes through a pointer -> size table guarded by a mutex.
// No MLIR or LLVM dependency: this file also builds libckpt_runtime.so, which
// `mlir-runner -shared-libs=` loads.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

/// One live allocation: the size the IR asked for, and the epoch (see
/// ckptRuntimeReset) it was made in.
struct Allocation {
  uint64_t size;
  uint64_t epoch;
};

/// The counters and live table of one kind of memory (host or device).
struct Pool {
  std::unordered_map<const void *, Allocation> live;
  uint64_t liveBytes = 0;
  uint64_t peakBytes = 0;
  uint64_t totalBytes = 0;
  uint64_t allocCount = 0;
  uint64_t freeCount = 0;
  uint64_t unknownFrees = 0;

  void recordAlloc(const void *ptr, uint64_t size, uint64_t epoch) {
    auto [it, inserted] = live.try_emplace(ptr, Allocation{size, epoch});
    if (!inserted) {
      // The address was released behind our back (not through the hooks) and
      // handed out again: forget the stale entry.
      forget(it->second, epoch);
      it->second = Allocation{size, epoch};
    }
    liveBytes += size;
    peakBytes = std::max(peakBytes, liveBytes);
    totalBytes += size;
    ++allocCount;
  }

  /// Removes ptr from the table; returns false (and counts an error) when it
  /// is not there.
  bool recordFree(const void *ptr, uint64_t epoch) {
    auto it = live.find(ptr);
    if (it == live.end()) {
      ++unknownFrees;
      return false;
    }
    forget(it->second, epoch);
    live.erase(it);
    return true;
  }

  /// Counts the end of `a`, if it belongs to the current epoch.
  void forget(const Allocation &a, uint64_t epoch) {
    if (a.epoch != epoch)
      return;
    liveBytes -= a.size;
    ++freeCount;
  }

  void resetCounters() {
    liveBytes = peakBytes = totalBytes = 0;
    allocCount = freeCount = unknownFrees = 0;
  }
};

struct Tracker {
  std::mutex mutex;
  uint64_t epoch = 0;
  Pool host;
  Pool device;
  Pool hostCopy; ///< host copies of offloaded values
  uint64_t launches = 0;
  /// ckptRuntimeSetHostCopyAllocator's functions (null: posix_memalign),
  /// and the live host copies each made, with the function that frees it.
  void *(*hostCopyAlloc)(size_t) = nullptr;
  void (*hostCopyRelease)(void *) = nullptr;
  std::unordered_map<const void *, void (*)(void *)> externalHostCopies;
};

/// Whether this thread's allocations are host copies (see
/// ckptRuntimeBeginHostCopy).
thread_local bool allocatingHostCopy = false;

/// Never destroyed: lowered code may still allocate or free from other static
/// destructors or atexit handlers.
Tracker &tracker() {
  static Tracker *instance = new Tracker();
  return *instance;
}

/// 1 and the recorded size of live allocation `ptr` of one pool, else 0.
int find(Pool Tracker::*pool, const void *ptr, size_t *size) {
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  const Pool &p = t.*pool;
  auto it = p.live.find(ptr);
  if (it == p.live.end())
    return 0;
  if (size)
    *size = static_cast<size_t>(it->second.size);
  return 1;
}

/// A host copy from ckptRuntimeSetHostCopyAllocator's function, counted;
/// null when this is not a host copy, no function is set, the alignment is
/// more than a page, or the function has none.
void *allocExternalHostCopy(size_t size, size_t alignment) {
  if (!allocatingHostCopy || alignment > 4096)
    return nullptr;
  Tracker &t = tracker();
  void *(*alloc)(size_t) = nullptr;
  void (*release)(void *) = nullptr;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    alloc = t.hostCopyAlloc;
    release = t.hostCopyRelease;
  }
  void *ptr = alloc ? alloc(size ? size : 1) : nullptr;
  if (!ptr)
    return nullptr;
  std::lock_guard<std::mutex> lock(t.mutex);
  t.hostCopy.recordAlloc(ptr, size, t.epoch);
  t.externalHostCopies[ptr] = release;
  return ptr;
}

void *track(void *ptr, size_t size) {
  if (!ptr)
    return nullptr;
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  (allocatingHostCopy ? t.hostCopy : t.host).recordAlloc(ptr, size, t.epoch);
  return ptr;
}

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t size) {
  if (void *ptr = allocExternalHostCopy(size, 1))
    return ptr;
  return track(std::malloc(size ? size : 1), size);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  if (void *ptr = allocExternalHostCopy(size, alignment))
    return ptr;
  // posix_memalign wants a power of two that is a multiple of sizeof(void *).
  size_t align = sizeof(void *);
  while (align < alignment)
    align *= 2;
  void *ptr = nullptr;
  if (posix_memalign(&ptr, align, size ? size : 1) != 0)
    return nullptr;
  return track(ptr, size);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  Tracker &t = tracker();
  void (*release)(void *) = std::free;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    if (t.hostCopy.live.count(ptr)) {
      t.hostCopy.recordFree(ptr, t.epoch);
      auto external = t.externalHostCopies.find(ptr);
      if (external != t.externalHostCopies.end()) {
        release = external->second;
        t.externalHostCopies.erase(external);
      }
    } else if (!t.host.recordFree(ptr, t.epoch)) {
      return; // Not ours: counted, never passed to free().
    }
  }
  release(ptr);
}

void ckptRuntimeSetHostCopyAllocator(void *(*alloc)(size_t),
                                     void (*release)(void *)) {
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.hostCopyAlloc = alloc && release ? alloc : nullptr;
  t.hostCopyRelease = alloc && release ? release : nullptr;
}

void ckptRuntimeBeginHostCopy(void) { allocatingHostCopy = true; }

void ckptRuntimeEndHostCopy(void) { allocatingHostCopy = false; }

void ckptRuntimeReset(void) {
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  ++t.epoch;
  t.host.resetCounters();
  t.device.resetCounters();
  t.hostCopy.resetCounters();
  t.launches = 0;
}

void ckptRuntimeGetStats(CkptRuntimeStats *stats) {
  if (!stats)
    return;
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  stats->liveBytes = t.host.liveBytes;
  stats->peakBytes = t.host.peakBytes;
  stats->totalBytes = t.host.totalBytes;
  stats->allocCount = t.host.allocCount;
  stats->freeCount = t.host.freeCount;
  stats->unknownFrees = t.host.unknownFrees;
  stats->deviceLiveBytes = t.device.liveBytes;
  stats->devicePeakBytes = t.device.peakBytes;
  stats->deviceTotalBytes = t.device.totalBytes;
  stats->deviceAllocCount = t.device.allocCount;
  stats->deviceFreeCount = t.device.freeCount;
  stats->deviceUnknownFrees = t.device.unknownFrees;
  stats->kernelLaunches = t.launches;
  stats->hostCopyLiveBytes = t.hostCopy.liveBytes;
  stats->hostCopyPeakBytes = t.hostCopy.peakBytes;
  stats->hostCopyTotalBytes = t.hostCopy.totalBytes;
  stats->hostCopyAllocCount = t.hostCopy.allocCount;
  stats->hostCopyFreeCount = t.hostCopy.freeCount;
}

void ckptRuntimePrintStats(void) {
  CkptRuntimeStats s;
  ckptRuntimeGetStats(&s);
  std::printf("{\"peak_bytes\": %llu, \"live_bytes\": %llu, \"allocs\": %llu, "
              "\"frees\": %llu, \"unknown_frees\": %llu, \"total_bytes\": "
              "%llu}\n",
              static_cast<unsigned long long>(s.peakBytes),
              static_cast<unsigned long long>(s.liveBytes),
              static_cast<unsigned long long>(s.allocCount),
              static_cast<unsigned long long>(s.freeCount),
              static_cast<unsigned long long>(s.unknownFrees),
              static_cast<unsigned long long>(s.totalBytes));
  std::fflush(stdout);
}

int ckptRuntimeFindAllocation(const void *ptr, size_t *size) {
  return find(&Tracker::host, ptr, size);
}

size_t ckptRuntimeFreeAll(void) {
  Tracker &t = tracker();
  std::vector<std::pair<void *, void (*)(void *)>> ptrs;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    for (Pool *pool : {&t.host, &t.hostCopy}) {
      for (const auto &[ptr, alloc] : pool->live) {
        pool->forget(alloc, t.epoch);
        auto external = t.externalHostCopies.find(ptr);
        ptrs.emplace_back(const_cast<void *>(ptr),
                          external == t.externalHostCopies.end()
                              ? std::free
                              : external->second);
      }
      pool->live.clear();
    }
    t.externalHostCopies.clear();
  }
  for (auto [ptr, release] : ptrs)
    release(ptr);
  return ptrs.size();
}

void ckptRuntimeRecordDeviceAlloc(const void *ptr, uint64_t size) {
  if (!ptr)
    return;
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.device.recordAlloc(ptr, size, t.epoch);
}

int ckptRuntimeRecordDeviceFree(const void *ptr) {
  if (!ptr)
    return 0;
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.device.recordFree(ptr, t.epoch) ? 1 : 0;
}

void ckptRuntimeRecordLaunch(void) {
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  ++t.launches;
}

int ckptRuntimeFindDeviceAllocation(const void *ptr, size_t *size) {
  return find(&Tracker::device, ptr, size);
}

size_t ckptRuntimeListDeviceAllocations(void **ptrs, size_t capacity) {
  Tracker &t = tracker();
  std::lock_guard<std::mutex> lock(t.mutex);
  size_t i = 0;
  for (const auto &entry : t.device.live) {
    if (i < capacity)
      ptrs[i] = const_cast<void *>(entry.first);
    ++i;
  }
  return i;
}

} // extern "C"
