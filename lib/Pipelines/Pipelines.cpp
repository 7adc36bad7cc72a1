//===- Pipelines.cpp - registered ckpt pipelines --------------------------===//

#include "ckpt/Pipelines/Pipelines.h"

#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ckpt;

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
  pm.addPass(createPlanPass(plan));
  pm.addPass(createRematerializePass());
  pm.addPass(createInsertFreesPass());
}

LogicalResult ckpt::buildBufferizeStepPipeline(OpPassManager &pm,
                                               StringRef dealloc,
                                               StringRef pipelineName) {
  std::string deallocPasses;
  if (dealloc == "ckpt")
    deallocPasses = "func.func(ckpt-lower-frees),";
  else if (dealloc == "upstream")
    deallocPasses = "func.func(ckpt-lower-frees{erase-only=true}),"
                    "buffer-deallocation-pipeline,";
  else if (dealloc == "none")
    deallocPasses = "func.func(ckpt-lower-frees{erase-only=true}),";
  else {
    llvm::errs() << pipelineName << ": unknown dealloc '" << dealloc
                 << "': expected ckpt, upstream or none\n";
    return failure();
  }
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
  if (failed(buildBufferizeStepPipeline(pm, options.dealloc,
                                        "ckpt-lower-to-cpu")))
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
  PassPipelineRegistration<RematPipelineOptions>(
      "ckpt-remat-pipeline",
      "Plan a step under a memory budget and rewrite it: recompute regions "
      "and buffer frees",
      buildRematPipeline);
  // Registered through registerPassPipeline (not PassPipelineRegistration)
  // so that a bad option value fails the run instead of leaving an empty
  // pipeline.
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
