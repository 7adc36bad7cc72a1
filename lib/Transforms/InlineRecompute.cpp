//===- InlineRecompute.cpp - inline recompute regions ---------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace ckpt {
#define GEN_PASS_DEF_INLINERECOMPUTEPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct InlineRecomputePass
    : public ckpt::ListValidOptions<
          ckpt::impl::InlineRecomputePassBase<InlineRecomputePass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<RecomputeOp> recomputes;
    getOperation()->walk([&](RecomputeOp op) { recomputes.push_back(op); });
    // Innermost first is not needed: regions hold no recompute ops of their
    // own in what ckpt-rematerialize makes, but the walk order handles it.
    for (RecomputeOp op : recomputes) {
      Block &body = op.getBody().front();
      YieldOp yield = op.getYieldOp();
      SmallVector<Value> results(yield.getOperands());
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(&body, op, op.getInputs());
      rewriter.replaceOp(op, results);
    }
    SmallVector<CheckpointOp> checkpoints;
    getOperation()->walk([&](CheckpointOp op) { checkpoints.push_back(op); });
    for (CheckpointOp op : checkpoints)
      rewriter.replaceOp(op, op.getInput());
  }
};
} // namespace
