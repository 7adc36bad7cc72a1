//===- Profile.cpp - time the ops of a step -------------------------------===//
//
// ckptRuntimeProfileBegin / End / Reset / Read (Runtime.h): what
// `ckpt-profile-ops` makes a lowered step call around each of its ops. Each
// op of the step is a number (its index in the module's ckpt.profile_keys);
// the runtime adds up, per number, the wall time from Begin to End on a
// steady clock and how many times it ran. The GPU lowering's launches and
// library calls return when the device is done, so the time is the device's
// too, launch included.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/Runtime.h"

#include <chrono>
#include <mutex>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Entry {
  double seconds = 0;
  uint64_t count = 0;
};

struct Profile {
  std::mutex mutex;
  std::vector<Entry> entries;
};

Profile &profile() {
  static Profile *instance = new Profile();
  return *instance;
}

/// The op being timed on this thread: its number and start.
thread_local int64_t openId = -1;
thread_local Clock::time_point openStart;

} // namespace

extern "C" {

void ckptRuntimeProfileBegin(int64_t id) {
  openId = id;
  openStart = Clock::now();
}

void ckptRuntimeProfileEnd(int64_t id) {
  Clock::time_point stop = Clock::now();
  if (id < 0 || id != openId)
    return;
  openId = -1;
  double seconds = std::chrono::duration<double>(stop - openStart).count();
  Profile &p = profile();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.entries.size() <= static_cast<size_t>(id))
    p.entries.resize(static_cast<size_t>(id) + 1);
  p.entries[id].seconds += seconds;
  p.entries[id].count += 1;
}

void ckptRuntimeProfileReset(void) {
  Profile &p = profile();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.entries.clear();
}

uint64_t ckptRuntimeProfileRead(int64_t id, double *seconds) {
  Profile &p = profile();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (id < 0 || static_cast<size_t>(id) >= p.entries.size()) {
    if (seconds)
      *seconds = 0;
    return 0;
  }
  if (seconds)
    *seconds = p.entries[id].seconds;
  return p.entries[id].count;
}

} // extern "C"
