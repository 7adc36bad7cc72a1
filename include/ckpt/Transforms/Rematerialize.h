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
/// recompute regions (see ckpt-rematerialize), pins its allocations
/// (pinAllocations) and records the plan's budget and the rewritten step's
/// peak as `ckpt.budget`. Leaves the plan in place. Emits an error at the
/// step or op and fails on a malformed plan.
mlir::LogicalResult applyPlan(StepOp step);

/// Replaces every `tensor.empty` of `step` (its regions included) by a
/// `bufferization.alloc_tensor` of the same type at the same place: the
/// same buffer once bufferized, but an allocation, which CSE and
/// canonicalization never merge, move or drop, so the host compiler's
/// cleanups cannot make two of the plan's buffers one.
void pinAllocations(StepOp step);

} // namespace ckpt

#endif // CKPT_TRANSFORMS_REMATERIALIZE_H
