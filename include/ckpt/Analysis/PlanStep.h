//===- PlanStep.h - plan a step under a memory budget -----------*- C++ -*-===//

#ifndef CKPT_ANALYSIS_PLANSTEP_H
#define CKPT_ANALYSIS_PLANSTEP_H

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/StepProblem.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/Planner.h"
#include "ckpt/Solver/Support/Budget.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

/// The link to host memory of `costs`: its device's (Devices.h: bytes per
/// second each way, seconds per copy), with the measured profile's
/// "link.to_host" and "link.to_device" (bytes per second) and "link.latency"
/// (seconds) in their place where it has them. Emits an error at `loc` and
/// fails when a bandwidth is not positive.
mlir::FailureOr<sched::LinkSpec> costLink(mlir::Location loc,
                                          const CostSetup &costs);

/// The transfers of `plan` (the #ckpt.plan of `step`) as the solver's, each
/// moved value found by its op's position in the step's block and its result
/// number in `built` (the step's problem). Emits an error at the step and
/// fails when the step has no such result: it changed after it was planned.
mlir::FailureOr<std::vector<sched::Transfer>>
planTransfers(StepOp step, PlanAttr plan, const OrderProblem &built);

/// What ckpt-plan is asked for one step: the planner's request as the pass
/// options give it (strategy, slots, ilp limits, offloading over the
/// device's link, ...), less what depends on the step, which planStep fills
/// in: the budget in bytes (of `budget`, a percentage of the step's peak),
/// the separator candidates and the keep set.
struct StepPlanRequest {
  BudgetSpec budget;
  sched::PlanOptions plan;
};

/// A step's plan: the schedule and what it was compared with.
struct StepPlan {
  /// The step as the planners see it (ops by block position).
  OrderProblem problem;
  uint64_t budget = 0;       ///< bytes
  uint64_t storeAllPeak = 0; ///< the step as written (simulated)
  double storeAllTime = 0;
  sched::PlanResult result; ///< feasible (planStep fails otherwise)
  /// With offload: the copies (none when recomputation alone is fastest),
  /// where the program waits for each offload, and the host peak; the
  /// result's peak and time are then the device peak and the time with
  /// the transfers.
  std::vector<sched::Transfer> transfers;
  std::vector<size_t> offloadDone;
  uint64_t hostPeak = 0;
};

/// The separators 'speed' (the results of matmul and convolution ops) and
/// 'manual' (the values ckpt.checkpoint marks, the checkpoints themselves
/// as markers) plan over; empty options for the other strategies.
sched::ChainOptions separatorCandidates(const OrderProblem &problem,
                                        const sched::PlanStrategy &strategy);

/// The keep set of strategy 'keep', one entry per value of the problem: the
/// values ckpt.checkpoint marks, and the checkpoints' results.
std::vector<char> keptValues(const OrderProblem &problem);

/// Plans `step` under `request`: builds its problem, resolves the budget,
/// runs the strategy (sched::planSchedule). Emits an error at the step and
/// fails on a bad strategy, a solver failure, or an infeasible budget (the
/// error names the least feasible budget the strategy reaches).
mlir::FailureOr<StepPlan> planStep(StepOp step, const StepAnalysis &analysis,
                                   const CostSetup &costs,
                                   const StepPlanRequest &request);

} // namespace ckpt

#endif // CKPT_ANALYSIS_PLANSTEP_H
