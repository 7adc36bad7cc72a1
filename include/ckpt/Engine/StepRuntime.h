//===- StepRuntime.h - the runtime a JIT'd step calls -----------*- C++ -*-===//
//
// The ckpt runtime functions a driver of a JIT'd step calls and binds into
// its code: on the CPU those of the static CkptRuntime linked into the
// driver; for a step lowered by ckpt-lower-to-nvptx those of
// libckpt_cuda_runtime.so (the mgpu* wrappers) and the libckpt_runtime.so it
// links, whose counters the device wrappers update. The library is loaded
// at run time (dlopen), so that a driver starts without a CUDA driver. Used
// by ckpt-run (--gpu) and by the Python extension _ckpt_mlir
// (ckpt.compile_step with device="cuda").
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ENGINE_STEPRUNTIME_H
#define CKPT_ENGINE_STEPRUNTIME_H

#include "ckpt/Engine/Jit.h"
#include "ckpt/Runtime/Runtime.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace ckpt {

struct StepRuntime {
  void (*reset)() = ckptRuntimeReset;
  void (*getStats)(CkptRuntimeStats *) = ckptRuntimeGetStats;
  int (*findHost)(const void *, size_t *) = ckptRuntimeFindAllocation;
  size_t (*freeAllHost)() = ckptRuntimeFreeAll;
  void (*freeHost)(void *) = _mlir_memref_to_llvm_free;
  void *(*alloc)(size_t) = _mlir_memref_to_llvm_alloc;
  void *(*alignedAlloc)(size_t, size_t) = _mlir_memref_to_llvm_aligned_alloc;
  void (*beginHostCopy)() = ckptRuntimeBeginHostCopy;
  void (*endHostCopy)() = ckptRuntimeEndHostCopy;
  /// The copies of offloaded values (ckpt-async-host-copies): on the CPU the
  /// runtime's copy thread, on a device its copy stream.
  int64_t (*copyAsync)(int64_t, int64_t, int64_t) = ckptRuntimeCopyAsync;
  void (*waitCopy)(int64_t) = ckptRuntimeWaitCopy;
  // A CUDA runtime's only (null on the CPU).
  int (*findDevice)(const void *, size_t *) = nullptr;
  void (*freeDevice)(void *, void *) = nullptr;
  /// mgpuMemAlloc(bytes, stream, managed): counted like the step's buffers.
  void *(*allocDevice)(uint64_t, void *, bool) = nullptr;
  size_t (*freeAllDevice)() = nullptr;
  void *(*allocStaging)(uint64_t) = nullptr;
  void (*freeStaging)(void *) = nullptr;
  int (*probe)(char *, size_t) = nullptr;
  int (*synchronize)() = nullptr;
  uint64_t (*errorCount)() = nullptr;
  int (*loadBlas)(char *, size_t) = nullptr;
  int (*loadDnn)(char *, size_t) = nullptr;
  /// The CUDA runtime library, whose mgpu* functions the JIT'd code calls;
  /// empty on the CPU.
  std::string cudaLibrary;

  bool onDevice() const { return !cudaLibrary.empty(); }
  /// The hooks to bind into the JIT'd code.
  JitHooks hooks() const {
    return {alloc, alignedAlloc, freeHost, beginHostCopy, endHostCopy};
  }
};

/// Loads libckpt_cuda_runtime.so from `path` (never unloaded) and returns
/// its functions. The error is one sentence: no such file ("... was built
/// without the CUDA toolkit (...)" then `missingHint`, e.g. how the caller
/// names another path), "no CUDA device available: cannot load '<path>'
/// (<dlerror>)" when the driver library (libcuda.so.1) is missing, or a
/// function the library lacks. Loading needs the driver library, not a
/// device: `probe` says whether there is one.
llvm::Expected<StepRuntime> loadCudaRuntime(llvm::StringRef path,
                                            llvm::StringRef missingHint = "");

/// Probes the device of a loaded CUDA runtime: its name, or the error "no
/// CUDA device available (<why>)".
llvm::Expected<std::string> probeCudaDevice(const StepRuntime &runtime);

/// When `module` (a lowered step) calls the CUDA runtime's cuBLAS
/// contraction or cuDNN convolutions (gemm::kCudaContractFunction, ...;
/// ckpt-lower-to-nvptx{kernels=blas}), loads those libraries through the
/// runtime (CKPT_CUBLAS / CKPT_CUDNN, else their sonames), without touching
/// a device: the error "cannot load cuBLAS ..." (or cuDNN) names what to
/// set. Success when the module calls neither.
llvm::Error loadCudaLibrariesIfCalled(const StepRuntime &runtime,
                                      mlir::ModuleOp module);

} // namespace ckpt

#endif // CKPT_ENGINE_STEPRUNTIME_H
