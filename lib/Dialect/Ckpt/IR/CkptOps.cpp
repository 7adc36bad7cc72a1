//===- CkptOps.cpp - ckpt dialect operations ------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace ckpt;

bool ckpt::isFreshAllocation(Operation *op) {
  auto alloc = dyn_cast<bufferization::AllocTensorOp>(op);
  return alloc && !alloc.getCopy() && !alloc.getMemorySpace();
}

std::string ckpt::verifyStepBudget(Attribute value) {
  auto dict = dyn_cast<DictionaryAttr>(value);
  auto field = [&](StringRef name) -> IntegerAttr {
    return dict ? dict.getAs<IntegerAttr>(name) : IntegerAttr();
  };
  IntegerAttr bytes = field("bytes"), peak = field("peak");
  if (!dict || dict.size() != 2 || !bytes || !peak)
    return "must be {bytes = B : i64, peak = P : i64}";
  if (bytes.getValue().isNegative() || peak.getValue().isNegative())
    return "must hold a non-negative bytes and peak";
  if (peak.getValue().sgt(bytes.getValue()))
    return ("has a planned peak (" + llvm::Twine(peak.getInt()) +
            " B) over the budget (" + llvm::Twine(bytes.getInt()) + " B)")
        .str();
  return "";
}

std::optional<StepBudget> ckpt::getStepBudget(Operation *op) {
  Attribute value = op->getAttr(kBudgetAttrName);
  if (!value || !verifyStepBudget(value).empty())
    return std::nullopt;
  auto dict = cast<DictionaryAttr>(value);
  return StepBudget{
      static_cast<uint64_t>(dict.getAs<IntegerAttr>("bytes").getInt()),
      static_cast<uint64_t>(dict.getAs<IntegerAttr>("peak").getInt())};
}

void ckpt::setStepBudget(Operation *op, StepBudget budget) {
  Builder builder(op->getContext());
  op->setAttr(
      kBudgetAttrName,
      builder.getDictionaryAttr(
          {builder.getNamedAttr(
               "bytes",
               builder.getI64IntegerAttr(static_cast<int64_t>(budget.bytes))),
           builder.getNamedAttr(
               "peak",
               builder.getI64IntegerAttr(static_cast<int64_t>(budget.peak)))}));
}

bool ckpt::isScalarLike(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 1 &&
         isa<FloatType>(tensor.getElementType());
}

//===----------------------------------------------------------------------===//
// StepOp
//===----------------------------------------------------------------------===//

void StepOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult StepOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void StepOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult StepOp::verify() {
  if (getBody().empty())
    return emitOpError("expects a body: a training step cannot be a "
                       "declaration");
  if (!getBody().hasOneBlock())
    return emitOpError("expects a body of exactly one block, found ")
           << getBody().getBlocks().size();
  if (getFunctionType().getNumResults() == 0)
    return emitOpError("expects at least one result: the loss");
  return success();
}

LogicalResult StepOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.empty() || !isa<ReturnOp>(block.back()))
    return emitOpError("expects its block to end with 'ckpt.return'");
  return success();
}

ReturnOp StepOp::getReturnOp() {
  if (getBody().empty() || getBody().front().empty())
    return nullptr;
  return dyn_cast<ReturnOp>(getBody().front().back());
}

unsigned StepOp::getLossIndex() {
  return static_cast<unsigned>(getReturnOp().getLoss());
}

Value StepOp::getLoss() { return getReturnOp().getOperand(getLossIndex()); }

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto step = cast<StepOp>((*this)->getParentOp());
  ArrayRef<Type> resultTypes = step.getResultTypes();
  if (getNumOperands() != resultTypes.size())
    return emitOpError("returns ")
           << getNumOperands() << " values, but the enclosing step has "
           << resultTypes.size() << " results";
  for (auto [index, operandType, resultType] :
       llvm::enumerate(getOperandTypes(), resultTypes)) {
    if (operandType != resultType)
      return emitOpError("type of operand #")
             << index << " (" << operandType
             << ") does not match the step's result type (" << resultType
             << ")";
  }
  uint64_t loss = getLoss();
  if (loss >= getNumOperands())
    return emitOpError("loss index ")
           << loss << " is out of range: the step returns " << getNumOperands()
           << " values";
  Type lossType = getOperand(loss).getType();
  if (!isScalarLike(lossType))
    return emitOpError("the loss (operand #")
           << loss
           << ") must be a float scalar or a float tensor of one element, got "
           << lossType;
  return success();
}

//===----------------------------------------------------------------------===//
// RecomputeOp
//===----------------------------------------------------------------------===//

YieldOp RecomputeOp::getYieldOp() {
  Block &block = getBody().front();
  if (block.empty())
    return nullptr;
  return dyn_cast<YieldOp>(block.back());
}

