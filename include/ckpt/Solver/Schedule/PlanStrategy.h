//===- PlanStrategy.h - the strategies of the step planner ------*- C++ -*-===//
//
// The one list of the strategies planSchedule (Planner.h) knows, and the
// typed value that names one: parsed once, where options are read
// (ckpt-plan's `strategy=`, ckpt-sched's --strategy, the Python bindings),
// and passed as it is to the planner. Help texts, error messages, the
// Python package (ckpt.plan_strategies) and the tests of the docs read the
// list below.
//
// Plain C++17, no MLIR/LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_PLAN_STRATEGY_H
#define CKPT_SOLVER_SCHEDULE_PLAN_STRATEGY_H

#include "ckpt/Solver/Chain/ChainStrategies.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {
namespace sched {

enum class StrategyKind {
  Optimal,
  Ilp,
  StoreAll,
  Periodic,
  Sqrt,
  Revolve,
  MemoryPoor,
  Articulation,
  Speed,
  Manual,
  Keep,
};

/// One strategy of the list.
struct StrategyInfo {
  StrategyKind kind;
  const char *spelling; ///< as written; "periodic:K" for the one with K
  /// Plans the separator chain (fit=model applies to it).
  bool chain;
  /// Needs what only an MLIR step has (ckpt.checkpoint marks, op kinds):
  /// ckpt-plan only, not ckpt-sched on a graph file.
  bool needsStep;
  const char *summary; ///< one line
};

/// Every strategy, in the order help texts list them.
const std::vector<StrategyInfo> &planStrategies();

/// The spellings of the list, "optimal, ilp, ..., manual or keep" (those
/// without `needsStep` when `withStepOnly` is false).
std::string strategySpellings(bool withStepOnly = true);

/// A strategy as the planner takes it: its kind and, for periodic:K, K.
struct PlanStrategy {
  StrategyKind kind = StrategyKind::Optimal;
  int segments = 0; ///< K of periodic:K (>= 1), else 0

  /// Parses a spelling of the list ("periodic:K" with an integer K >= 1);
  /// nullopt with `error` set otherwise.
  static std::optional<PlanStrategy> parse(std::string_view text,
                                           std::string &error);

  /// The canonical spelling ("optimal", "periodic:4", ...); parses back.
  std::string str() const;

  const StrategyInfo &info() const;

  /// The chain strategy this plans with, for the chain strategies
  /// (articulation: optimal over single-value separators).
  std::optional<solver::Strategy> chainStrategy() const;

  bool operator==(const PlanStrategy &other) const {
    return kind == other.kind && segments == other.segments;
  }
  bool operator!=(const PlanStrategy &other) const { return !(*this == other); }
};

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_PLAN_STRATEGY_H
