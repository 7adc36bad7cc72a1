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

/// The name of the discardable attribute holding an op's `#ckpt.cost`.
inline constexpr llvm::StringLiteral kCostAttrName = "ckpt.cost";

/// The name of the discardable attribute holding an op's `#ckpt.work`.
inline constexpr llvm::StringLiteral kWorkAttrName = "ckpt.work";

/// The name of the discardable attribute holding a step's `#ckpt.plan`.
inline constexpr llvm::StringLiteral kPlanAttrName = "ckpt.plan";

/// True if `type` can hold a loss: a float scalar, or a float tensor with
/// exactly one element.
bool isScalarLike(mlir::Type type);
} // namespace ckpt

#define GET_OP_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTOPS_H