LogicalResult RecomputeOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("region has ")
           << block.getNumArguments() << " arguments, but the op has "
           << getInputs().size() << " inputs";
  for (auto [index, arg, input] :
       llvm::enumerate(block.getArguments(), getInputs())) {
    if (arg.getType() != input.getType())
      return emitOpError("region argument #")
             << index << " has type " << arg.getType() << ", but input #"
             << index << " has type " << input.getType();
  }

  YieldOp yield = getYieldOp();
  if (!yield)
    return emitOpError("expects its region to end with 'ckpt.yield'");
  if (yield.getNumOperands() != getNumResults())
    return emitOpError("region yields ")
           << yield.getNumOperands() << " values, but the op has "
           << getNumResults() << " results";
  for (auto [index, yielded, result] :
       llvm::enumerate(yield.getOperandTypes(), getResultTypes())) {
    if (yielded != result)
      return emitOpError("yielded value #")
             << index << " has type " << yielded << ", but result #" << index
             << " has type " << result;
  }

  // Recomputation must give the same values however often it runs. Frees
  // of the region's own temporaries change no value, nor do the fresh
  // allocations ckpt-rematerialize pins its buffers with.
  for (Operation &op : block.without_terminator()) {
    if (!isa<FreeOp>(op) && !isMemoryEffectFree(&op) &&
        !isFreshAllocation(&op)) {
      InFlightDiagnostic diag =
          emitOpError(
              "may only hold side-effect-free ops, but the region holds '")
          << op.getName() << "'";
      diag.attachNote(op.getLoc()) << "op with side effects is here";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FreeOp
//===----------------------------------------------------------------------===//

LogicalResult FreeOp::verify() {
  Value value = getValue();
  // After bufferization a free marks a buffer whose aliases may still be
  // read: ckpt-lower-frees deallocates it after the last of them, and drops
  // frees of buffers it does not own.
  if (isa<BaseMemRefType>(value.getType()))
    return success();
  if (isa<BlockArgument>(value))
    return emitOpError("cannot free a block argument: only values computed "
                       "in this block can be freed (step inputs belong to the "
                       "caller)");
  Block *block = (*this)->getBlock();
  if (value.getDefiningOp()->getBlock() != block)
    return emitOpError("frees a value defined in another block");
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user == getOperation())
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && getOperation()->isBeforeInBlock(ancestor)) {
      InFlightDiagnostic diag =
          emitOpError("frees a value that is used after it is freed");
      diag.attachNote(user->getLoc()) << "later use is here";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Offloading
//===----------------------------------------------------------------------===//

LogicalResult ReloadOp::verify() {
  auto offload = getHost().getDefiningOp<OffloadOp>();
  if (!offload || offload.getDone() != getOffloaded())
    return emitOpError("must reload after the event of the ckpt.offload that "
                       "made its host copy");
  // Every use of the reloaded tensor comes after a wait on its event, in
  // this block (uses in nested regions by their ancestor here).
  Block *block = (*this)->getBlock();
  for (OpOperand &use : getValue().getUses()) {
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    bool waited = false;
    if (user)
      for (Operation *op = user->getPrevNode(); op && op != getOperation();
           op = op->getPrevNode()) {
        auto wait = dyn_cast<WaitOp>(op);
        if (wait && llvm::is_contained(wait.getEvents(), getDone())) {
          waited = true;
          break;
        }
      }
    if (!waited) {
      InFlightDiagnostic diag = emitOpError(
          "result is used before a ckpt.wait on its event in this block");
      diag.attachNote(use.getOwner()->getLoc()) << "use is here";
      return diag;
    }
  }
  return success();
}

LogicalResult WaitOp::verify() {
  if (getEvents().empty())
    return emitOpError("needs at least one event");
  return success();
}

//===----------------------------------------------------------------------===//
// OpaqueOp
//===----------------------------------------------------------------------===//

LogicalResult OpaqueOp::verify() {
  if (getName().empty())
    return emitOpError("expects a non-empty name: the operation it stands for");
  // Pure and without results it would compute nothing: an operation that
  // only has side effects (an in-place update, I/O) is not what it models.
  if (getNumResults() == 0)
    return emitOpError("expects at least one result: it stands for a pure "
                       "operation, which computes nothing without results");
  for (auto [kind, types] :
       {std::pair<StringRef, TypeRange>{"operand", getInputs().getTypes()},
        std::pair<StringRef, TypeRange>{"result", getResultTypes()}}) {
    for (auto [index, type] : llvm::enumerate(types)) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape())
        return emitOpError()
               << kind << " #" << index
               << " must be a ranked tensor with a static shape, got " << type;
    }
  }
  return success();
}

#define GET_OP_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptOps.cpp.inc"
