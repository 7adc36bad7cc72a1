//===- Helper.h - work beside the caller on a pool thread -------*- C++ -*-===//
//
// The planner's searches run independent pieces beside the caller (the
// greedy's candidates, the two refits of a ruined schedule, the chain DP
// beside the first greedy) on a thread of an LLVM thread pool: MLIR's
// context pool in a pass, LLVM's default pool of the process otherwise.
// A job the pool has not taken by the time the caller waits for it runs on
// the caller's thread, so a busy pool never deadlocks the planner and the
// result is the same on one thread or two.
//
// Private to lib/Solver/Schedule.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_SOLVER_SCHEDULE_HELPER_H
#define CKPT_LIB_SOLVER_SCHEDULE_HELPER_H

#include <functional>
#include <memory>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace ckpt {
namespace sched {

/// Runs one job at a time beside the caller on a pool thread. A job takes
/// about as long as one simulation (a fraction of a millisecond), about as
/// long as waking a sleeping thread: so each side first spins a little
/// (tens of microseconds), then sleeps on a condition variable, so that an
/// idle helper takes no CPU from other work on a loaded machine. The
/// helper holds one pool thread while it lives.
class Helper {
public:
  /// A helper on a thread of `pool`, or (null) of LLVM's default pool of
  /// this process, made at first use with one thread per core.
  explicit Helper(llvm::ThreadPoolInterface *pool);
  ~Helper();
  Helper(const Helper &) = delete;
  Helper &operator=(const Helper &) = delete;

  /// Starts `job` beside the caller; `wait` returns once it has run (on
  /// the caller's thread if no pool thread took it).
  void start(std::function<void()> job);
  void wait();

  struct Shared;

private:
  std::shared_ptr<Shared> shared;
};

} // namespace sched
} // namespace ckpt

#endif // CKPT_LIB_SOLVER_SCHEDULE_HELPER_H
