//===- CudaContext.h - the CUDA runtime's shared internals ------*- C++ -*-===//
//
// What the files of libckpt_cuda_runtime.so share (not installed, not part
// of its C API): the error count and check of driver calls, the default
// device, and the scoped primary context every call runs in. Defined in
// CudaRuntime.cpp; CudaLibraries.cpp (cuBLAS, cuDNN) uses them.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_RUNTIME_CUDACONTEXT_H
#define CKPT_LIB_RUNTIME_CUDACONTEXT_H

#include "cuda.h"

#include <atomic>
#include <cstdint>

#define CKPT_CUDA_EXPORT extern "C" __attribute__((visibility("default")))

namespace ckpt::cuda {

/// Driver calls (and wrapper checks) that failed since the library was
/// loaded (ckptCudaErrorCount).
extern std::atomic<uint64_t> errorCount;

/// The device mgpuSetDefaultDevice chose for this thread.
extern thread_local int32_t defaultDevice;

/// Prints "ckpt_cuda_runtime: <what> failed: <NAME> (<description>)" and
/// counts an error when `result` is one; returns true on success.
bool check(CUresult result, const char *what);

#define CKPT_CUDA_CHECK(expr) ::ckpt::cuda::check((expr), #expr)

/// Makes the default device's primary context current for the lifetime of
/// the object, and restores the previous one afterwards.
class ScopedContext {
public:
  ScopedContext();
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  /// Whether a context is current (false: the call cannot be made).
  bool ok() const { return pushed; }

private:
  bool pushed = false;
};

} // namespace ckpt::cuda

#endif // CKPT_LIB_RUNTIME_CUDACONTEXT_H
