//===- InsertFrees.h - free every buffer after its last use -----*- C++ -*-===//
//
// The rewrite behind ckpt-insert-frees, as a function: a host compiler can
// free a step's buffers without a pass manager.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_INSERTFREES_H
#define CKPT_TRANSFORMS_INSERTFREES_H

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

namespace ckpt {

/// Inserts a ckpt.free after the last use of every buffer of `step` and of
/// its recompute regions (see ckpt-insert-frees).
void insertFrees(StepOp step);

/// Checks a step that carries `ckpt.budget` (a rematerialized one) against
/// it: its simulated peak, frees included, must be within the budget.
/// Otherwise emits an error at the op where it peaks, naming what a pass
/// after ckpt-rematerialize did (made buffers live longer), and fails.
/// Succeeds on a step without a budget.
mlir::LogicalResult checkStepBudget(StepOp step);

} // namespace ckpt

#endif // CKPT_TRANSFORMS_INSERTFREES_H
