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

#include "ckpt/Pipelines/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
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
#define GEN_PASS_DEF_GPUAPPROXIMATEMATHPASS
#define GEN_PASS_DEF_GPUMODULETOBINARYPASS
#include "ckpt/Pipelines/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

constexpr StringLiteral kPipelineName = "ckpt-lower-to-nvptx";

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

/// Where the CUDA toolkit is, for ptxas, fatbinary and libdevice.
struct Toolkit {
  std::string path;       ///< Empty: none found.
  std::string namedBy;    ///< "toolkit=", "CUDA_HOME", ...: who named it.
  bool libdevice = false; ///< path/nvvm/libdevice/libdevice.10.bc exists.
};

bool hasLibdevice(StringRef dir) {
  SmallString<256> file(dir);
  llvm::sys::path::append(file, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::is_regular_file(file);
}

/// The toolkit: `toolkit` when given; else the first of CUDA_ROOT,
/// CUDA_HOME and CUDA_PATH that is set (MLIR's own order: a named toolkit is
/// used or is an error, never skipped); else /usr/local/cuda when it
/// exists; else the toolkit of the `ptxas` on PATH.
Toolkit findToolkit(StringRef toolkit) {
  auto named = [](StringRef path, StringRef by) {
    return Toolkit{path.str(), by.str(), hasLibdevice(path)};
  };
  if (!toolkit.empty())
    return named(toolkit, "toolkit=");
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(name))
      return named(value, name);
  if (llvm::sys::fs::is_directory("/usr/local/cuda"))
    return named("/usr/local/cuda", "");
  if (llvm::ErrorOr<std::string> ptxas =
          llvm::sys::findProgramByName("ptxas")) {
    StringRef bin = llvm::sys::path::parent_path(*ptxas);
    return named(llvm::sys::path::parent_path(bin), "");
  }
  return Toolkit();
}

/// Whether the kernels are linked with libdevice: unless math=approx, when
/// the toolkit has it (else they get ckpt-gpu-approximate-math). The one
/// rule for the pipeline builder and ckpt-gpu-module-to-binary.
bool linksLibdevice(MathMode math, const Toolkit &toolkit) {
  return math != MathMode::Approx && toolkit.libdevice;
}

/// A math op on f32/f64 as a call of the NVPTX intrinsic for its
/// instruction (`llvm.nvvm.floor.f`, ...; convert-gpu-to-nvvm would call
/// libdevice for the math op, and rejects the generic LLVM intrinsic).
template <typename From>
struct ToNVVMIntrinsic : public OpRewritePattern<From> {
  ToNVVMIntrinsic(MLIRContext *context, StringRef stem)
      : OpRewritePattern<From>(context, /*benefit=*/2), stem(stem.str()) {}
  LogicalResult matchAndRewrite(From op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF64())
      return failure();
    auto name = rewriter.getStringAttr("llvm.nvvm." + stem +
                                       (type.isF32() ? ".f" : ".d"));
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(op, type, name,
                                                       op->getOperands());
    return success();
  }
  std::string stem;
};

/// absf and copysign on f32/f64 by their sign bit.
template <typename From> struct SignBit : public OpRewritePattern<From> {
  using OpRewritePattern<From>::OpRewritePattern;
  LogicalResult matchAndRewrite(From op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type || (!type.isF32() && !type.isF64()))
      return failure();
    unsigned width = type.getWidth();
    Type bits = rewriter.getIntegerType(width);
    Location loc = op.getLoc();
    auto constant = [&](const APInt &value) {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getIntegerAttr(bits, value));
    };
    APInt sign = APInt::getSignMask(width);
    Value x = arith::BitcastOp::create(rewriter, loc, bits, op->getOperand(0));
    Value magnitude = arith::AndIOp::create(rewriter, loc, x, constant(~sign));
    Value result = magnitude;
    if (op->getNumOperands() == 2) {
      Value y =
          arith::BitcastOp::create(rewriter, loc, bits, op->getOperand(1));
      Value ySign = arith::AndIOp::create(rewriter, loc, y, constant(sign));
      result = arith::OrIOp::create(rewriter, loc, magnitude, ySign);
    }
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, result);
    return success();
  }
};

