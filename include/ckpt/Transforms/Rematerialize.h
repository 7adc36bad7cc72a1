//===- Rematerialize.h - apply a plan to a step -----------------*- C++ -*-===//
//
// The rewrites behind ckpt-rematerialize and ckpt-insert-frees, as functions,
// so that ckpt-plan can dry-run them on a copy of a step and predict the
// peak of the program it will become.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_REMATERIALIZE_H
#define CKPT_TRANSFORMS_REMATERIALIZE_H

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

namespace ckpt {

/// Reorders `step` to follow its `ckpt.plan` sequence and inserts the
/// recompute regions (see ckpt-rematerialize). Leaves the plan and the stage
/// indices in place. Emits an error at the step or op and fails on a
/// malformed plan.
mlir::LogicalResult applyPlan(StepOp step);

/// Inserts a ckpt.free after the last use of every buffer of `step` and of
/// its recompute regions (see ckpt-insert-frees).
void insertFrees(StepOp step);

} // namespace ckpt

#endif // CKPT_TRANSFORMS_REMATERIALIZE_H
