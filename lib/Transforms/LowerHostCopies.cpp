//===- LowerHostCopies.cpp - host memory buffers, counted apart -----------===//
//
// After bufferization, the buffers of memory space 1 (host memory: the host
// copies ckpt-lower-offloads makes) become buffers of the default space
// whose allocation is bracketed by calls to the runtime's
// ckptRuntimeBeginHostCopy / ckptRuntimeEndHostCopy, so that ckpt-run counts
// them as host memory, apart from the step's own.
//
//===----------------------------------------------------------------------===//

#include "Allocations.h"
#include "ckpt/Transforms/HostCopies.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace ckpt {
#define GEN_PASS_DEF_LOWERHOSTCOPIESPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

bool ckpt::isHostSpace(MemRefType type) {
  auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
  return space && space.getInt() == 1;
}

bool ckpt::isHostCopyAllocation(memref::AllocOp alloc) {
  auto call = dyn_cast_or_null<func::CallOp>(alloc->getPrevNode());
  return call && call.getCallee() == kBeginHostCopy;
}

void ckpt::declareRuntimeFunction(OpBuilder &top, ModuleOp module,
                                  StringRef name, FunctionType type) {
  if (!module.lookupSymbol(name))
    func::FuncOp::create(top, module.getLoc(), name, type).setPrivate();
}

namespace {

struct LowerHostCopiesPass
    : public ckpt::ListValidOptions<
          ckpt::impl::LowerHostCopiesPassBase<LowerHostCopiesPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::AllocOp> allocs;
    module.walk([&](memref::AllocOp alloc) {
      if (isHostSpace(alloc.getType()))
        allocs.push_back(alloc);
    });
    if (allocs.empty())
      return;
    // The runtime's two functions, declared once.
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    auto noArgs = top.getFunctionType({}, {});
    for (StringLiteral name : {kBeginHostCopy, kEndHostCopy})
      declareRuntimeFunction(top, module, name, noArgs);
    for (memref::AllocOp alloc : allocs) {
      if (!alloc.getDynamicSizes().empty() ||
          !alloc.getSymbolOperands().empty()) {
        alloc.emitOpError("host copies of dynamic shape are not supported");
        return signalPassFailure();
      }
      MemRefType host = alloc.getType();
      auto type = MemRefType::get(host.getShape(), host.getElementType(),
                                  host.getLayout());
      OpBuilder builder(alloc);
      func::CallOp::create(builder, alloc.getLoc(), kBeginHostCopy,
                           TypeRange());
      auto copy = memref::AllocOp::create(builder, alloc.getLoc(), type,
                                          alloc.getAlignmentAttr());
      func::CallOp::create(builder, alloc.getLoc(), kEndHostCopy, TypeRange());
      // Its users (the copies into and out of it, its dealloc) read any
      // memory space.
      for (OpOperand &use : llvm::make_early_inc_range(alloc->getUses())) {
        if (!isa<memref::CopyOp, memref::DeallocOp>(use.getOwner())) {
          use.getOwner()->emitOpError(
              "uses a host copy: only memref.copy and memref.dealloc may");
          return signalPassFailure();
        }
        use.set(copy.getResult());
      }
      alloc.erase();
    }
  }
};
} // namespace
