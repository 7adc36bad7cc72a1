//===- ProfileOps.cpp - time every op of a step at run time ---------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/HostCopies.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace ckpt {
#define GEN_PASS_DEF_PROFILEOPSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

/// The runtime's marks (Runtime.h); ckpt-run reads their totals back.
constexpr llvm::StringLiteral kProfileBegin = "ckptRuntimeProfileBegin";
constexpr llvm::StringLiteral kProfileEnd = "ckptRuntimeProfileEnd";

/// Whether an op of a step computes something worth a time of its own.
bool isTimed(Operation &op) {
  if (op.getNumResults() == 0 || op.hasTrait<OpTrait::ConstantLike>() ||
      isa<tensor::EmptyOp>(op))
    return false;
  // ckpt-rematerialize's fresh buffers (tensor.empty made distinct).
  if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op))
    return alloc.getCopy() != nullptr;
  return !isa<CkptDialect>(op.getDialect());
}

struct ProfileOpsPass : public ckpt::ListValidOptions<
                            ckpt::impl::ProfileOpsPassBase<ProfileOpsPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> timed;
    for (StepOp step : module.getOps<StepOp>())
      for (Operation &op : step.getBody().front()) {
        // A region's ops may not call anything: the marks go in after
        // ckpt-inline-recompute (the lowerings run it first).
        if (isa<RecomputeOp>(op)) {
          op.emitOpError("must be inlined before its ops are timed: run "
                         "ckpt-inline-recompute before ckpt-profile-ops");
          return signalPassFailure();
        }
        if (isTimed(op))
          timed.push_back(&op);
      }
    if (timed.empty())
      return;

    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    Type i64 = top.getI64Type();
    FunctionType mark = top.getFunctionType({i64}, {});
    declareRuntimeFunction(top, module, kProfileBegin, mark);
    declareRuntimeFunction(top, module, kProfileEnd, mark);

    // Keys in the order their ops first come.
    llvm::StringMap<int64_t> ids;
    SmallVector<Attribute> keys;
    for (Operation *op : timed) {
      std::string key = getProfileKey(op);
      auto inserted = ids.try_emplace(key, static_cast<int64_t>(keys.size()));
      if (inserted.second)
        keys.push_back(top.getStringAttr(key));
      int64_t id = inserted.first->second;
      OpBuilder builder(op);
      Value idValue = arith::ConstantIntOp::create(builder, op->getLoc(), id,
                                                   /*width=*/64);
      func::CallOp::create(builder, op->getLoc(), kProfileBegin, TypeRange(),
                           idValue);
      builder.setInsertionPointAfter(op);
      func::CallOp::create(builder, op->getLoc(), kProfileEnd, TypeRange(),
                           idValue);
    }
    module->setAttr(kProfileKeysAttrName, top.getArrayAttr(keys));
  }
};

} // namespace
