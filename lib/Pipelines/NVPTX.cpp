//===- NVPTX.cpp - ckpt-lower-to-nvptx ------------------------------------===//
//
// A (rematerialized) training step to host LLVM IR plus an embedded NVPTX
// binary. The front half is that of ckpt-lower-to-cpu (buildBufferizeStep-
// Pipeline: inline recompute regions, unwrap, bufferize, free buffers); then
// buffers move to managed memory, contractions and convolutions optionally
// become cuBLAS and cuDNN calls (kernels=blas), the other linalg ops become
// parallel loops mapped to blocks and threads, kernels are outlined and
// compiled for the NVVM target, and the host goes to the LLVM dialect with
// `mgpu*` runtime calls (defined by lib/Runtime/CudaRuntime.cpp).
// docs/ARCHITECTURE.md, "GPU path", gives the memory scheme and its limits.
//
//===----------------------------------------------------------------------===//

#include "Toolkit.h"

#include "ckpt/Pipelines/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

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

using namespace mlir;
using namespace ckpt;
using namespace ckpt::detail;

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
  buildBufferizeStepPipeline(pm, options.dealloc, options.checkBudget,
                             options.profile);

  // Buffers where the kernels can reach them.
  GPUManagedMemoryPassOptions managed;
  managed.hostRegister = options.hostRegister;
  pm.addNestedPass<func::FuncOp>(createGPUManagedMemoryPass(managed));
  // Offloads and reloads on the copy stream, beside the kernels.
  if (options.asyncCopies) {
    AsyncHostCopiesPassOptions copies;
    copies.runtime = CopyRuntime::Cuda;
    pm.addPass(createAsyncHostCopiesPass(copies));
  }

  // Contractions on cuBLAS and convolutions on cuDNN, where their layout
  // allows; the host calls them.
  if (options.kernels == KernelMode::Blas) {
    CallKernelsPassOptions kernels;
    kernels.runtime = KernelRuntime::Cuda;
    pm.addPass(createCallKernelsPass(kernels));
  }

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
