//===- WrapStep.cpp - func.func -> ckpt.step ------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"
#include "ckpt/Transforms/Rematerialize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace ckpt {
#define GEN_PASS_DEF_WRAPSTEPPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct WrapStepPass : public ckpt::ListValidOptions<
                          ckpt::impl::WrapStepPassBase<WrapStepPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override;

private:
  /// Whether the pass options and attributes select `func`.
  bool isSelected(func::FuncOp func) const;
  /// Wraps one function; emits an error at it and fails when it cannot.
  LogicalResult wrap(func::FuncOp func, ModuleOp module);
};
} // namespace

bool WrapStepPass::isSelected(func::FuncOp func) const {
  if (!funcName.empty())
    return func.getSymName() == funcName;
  return func->hasAttr(kLossAttrName) || lossIndex >= 0;
}

LogicalResult WrapStepPass::wrap(func::FuncOp func, ModuleOp module) {
  // Which result is the loss: the option, the attribute, or both agreeing.
  std::optional<int64_t> loss;
  if (Attribute attr = func->getAttr(kLossAttrName)) {
    auto index = dyn_cast<IntegerAttr>(attr);
    if (!index)
      return func.emitError("'")
             << kLossAttrName << "' must be an integer result index, got "
             << attr;
    loss = index.getInt();
  }
  if (lossIndex >= 0) {
    if (loss && *loss != lossIndex)
      return func.emitError("'")
             << kLossAttrName << "' = " << *loss
             << " disagrees with the pass option loss-index="
             << lossIndex.getValue();
    loss = lossIndex;
  }
  if (!loss)
    return func.emitError("cannot wrap '")
           << func.getSymName() << "': no loss given (set '" << kLossAttrName
           << "' on the function or the pass option loss-index)";

  if (func.isExternal())
    return func.emitError("cannot wrap a function declaration: a training "
                          "step needs a body");
  if (!func.getBody().hasOneBlock())
    return func.emitError("cannot wrap a function with ")
           << func.getBody().getBlocks().size()
           << " blocks: a training step has a single block";
  if (*loss < 0 || *loss >= static_cast<int64_t>(func.getNumResults()))
    return func.emitError("loss index ")
           << *loss << " is out of range: the function returns "
           << func.getNumResults() << " values";
  Type lossType = func.getResultTypes()[*loss];
  if (!isScalarLike(lossType))
    return func.emitError("the loss (result #")
           << *loss
           << ") must be a float scalar or a float tensor of one element, got "
           << lossType;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, module)) {
    if (!uses->empty()) {
      InFlightDiagnostic diag =
          func.emitError("cannot wrap '")
          << func.getSymName()
          << "': it is referenced, and a training step cannot be called";
      diag.attachNote(uses->begin()->getUser()->getLoc()) << "referenced here";
      return diag;
    }
  }

  // Build the step with every attribute of the function but the loss marker.
  OpBuilder builder(func);
  auto step = StepOp::create(builder, func.getLoc(), func.getSymName(),
                             func.getFunctionType());
  for (NamedAttribute attr : func->getAttrs())
    if (attr.getName() != kLossAttrName)
      step->setAttr(attr.getName(), attr.getValue());
  step.getBody().takeBody(func.getBody());

  auto funcReturn = cast<func::ReturnOp>(step.getBody().front().back());
  builder.setInsertionPoint(funcReturn);
  auto stepReturn = ReturnOp::create(builder, funcReturn.getLoc(),
                                     funcReturn.getOperands(), *loss);
  for (NamedAttribute attr : funcReturn->getDiscardableAttrs())
    stepReturn->setAttr(attr.getName(), attr.getValue());
  funcReturn.erase();
  func.erase();
  splitSharedEmpties(step);
  return success();
}

void ckpt::splitSharedEmpties(StepOp step) {
  Block &block = step.getBody().front();
  SmallVector<tensor::EmptyOp> shared;
  for (auto empty : block.getOps<tensor::EmptyOp>())
    if (!empty->hasOneUse() && !empty->use_empty())
      shared.push_back(empty);
  for (tensor::EmptyOp empty : shared) {
    // The first user keeps the original; every later one gets its own copy,
    // right before the top-level op that holds it.
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : empty->getUses())
      uses.push_back(&use);
    auto position = [&](OpOperand *use) {
      return block.findAncestorOpInBlock(*use->getOwner());
    };
    llvm::stable_sort(uses, [&](OpOperand *a, OpOperand *b) {
      return position(a)->isBeforeInBlock(position(b));
    });
    for (OpOperand *use : ArrayRef(uses).drop_front()) {
      OpBuilder builder(position(use));
      use->set(builder.clone(*empty)->getResult(0));
    }
  }
}

void WrapStepPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<func::FuncOp> selected;
  for (auto func : module.getOps<func::FuncOp>())
    if (isSelected(func))
      selected.push_back(func);

  if (!funcName.empty() && selected.empty()) {
    emitError(module.getLoc(), "no function named '")
        << funcName << "' to wrap into a training step";
    return signalPassFailure();
  }

  if (selected.empty() && module.getOps<StepOp>().empty()) {
    emitWarning(module.getLoc(), "ckpt-wrap-step: nothing to wrap: no "
                                 "function carries '")
        << kLossAttrName << "' and neither loss-index nor func is given";
    return;
  }

  bool failed = false;
  for (func::FuncOp func : selected) {
    // With only loss-index given, declarations are not steps: leave them.
    if (funcName.empty() && !func->hasAttr(kLossAttrName) && func.isExternal())
      continue;
    if (mlir::failed(wrap(func, module)))
      failed = true;
  }
  if (failed)
    signalPassFailure();
}
