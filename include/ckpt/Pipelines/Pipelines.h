//===- Pipelines.h - registered ckpt pipelines ------------------*- C++ -*-===//

#ifndef CKPT_PIPELINES_PIPELINES_H
#define CKPT_PIPELINES_PIPELINES_H

#include "ckpt/Transforms/PassOptions.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace ckpt {

/// Options of `ckpt-remat-pipeline`: those of ckpt-plan, the same names,
/// types, values and defaults, generated from its declaration in
/// Passes.td at build time (cmake/ExtractPassOptions.cmake), with
/// `asPassOptions<PlanPassOptions>()`, their typed copy for createPlanPass.
struct RematPipelineOptions
    : public mlir::PassPipelineOptions<RematPipelineOptions> {
#include "ckpt/Pipelines/PlanPassOptions.inc"
};

/// Options of `ckpt-lower-to-cpu`.
struct LowerToCPUOptions : public mlir::PassPipelineOptions<LowerToCPUOptions> {
  Option<DeallocMode> dealloc{
      *this, "dealloc",
      llvm::cl::desc("Who frees buffers: 'ckpt' (the step's ckpt.free, "
                     "lowered by ckpt-lower-frees), 'upstream' (MLIR's "
                     "ownership-based deallocation; ckpt.free ops are "
                     "dropped) or 'none' (nothing is freed)"),
      llvm::cl::init(DeallocMode::Ckpt), CKPT_DEALLOC_VALUES};
  Option<bool> checkBudget{
      *this, "check-budget",
      llvm::cl::desc("Fail when the bufferized step's peak is over its "
                     "ckpt.budget (ckpt-check-peak, after deallocation)"),
      llvm::cl::init(true)};
  Option<KernelMode> kernels{
      *this, "kernels",
      llvm::cl::desc("How f32 contractions and convolutions run: 'loops' "
                     "(like every other op) or 'blas' (calls to the "
                     "runtime's kernels over OpenBLAS, ckpt-call-kernels)"),
      llvm::cl::init(KernelMode::Loops), CKPT_KERNEL_VALUES};
  Option<bool> asyncCopies{
      *this, "async-copies",
      llvm::cl::desc("Run the copies into and out of host copies on the "
                     "runtime's copy thread, each waited for where its "
                     "buffers are next touched (ckpt-async-host-copies)"),
      llvm::cl::init(false)};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Time every op of the step when it runs "
                     "(ckpt-profile-ops; ckpt-run --profile=FILE writes the "
                     "times as a profile for ckpt-plan)"),
      llvm::cl::init(false)};
};

/// Options of `ckpt-lower-to-nvptx`.
struct LowerToNVPTXOptions
    : public mlir::PassPipelineOptions<LowerToNVPTXOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target GPU (sm_XX)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("Target features (PTX ISA "
                                              "version, e.g. +ptx80)"),
                               llvm::cl::init("+ptx80")};
  Option<GPUFormat> format{
      *this, "format",
      llvm::cl::desc("GPU binary: 'isa' (PTX text), 'bin' (cubin) or "
                     "'fatbin' (fat binary); bin and fatbin call ptxas"),
      llvm::cl::init(GPUFormat::Fatbin), CKPT_GPU_FORMAT_VALUES};
  Option<DeallocMode> dealloc{
      *this, "dealloc",
      llvm::cl::desc("Who frees buffers: 'ckpt', 'upstream' or 'none' (as "
                     "in ckpt-lower-to-cpu)"),
      llvm::cl::init(DeallocMode::Ckpt), CKPT_DEALLOC_VALUES};
  Option<bool> checkBudget{
      *this, "check-budget",
      llvm::cl::desc("Fail when the bufferized step's peak is over its "
                     "ckpt.budget (as in ckpt-lower-to-cpu)"),
      llvm::cl::init(true)};
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
  Option<MathMode> math{
      *this, "math",
      llvm::cl::desc("Math functions in kernels (tanh, exp, erf, ...): "
                     "'libdevice' (the toolkit's nvvm/libdevice/"
                     "libdevice.10.bc, linked into the PTX), 'approx' "
                     "(polynomial approximations and expansions, no "
                     "libdevice) or 'auto' (libdevice when the toolkit has "
                     "it, else approx)"),
      llvm::cl::init(MathMode::Auto), CKPT_MATH_VALUES};
  Option<bool> asyncCopies{
      *this, "async-copies",
      llvm::cl::desc("Run the copies into and out of host copies on a CUDA "
                     "copy stream into page-locked memory, beside the "
                     "kernels, each waited for where its buffers are next "
                     "touched (ckpt-async-host-copies{runtime=cuda}); "
                     "false: host memcpys between the launches"),
      llvm::cl::init(true)};
  Option<KernelMode> kernels{
      *this, "kernels",
      llvm::cl::desc("How f32 contractions and convolutions run: 'loops' "
                     "(GPU kernels, like every other op) or 'blas' (cuBLAS's "
                     "strided batched sgemm and cuDNN's convolutions, called "
                     "from the host, where the layout allows: "
                     "ckpt-call-kernels{runtime=cuda}; loaded at run time "
                     "from CKPT_CUBLAS / CKPT_CUDNN or libcublas.so.13/.12 "
                     "and libcudnn.so.9)"),
      llvm::cl::init(KernelMode::Loops), CKPT_KERNEL_VALUES};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Time every op of the step when it runs "
                     "(ckpt-profile-ops; ckpt-run --profile=FILE writes the "
                     "times as a profile for ckpt-plan)"),
      llvm::cl::init(false)};
};

