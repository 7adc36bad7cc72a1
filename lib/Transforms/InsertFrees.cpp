//===- InsertFrees.cpp - free every buffer after its last use -------------===//

#include "ckpt/Transforms/InsertFrees.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace ckpt {
#define GEN_PASS_DEF_INSERTFREESPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

/// Inserts frees in `block` (whose last op is its terminator).
void insertBlockFrees(Block &block) {
  SmallVector<Operation *> order;
  for (Operation &op : block.without_terminator())
    order.push_back(&op);
  if (order.empty())
    return;
  MemoryTimeline timeline = simulateMemory(order);
  unsigned end = order.size();
  // Buffers the block already frees (through any of their values).
  llvm::DenseSet<Value> freed;
  for (Operation *op : order)
    if (auto free = dyn_cast<FreeOp>(op))
      freed.insert(free.getValue());

  // Buffers that die at each position, freed right after that op.
  for (const Buffer &buffer : timeline.buffers) {
    if (buffer.lastUse >= end)
      continue; // returned or yielded
    // Free through the alias of this block defined last: every use of the
    // buffer is at or before lastUse, so no use of that value follows the
    // free. Buffers only a recompute region's ops hold are freed in there.
    Value value;
    for (Value alias : buffer.values)
      if (alias.getParentBlock() == &block)
        value = alias;
    if (!value)
      continue;
    Operation *last = order[buffer.lastUse];
    if (llvm::any_of(buffer.values,
                     [&](Value alias) { return freed.contains(alias); }))
      continue; // the block already frees it
    OpBuilder builder(last->getContext());
    builder.setInsertionPointAfter(last);
    FreeOp::create(builder, last->getLoc(), value);
  }
}

struct InsertFreesPass : public ckpt::ListValidOptions<
                             ckpt::impl::InsertFreesPassBase<InsertFreesPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    bool failed = false;
    for (StepOp step : getOperation().getOps<StepOp>()) {
      insertFrees(step);
      failed |= mlir::failed(checkStepBudget(step));
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace

LogicalResult ckpt::checkStepBudget(StepOp step) {
  std::optional<StepBudget> budget = getStepBudget(step);
  if (!budget)
    return success();
  Block &block = step.getBody().front();
  MemoryTimeline timeline = simulateBlock(block, kBufferAlignment);
  if (timeline.peak <= budget->bytes)
    return success();
  SmallVector<Operation *> order;
  for (Operation &op : block.without_terminator())
    order.push_back(&op);
  Operation *at = timeline.peakPosition < order.size()
                      ? order[timeline.peakPosition]
                      : step.getReturnOp().getOperation();
  InFlightDiagnostic diag =
      at->emitError("the step now peaks at ")
      << timeline.peak << " B here, over the budget of " << budget->bytes
      << " B it was rematerialized for (it peaked at " << budget->peak
      << " B then): a pass run after ckpt-rematerialize made buffers live "
         "longer (CSE merging values computed twice, fusion reading a "
         "producer's inputs later, a fold that drops a copy); run such "
         "passes before ckpt-plan";
  diag.attachNote(step.getLoc()) << "the step is here";
  return diag;
}

void ckpt::insertFrees(StepOp step) {
  step.walk([](RecomputeOp recompute) {
    insertBlockFrees(recompute.getBody().front());
  });
  insertBlockFrees(step.getBody().front());
}
