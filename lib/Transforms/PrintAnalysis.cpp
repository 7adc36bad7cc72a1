//===- PrintAnalysis.cpp - report what the planner sees as remarks --------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

namespace ckpt {
#define GEN_PASS_DEF_PRINTANALYSISPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct PrintAnalysisPass
    : public ckpt::ListValidOptions<
          ckpt::impl::PrintAnalysisPassBase<PrintAnalysisPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    for (StepOp step : getOperation().getOps<StepOp>())
      report(step, getChildAnalysis<StepAnalysis>(step));
    markAllAnalysesPreserved();
  }

  static void report(StepOp step, const StepAnalysis &analysis) {
    SmallVector<Operation *> order;
    for (Operation &op : step.getBody().front().without_terminator())
      order.push_back(&op);
    MemoryTimeline timeline = simulateMemory(order, kBufferAlignment);

    uint64_t activationBytes = 0;
    for (Value value : analysis.getActivations())
      activationBytes += getTypeBytes(value.getType()).value_or(0);

    for (auto [pos, op] : llvm::enumerate(order)) {
      bool forward = analysis.isForward(op);
      uint64_t allocated = 0;
      for (const Buffer &buffer : timeline.buffers)
        if (buffer.def == pos)
          allocated += buffer.bytes;
      InFlightDiagnostic remark = mlir::emitRemark(op->getLoc())
                                  << "#" << pos << " "
                                  << (forward ? "forward" : "backward");
      if (llvm::any_of(op->getResults(),
                       [&](Value v) { return analysis.isActivation(v); }))
        remark << ", activation";
      if (forward && !StepAnalysis::isRecomputable(op))
        remark << ", not recomputable";
      remark << ", allocates " << allocated << " B, live "
             << timeline.liveDuring[pos] << " B";
    }
    mlir::emitRemark(step.getLoc())
        << "forward ops: " << analysis.getForwardOps().size()
        << ", backward ops: " << analysis.getBackwardOps().size()
        << ", activations: " << analysis.getActivations().size() << " ("
        << activationBytes << " B), peak " << timeline.peak << " B at #"
        << timeline.peakPosition;
  }
};
} // namespace
