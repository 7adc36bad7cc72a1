//===- PrepareEntry.cpp - mark functions as ckpt-run entry points ---------===//
//
// Sets `llvm.emit_c_interface` and `ckpt.signature = <function type>` on the
// public functions of a module, so that after the lowering to the LLVM
// dialect `ckpt-run` can call `_mlir_ciface_<name>` with memref descriptors
// built from the recorded tensor signature.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace ckpt {
#define GEN_PASS_DEF_PREPAREENTRYPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
/// The discardable attribute that records an entry point's tensor signature;
/// ckpt-run reads it from the lowered llvm.func.
constexpr llvm::StringLiteral kSignatureAttrName = "ckpt.signature";

/// Whether `type` is a tensor ckpt-run can build and hash: static shape,
/// element type f32, f64, i32 or i64 (signless).
bool isSupportedTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getEncoding())
    return false;
  Type element = tensor.getElementType();
  return element.isF32() || element.isF64() || element.isSignlessInteger(32) ||
         element.isSignlessInteger(64);
}

struct PrepareEntryPass
    : public ckpt::ListValidOptions<
          ckpt::impl::PrepareEntryPassBase<PrepareEntryPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool found = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!funcName.empty() ? func.getSymName() != funcName
                            : (!func.isPublic() || func.isExternal()))
        continue;
      found = true;
      if (failed(prepare(func)))
        return signalPassFailure();
    }
    if (!funcName.empty() && !found) {
      emitError(module.getLoc(), "ckpt-prepare-entry: no function named '")
          << funcName.getValue() << "'";
      return signalPassFailure();
    }
    // Functions that are not entries (a private step, say) keep no loss
    // index either: convert-func-to-llvm packs several results into one
    // struct, on which `ckpt.loss` >= 1 would no longer verify.
    for (auto func : module.getOps<func::FuncOp>())
      func->removeAttr(kLossAttrName);
  }

  static LogicalResult prepare(func::FuncOp func) {
    if (func.isExternal())
      return func.emitError("ckpt-prepare-entry: '")
             << func.getSymName() << "' has no body";
    FunctionType type = func.getFunctionType();
    auto check = [&](TypeRange types, StringRef kind) -> LogicalResult {
      for (auto [i, t] : llvm::enumerate(types))
        if (!isSupportedTensor(t))
          return func.emitError("ckpt-run supports static tensors of f32, "
                                "f64, i32 and i64, got ")
                 << t << " (" << kind << " #" << i << " of '"
                 << func.getSymName() << "')";
      return success();
    };
    if (failed(check(type.getInputs(), "argument")) ||
        failed(check(type.getResults(), "result")))
      return failure();
    Builder builder(func.getContext());
    // convert-func-to-llvm copies every discardable attribute onto the void
    // `_mlir_ciface_` wrapper too, where `ckpt.loss` (a result index) would
    // no longer verify; the loss index has no use past this point.
    func->removeAttr(kLossAttrName);
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  builder.getUnitAttr());
    func->setAttr(kSignatureAttrName, TypeAttr::get(type));
    // The arguments' valid ranges move onto the function: argument
    // attributes do not survive the lowering to the LLVM dialect.
    SmallVector<Attribute> ranges;
    bool anyRange = false;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto range = func.getArgAttrOfType<DenseI64ArrayAttr>(i, kRangeAttrName);
      anyRange |= static_cast<bool>(range);
      ranges.push_back(range ? range : builder.getDenseI64ArrayAttr({}));
      func.removeArgAttr(i, kRangeAttrName);
    }
    if (anyRange)
      func->setAttr(kInputRangesAttrName, builder.getArrayAttr(ranges));
    return success();
  }
};
} // namespace
