//===- AnnotateCosts.cpp - write ckpt.cost on every op of a step ----------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"

namespace ckpt {
#define GEN_PASS_DEF_ANNOTATECOSTSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct AnnotateCostsPass
    : public ckpt::ListValidOptions<
          ckpt::impl::AnnotateCostsPassBase<AnnotateCostsPass>> {
  using ListValidOptions::ListValidOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    AnnotateCostsPassBase::getDependentDialects(registry);
    registerCostModelExternalModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<CostSetup> costs = setUpCosts(module.getLoc(), device, profile);
    if (mlir::failed(costs))
      return signalPassFailure();

    Builder builder(&getContext());
    bool failed = false;
    auto annotate = [&](Operation *op) {
      if (isa<ReturnOp, YieldOp, CheckpointOp, FreeOp, RecomputeOp>(op))
        return;
      if (!overwrite && op->hasAttr(kCostAttrName))
        return;
      op->removeAttr(kCostAttrName);
      FailureOr<OpCost> cost = getOpCost(op, costs->device, costs->profile());
      if (mlir::failed(cost)) {
        failed = true;
        return;
      }
      op->setAttr(kCostAttrName,
                  CostAttr::get(&getContext(), cost->flops, cost->bytes,
                                llvm::APFloat(cost->time)));
    };
    for (StepOp step : module.getOps<StepOp>()) {
      for (Operation &op : step.getBody().front()) {
        annotate(&op);
        if (auto recompute = dyn_cast<RecomputeOp>(op))
          for (Operation &inner : recompute.getBody().front())
            annotate(&inner);
      }
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
