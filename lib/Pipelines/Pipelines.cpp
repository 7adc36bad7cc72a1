//===- Pipelines.cpp - registered ckpt pipelines --------------------------===//

#include "ckpt/Pipelines/Pipelines.h"

#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ckpt;

LogicalResult ckpt::buildRematPipeline(OpPassManager &pm,
                                       const RematPipelineOptions &options) {
  pm.addPass(createWrapStepPass());
  // The options are the plan pass's own (Pipelines.h), handed over typed.
  std::unique_ptr<Pass> plan =
      createPlanPass(options.asPassOptions<PlanPassOptions>());
  pm.addPass(std::move(plan));
  pm.addPass(createRematerializePass());
  pm.addPass(createInsertFreesPass());
  return success();
}

void ckpt::buildBufferizeStepPipeline(OpPassManager &pm, DeallocMode dealloc,
                                      bool checkBudget, bool profile) {
  // Opaque ops have no lowering: stop before anything is rewritten.
  pm.addPass(createRejectOpaquePass());
  // No CSE or canonicalization before deallocation is decided: they would
  // merge recomputed ops with the originals and undo the plan.
  pm.addPass(createInlineRecomputePass());
  if (profile)
    pm.addPass(createProfileOpsPass());
  pm.addPass(createUnwrapStepPass());
  pm.addPass(createPrepareEntryPass());
  pm.addNestedPass<func::FuncOp>(createReadOnlyArgumentsPass());
  pm.addNestedPass<func::FuncOp>(createLowerOffloadsPass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.bufferAlignment = kBufferAlignment;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  LowerFreesPassOptions frees;
  frees.eraseOnly = dealloc != DeallocMode::Ckpt;
  pm.addNestedPass<func::FuncOp>(createLowerFreesPass(frees));
  if (dealloc == DeallocMode::Upstream)
    bufferization::buildBufferDeallocationPipeline(pm);
  // The program as it will run, against the budget it was planned for.
  if (checkBudget)
    pm.addNestedPass<func::FuncOp>(createCheckPeakPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Host copies of offloaded values, counted apart by the runtime.
  pm.addPass(createLowerHostCopiesPass());
}

void ckpt::buildLLVMConversionTail(
    OpPassManager &pm, function_ref<void(OpPassManager &)> beforeLLVM) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  if (beforeLLVM)
    beforeLLVM(pm);
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
}

LogicalResult ckpt::buildLowerToCPUPipeline(OpPassManager &pm,
                                            const LowerToCPUOptions &options) {
  buildBufferizeStepPipeline(pm, options.dealloc, options.checkBudget,
                             options.profile);
  if (options.asyncCopies) {
    AsyncHostCopiesPassOptions copies;
    copies.runtime = CopyRuntime::Cpu;
    pm.addPass(createAsyncHostCopiesPass(copies));
  }
  if (options.kernels == KernelMode::Blas)
    pm.addPass(createCallKernelsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  buildLLVMConversionTail(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
  return success();
}

namespace {
/// Registers a pipeline whose options are `Options`, built by `build`.
/// Through registerPassPipeline (not PassPipelineRegistration), so that a bad
/// option value fails the run instead of leaving an empty pipeline.
template <typename Options, typename Build>
void registerTypedPipeline(StringRef name, StringRef description, Build build) {
  registerPassPipeline(
      name, description,
      [build](OpPassManager &pm, StringRef optionsStr,
              function_ref<LogicalResult(const Twine &)>) {
        Options options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        return build(pm, options);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}
} // namespace

void ckpt::registerPipelines() {
  registerTypedPipeline<RematPipelineOptions>(
      "ckpt-remat-pipeline",
      "Plan a step under a memory budget and rewrite it: recompute regions "
      "and buffer frees",
      [](OpPassManager &pm, const RematPipelineOptions &options) {
        return buildRematPipeline(pm, options);
      });
  registerTypedPipeline<LowerToCPUOptions>(
      "ckpt-lower-to-cpu",
      "Lower a (rematerialized) step to the LLVM dialect for the CPU, with "
      "counted allocations",
      buildLowerToCPUPipeline);
  registerTypedPipeline<LowerToNVPTXOptions>(
      "ckpt-lower-to-nvptx",
      "Lower a (rematerialized) step to host LLVM IR and an NVPTX binary "
      "(gpu.binary): managed-memory buffers, linalg as GPU kernels",
      buildLowerToNVPTXPipeline);
}
