//===- Copies.cpp - asynchronous copies on a copy thread ------------------===//
//
// ckptRuntimeCopyAsync / ckptRuntimeWaitCopy (Runtime.h): the CPU's copy
// stream. One thread, started at the first copy and never joined, runs the
// copies in the order they were issued; a ticket is the number of copies
// issued so far, and waiting for it waits until that many have ended. What
// ckpt-async-host-copies{runtime=cpu} calls, so that the placement of its
// waits can be tested by running a step on the CPU
// (CKPT_RUNTIME_COPY_DELAY_US slows each copy, so that a wait placed too
// late reads a buffer before its copy has ended).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/Runtime.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace {

struct Copy {
  void *dst;
  const void *src;
  size_t bytes;
};

class CopyQueue {
public:
  int64_t issue(Copy copy) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!started) {
      started = true;
      if (const char *delay = std::getenv("CKPT_RUNTIME_COPY_DELAY_US"))
        delayUs = std::strtoll(delay, nullptr, 10);
      std::thread([this] { run(); }).detach();
    }
    pending.push_back(copy);
    issued += 1;
    work.notify_one();
    return issued;
  }

  void wait(int64_t ticket) {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return completed >= ticket; });
  }

private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      work.wait(lock, [&] { return !pending.empty(); });
      Copy copy = pending.front();
      pending.pop_front();
      lock.unlock();
      if (delayUs > 0)
        std::this_thread::sleep_for(std::chrono::microseconds(delayUs));
      std::memcpy(copy.dst, copy.src, copy.bytes);
      lock.lock();
      completed += 1;
      done.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable work, done;
  std::deque<Copy> pending;
  int64_t issued = 0, completed = 0;
  long long delayUs = 0;
  bool started = false;
};

/// Never destroyed: its thread may still wait for work at exit.
CopyQueue &queue() {
  static CopyQueue *instance = new CopyQueue();
  return *instance;
}

} // namespace

extern "C" {

int64_t ckptRuntimeCopyAsync(int64_t dst, int64_t src, int64_t bytes) {
  if (bytes <= 0)
    return 0;
  return queue().issue({reinterpret_cast<void *>(dst),
                        reinterpret_cast<const void *>(src),
                        static_cast<size_t>(bytes)});
}

void ckptRuntimeWaitCopy(int64_t ticket) {
  if (ticket > 0)
    queue().wait(ticket);
}

} // extern "C"
