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

namespace {

/// Stops a lowering at the first op of its pipeline when the input holds
/// `ckpt.opaque` ops: they stand for operations a front end could not
/// translate, so there is nothing to lower them to, and without this check
/// one-shot bufferization would fail on them with a less helpful message.
/// Every opaque op gets an error. Not registered as a pass of its own: the
/// first pass of buildBufferizeStepPipeline.
class RejectOpaquePass
    : public PassWrapper<RejectOpaquePass, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RejectOpaquePass)

  StringRef getArgument() const override { return "ckpt-reject-opaque"; }
  StringRef getDescription() const override {
    return "Fail on ckpt.opaque ops, which have no lowering (part of "
           "ckpt-lower-to-cpu and ckpt-lower-to-nvptx)";
  }

  void runOnOperation() override {
    bool found = false;
    getOperation()->walk([&](OpaqueOp op) {
      op.emitOpError() << "\"" << op.getName()
                       << "\" has no lowering: it stands for an op the "
                          "importer could not translate; the step can be "
                          "planned but not executed";
      found = true;
    });
    if (found)
      signalPassFailure();
  }
};

} // namespace

void ckpt::buildRematPipeline(OpPassManager &pm,
                              const RematPipelineOptions &options) {
  pm.addPass(createWrapStepPass());
  PlanPassOptions plan;
  plan.budget = options.budget;
  plan.strategy = options.strategy;
  plan.slots = options.slots;
  plan.device = options.device;
  plan.profile = options.profile;
  plan.fit = options.fit;
  plan.timeLimit = options.timeLimit;
  pm.addPass(createPlanPass(plan));
  pm.addPass(createRematerializePass());
  pm.addPass(createInsertFreesPass());
}

LogicalResult ckpt::buildBufferizeStepPipeline(OpPassManager &pm,
                                               DeallocMode dealloc) {
  // Opaque ops have no lowering: stop before anything is rewritten.
  pm.addPass(std::make_unique<RejectOpaquePass>());
  // No CSE or canonicalization before deallocation is decided: they would
  // merge recomputed ops with the originals and undo the plan.
  pm.addPass(createInlineRecomputePass());
  pm.addPass(createUnwrapStepPass());
  pm.addPass(createPrepareEntryPass());
  pm.addNestedPass<func::FuncOp>(createReadOnlyArgumentsPass());
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
  pm.addPass(createConvertBufferizationToMemRefPass());
  return success();
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
  if (failed(buildBufferizeStepPipeline(pm, options.dealloc)))
    return failure();
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  buildLLVMConversionTail(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
  return success();
}

void ckpt::registerPipelines() {
  // Registered through registerPassPipeline (not PassPipelineRegistration)
  // so that a bad option value fails the run instead of leaving an empty
  // pipeline.
  registerPassPipeline(
      "ckpt-remat-pipeline",
      "Plan a step under a memory budget and rewrite it: recompute regions "
      "and buffer frees",
      [](OpPassManager &pm, StringRef optionsStr,
         function_ref<LogicalResult(const Twine &)>) {
        RematPipelineOptions options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        buildRematPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(RematPipelineOptions());
      });
  registerPassPipeline(
      "ckpt-lower-to-cpu",
      "Lower a (rematerialized) step to the LLVM dialect for the CPU, with "
      "counted allocations",
      [](OpPassManager &pm, StringRef optionsStr,
         function_ref<LogicalResult(const Twine &)>) {
        LowerToCPUOptions options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        return buildLowerToCPUPipeline(pm, options);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(LowerToCPUOptions());
      });
  registerLowerToNVPTXPipeline();
}
