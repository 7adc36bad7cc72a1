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

/// Gives every use of a `tensor.empty` of `step`'s block but the first a
/// `tensor.empty` of its own, right before the top-level op that holds it
/// (ckpt-wrap-step runs it). Exporters such as torch-mlir share one
/// `tensor.empty` among many destinations after their CSE; one-shot
/// bufferization allocates a buffer per destination anyway, and the plan's
/// memory model must see each of them.
void splitSharedEmpties(StepOp step);

} // namespace ckpt

#endif // CKPT_TRANSFORMS_REMATERIALIZE_H
