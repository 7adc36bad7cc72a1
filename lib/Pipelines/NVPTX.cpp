//===- NVPTX.cpp - ckpt-lower-to-nvptx ------------------------------------===//
//
// A (rematerialized) training step to host LLVM IR plus an embedded NVPTX
// binary. The front half is that of ckpt-lower-to-cpu (buildBufferizeStep-
// Pipeline: inline recompute regions, unwrap, bufferize, free buffers); then
// buffers move to managed memory, linalg becomes parallel loops mapped to
// blocks and threads, kernels are outlined and compiled for the NVVM target,
// and the host goes to the LLVM dialect with `mgpu*` runtime calls (defined
// by lib/Runtime/CudaRuntime.cpp). docs/ARCHITECTURE.md, "GPU path", gives
// the memory scheme and its limits.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace ckpt;

namespace {

constexpr StringLiteral kPipelineName = "ckpt-lower-to-nvptx";

/// Moves a bufferized host function's buffers to memory both the host and
/// the kernels can reach: `memref.alloc` -> `gpu.alloc host_shared` (managed
/// memory), `memref.dealloc` -> `gpu.dealloc` (async on a fresh stream,
/// waited for at once, as gpu-to-llvm requires), and, with `hostRegister`,
/// `gpu.host_register` of every memref argument at entry and
/// `gpu.host_unregister` before every return. Constant buffers
/// (`memref.get_global`) live in host memory the kernels cannot read: they
/// are rejected. Not registered as a pass of its own: it exists for this
/// pipeline, whose GPU dialects and LLVM IR translations it also declares,
/// so that the pipeline works in a tool that registered only the dialects.
class ManagedMemoryPass
    : public PassWrapper<ManagedMemoryPass, OperationPass<func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ManagedMemoryPass)

  explicit ManagedMemoryPass(bool hostRegister) : hostRegister(hostRegister) {}

  StringRef getArgument() const override { return "ckpt-gpu-managed-memory"; }
  StringRef getDescription() const override {
    return "Buffers of a bufferized step in managed memory, arguments "
           "host-registered (part of ckpt-lower-to-nvptx)";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect, memref::MemRefDialect, LLVM::LLVMDialect,
                    NVVM::NVVMDialect>();
    // gpu-module-to-binary translates the kernels to LLVM IR and attaches
    // the NVVM target: the interfaces it needs, whatever the tool loaded.
    registerBuiltinDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
    gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
    NVVM::registerNVVMTargetInterfaceExternalModels(registry);
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

    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
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
      auto unranked = UnrankedMemRefType::get(type.getElementType(),
                                              type.getMemorySpace());
      Value cast =
          memref::CastOp::create(builder, arg.getLoc(), unranked, arg);
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

private:
  bool hostRegister;
};

/// The CUDA toolkit for ptxas, fatbinary and libdevice: `toolkit` when
/// given; else MLIR's own search (CUDA_ROOT, CUDA_HOME, CUDA_PATH) when one
/// of those is set; else /usr/local/cuda when it exists. Without libdevice,
/// math functions (tanh, exp, ...) stay unresolved `__nv_*` calls in the PTX,
/// which ptxas rejects.
std::string toolkitPath(StringRef toolkit) {
  if (!toolkit.empty())
    return toolkit.str();
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (std::getenv(name))
      return "";
  if (llvm::sys::fs::is_directory("/usr/local/cuda"))
    return "/usr/local/cuda";
  return "";
}

} // namespace

LogicalResult ckpt::buildLowerToNVPTXPipeline(OpPassManager &pm,
                                              const LowerToNVPTXOptions &options) {
  StringRef format = options.format;
  if (format != "isa" && format != "bin" && format != "fatbin") {
    llvm::errs() << kPipelineName << ": unknown format '" << format
                 << "': expected isa, bin or fatbin\n";
    return failure();
  }
  StringRef chip = options.chip;
  if (!chip.starts_with("sm_") || chip.size() == 3) {
    llvm::errs() << kPipelineName << ": unknown chip '" << chip
                 << "': expected sm_XX (e.g. sm_80, sm_90)\n";
    return failure();
  }

  // Front half: identical to ckpt-lower-to-cpu up to and including buffer
  // deallocation.
  if (failed(buildBufferizeStepPipeline(pm, options.dealloc, kPipelineName)))
    return failure();

  // Buffers where the kernels can reach them.
  pm.addNestedPass<func::FuncOp>(
      std::make_unique<ManagedMemoryPass>(options.hostRegister));

  // Parallel loops -> gpu.launch: the parallel dimensions become blocks and
  // (tiles of 32 along the second dimension) threads; reductions stay
  // sequential inside a kernel, and linalg ops with no parallel dimension
  // (full reductions, 0-d ops) stay on the host, reading managed memory.
  // No canonicalization or CSE before this point (see the CPU pipeline).
  if (failed(parsePassPipeline(
          "func.func(convert-linalg-to-parallel-loops,"
          "scf-parallel-loop-tiling{parallel-loop-tile-sizes=1,32 "
          "no-min-max-bounds=true},gpu-map-parallel-loops),"
          "convert-parallel-loops-to-gpu,gpu-kernel-outlining",
          pm, llvm::errs())))
    return failure();

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  pm.addPass(createGpuNVVMAttachTarget(target));

  // Kernels to NVVM, host to LLVM with mgpu* calls, then serialize. The host
  // keeps the CPU pipeline's allocation hooks for any memref.alloc left.
  if (failed(parsePassPipeline(
          "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
          "gpu.module(strip-debuginfo,convert-gpu-to-nvvm,"
          "reconcile-unrealized-casts),"
          "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,"
          "convert-index-to-llvm,"
          "finalize-memref-to-llvm{use-generic-functions=true "
          "use-aligned-alloc=true},"
          "convert-func-to-llvm,convert-cf-to-llvm,gpu-to-llvm,"
          "reconcile-unrealized-casts",
          pm, llvm::errs())))
    return failure();

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = toolkitPath(options.toolkit);
  pm.addPass(createGpuModuleToBinaryPass(binary));
  return success();
}

void ckpt::registerLowerToNVPTXPipeline() {
  // Registered through registerPassPipeline (not PassPipelineRegistration)
  // so that a bad option value fails the run instead of leaving an empty
  // pipeline.
  registerPassPipeline(
      kPipelineName,
      "Lower a (rematerialized) step to host LLVM IR and an NVPTX binary "
      "(gpu.binary): managed-memory buffers, linalg as GPU kernels",
      [](OpPassManager &pm, StringRef optionsStr,
         function_ref<LogicalResult(const Twine &)> /*errorHandler*/) {
        LowerToNVPTXOptions options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        return buildLowerToNVPTXPipeline(pm, options);
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(LowerToNVPTXOptions());
      });
}
