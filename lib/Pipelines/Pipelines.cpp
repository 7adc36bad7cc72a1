//===- Pipelines.cpp - registered ckpt pipelines --------------------------===//

#include "ckpt/Pipelines/Pipelines.h"

#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/Passes.h"

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
  std::string deallocPasses;
  switch (dealloc) {
  case DeallocMode::Ckpt:
    deallocPasses = "func.func(ckpt-lower-frees),";
    break;
  case DeallocMode::Upstream:
    deallocPasses = "func.func(ckpt-lower-frees{erase-only=true}),"
                    "buffer-deallocation-pipeline,";
    break;
  case DeallocMode::None:
    deallocPasses = "func.func(ckpt-lower-frees{erase-only=true}),";
    break;
  }
  // Opaque ops have no lowering: stop before anything is rewritten.
  pm.addPass(std::make_unique<RejectOpaquePass>());
  // No CSE or canonicalization before deallocation is decided: they would
  // merge recomputed ops with the originals and undo the plan.
  std::string pipeline =
      "ckpt-inline-recompute,ckpt-unwrap-step,ckpt-prepare-entry,"
      "func.func(ckpt-readonly-arguments,convert-elementwise-to-linalg),"
      "one-shot-bufferize{bufferize-function-boundaries buffer-alignment=" +
      std::to_string(kBufferAlignment) + " "
      "function-boundary-type-conversion=identity-layout-map}," +
      deallocPasses + "convert-bufferization-to-memref";
  return parsePassPipeline(pipeline, pm, llvm::errs());
}

LogicalResult ckpt::buildLowerToCPUPipeline(OpPassManager &pm,
                                            const LowerToCPUOptions &options) {
  if (failed(buildBufferizeStepPipeline(pm, options.dealloc)))
    return failure();
  std::string pipeline =
      "func.func(convert-linalg-to-loops),expand-strided-metadata,"
      "lower-affine,convert-scf-to-cf,convert-math-to-llvm,"
      "convert-math-to-libm,convert-arith-to-llvm,convert-index-to-llvm,"
      "finalize-memref-to-llvm{use-generic-functions=true use-aligned-alloc=true},"
      "convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts";
  return parsePassPipeline(pipeline, pm, llvm::errs());
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
