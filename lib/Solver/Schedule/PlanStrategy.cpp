//===- PlanStrategy.cpp - the strategies of the step planner --------------===//

#include "ckpt/Solver/Schedule/PlanStrategy.h"

using namespace ckpt;
using namespace ckpt::sched;

const std::vector<StrategyInfo> &ckpt::sched::planStrategies() {
  // The list. Order: the default, the exact one, the chain baselines, the
  // chain DP variants, the keep-set strategies.
  static const std::vector<StrategyInfo> strategies = {
      {StrategyKind::Optimal, "optimal", true, false,
       "the fastest of the chain DP over a separator chain and an op-level "
       "greedy, improved by local search (the default)"},
      {StrategyKind::Ilp, "ilp", false, false,
       "the exact schedule: Checkmate's MILP solved by CBC, started from "
       "optimal"},
      {StrategyKind::StoreAll, "store-all", true, false,
       "keep everything, recompute nothing"},
      {StrategyKind::Periodic, "periodic:K", true, false,
       "PyTorch's checkpoint_sequential with K segments"},
      {StrategyKind::Sqrt, "sqrt", true, false,
       "periodic:K with K = round(sqrt(L))"},
      {StrategyKind::Revolve, "revolve", true, false,
       "the AD-model optimum of the chain (only a stored, F_all before each "
       "backward)"},
      {StrategyKind::MemoryPoor, "memory-poor", true, false,
       "keep only the chain's input, recompute from it before each backward"},
      {StrategyKind::Articulation, "articulation", true, false,
       "the chain DP over single-value separators (openai's 'memory' mode)"},
      {StrategyKind::Speed, "speed", true, true,
       "keep the outputs of matmuls and convolutions, recompute the rest once "
       "(openai's 'speed' mode)"},
      {StrategyKind::Manual, "manual", true, true,
       "the same with the values ckpt.checkpoint marks (openai's "
       "'collection' mode)"},
      {StrategyKind::Keep, "keep", false, true,
       "keep exactly the values ckpt.checkpoint marks, recompute every other "
       "forward value once before its first backward read (PyTorch's "
       "selective activation checkpointing)"},
  };
  return strategies;
}

std::string ckpt::sched::strategySpellings(bool withStepOnly) {
  std::string out;
  std::vector<const char *> names;
  for (const StrategyInfo &info : planStrategies())
    if (withStepOnly || !info.needsStep)
      names.push_back(info.spelling);
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::optional<PlanStrategy> PlanStrategy::parse(std::string_view text,
                                                std::string &error) {
  for (const StrategyInfo &info : planStrategies())
    if (info.kind != StrategyKind::Periodic && text == info.spelling)
      return PlanStrategy{info.kind, 0};
  int segments = 0;
  if (solver::parsePeriodic(text, segments, error)) {
    if (segments == 0)
      return std::nullopt;
    return PlanStrategy{StrategyKind::Periodic, segments};
  }
  error = "unknown strategy '" + std::string(text) + "': expected " +
          strategySpellings();
  return std::nullopt;
}

const StrategyInfo &PlanStrategy::info() const {
  for (const StrategyInfo &info : planStrategies())
    if (info.kind == kind)
      return info;
  return planStrategies().front(); // unreachable: every kind is listed
}

std::string PlanStrategy::str() const {
  if (kind == StrategyKind::Periodic)
    return "periodic:" + std::to_string(segments);
  return info().spelling;
}

std::optional<solver::Strategy> PlanStrategy::chainStrategy() const {
  using Kind = solver::Strategy::Kind;
  switch (kind) {
  case StrategyKind::Optimal:
  case StrategyKind::Articulation:
    return solver::Strategy{Kind::Optimal, 0};
  case StrategyKind::StoreAll:
    return solver::Strategy{Kind::StoreAll, 0};
  case StrategyKind::Periodic:
    return solver::Strategy{Kind::Periodic, segments};
  case StrategyKind::Sqrt:
    return solver::Strategy{Kind::Sqrt, 0};
  case StrategyKind::Revolve:
    return solver::Strategy{Kind::Revolve, 0};
  case StrategyKind::MemoryPoor:
    return solver::Strategy{Kind::MemoryPoor, 0};
  case StrategyKind::Ilp:
  case StrategyKind::Speed:
  case StrategyKind::Manual:
  case StrategyKind::Keep:
    return std::nullopt;
  }
  return std::nullopt;
}
