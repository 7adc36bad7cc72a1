//===- GPUManagedMemory.cpp - ckpt-gpu-managed-memory
//-----------------------===//
//
// The NVPTX lowering's pass that puts the step's buffers where the kernels
// can reach them (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "Toolkit.h"

#include "ckpt/Pipelines/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Transforms/HostCopies.h"
#include "ckpt/Transforms/ListValidOptions.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace ckpt {
#define GEN_PASS_DEF_GPUMANAGEDMEMORYPASS
#include "ckpt/Pipelines/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;
using namespace ckpt::detail;

namespace {

/// ckpt-gpu-managed-memory (Passes.td).
struct GPUManagedMemoryPass
    : public ckpt::ListValidOptions<
          ckpt::impl::GPUManagedMemoryPassBase<GPUManagedMemoryPass>> {
  using ListValidOptions::ListValidOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    GPUManagedMemoryPassBase::getDependentDialects(registry);
    registry.insert<gpu::GPUDialect, memref::MemRefDialect>();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;

    WalkResult globals = func.walk([](memref::GetGlobalOp op) {
      op.emitError() << kPipelineName
                     << ": constant buffers (memref.get_global) live in host "
                        "memory the kernels cannot read; not supported";
      return WalkResult::interrupt();
    });
    if (globals.wasInterrupted())
      return signalPassFailure();

    // Host memory left in memory space 1: ckpt-lower-host-copies has not run.
    WalkResult host = func.walk([](memref::AllocOp op) {
      auto space = dyn_cast_or_null<IntegerAttr>(op.getType().getMemorySpace());
      if (!space || space.getInt() != 1)
        return WalkResult::advance();
      op.emitError() << kPipelineName
                     << ": a buffer in host memory (memory space 1): run "
                        "ckpt-lower-host-copies first";
      return WalkResult::interrupt();
    });
    if (host.wasInterrupted())
      return signalPassFailure();

    // Host copies of offloaded values (HostCopies.h) stay in host memory,
    // allocated and freed by the host; the copies into and out of them run
    // on the copy stream (ckpt-async-host-copies) or as host memcpys, after
    // the synchronous kernel launches that wrote their sources.
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (!isHostCopyAllocation(alloc))
          allocs.push_back(alloc);
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
        if (!alloc || !isHostCopyAllocation(alloc))
          deallocs.push_back(dealloc);
      }
    });

    OpBuilder builder(&getContext());
    for (memref::AllocOp alloc : allocs) {
      builder.setInsertionPoint(alloc);
      auto managed = gpu::AllocOp::create(
          builder, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/true);
      alloc.getResult().replaceAllUsesWith(managed.getMemref());
      alloc.erase();
    }

    Type tokenType = gpu::AsyncTokenType::get(&getContext());
    for (memref::DeallocOp dealloc : deallocs) {
      builder.setInsertionPoint(dealloc);
      Location loc = dealloc.getLoc();
      auto start = gpu::WaitOp::create(builder, loc, tokenType, ValueRange());
      auto free = gpu::DeallocOp::create(builder, loc, tokenType,
                                         ValueRange{start.getAsyncToken()},
                                         dealloc.getMemref());
      gpu::WaitOp::create(builder, loc, Type(),
                          ValueRange{free.getAsyncToken()});
      dealloc.erase();
    }

    if (!hostRegister)
      return;
    SmallVector<Value> registered;
    Block &entry = func.getBody().front();
    builder.setInsertionPointToStart(&entry);
    for (BlockArgument arg : entry.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type)
        continue;
      auto unranked =
          UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace());
      Value cast = memref::CastOp::create(builder, arg.getLoc(), unranked, arg);
      gpu::HostRegisterOp::create(builder, arg.getLoc(), cast);
      registered.push_back(cast);
    }
    if (registered.empty())
      return;
    func.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      for (Value cast : registered)
        gpu::HostUnregisterOp::create(builder, ret.getLoc(), cast);
    });
  }
};

} // namespace