/// ckpt-gpu-approximate-math (Passes.td).
struct GPUApproximateMathPass
    : public ckpt::ListValidOptions<
          ckpt::impl::GPUApproximateMathPassBase<GPUApproximateMathPass>> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // What NVPTX has instructions for: its intrinsics, or bit operations.
    MLIRContext *context = &getContext();
    patterns.add<ToNVVMIntrinsic<math::FloorOp>>(context, "floor");
    patterns.add<ToNVVMIntrinsic<math::CeilOp>>(context, "ceil");
    patterns.add<ToNVVMIntrinsic<math::SqrtOp>>(context, "sqrt.rn");
    patterns.add<ToNVVMIntrinsic<math::FmaOp>>(context, "fma.rn");
    patterns.add<SignBit<math::AbsFOp>, SignBit<math::CopySignOp>>(context, 2);
    math::populateExpansionPatterns(patterns);
    populateMathF32ExpansionPatterns(patterns, [](StringRef) { return true; });
    populateMathPolynomialApproximationPatterns(patterns,
                                                [](StringRef) { return true; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

/// ckpt-gpu-module-to-binary (Passes.td).
struct GPUModuleToBinaryPass
    : public ckpt::ListValidOptions<
          ckpt::impl::GPUModuleToBinaryPassBase<GPUModuleToBinaryPass>> {
  using ListValidOptions::ListValidOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    GPUModuleToBinaryPassBase::getDependentDialects(registry);
    registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect>();
    // gpu-module-to-binary translates the kernels to LLVM IR through the
    // NVVM target: the interfaces it needs, whatever the tool loaded.
    registerBuiltinDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
    gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
    NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Toolkit toolkit = findToolkit(this->toolkit);
    bool linkLibdevice = linksLibdevice(math, toolkit);
    if (!toolkit.namedBy.empty() &&
        !llvm::sys::fs::is_directory(toolkit.path)) {
      // At the step (the first function the host keeps a location for).
      Location loc = module.getLoc();
      for (Operation &op : module.getBody()->getOperations())
        if (isa<FileLineColLoc>(op.getLoc()) && !isa<gpu::GPUModuleOp>(op)) {
          loc = op.getLoc();
          break;
        }
      emitError(loc) << kPipelineName << ": the CUDA toolkit named by "
                     << toolkit.namedBy << " (" << toolkit.path
                     << ") does not exist";
      return signalPassFailure();
    }
    if (!linkLibdevice) {
      // Kernels calling __nv_* functions (one per module, scanned once),
      // reported at their first launch (their own locations are stripped).
      llvm::DenseMap<StringAttr, StringRef> libdeviceCalls;
      for (auto kernels : module.getOps<gpu::GPUModuleOp>())
        for (auto func : kernels.getOps<LLVM::LLVMFuncOp>())
          if (func.isExternal() && func.getName().starts_with("__nv_")) {
            libdeviceCalls[kernels.getSymNameAttr()] = func.getName();
            break;
          }
      WalkResult calls =
          module.walk([&](gpu::LaunchFuncOp launch) {
            auto it = libdeviceCalls.find(launch.getKernelModuleName());
            if (it == libdeviceCalls.end())
              return WalkResult::advance();
            launch.emitError()
                << kPipelineName << ": kernel @"
                << launch.getKernelModuleName().getValue() << " calls '"
                << it->second
                << "', which only libdevice defines, and libdevice is not "
                   "linked (math=approx, or no CUDA toolkit with "
                   "nvvm/libdevice/libdevice.10.bc was found: set CUDA_HOME "
                   "or toolkit=)";
            return WalkResult::interrupt();
          });
      if (calls.wasInterrupted())
        return signalPassFailure();
    }

    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = stringify(format).str();
    // The toolkit found (empty when none: then no variable names one, and
    // MLIR finds none either).
    binary.toolkitPath = toolkit.path;
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createGpuModuleToBinaryPass(binary));
    bool error = false;
    ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() != DiagnosticSeverity::Error)
        return failure(); // reported as usual
      // Without libdevice by choice, the serializer's complaint that the
      // toolkit has none is moot (the kernels call no __nv_* function).
      std::string message = d.str();
      if (!linkLibdevice && StringRef(message).starts_with("LibDevice path:"))
        return success(); // dropped
      error = true;
      return failure(); // and reported as usual
    });
    if (failed(runPipeline(pm, module)) || error)
      signalPassFailure();
  }
};

} // namespace

LogicalResult
ckpt::buildLowerToNVPTXPipeline(OpPassManager &pm,
                                const LowerToNVPTXOptions &options) {
  StringRef chip = options.chip;
  if (!chip.starts_with("sm_") || chip.size() == 3) {
    llvm::errs() << kPipelineName << ": unknown chip '" << chip
                 << "': expected sm_XX (e.g. sm_80, sm_90)\n";
    return failure();
  }

  MathMode math = options.math;
  Toolkit toolkit = findToolkit(options.toolkit);
  if (math == MathMode::Libdevice && !toolkit.libdevice) {
    llvm::errs() << kPipelineName << ": math=libdevice, but "
                 << (toolkit.path.empty()
                         ? std::string("no CUDA toolkit was found")
                         : "'" + toolkit.path + "' has no " +
                               "nvvm/libdevice/libdevice.10.bc")
                 << " (set CUDA_HOME or toolkit=)\n";
    return failure();
  }
  bool linkLibdevice = linksLibdevice(math, toolkit);

  // Front half: identical to ckpt-lower-to-cpu up to and including buffer
  // deallocation.
  buildBufferizeStepPipeline(pm, options.dealloc);

  // Buffers where the kernels can reach them.
  GPUManagedMemoryPassOptions managed;
  managed.hostRegister = options.hostRegister;
  pm.addNestedPass<func::FuncOp>(createGPUManagedMemoryPass(managed));

  // Parallel loops -> gpu.launch: the parallel dimensions become blocks and
  // (tiles of 32 along the second dimension) threads; reductions stay
  // sequential inside a kernel, and linalg ops with no parallel dimension
  // (full reductions, 0-d ops) stay on the host, reading managed memory.
  // No canonicalization or CSE before this point (see the CPU pipeline).
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(
      createParallelLoopTilingPass({1, 32}, /*noMinMaxBounds=*/true));
  pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass());
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuKernelOutliningPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  pm.addPass(createGpuNVVMAttachTarget(target));

  // Kernels to NVVM, host to LLVM with mgpu* calls, then serialize. The host
  // keeps the CPU pipeline's allocation hooks for any memref.alloc left.
  buildLLVMConversionTail(pm, [&](OpPassManager &pm) {
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    if (!linkLibdevice)
      kernels.addPass(createGPUApproximateMathPass());
    kernels.addPass(createStripDebugInfoPass());
    kernels.addPass(createConvertGpuOpsToNVVMOps());
    kernels.addPass(createReconcileUnrealizedCastsPass());
  });
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  GPUModuleToBinaryPassOptions binary;
  binary.format = options.format;
  binary.toolkit = options.toolkit;
  binary.math = options.math;
  pm.addPass(createGPUModuleToBinaryPass(binary));
  return success();
}
