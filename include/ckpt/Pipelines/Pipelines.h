//===- Pipelines.h - registered ckpt pipelines ------------------*- C++ -*-===//

#ifndef CKPT_PIPELINES_PIPELINES_H
#define CKPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace ckpt {

/// Options of `ckpt-remat-pipeline` (those of ckpt-plan).
struct RematPipelineOptions
    : public mlir::PassPipelineOptions<RematPipelineOptions> {
  Option<std::string> budget{*this, "budget",
                             llvm::cl::desc("Memory budget: bytes with a unit "
                                            "or a percentage of the store-all "
                                            "peak"),
                             llvm::cl::init("100%")};
  Option<std::string> strategy{
      *this, "strategy",
      llvm::cl::desc("optimal, store-all, periodic:K, sqrt, revolve, "
                     "memory-poor or articulation"),
      llvm::cl::init("optimal")};
  Option<int64_t> slots{*this, "slots",
                        llvm::cl::desc("Memory slots of the dynamic program "
                                       "(0: exact byte sizes)"),
                        llvm::cl::init(500)};
  Option<std::string> device{*this, "device",
                             llvm::cl::desc("h100, a100, v100 or cpu"),
                             llvm::cl::init("h100")};
  Option<std::string> profile{*this, "profile",
                              llvm::cl::desc("Measured op times (JSON)"),
                              llvm::cl::init("")};
};

/// Options of `ckpt-lower-to-cpu`.
struct LowerToCPUOptions : public mlir::PassPipelineOptions<LowerToCPUOptions> {
  Option<std::string> dealloc{
      *this, "dealloc",
      llvm::cl::desc("Who frees buffers: 'ckpt' (the step's ckpt.free, "
                     "lowered by ckpt-lower-frees), 'upstream' (MLIR's "
                     "ownership-based deallocation; ckpt.free ops are "
                     "dropped) or 'none' (nothing is freed)"),
      llvm::cl::init("ckpt")};
};

/// wrap-step (functions carrying ckpt.loss), plan, rematerialize, insert
/// frees: a step in, the step rewritten to fit the budget out.
void buildRematPipeline(mlir::OpPassManager &pm,
                        const RematPipelineOptions &options);

/// A (rematerialized) step to LLVM for the CPU: inline recompute regions,
/// unwrap to func.func, mark entry points, bufferize (arguments read-only),
/// lower frees, linalg to loops, to the LLVM dialect with allocation through
/// `_mlir_memref_to_llvm_alloc/free` (counted by lib/Runtime). Needs the
/// upstream passes registered (mlir::registerAllPasses()). Fails (with a
/// message) on a bad option.
mlir::LogicalResult buildLowerToCPUPipeline(mlir::OpPassManager &pm,
                                            const LowerToCPUOptions &options);

/// Registers `ckpt-remat-pipeline` and `ckpt-lower-to-cpu`.
void registerPipelines();

} // namespace ckpt

#endif // CKPT_PIPELINES_PIPELINES_H
