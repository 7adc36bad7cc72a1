//===- Plan.cpp - the ckpt-plan pass --------------------------------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/Plan.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Analysis/StepChain.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/Passes.h"

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
  if (slots < 0) {
    emitError(module.getLoc(), "slots must be 0 (exact sizes) or positive, got ")
        << slots.getValue();
    return signalPassFailure();
  }
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

LogicalResult PlanPass::planStep(StepOp step, const DeviceProfile &device,
                                 const MeasuredProfile *measured) {
  // The strategy: a chain strategy, or 'articulation' (the optimal DP over
  // single-value separators).
  SeparatorKind separators = SeparatorKind::TreeDecomposition;
  solver::Strategy chainStrategy;
  std::string error;
  if (strategy == "articulation") {
    separators = SeparatorKind::Articulation;
  } else if (!solver::parseStrategy(strategy, chainStrategy, error)) {
    return step.emitError("unknown strategy '")
           << strategy
           << "': expected optimal, store-all, periodic:K, sqrt, revolve, "
              "memory-poor or articulation";
  }

  std::optional<BudgetSpec> spec = parseBudget(budget, error);
  if (!spec)
    return step.emitError(error);

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
    return step.emitError("cannot build the chain model: ") << storeAll.error;

  uint64_t budgetBytes =
      spec->percent
          ? static_cast<uint64_t>(static_cast<double>(storeAll.peak) *
                                  spec->value / 100.0)
          : static_cast<uint64_t>(spec->value);

  PlanResult plan = planChain(*chain, chainStrategy, budgetBytes, slots);
  if (!plan.error.empty())
    return step.emitError("the chain solver failed: ") << plan.error;
  if (!plan.feasible) {
    InFlightDiagnostic diag = step.emitError("budget of ")
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

  // Write the plan.
  MLIRContext *context = &getContext();
  int numStages = chain->chain.numStages();
  std::vector<std::string> kinds = stageKinds(plan.sequence, numStages);
  SmallVector<StageAttr> stages;
  for (int l = 1; l <= numStages; ++l) {
    stages.push_back(StageAttr::get(
        context, l, kinds[l - 1], chain->stageOps[l - 1],
        llvm::APFloat(chain->chain.ufAt(l)), llvm::APFloat(chain->chain.ubAt(l)),
        static_cast<uint64_t>(chain->chain.wa[l - 1]),
        static_cast<uint64_t>(chain->chain.wabarAt(l))));
  }
  std::string sequence = solver::toString(plan.sequence);
  step->setAttr(kPlanAttrName,
                PlanAttr::get(context, strategy, budgetBytes, plan.peak,
                              llvm::APFloat(plan.time), storeAll.peak,
                              llvm::APFloat(storeAll.time), stages, sequence));
  Builder builder(context);
  for (Operation &op : step.getBody().front().without_terminator()) {
    op.removeAttr(kStageAttrName);
    if (!analysis.isForward(&op))
      continue;
    auto it = chain->stageOf.find(&op);
    if (it != chain->stageOf.end())
      op.setAttr(kStageAttrName, builder.getI64IntegerAttr(it->second));
  }
  return success();
}
