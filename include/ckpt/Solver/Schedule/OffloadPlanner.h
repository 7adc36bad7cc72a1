//===- OffloadPlanner.h - keep, recompute or offload ------------*- C++ -*-===//
//
// Plans recomputation and offloading together (Offload.h): the fastest of
//  - the recompute-only plan at the budget (planSchedule, strategy optimal),
//    so the joint plan is never slower than it;
//  - recompute-only plans at larger budgets (the store-all schedule, the
//    least peak recomputation reaches, and budgets between), each brought
//    under the budget by transfers added one at a time: at the device peak's
//    instant, the moves of a version idle there (offloaded after its reader
//    before the peak, reloaded either as late as the link allows without a
//    stall or just before its next reader) are evaluated exactly, and the
//    one that lowers the peak most (then the fastest) is kept (with refine,
//    on up to 500 ops, also a second greedy that keeps the fastest move);
//    where no move lowers the peak, the moves waited for at once (the
//    buffer gone before the execution at the peak allocates), and, on up
//    to 500 ops, a greedy still over the budget runs again weighing those
//    at every step; then
//    each transfer is dropped or its offload, reload or wait moved 1, 2, 4,
//    ... executions where that is faster within the budget (over 500 ops,
//    on the two fastest starts only); and the starts halve the gaps beside
//    the best one, twice;
//  - save_on_cpu's transfers (Offload.h) on the store-all schedule and on
//    those recompute-only plans, less the transfers the budget does not
//    need, so the joint plan is never slower than save_on_cpu where that
//    fits.
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

#include <map>
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
  /// Recompute-only plans by budget, shared by calls on the same problem
  /// and slots (leastBudgetWithOffload's descent plans the same larger
  /// budgets at every step); may be null.
  std::map<int64_t, PlanResult> *plans = nullptr;
  /// When nothing fits, search the least budget with offloading
  /// (OffloadPlanResult::leastBudget).
  bool searchLeast = true;
  /// Make the plan faster once it fits: each start's transfers polished
  /// (dropped, offloads and reloads moved); on problems of up to 500 ops
  /// also a second greedy per start (the fastest move first), and starts
  /// tried between the
  /// best one and its neighbours. Off in leastBudgetWithOffload's descent,
  /// which asks only whether a plan fits.
  bool refine = true;
  /// For leastBudgetWithOffload: the lowest device peak planWithOffload
  /// reached at a budget under recomputation's least (where it starts; 0:
  /// it plans at 1 B to find it).
  int64_t lowestDevicePeak = 0;
};

struct OffloadPlanResult {
  std::string error;
  bool feasible = false;
  Schedule schedule;
  std::vector<Transfer> transfers;
  TransferEvaluation evaluation; ///< of schedule + transfers
  /// The lowest device peak of the plans tried, within the budget or not
  /// (0 when none was valid): where leastBudgetWithOffload starts.
  int64_t lowestDevicePeak = 0;
  /// When nothing fits and recomputation alone has a least peak (with
  /// `searchLeast`): leastBudgetWithOffload's, on the same recompute-only
  /// plans.
  std::optional<int64_t> leastBudget;
  /// The recompute-only plan at the same budget (feasible or not) and its
  /// time, for comparison.
  bool recomputeFeasible = false;
  double recomputeTime = 0;
  /// Where the plan came from: "recompute" (no transfer),
  /// "recompute@<bytes>+offload" (the recompute-only plan at that budget
  /// with transfers added at the peak), "save_on_cpu" (the step as written
  /// with save_on_cpu's transfers, the unneeded ones dropped) or
  /// "recompute@<bytes>+save_on_cpu", or "ilp" (strategy ilp: the ILP with
  /// paging).
  std::string producer;
  /// Strategy ilp: the outcome of the ILP with paging (Ilp.h).
  std::optional<IlpResult> ilp;
};

/// Plans `problem` (validated) with recomputation and offloading.
OffloadPlanResult planWithOffload(const Problem &problem,
                                  const OffloadPlanOptions &options);

/// The least budget at which planWithOffload (with `options`' link and
/// slots; `options.budget` is not used) finds a plan, where recomputation
/// alone fits no budget under `recomputeOnly`'s least peak (which must be
/// set: the recompute-only plan refused, with its least). A galloping
/// descent from the lowest device peak the plans at a budget of 1 B reach
/// (`options.lowestDevicePeak` when set; the descent starts there when
/// planning there succeeds, else from that least): after a budget
/// that plans, the next asks for twice as many bytes less (or the plan's
/// device peak, when that plans too), after a failure half as many; it ends
/// when one byte under fails.
/// Planning at the result succeeds and, unless the cap of 64 steps ends
/// the search first, planning one byte under it fails. std::nullopt when
/// `recomputeOnly` has no least peak.
std::optional<int64_t> leastBudgetWithOffload(const Problem &problem,
                                              const OffloadPlanOptions &options,
                                              const PlanResult &recomputeOnly);

/// What ckpt-plan and ckpt-sched plan: the recompute-only plan
/// (planSchedule with the options) and, over a link (PlanOptions::offload),
/// the joint plan at the same budget made from it (planWithOffload, its least
/// budget searched when nothing fits).
struct PlanThenOffload {
  PlanResult recompute;
  /// Over a link, when the recompute-only plan has no error.
  std::optional<OffloadPlanResult> joint;
  /// Whether the joint plan is the one to run: it fits and copies something
  /// (else it is the recompute-only plan).
  bool offloads() const {
    return joint && joint->error.empty() && joint->feasible &&
           !joint->transfers.empty();
  }
};

/// Plans `problem` (validated) with `options`, then, with a link in
/// `options.offload` (strategy optimal or ilp), with offloading too;
/// `options.progress` hears the offload phase. With strategy ilp, the joint
/// plan is the faster of the joint planner's (from strategy optimal's plan)
/// and the ILP with paging's (warm-started from strategy ilp's plan, with
/// a time limit of its own).
PlanThenOffload planThenOffload(const Problem &problem,
                                const PlanOptions &options);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_OFFLOAD_PLANNER_H
