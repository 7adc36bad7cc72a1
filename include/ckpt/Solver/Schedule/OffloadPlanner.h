//===- OffloadPlanner.h - keep, recompute or offload ------------*- C++ -*-===//
//
// Plans recomputation and offloading together (Offload.h): the fastest of
//  - the recompute-only plan at the budget (planSchedule, strategy optimal),
//    so the joint plan is never slower than it;
//  - recompute-only plans at larger budgets (twelfths of the store-all
//    peak, and the least peak recomputation reaches when the budget is
//    under it), each with transfers added one at a time: at the device
//    peak's instant, the moves of a version idle there (offloaded after its
//    reader before the peak, reloaded either as late as the link allows
//    without a stall or just before its next reader) are evaluated, and the
//    one that lowers the peak most (then the fastest) is kept, until the
//    plan fits. The moves are chosen over links of a fixed grid (2^k bytes
//    per unit, symmetric, no latency; every other one under
//    recomputation's least) from the one on which the largest value takes
//    the whole step to copy up to 2^10 times that or twice the link's
//    bandwidth, and every plan is evaluated over the link itself;
//  - save_on_cpu's transfers (Offload.h) on the store-all schedule and on
//    those recompute-only plans, then with transfers dropped one at a time
//    (the smallest first) while that is no slower, every set a candidate,
//    so the joint plan is never slower than save_on_cpu where that fits.
// Monotone plans: a plan made for a slower link is valid on a faster one
// and no slower there, and a faster link chooses over every grid link a
// slower one does, so a faster link never gives a slower plan (over the
// grid's floor). The budget only picks the fastest candidate that fits,
// past the plan at the budget itself and the starts under it, so a larger
// budget gives a slower plan only where the recompute-only planner's own
// plan at the smaller budget is faster than its plan at the larger (its
// chain DP's slots and local search are not monotone in the budget). And
// under recomputation's least no candidate depends on the budget: the
// least budget with offloading is their lowest device peak, exactly.
// Offloading goes below the least budget recomputation reaches when a value
// that cannot be recomputed (or costs too much to) waits long enough.
//
// Plain C++17, no MLIR/LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_OFFLOAD_PLANNER_H
#define CKPT_SOLVER_SCHEDULE_OFFLOAD_PLANNER_H

#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/Planner.h"

#include <optional>

namespace ckpt {
namespace sched {

struct OffloadPlanOptions {
  int64_t budget = 0; ///< device bytes
  LinkSpec link;
  int64_t slots = 500; ///< the chain DP's, for the recompute-only plans
  /// Versions whose transfers are tried per step of the greedy (the largest
  /// first), and steps at most.
  int candidates = 24;
  int maxTransfers = 512;
  /// The recompute-only plan at `budget` (strategy optimal, these slots),
  /// when the caller has made it; else planWithOffload makes it.
  const PlanResult *recomputeOnly = nullptr;
};

struct OffloadPlanResult {
  std::string error;
  bool feasible = false;
  Schedule schedule;
  std::vector<Transfer> transfers;
  TransferEvaluation evaluation; ///< of schedule + transfers
  /// The lowest device peak of the candidates, within the budget or not
  /// (0 when none was valid).
  int64_t lowestDevicePeak = 0;
  /// When nothing fits and recomputation alone has a least peak: the least
  /// budget with offloading (lowestDevicePeak: planning there succeeds,
  /// one byte under fails).
  std::optional<int64_t> leastBudget;
  /// The recompute-only plan at the same budget (feasible or not) and its
  /// time, for comparison.
  bool recomputeFeasible = false;
  double recomputeTime = 0;
  /// Where the plan came from: "recompute" (the recompute-only plan at the
  /// budget), "recompute@<bytes>" (the one at that budget, no transfer),
  /// "recompute@<bytes>+offload" (with transfers added at the peak),
  /// "save_on_cpu" (the step as written with save_on_cpu's transfers, some
  /// dropped) or "recompute@<bytes>+save_on_cpu".
  std::string producer;
};

/// Plans `problem` (validated) with recomputation and offloading.
OffloadPlanResult planWithOffload(const Problem &problem,
                                  const OffloadPlanOptions &options);

/// The least budget at which planWithOffload (with `options`' link and
/// slots; `options.budget` is not used) finds a plan, where recomputation
/// alone fits no budget under `recomputeOnly`'s least peak (which must be
/// set: the recompute-only plan refused, with its least): the lowest device
/// peak of its candidates, which do not depend on the budget. Planning at
/// the result succeeds and one byte under it fails. std::nullopt when
/// `recomputeOnly` has no least peak.
std::optional<int64_t> leastBudgetWithOffload(const Problem &problem,
                                              const OffloadPlanOptions &options,
                                              const PlanResult &recomputeOnly);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_OFFLOAD_PLANNER_H
