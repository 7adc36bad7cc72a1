//===- StepProblem.h - a step as a schedule problem -------------*- C++ -*-===//
//
// The bridge between the IR and the planners of lib/Solver: the top-level
// ops of a block (or any order of them) become a sched::Problem with the
// memory rules of one-shot bufferization, so that the simulator of
// Schedule.h predicts the buffers of the step, and every planner works on
// the step without seeing MLIR.
//
// Memory rules (docs/PLANNING.md, "Memory of a schedule"):
//  - every tensor result is a buffer of its type's bytes, rounded up to the
//    alignment; other results have none;
//  - view-like ops (ckpt.checkpoint, tensor.cast / collapse_shape /
//    expand_shape / bitcast) share their source's buffer (View);
//  - a destination-style op writes in place into its init, and an
//    elementwise op on tensors into its first operand of the result's type,
//    when no later op reads that buffer (InPlace);
//  - values read by the terminator are returned (live to the end); values
//    from outside the order (block arguments, ops not in it) are inputs;
//  - a ckpt.recompute region is flattened (when asked): its ops run in place
//    of it, its block arguments are its inputs, its results views of what it
//    yields: what runs once ckpt-inline-recompute has inlined it.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ANALYSIS_STEPPROBLEM_H
#define CKPT_ANALYSIS_STEPPROBLEM_H

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace ckpt {

/// A problem built from an order of ops, with the way back to the IR.
struct OrderProblem {
  sched::Problem problem;
  /// The IR op of each problem op (inside a flattened region: the inner op;
  /// nullptr for the end of a region, which defines its results).
  std::vector<mlir::Operation *> opOf;
  /// The position in the order of each problem op.
  std::vector<unsigned> positionOf;
  /// The IR value of each problem value.
  std::vector<mlir::Value> valueOf;
  llvm::DenseMap<mlir::Value, int> idOf;
};

/// The problem of `order` (top-level ops of one block, in execution order;
/// the block's other ops are ignored) with buffer sizes rounded up to
/// `alignment`; costs are left at 0. Recompute regions are flattened when
/// `flatten` is set, else each is one op.
OrderProblem buildOrderProblem(llvm::ArrayRef<mlir::Operation *> order,
                               unsigned alignment, bool flatten);

/// The problem of a whole step (every top-level op in block order, regions
/// not flattened) with its costs and the planner's flags: `backward`
/// (StepAnalysis), `constant` (constant-like) and `recomputable`. Fails with
/// an error at the op for dynamic shapes.
mlir::FailureOr<OrderProblem> buildStepProblem(StepOp step,
                                               const StepAnalysis &analysis,
                                               const DeviceProfile &device,
                                               const MeasuredProfile *profile);

} // namespace ckpt

#endif // CKPT_ANALYSIS_STEPPROBLEM_H
