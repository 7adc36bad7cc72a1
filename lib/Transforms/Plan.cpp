//===- Plan.cpp - the ckpt-plan pass --------------------------------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/Plan.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Analysis/StepChain.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/Passes.h"
#include "ckpt/Transforms/Rematerialize.h"

#include "mlir/IR/Builders.h"

#include <limits>

namespace ckpt {
#define GEN_PASS_DEF_PLANPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct PlanPass : public ckpt::impl::PlanPassBase<PlanPass> {
  using PlanPassBase::PlanPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    PlanPassBase::getDependentDialects(registry);
    registerCostModelExternalModels(registry);
  }

  void runOnOperation() override;

private:
  LogicalResult planStep(StepOp step, const DeviceProfile &device,
                         const MeasuredProfile *measured);
};
} // namespace

void PlanPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkSlots(module.getLoc(), slots)))
    return signalPassFailure();
  FailureOr<CostSetup> costs = setUpCosts(module.getLoc(), device, profile);
  if (mlir::failed(costs))
    return signalPassFailure();
  bool failed = false;
  for (StepOp step : module.getOps<StepOp>())
    if (mlir::failed(planStep(step, costs->device, costs->profile())))
      failed = true;
  if (failed)
    signalPassFailure();
}

/// Writes `plan` onto `step`: the ckpt.plan attribute and the stage index
/// of every forward op in a stage.
static void writePlan(StepOp step, const StepChain &chain,
                      const StepAnalysis &analysis, const PlanResult &plan,
                      uint64_t budget, const PlanResult &storeAll,
                      uint64_t simulatedPeak, StringRef strategy) {
  MLIRContext *context = step.getContext();
  int numStages = chain.chain.numStages();
  std::vector<std::string> kinds = stageKinds(plan.sequence, numStages);
  SmallVector<StageAttr> stages;
  for (int l = 1; l <= numStages; ++l) {
    stages.push_back(StageAttr::get(
        context, l, kinds[l - 1], chain.stageOps[l - 1],
        llvm::APFloat(chain.chain.ufAt(l)), llvm::APFloat(chain.chain.ubAt(l)),
        static_cast<uint64_t>(chain.chain.wa[l - 1]),
        static_cast<uint64_t>(chain.chain.wabarAt(l))));
  }
  std::string sequence = solver::toString(plan.sequence);
  step->setAttr(kPlanAttrName,
                PlanAttr::get(context, strategy, budget, plan.peak,
                              llvm::APFloat(plan.time), storeAll.peak,
                              llvm::APFloat(storeAll.time), stages, sequence,
                              simulatedPeak));
  Builder builder(context);
  for (Operation &op : step.getBody().front().without_terminator()) {
    op.removeAttr(kStageAttrName);
    if (!analysis.isForward(&op))
      continue;
    auto it = chain.stageOf.find(&op);
    if (it != chain.stageOf.end())
      op.setAttr(kStageAttrName, builder.getI64IntegerAttr(it->second));
  }
}

/// The peak of live buffers of `step` once its plan is applied and frees
/// are inserted, simulated on a copy.
static FailureOr<uint64_t> simulateRewrite(StepOp step) {
  auto copy = cast<StepOp>(step->clone());
  uint64_t peak = 0;
  LogicalResult applied = applyPlan(copy);
  if (succeeded(applied)) {
    insertFrees(copy);
    peak = simulateBlock(copy.getBody().front(), kBufferAlignment).peak;
  }
  copy->erase();
  if (failed(applied))
    return failure();
  return peak;
}

