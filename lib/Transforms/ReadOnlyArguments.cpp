//===- ReadOnlyArguments.cpp - arguments are never written ----------------===//

#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"

namespace ckpt {
#define GEN_PASS_DEF_READONLYARGUMENTSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;

namespace {
struct ReadOnlyArgumentsPass
    : public ckpt::ListValidOptions<
          ckpt::impl::ReadOnlyArgumentsPassBase<ReadOnlyArgumentsPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // A declaration has no body to bufferize, and one-shot bufferization
    // rejects `bufferization.writable` on it: leave it as it is.
    if (func.isExternal())
      return;
    BoolAttr no = BoolAttr::get(&getContext(), false);
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isa<TensorType>(type))
        func.setArgAttr(
            index, bufferization::BufferizationDialect::kWritableAttrName, no);
  }
};
} // namespace
