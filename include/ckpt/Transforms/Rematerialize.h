//===- Rematerialize.h - apply a plan to a step -----------------*- C++ -*-===//
//
// The rewrite behind ckpt-rematerialize, as a function: a host compiler can
// apply a step's plan without a pass manager (and then insertFrees,
// InsertFrees.h).
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

} // namespace ckpt

#endif // CKPT_TRANSFORMS_REMATERIALIZE_H
