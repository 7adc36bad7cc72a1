//===- Planner.h - every strategy as one schedule planner -------*- C++ -*-===//
//
// planSchedule: a strategy in, an op-level schedule out, scored by the exact
// simulator of Schedule.h (docs/PLANNING.md):
//
//  - store-all, periodic:K, sqrt, memory-poor: the chain baselines, expanded;
//  - revolve, articulation: the chain DP (the AD model, or single-value
//    separators), the fastest expanded schedule that fits;
//  - speed, manual: every stage kept by its input and recomputed once, over
//    the candidate separators the caller gives;
//  - keep: the keep-set schedule of the values the caller gives
//    (keepSetSchedule; PyTorch's selective activation checkpointing);
//  - optimal: the fastest of the chain DP's schedules, the greedy of
//    Remat.h from the identity schedule and the baselines, each improved by
//    local search; when none fits, the greedy from the chain DP's leanest
//    schedule;
//  - ilp: Checkmate's MILP with CBC (Ilp.h), started from optimal.
//
// With fit=model the chain strategies use the chain model's peak instead
// (Theorem 1 as the paper states it) and the schedule is not searched.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_PLANNER_H
#define CKPT_SOLVER_SCHEDULE_PLANNER_H

#include "ckpt/Solver/Chain/ChainModel.h"
#include "ckpt/Solver/Schedule/Ilp.h"
#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/PlanStrategy.h"
#include "ckpt/Solver/Schedule/ProblemChain.h"
#include "ckpt/Solver/Schedule/Remat.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {
namespace sched {

struct PlanOptions {
  PlanStrategy strategy;
  int64_t budget = 0;  ///< bytes
  int64_t slots = 500; ///< chain DP memory slots (0: exact sizes)
  /// fit=model: the chain model's peak must fit, not the schedule's.
  bool fitModel = false;
  /// 'speed' and 'manual': the candidate separators (kind Candidates).
  ChainOptions candidates;
  /// 'keep': per value, whether it is kept from the forward.
  std::vector<char> keep;
  /// 'ilp'.
  double ilpTimeLimit = 60;   ///< wall seconds of the whole plan (<= 0: none)
  int64_t ilpNodeLimit = 0;   ///< CBC's branch-and-bound nodes (0: none)
  int64_t ilpMemoryLimit = 0; ///< bytes CBC may use (0: none)
  int ilpThreads = 1;
  bool ilpLog = false;
  /// Work limits of the local searches.
  SearchOptions search;
  /// strategy=optimal runs the searches that do not depend on each other on
  /// two threads; the plan is the same either way.
  bool parallel = true;
  /// The pool the second thread's work runs on (MLIR's context pool in a
  /// pass); null: LLVM's default pool of the process.
  llvm::ThreadPoolInterface *threads = nullptr;
  /// strategy=optimal finds the problem's identical blocks (Repeats.h) and
  /// its greedies that fit the budget from a start (the schedule as
  /// written, the lower bound's keep set) apply each move together with its
  /// equivalents in the other blocks where the excess needs them and they
  /// cost no more per byte (SearchOptions::repeats): on a deep model, a few
  /// greedy steps per kind of move instead of one per layer.
  bool repeatedBlocks = true;
  /// Offloading: with a link, planThenOffload (OffloadPlanner.h) also plans
  /// recomputation and offloading together over it (strategy optimal);
  /// planSchedule plans recomputation alone either way.
  std::optional<LinkSpec> offload;
  /// Told what the planner does next when it starts a long phase (the
  /// least-feasible-budget search, the ILP with its time limit in seconds,
  /// else 0); for progress lines.
  std::function<void(const std::string &phase, double limitSeconds)> progress;
};

struct PlanResult {
  std::string error; ///< bad input or solver failure
  bool feasible = false;
  Schedule schedule; ///< when feasible
  double time = 0;   ///< cost of `schedule`
  int64_t peak = 0;  ///< exact peak of `schedule`
  /// The least peak the strategy reaches (when infeasible: the least
  /// feasible budget it can name); nullopt when it reaches none.
  std::optional<int64_t> leastPeak;
  /// Which producer gave the schedule ("store-all", "chain",
  /// "chain+search", "search", "ilp", ...).
  std::string producer;
  /// The chain sequence, when the schedule is a chain sequence expanded.
  std::vector<solver::Op> sequence;
  /// 'ilp': the solver's outcome.
  std::optional<IlpResult> ilp;
  /// 'optimal' with repeatedBlocks: the moves its greedies applied in other
  /// identical blocks along with the move they chose (at the budget asked).
  int64_t repeatedMoves = 0;
};

/// The ILP's options of strategy=ilp (time, node and memory limits,
/// threads, log) from `options`.
IlpOptions ilpOptionsOf(const PlanOptions &options);

/// Plans `problem` (validated by the caller) under options.budget.
PlanResult planSchedule(const Problem &problem, const PlanOptions &options);

/// The chain model's store-all peak (plus the persistent bytes), the
/// reference of fit=model percentages.
int64_t chainStoreAllPeak(const Problem &problem);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_PLANNER_H
