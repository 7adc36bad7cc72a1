//===- UnwrapStep.cpp - ckpt.step -> func.func ----------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace ckpt {
#define GEN_PASS_DEF_UNWRAPSTEPPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct UnwrapStepPass : public ckpt::ListValidOptions<
                            ckpt::impl::UnwrapStepPassBase<UnwrapStepPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    SmallVector<StepOp> steps(getOperation().getOps<StepOp>());
    for (StepOp step : steps)
      unwrap(step);
  }

  static void unwrap(StepOp step) {
    OpBuilder builder(step);
    auto func = func::FuncOp::create(builder, step.getLoc(), step.getSymName(),
                                     step.getFunctionType());
    for (NamedAttribute attr : step->getAttrs())
      func->setAttr(attr.getName(), attr.getValue());
    func->setAttr(kLossAttrName,
                  builder.getI64IntegerAttr(step.getLossIndex()));
    func.getBody().takeBody(step.getBody());

    auto stepReturn = cast<ReturnOp>(func.getBody().front().back());
    builder.setInsertionPoint(stepReturn);
    auto funcReturn = func::ReturnOp::create(builder, stepReturn.getLoc(),
                                             stepReturn.getOperands());
    for (NamedAttribute attr : stepReturn->getDiscardableAttrs())
      funcReturn->setAttr(attr.getName(), attr.getValue());
    stepReturn.erase();
    step.erase();
  }
};
} // namespace
