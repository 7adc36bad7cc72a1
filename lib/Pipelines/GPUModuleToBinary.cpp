//===- GPUModuleToBinary.cpp - ckpt-gpu-module-to-binary
//--------------------===//
//
// The kernels serialized through the NVVM target, with the toolkit found by
// the pipeline's rule (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "Toolkit.h"

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
#define GEN_PASS_DEF_GPUMODULETOBINARYPASS
#include "ckpt/Pipelines/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;
using namespace ckpt::detail;

namespace {

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