/// wrap-step (functions carrying ckpt.loss), plan, rematerialize, insert
/// frees: a step in, the step rewritten to fit the budget out. The options
/// are the plan pass's own and reach it typed (no printing and parsing), so
/// this succeeds: every value was checked when the options were parsed.
mlir::LogicalResult buildRematPipeline(mlir::OpPassManager &pm,
                                       const RematPipelineOptions &options);

/// A (rematerialized) step to LLVM for the CPU: inline recompute regions,
/// unwrap to func.func, mark entry points, bufferize (arguments read-only),
/// lower frees, linalg to loops, to the LLVM dialect with allocation through
/// `_mlir_memref_to_llvm_alloc/free` (counted by lib/Runtime). Every option
/// value is valid once parsed: this succeeds (the result keeps the
/// signature of the other builders).
mlir::LogicalResult buildLowerToCPUPipeline(mlir::OpPassManager &pm,
                                            const LowerToCPUOptions &options);

/// The front half shared by the lowerings: inline recompute regions, unwrap
/// to func.func, mark entry points, bufferize (arguments read-only), free
/// buffers as `dealloc` says (ckpt, upstream or none), check the peak
/// against the step's budget (`checkBudget`, ckpt-check-peak), bufferization
/// ops to memref. With `profile`, every op of the step is timed when it runs
/// (ckpt-profile-ops, after the recompute regions are inlined).
void buildBufferizeStepPipeline(mlir::OpPassManager &pm, DeallocMode dealloc,
                                bool checkBudget = true, bool profile = false);

/// The conversion to the LLVM dialect both lowerings end with, after
/// bufferization and loops: strided metadata, affine and scf to cf, then (the
/// GPU lowering's kernels go here) `beforeLLVM`, then math, arith, index,
/// memref (through the counting allocation hooks, aligned), func and cf to
/// LLVM. Unrealized casts are left to the caller to reconcile.
void buildLLVMConversionTail(
    mlir::OpPassManager &pm,
    llvm::function_ref<void(mlir::OpPassManager &)> beforeLLVM = nullptr);

/// A (rematerialized) step to host LLVM IR plus an embedded NVPTX binary
/// (`gpu.binary`): the front half of ckpt-lower-to-cpu, buffers in managed
/// memory (`gpu.alloc host_shared`, frees as `gpu.dealloc`), arguments
/// host-registered, linalg to parallel loops mapped to blocks and threads,
/// kernels outlined and compiled for `chip`/`features` into `format`, the
/// host to the LLVM dialect with `mgpu*` runtime calls. Fails (with a
/// message) on a bad chip, or on math=libdevice without libdevice.
mlir::LogicalResult
buildLowerToNVPTXPipeline(mlir::OpPassManager &pm,
                          const LowerToNVPTXOptions &options);

/// Registers `ckpt-remat-pipeline`, `ckpt-lower-to-cpu` and
/// `ckpt-lower-to-nvptx`.
void registerPipelines();

} // namespace ckpt

#endif // CKPT_PIPELINES_PIPELINES_H
