//===- Plan.cpp - plan a step under a memory budget -----------------------===//

#include "ckpt/Analysis/Plan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace ckpt;

std::optional<BudgetSpec> ckpt::parseBudget(llvm::StringRef text,
                                            std::string &error) {
  llvm::StringRef trimmed = text.trim();
  auto fail = [&]() -> std::optional<BudgetSpec> {
    error = "invalid budget '" + text.str() +
            "': expected a number of bytes with an optional unit (B, KB, MB, "
            "GB, KiB, MiB, GiB, TiB) or a percentage of the store-all peak "
            "such as '70%'";
    return std::nullopt;
  };
  // Split the number from the unit.
  size_t numberEnd = 0;
  while (numberEnd < trimmed.size() &&
         (llvm::isDigit(trimmed[numberEnd]) || trimmed[numberEnd] == '.'))
    ++numberEnd;
  llvm::StringRef number = trimmed.take_front(numberEnd);
  llvm::StringRef unit = trimmed.drop_front(numberEnd).trim();
  double value;
  if (number.empty() || number.getAsDouble(value) || !std::isfinite(value))
    return fail();
  BudgetSpec spec;
  if (unit == "%") {
    if (value <= 0)
      return fail();
    spec.percent = true;
    spec.value = value;
    return spec;
  }
  double scale = llvm::StringSwitch<double>(unit)
                     .Case("", 1.0)
                     .Case("B", 1.0)
                     .Case("KB", 1e3)
                     .Case("MB", 1e6)
                     .Case("GB", 1e9)
                     .Case("KiB", 1024.0)
                     .Case("MiB", 1024.0 * 1024)
                     .Case("GiB", 1024.0 * 1024 * 1024)
                     .Case("TiB", 1024.0 * 1024 * 1024 * 1024)
                     .Default(-1);
  if (scale < 0 || value * scale < 1)
    return fail();
  // Budgets are kept in signed 64-bit byte counts (the report, the solver):
  // a larger one would wrap around, and converting a double past 2^64 to an
  // integer is undefined.
  if (value * scale >= kMaxBudgetBytes) {
    error = "budget '" + text.str() + "' is too large: it must be below 2^63 bytes";
    return std::nullopt;
  }
  spec.value = std::floor(value * scale);
  return spec;
}

mlir::LogicalResult ckpt::checkSlots(mlir::Location loc, int64_t slots) {
  if (slots >= 0)
    return mlir::success();
  return mlir::emitError(loc, "slots must be 0 (exact sizes) or positive, got ")
         << slots;
}

std::string ckpt::formatBytes(uint64_t bytes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0)
    os << bytes << " B";
  else
    os << llvm::format("%.2f", value) << " " << units[unit] << " (" << bytes
       << " B)";
  return out;
}

PlanResult ckpt::planChain(const StepChain &stepChain,
                           const solver::Strategy &strategy, uint64_t budget,
                           int64_t slots) {
  PlanResult result;
  result.budget = budget;
  const uint64_t fixed = stepChain.persistentBytes;

  // What the chain may use once the persistent values are set aside.
  auto chainFeasibleFrom = [&](std::optional<int64_t> chainMin) {
    if (chainMin)
      result.minFeasibleBudget = fixed + static_cast<uint64_t>(*chainMin);
  };
  if (budget <= fixed) {
    std::optional<int64_t> chainMin;
    std::string error;
    if (!solver::minFeasibleMemory(stepChain.chain, strategy, slots, chainMin,
                                   error)) {
      result.error = error;
      return result;
    }
    chainFeasibleFrom(chainMin);
    return result;
  }

  solver::MemoryModel model;
  model.memory = static_cast<int64_t>(budget - fixed);
  model.slots = slots;
  // Slots round every size up, so a budget that fits storing everything
  // exactly may not fit in slots. Storing everything is the fastest schedule
  // there is (no recomputation): when it fits, it is the optimum.
  std::optional<uint64_t> storeAllPeak;
  if (strategy.kind == solver::Strategy::Kind::Optimal && slots > 0) {
    solver::Strategy storeAll;
    storeAll.kind = solver::Strategy::Kind::StoreAll;
    solver::MemoryModel exact;
    exact.memory = model.memory;
    solver::StrategyResult all =
        solver::runStrategy(stepChain.chain, storeAll, exact);
    if (all.error.empty() && all.minFeasibleMemory)
      storeAllPeak = fixed + static_cast<uint64_t>(*all.minFeasibleMemory);
    if (all.error.empty() && all.feasible) {
      result.feasible = true;
      result.peak = fixed + static_cast<uint64_t>(all.peak);
      result.time = all.makespan + stepChain.fixedTime;
      result.sequence = std::move(all.sequence);
      if (all.minFeasibleMemory)
        result.minFeasibleBudget = fixed + static_cast<uint64_t>(*all.minFeasibleMemory);
      return result;
    }
  }
  solver::StrategyResult run =
      solver::runStrategy(stepChain.chain, strategy, model);
  if (!run.error.empty()) {
    result.error = run.error;
    return result;
  }
  chainFeasibleFrom(run.minFeasibleMemory);
  if (storeAllPeak && (!result.minFeasibleBudget ||
                       *storeAllPeak < *result.minFeasibleBudget))
    result.minFeasibleBudget = storeAllPeak;
  if (!run.feasible)
    return result;
  result.feasible = true;
  result.peak = fixed + static_cast<uint64_t>(run.peak);
  result.time = run.makespan + stepChain.fixedTime;
  result.sequence = std::move(run.sequence);
  return result;
}

