//===- CkptOps.h - ckpt dialect operations ----------------------*- C++ -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTOPS_H
#define CKPT_DIALECT_CKPT_IR_CKPTOPS_H

#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Dialect/Ckpt/IR/CkptTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace ckpt {
class ReturnOp;
class YieldOp;

/// The name of the discardable attribute that marks which result of a
/// `func.func` is the loss (read by `ckpt-wrap-step`, written by
/// `ckpt-unwrap-step`).
inline constexpr llvm::StringLiteral kLossAttrName = "ckpt.loss";
/// `ckpt.range = array<i64: LO, HI>` on a function argument of integer
/// elements: its valid values are [LO, HI) (token ids [0, vocab), class
/// targets [0, classes)); ckpt-run draws its inputs there.
inline constexpr llvm::StringLiteral kRangeAttrName = "ckpt.range";
/// The ranges of an entry's arguments, one `array<i64: LO, HI>` (or
/// `array<i64>` for none) per argument, as ckpt-prepare-entry records them
/// for ckpt-run on the function (arguments' own attributes do not survive
/// the lowering to the LLVM dialect).
inline constexpr llvm::StringLiteral kInputRangesAttrName = "ckpt.input_ranges";

/// On a module: the keys (ckpt::getProfileKey) of the ops ckpt-profile-ops
/// timed, an array of strings indexed by the id of their marks.
inline constexpr llvm::StringLiteral kProfileKeysAttrName = "ckpt.profile_keys";

/// The name of the discardable attribute holding an op's `#ckpt.cost`.
inline constexpr llvm::StringLiteral kCostAttrName = "ckpt.cost";

/// The name of the discardable attribute holding an op's `#ckpt.work`.
inline constexpr llvm::StringLiteral kWorkAttrName = "ckpt.work";

/// The name of the discardable attribute holding a step's `#ckpt.plan`.
inline constexpr llvm::StringLiteral kPlanAttrName = "ckpt.plan";

/// The name of the discardable attribute holding the budget a
/// rematerialized step (or the function made of it) was rewritten for:
/// `ckpt.budget = {bytes = B : i64, peak = P : i64}`, builtin attributes so
/// that it survives the lowering to the LLVM dialect and any tool parses it.
inline constexpr llvm::StringLiteral kBudgetAttrName = "ckpt.budget";

/// A step's `ckpt.budget`: the budget and the peak the rewritten step was
/// simulated at (bytes).
struct StepBudget {
  uint64_t bytes = 0;
  uint64_t peak = 0;
};

/// The `ckpt.budget` of `op` (a function), if it has a valid one.
std::optional<StepBudget> getStepBudget(mlir::Operation *op);

/// Sets the `ckpt.budget` of `op` (a function).
void setStepBudget(mlir::Operation *op, StepBudget budget);

/// Checks a `ckpt.budget` value: a dictionary of exactly `bytes` and `peak`,
/// non-negative integers, peak <= bytes. Empty on success, else the error.
std::string verifyStepBudget(mlir::Attribute value);

/// True if `type` can hold a loss: a float scalar, or a float tensor with
/// exactly one element.
bool isScalarLike(mlir::Type type);

/// True if `op` is a `bufferization.alloc_tensor` with neither `copy` nor
/// `memory_space`: an uninitialized buffer of the default memory space, the
/// allocation point ckpt-rematerialize writes for each `tensor.empty` so that
/// a host compiler's CSE cannot merge two buffers into one. Running it again
/// gives a buffer of the same (undefined) contents, so a recompute region may
/// hold it.
bool isFreshAllocation(mlir::Operation *op);
} // namespace ckpt

#define GET_OP_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTOPS_H
