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
  // Every option was checked when the options were parsed (PassOptions.h).
  ModuleOp module = getOperation();
  FailureOr<CostSetup> costs = setUpCosts(module.getLoc(), device, profile);
  if (failed(costs))
    return signalPassFailure();
  // The planner's request, from the options to sched::PlanOptions in one
  // step; planStep adds what depends on the step.
  StepPlanRequest request;
  request.budget = budget;
  sched::PlanOptions &plan = request.plan;
  plan.strategy = strategy.getValue();
  plan.slots = slots;
  plan.fitModel = fit == FitMode::Model;
  plan.ilpTimeLimit = timeLimit;
  plan.ilpNodeLimit = nodeLimit;
  plan.ilpMemoryLimit = sched::ilpMemoryLimitBytes(ilpMemory.spec);
  plan.parallel = getContext().isMultithreadingEnabled();
  if (plan.parallel) // the planner's second thread is one of MLIR's
    plan.threads = &getContext().getThreadPool();
  plan.repeatedBlocks = repeatedBlocks;
  if (offload == OffloadMode::Auto) {
    FailureOr<sched::LinkSpec> link = costLink(module.getLoc(), *costs);
    if (failed(link))
      return signalPassFailure();
    plan.offload = *link;
  }
  if (module.getOps<StepOp>().empty()) {
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
    step->removeAttr(kPlanAttrName);
    FailureOr<StepPlan> planned =
        planStep(step, getChildAnalysis<StepAnalysis>(step), *costs, request);
    if (mlir::failed(planned)) {
      failed = true;
      continue;
    }
    const sched::PlanResult &result = planned->result;
    SmallVector<int64_t> schedule(result.schedule.begin(),
                                  result.schedule.end());
    // The ILP's bound is on recomputation alone, or on the paging
    // program's synchronous stages: no bound on a plan that copies.
    double lowerBound =
        result.ilp && planned->transfers.empty() ? result.ilp->lowerBound : 0.0;
    // Transfers: the moved value as (op position, result number).
    SmallVector<int64_t> transfers;
    const OrderProblem &built = planned->problem;
    for (auto [i, t] : llvm::enumerate(planned->transfers)) {
      auto result = cast<OpResult>(built.valueOf[t.value]);
      int producer = built.problem.values[t.value].producer;
      transfers.append({static_cast<int64_t>(built.positionOf[producer]),
                        static_cast<int64_t>(result.getResultNumber()),
                        static_cast<int64_t>(t.after),
                        static_cast<int64_t>(planned->offloadDone[i]),
                        t.reloadAfter == sched::kNoReload
                            ? int64_t(-1)
                            : static_cast<int64_t>(t.reloadAfter)});
    }
    step->setAttr(
        kPlanAttrName,
        PlanAttr::get(&getContext(), plan.strategy.str(), planned->budget,
                      static_cast<uint64_t>(result.peak),
                      llvm::APFloat(result.time), planned->storeAllPeak,
                      llvm::APFloat(planned->storeAllTime), schedule,
                      llvm::APFloat(lowerBound), device, StringRef(profile),
                      transfers, planned->hostPeak));
  }
  if (failed)
    signalPassFailure();
}