std::vector<std::string> ckpt::stageKinds(const std::vector<solver::Op> &seq,
                                          int numStages) {
  std::vector<std::string> kinds(numStages, "");
  for (const solver::Op &op : seq) {
    if (op.stage < 1 || op.stage > numStages || !kinds[op.stage - 1].empty())
      continue;
    switch (op.kind) {
    case solver::OpKind::FAll:
      kinds[op.stage - 1] = "all";
      break;
    case solver::OpKind::FCk:
      kinds[op.stage - 1] = "ck";
      break;
    case solver::OpKind::FNone:
      kinds[op.stage - 1] = "none";
      break;
    case solver::OpKind::Backward:
      break;
    }
  }
  for (std::string &kind : kinds)
    if (kind.empty())
      kind = "all";
  return kinds;
}

SeparatorKind ckpt::separatorKindFor(llvm::StringRef strategy) {
  return llvm::StringSwitch<SeparatorKind>(strategy)
      .Case("articulation", SeparatorKind::Articulation)
      .Case("speed", SeparatorKind::MatmulConv)
      .Case("manual", SeparatorKind::Checkpoints)
      .Default(SeparatorKind::TreeDecomposition);
}

bool ckpt::isKeepSeparatorsStrategy(llvm::StringRef strategy) {
  return strategy == "speed" || strategy == "manual";
}

std::vector<solver::Op> ckpt::keepSeparatorsSequence(int length) {
  std::vector<solver::Op> sequence;
  for (int l = 1; l <= length; ++l)
    sequence.push_back({solver::OpKind::FCk, l});
  sequence.push_back({solver::OpKind::FAll, length + 1});
  sequence.push_back({solver::OpKind::Backward, length + 1});
  for (int l = length; l >= 1; --l) {
    sequence.push_back({solver::OpKind::FAll, l});
    sequence.push_back({solver::OpKind::Backward, l});
  }
  return sequence;
}

PlanResult ckpt::planStrategy(const StepChain &stepChain,
                              llvm::StringRef strategy, uint64_t budget,
                              int64_t slots) {
  if (isKeepSeparatorsStrategy(strategy)) {
    PlanResult result;
    result.budget = budget;
    std::vector<solver::Op> sequence =
        keepSeparatorsSequence(stepChain.chain.length());
    solver::Simulation sim = solver::simulate(stepChain.chain, sequence);
    if (!sim.valid) {
      result.error = sim.error;
      return result;
    }
    uint64_t peak = stepChain.persistentBytes + static_cast<uint64_t>(sim.peak);
    result.minFeasibleBudget = peak;
    if (peak > budget)
      return result;
    result.feasible = true;
    result.peak = peak;
    result.time = sim.makespan + stepChain.fixedTime;
    result.sequence = std::move(sequence);
    return result;
  }
  solver::Strategy chainStrategy;
  std::string error;
  if (!solver::parseStrategy(strategy == "articulation"
                                 ? std::string_view("optimal")
                                 : std::string_view(strategy.data(),
                                                    strategy.size()),
                             chainStrategy, error)) {
    PlanResult result;
    result.error = error;
    return result;
  }
  return planChain(stepChain, chainStrategy, budget, slots);
}