LogicalResult PlanPass::planStep(StepOp step, const DeviceProfile &device,
                                 const MeasuredProfile *measured) {
  // The strategy: a chain strategy, or one that picks its own separators
  // ('articulation', 'speed', 'manual').
  SeparatorKind separators = separatorKindFor(strategy);
  solver::Strategy chainStrategy;
  std::string error;
  if (separators == SeparatorKind::TreeDecomposition &&
      !solver::parseStrategy(strategy, chainStrategy, error)) {
    return emitError(step.getLoc(), "unknown strategy '")
           << strategy
           << "': expected optimal, store-all, periodic:K, sqrt, revolve, "
              "memory-poor, articulation, speed or manual";
  }

  std::optional<BudgetSpec> spec = parseBudget(budget, error);
  if (!spec)
    return emitError(step.getLoc(), error);

  const StepAnalysis &analysis = getChildAnalysis<StepAnalysis>(step);
  FailureOr<StepChain> chain =
      buildStepChain(step, analysis, device, measured, separators);
  if (mlir::failed(chain))
    return failure();

  // Store-all: the reference for percentages and for the report.
  solver::Strategy storeAllStrategy;
  storeAllStrategy.kind = solver::Strategy::Kind::StoreAll;
  PlanResult storeAll =
      planChain(*chain, storeAllStrategy,
                std::numeric_limits<int64_t>::max() / 4, /*slots=*/0);
  if (!storeAll.error.empty())
    return emitError(step.getLoc(), "cannot build the chain model: ") << storeAll.error;

  // The reference for percentages: the store-all peak of the chain model
  // (fit=model) or the simulated peak of the step as written, nothing
  // recomputed, every buffer freed after its last use (fit=simulation).
  bool simulate = fit == "simulation";
  uint64_t reference = storeAll.peak;
  if (simulate)
    reference = simulateBlock(step.getBody().front(), kBufferAlignment).peak;
  // A percentage of a step that holds no buffer is still a budget: 1 B; a
  // huge percentage saturates below 2^63 (see kMaxBudgetBytes) rather than
  // overflowing the conversion.
  double budgetValue =
      spec->percent ? static_cast<double>(reference) * spec->value / 100.0
                    : spec->value;
  uint64_t budgetBytes =
      budgetValue >= kMaxBudgetBytes
          ? static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
          : std::max<uint64_t>(1, static_cast<uint64_t>(budgetValue));

  // The simulated peak of the step `candidate` rewrites it into (the plan is
  // written onto the step, then applied to a copy).
  auto simulatePlan = [&](const PlanResult &candidate) {
    writePlan(step, *chain, analysis, candidate, budgetBytes, storeAll, 0,
              strategy);
    return simulateRewrite(step);
  };

  PlanResult plan;
  uint64_t simulated = 0;
  if (!simulate) {
    plan = planStrategy(*chain, strategy, budgetBytes, slots);
    if (!plan.error.empty())
      return emitError(step.getLoc(), "the chain solver failed: ") << plan.error;
    if (!plan.feasible) {
      InFlightDiagnostic diag = emitError(step.getLoc(), "budget of ")
                                << formatBytes(budgetBytes)
                                << " is infeasible for strategy '" << strategy
                                << "'";
      if (plan.minFeasibleBudget)
        diag << ": the least feasible budget is "
             << formatBytes(*plan.minFeasibleBudget);
      else
        diag << " with " << slots.getValue()
             << " slots at any budget; try more slots";
      return diag;
    }
    FailureOr<uint64_t> peak = simulatePlan(plan);
    if (mlir::failed(peak))
      return failure();
    simulated = *peak;
  } else {
    // The chain model is conservative, and its ranking of schedules by
    // memory is not the simulation's: keep the fastest candidate whose
    // rewritten step fits. Candidates: the strategy's plans over a search of
    // the largest chain budget that fits, and, for 'optimal', every baseline
    // schedule too (so optimal is never slower than a baseline that fits).
    std::optional<PlanResult> best;
    uint64_t bestPeak = 0;
    uint64_t leastPeak = std::numeric_limits<uint64_t>::max();
    // Plans `name` under `chainBudget`; true when its rewritten step fits.
    auto tryCandidate = [&](StringRef name, uint64_t chainBudget) {
      PlanResult candidate = planStrategy(*chain, name, chainBudget, slots);
      if (!candidate.error.empty() || !candidate.feasible)
        return false;
      FailureOr<uint64_t> peak = simulatePlan(candidate);
      if (mlir::failed(peak))
        return false;
      leastPeak = std::min(leastPeak, *peak);
      if (*peak > budgetBytes)
        return false;
      if (!best || candidate.time < best->time ||
          (candidate.time == best->time && *peak < bestPeak)) {
        best = candidate;
        bestPeak = *peak;
      }
      return true;
    };

    // The least chain budget of the strategy: a plan at an impossible
    // budget reports it.
    PlanResult probe = planStrategy(*chain, strategy, 0, slots);
    if (!probe.error.empty())
      return emitError(step.getLoc(), "the chain solver failed: ") << probe.error;
    if (!probe.minFeasibleBudget)
      return emitError(step.getLoc(), "no budget is feasible for strategy '")
             << strategy << "' with " << slots.getValue()
             << " slots; try more slots";
    uint64_t lo = *probe.minFeasibleBudget;
    uint64_t hi = std::max(lo, storeAll.peak);
    bool hiFits = tryCandidate(strategy, hi);
    if (!hiFits && tryCandidate(strategy, lo)) {
      // The largest chain budget in [lo, hi) that still fits.
      uint64_t good = lo, bad = hi;
      uint64_t resolution = std::max<uint64_t>(1, (hi - lo) / 1024);
      while (bad - good > resolution) {
        uint64_t mid = good + (bad - good) / 2;
        (tryCandidate(strategy, mid) ? good : bad) = mid;
      }
    }
    if (strategy == "optimal" && !hiFits) {
      const uint64_t any = std::numeric_limits<int64_t>::max() / 4;
      for (StringRef name : {"store-all", "memory-poor", "sqrt"})
        tryCandidate(name, any);
      int length = chain->chain.length();
      for (int k = 2; k <= std::min(length, 8); ++k)
        tryCandidate("periodic:" + std::to_string(k), any);
      PlanResult revolveProbe = planStrategy(*chain, "revolve", 0, slots);
      if (revolveProbe.minFeasibleBudget)
        tryCandidate("revolve", *revolveProbe.minFeasibleBudget);
    }
    if (!best) {
      step->removeAttr(kPlanAttrName);
      for (Operation &op : step.getBody().front())
        op.removeAttr(kStageAttrName);
      return emitError(step.getLoc(), "budget of ")
             << formatBytes(budgetBytes) << " is infeasible for strategy '"
             << strategy << "': the least feasible budget is "
             << formatBytes(leastPeak);
    }
    plan = *best;
    simulated = bestPeak;
  }
  writePlan(step, *chain, analysis, plan, budgetBytes, storeAll, simulated,
            strategy);
  return success();
}
