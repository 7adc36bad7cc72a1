//===- Plan.cpp - the ckpt-plan pass --------------------------------------===//
//
// A thin wrapper: planStep (lib/Analysis/PlanStep.cpp) plans each step; the
// pass writes the schedule it returns as the step's #ckpt.plan.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/PlanStep.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

namespace ckpt {
#define GEN_PASS_DEF_PLANPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct PlanPass
    : public ckpt::ListValidOptions<ckpt::impl::PlanPassBase<PlanPass>> {
  using ListValidOptions::ListValidOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    PlanPassBase::getDependentDialects(registry);
    registerCostModelExternalModels(registry);
  }

  void runOnOperation() override;
};
} // namespace

void PlanPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkSlots(module.getLoc(), slots)))
    return signalPassFailure();
  if (!(timeLimit > 0)) {
    emitError(module.getLoc(), "time-limit must be a positive number of "
                               "seconds, got ")
        << timeLimit.getValue();
    return signalPassFailure();
  }
  if (nodeLimit < 0) {
    emitError(module.getLoc(), "node-limit must be 0 (none) or a positive "
                               "number of nodes, got ")
        << nodeLimit.getValue();
    return signalPassFailure();
  }
  std::string memoryError;
  std::optional<BudgetSpec> memorySpec = parseBudget(ilpMemory, memoryError);
  if (!memorySpec) {
    emitError(module.getLoc(), "ilp-memory: ") << memoryError;
    return signalPassFailure();
  }
  FailureOr<CostSetup> costs = setUpCosts(module.getLoc(), device, profile);
  if (failed(costs))
    return signalPassFailure();
  StepPlanRequest request;
  request.strategy = strategy.getValue();
  request.slots = slots;
  request.fitModel = fit == FitMode::Model;
  request.ilpTimeLimit = timeLimit;
  request.ilpNodeLimit = nodeLimit;
  request.ilpMemoryLimit = sched::ilpMemoryLimitBytes(*memorySpec);
  request.parallel = getContext().isMultithreadingEnabled();
  request.repeatedBlocks = repeatedBlocks;
  if (offload == OffloadMode::Auto) {
    FailureOr<sched::LinkSpec> link = costLink(module.getLoc(), *costs);
    if (failed(link))
      return signalPassFailure();
    request.offload = true;
    request.link = *link;
  }
  std::string error;
  std::optional<BudgetSpec> spec = parseBudget(budget, error);
  if (module.getOps<StepOp>().empty()) {
    if (!spec) {
      emitError(module.getLoc(), error);
      return signalPassFailure();
    }
    if (allowNoStep)
      return;
    emitError(module.getLoc(),
              "ckpt-plan: no ckpt.step to plan: mark the loss result of the "
              "training function with 'ckpt.loss = <result index>' "
              "(ckpt-wrap-step then makes a step of it), or pass "
              "allow-no-step=true to accept a module without one");
    return signalPassFailure();
  }
  bool failed = false;
  for (StepOp step : module.getOps<StepOp>()) {
    if (!spec) {
      emitError(step.getLoc(), error);
      failed = true;
      continue;
    }
    request.budget = *spec;
    step->removeAttr(kPlanAttrName);
    FailureOr<StepPlan> plan =
        planStep(step, getChildAnalysis<StepAnalysis>(step), *costs, request);
    if (mlir::failed(plan)) {
      failed = true;
      continue;
    }
    const sched::PlanResult &result = plan->result;
    SmallVector<int64_t> schedule(result.schedule.begin(),
                                  result.schedule.end());
    double lowerBound = result.ilp ? result.ilp->lowerBound : 0.0;
    // Transfers: the moved value as (op position, result number).
    SmallVector<int64_t> transfers;
    const OrderProblem &built = plan->problem;
    for (auto [i, t] : llvm::enumerate(plan->transfers)) {
      auto result = cast<OpResult>(built.valueOf[t.value]);
      int producer = built.problem.values[t.value].producer;
      transfers.append({static_cast<int64_t>(built.positionOf[producer]),
                        static_cast<int64_t>(result.getResultNumber()),
                        static_cast<int64_t>(t.after),
                        static_cast<int64_t>(plan->offloadDone[i]),
                        t.reloadAfter == sched::kNoReload
                            ? int64_t(-1)
                            : static_cast<int64_t>(t.reloadAfter)});
    }
    step->setAttr(kPlanAttrName,
                  PlanAttr::get(&getContext(), request.strategy.str(),
                                plan->budget,
                                static_cast<uint64_t>(result.peak),
                                llvm::APFloat(result.time), plan->storeAllPeak,
                                llvm::APFloat(plan->storeAllTime), schedule,
                                llvm::APFloat(lowerBound), device,
                                StringRef(profile), transfers, plan->hostPeak));
  }
  if (failed)
    signalPassFailure();
}
