//===- CkptDialect.cpp - ckpt dialect -------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ckpt;

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.cpp.inc"

void CkptDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ckpt/Dialect/Ckpt/IR/CkptOps.cpp.inc"
      >();
  registerAttributes();
  registerTypes();
}

LogicalResult CkptDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kCostAttrName) {
    if (!isa<CostAttr>(attr.getValue()))
      return op->emitError("'")
             << kCostAttrName << "' must be a #ckpt.cost attribute, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kWorkAttrName) {
    if (!isa<WorkAttr>(attr.getValue()))
      return op->emitError("'")
             << kWorkAttrName << "' must be a #ckpt.work attribute, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kPlanAttrName) {
    if (!isa<StepOp>(op))
      return op->emitError("'")
             << kPlanAttrName << "' may only be attached to a ckpt.step";
    if (!isa<PlanAttr>(attr.getValue()))
      return op->emitError("'")
             << kPlanAttrName << "' must be a #ckpt.plan attribute, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kBudgetAttrName) {
    if (!isa<FunctionOpInterface>(op))
      return op->emitError("'")
             << kBudgetAttrName << "' may only be attached to a function";
    std::string error = verifyStepBudget(attr.getValue());
    if (!error.empty())
      return op->emitError("'")
             << kBudgetAttrName << "' " << error << ", got " << attr.getValue();
    return success();
  }
  // `ckpt.signature`: the tensor signature ckpt-prepare-entry records for
  // ckpt-run; it stays on the function through the lowering to llvm.func.
  if (attr.getName() == "ckpt.signature") {
    auto type = dyn_cast<TypeAttr>(attr.getValue());
    if (!type || !isa<FunctionType>(type.getValue()))
      return op->emitError("'ckpt.signature' must be a function type, got ")
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kInputRangesAttrName) {
    auto ranges = dyn_cast<ArrayAttr>(attr.getValue());
    if (!ranges || !llvm::all_of(ranges, [](Attribute a) {
          auto range = dyn_cast<DenseI64ArrayAttr>(a);
          return range &&
                 (range.empty() || (range.size() == 2 && range[0] < range[1]));
        }))
      return op->emitError("'")
             << kInputRangesAttrName
             << "' must be an array of array<i64: LO, HI> (LO < HI) or "
                "array<i64>, one per argument, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == kProfileKeysAttrName) {
    auto keys = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !keys ||
        !llvm::all_of(keys, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitError("'")
             << kProfileKeysAttrName
             << "' must be an array of strings on a module, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() != kLossAttrName)
    return op->emitError("unknown ckpt dialect attribute '")
           << attr.getName().getValue() << "'";
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitError("'")
           << kLossAttrName << "' may only be attached to a function";
  auto index = dyn_cast<IntegerAttr>(attr.getValue());
  if (!index || !index.getType().isSignlessInteger())
    return op->emitError("'")
           << kLossAttrName << "' must be an integer result index, got "
           << attr.getValue();
  int64_t value = index.getInt();
  if (value < 0 || value >= static_cast<int64_t>(func.getNumResults()))
    return op->emitError("'") << kLossAttrName << "' = " << value
                              << " is out of range: the function has "
                              << func.getNumResults() << " results";
  return success();
}

LogicalResult CkptDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  if (attr.getName() != kRangeAttrName)
    return op->emitError("unknown ckpt dialect argument attribute '")
           << attr.getName().getValue() << "' (on argument #" << argIndex
           << ")";
  auto range = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
  if (!range || range.size() != 2 || range[0] >= range[1])
    return op->emitError("'")
           << kRangeAttrName << "' of argument #" << argIndex
           << " must be array<i64: LO, HI> with LO < HI (the valid values "
              "[LO, HI)), got "
           << attr.getValue();
  Region &region = op->getRegion(regionIndex);
  if (region.empty())
    return success();
  Type type = region.getArgument(argIndex).getType();
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (!isa<IntegerType, IndexType>(type))
    return op->emitError("'")
           << kRangeAttrName << "' is for integer arguments, but argument #"
           << argIndex << " is " << region.getArgument(argIndex).getType();
  return success();
}
