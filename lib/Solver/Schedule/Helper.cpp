//===- Helper.cpp - work beside the caller on a pool thread ---------------===//

#include "Helper.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CKPT_HELPER_PAUSE() _mm_pause()
#else
#define CKPT_HELPER_PAUSE() ((void)0)
#endif

using namespace ckpt::sched;

namespace {
/// `requested`, or LLVM's default pool of this process.
llvm::ThreadPoolInterface &poolOf(llvm::ThreadPoolInterface *requested) {
  if (requested)
    return *requested;
  static llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
  return pool;
}
} // namespace

/// The job and its state, shared with the pool's task (which may start
/// after the Helper is gone, and then returns at once).
struct Helper::Shared {
  enum : int { kIdle, kStarted, kRunning, kFinished, kQuit };
  static constexpr int kSpins = 4000;

  std::function<void()> job;
  std::atomic<int> state{kIdle};
  std::mutex mutex;
  std::condition_variable changed;

  void set(int now) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      state.store(now, std::memory_order_release);
    }
    changed.notify_all();
  }

  /// Takes the started job for this thread: false when another took it.
  bool claim() {
    int expected = kStarted;
    return state.compare_exchange_strong(expected, kRunning,
                                         std::memory_order_acq_rel);
  }

  /// Returns the state once `ready` holds for it.
  template <typename Ready> int await(Ready ready) {
    for (int spins = 0; spins < kSpins; ++spins) {
      int now = state.load(std::memory_order_acquire);
      if (ready(now))
        return now;
      CKPT_HELPER_PAUSE();
    }
    std::unique_lock<std::mutex> lock(mutex);
    int now = state.load(std::memory_order_acquire);
    while (!ready(now)) {
      changed.wait(lock);
      now = state.load(std::memory_order_acquire);
    }
    return now;
  }

  /// The pool thread's loop: runs each started job it claims.
  void loop() {
    while (true) {
      int now = await([](int now) { return now == kStarted || now == kQuit; });
      if (now == kQuit)
        return;
      if (!claim())
        continue; // the caller took it
      job();
      set(kFinished);
    }
  }
};

Helper::Helper(llvm::ThreadPoolInterface *pool)
    : shared(std::make_shared<Shared>()) {
  poolOf(pool).async([state = shared] { state->loop(); });
}

Helper::~Helper() {
  // A job still out refers to the caller's state: finish it first.
  int now = shared->state.load(std::memory_order_acquire);
  if (now == Shared::kStarted || now == Shared::kRunning)
    wait();
  shared->set(Shared::kQuit);
}

void Helper::start(std::function<void()> job) {
  shared->job = std::move(job);
  shared->set(Shared::kStarted);
}

void Helper::wait() {
  if (shared->claim()) {
    // No pool thread has taken it (all busy, or not awake yet): run it here.
    shared->job();
  } else {
    shared->await([](int now) { return now == Shared::kFinished; });
  }
  shared->set(Shared::kIdle);
}
