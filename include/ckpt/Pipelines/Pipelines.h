//===- Pipelines.h - registered ckpt pipelines ------------------*- C++ -*-===//

#ifndef CKPT_PIPELINES_PIPELINES_H
#define CKPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/StringRef.h"

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
      llvm::cl::desc("optimal, ilp, store-all, periodic:K, sqrt, revolve, "
                     "memory-poor, articulation, speed or manual"),
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
  Option<std::string> fit{
      *this, "fit",
      llvm::cl::desc("What must fit the budget: 'simulation' (the rewritten "
                     "step's simulated peak) or 'model' (the chain model's)"),
      llvm::cl::init("simulation")};
  Option<double> timeLimit{*this, "time-limit",
                           llvm::cl::desc("Seconds the 'ilp' strategy gives "
                                          "CBC"),
                           llvm::cl::init(60)};
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

/// Options of `ckpt-lower-to-nvptx`.
struct LowerToNVPTXOptions
    : public mlir::PassPipelineOptions<LowerToNVPTXOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU (sm_XX)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("Target features (PTX ISA "
                                              "version, e.g. +ptx80)"),
                               llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("GPU binary: 'isa' (PTX text), 'bin' (cubin) or "
                     "'fatbin' (fat binary); bin and fatbin call ptxas"),
      llvm::cl::init("fatbin")};
  Option<std::string> dealloc{
      *this, "dealloc",
      llvm::cl::desc("Who frees buffers: 'ckpt', 'upstream' or 'none' (as "
                     "in ckpt-lower-to-cpu)"),
      llvm::cl::init("ckpt")};
  Option<bool> hostRegister{
      *this, "host-register",
      llvm::cl::desc("Register the step's memref arguments (host memory) "
                     "with the driver for the length of the call; false when "
                     "the caller passes device-accessible (managed) memory"),
      llvm::cl::init(true)};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit for ptxas, fatbinary and libdevice "
                     "(empty: CUDA_ROOT/CUDA_HOME/CUDA_PATH when set, else "
                     "/usr/local/cuda, else the toolkit of the ptxas on "
                     "PATH)"),
      llvm::cl::init("")};
  Option<std::string> math{
      *this, "math",
      llvm::cl::desc("Math functions in kernels (tanh, exp, erf, ...): "
                     "'libdevice' (the toolkit's nvvm/libdevice/"
                     "libdevice.10.bc, linked into the PTX), 'approx' "
                     "(polynomial approximations and expansions, no "
                     "libdevice) or 'auto' (libdevice when the toolkit has "
                     "it, else approx)"),
      llvm::cl::init("auto")};
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

/// The front half shared by the lowerings: inline recompute regions, unwrap
/// to func.func, mark entry points, bufferize (arguments read-only), free
/// buffers as `dealloc` says (ckpt, upstream or none), bufferization ops to
/// memref. Fails with a message naming `pipelineName` on a bad `dealloc`.
mlir::LogicalResult buildBufferizeStepPipeline(mlir::OpPassManager &pm,
                                               llvm::StringRef dealloc,
                                               llvm::StringRef pipelineName);

/// A (rematerialized) step to host LLVM IR plus an embedded NVPTX binary
/// (`gpu.binary`): the front half of ckpt-lower-to-cpu, buffers in managed
/// memory (`gpu.alloc host_shared`, frees as `gpu.dealloc`), arguments
/// host-registered, linalg to parallel loops mapped to blocks and threads,
/// kernels outlined and compiled for `chip`/`features` into `format`, the
/// host to the LLVM dialect with `mgpu*` runtime calls. Needs the upstream
/// passes registered. Fails (with a message) on a bad option.
mlir::LogicalResult
buildLowerToNVPTXPipeline(mlir::OpPassManager &pm,
                          const LowerToNVPTXOptions &options);

/// Registers `ckpt-lower-to-nvptx` (called by registerPipelines()).
void registerLowerToNVPTXPipeline();

/// Registers `ckpt-remat-pipeline`, `ckpt-lower-to-cpu` and
/// `ckpt-lower-to-nvptx`.
void registerPipelines();

} // namespace ckpt

#endif // CKPT_PIPELINES_PIPELINES_H
