//===- CudaRuntime.cpp - mgpu* wrappers over the CUDA driver API ----------===//
//
// Debian ships no libmlir_cuda_runtime.so, so this library (ckpt_cuda_runtime)
// defines every `mgpu*` function that MLIR 22's `gpu-to-llvm` and the
// `gpu.binary` translation (SelectObjectAttr) emit calls to, over the CUDA
// driver API. The signatures are those of the calls MLIR 22 emits (checked
// with `mlir-opt --gpu-to-llvm` + `mlir-translate --mlir-to-llvmir`):
//
//   mgpuModuleLoad(ptr, i64)            mgpuModuleLoadJIT(ptr, i32)
//   mgpuModuleUnload(ptr)               mgpuModuleGetFunction(ptr, ptr)
//   mgpuLaunchKernel(ptr, 6 x i64, i32, ptr, ptr, ptr, i64)
//   mgpuLaunchClusterKernel(ptr, 9 x i64, i32, ptr, ptr, ptr)
//   mgpuStreamCreate() mgpuStreamDestroy(ptr) mgpuStreamSynchronize(ptr)
//   mgpuStreamWaitEvent(ptr, ptr)
//   mgpuEventCreate() mgpuEventDestroy(ptr) mgpuEventSynchronize(ptr)
//   mgpuEventRecord(ptr, ptr)
//   mgpuMemAlloc(i64, ptr, i8) -> ptr   mgpuMemFree(ptr, ptr)
//   mgpuMemcpy(ptr, ptr, i64, ptr)
//   mgpuMemset32(ptr, i32, i64, ptr)    mgpuMemset16(ptr, i16, i64, ptr)
//   mgpuMemHostRegisterMemRef(i64, ptr, i64)
//   mgpuMemHostUnregisterMemRef(i64, ptr, i64)
//   mgpuSetDefaultDevice(i32)
//
// plus mgpuMemHostRegister / mgpuMemHostUnregister (byte ranges), and for
// drivers ckptCudaProbe, ckptCudaSynchronize, ckptCudaErrorCount,
// ckptCudaFreeAll and ckptCudaAllocStaging / ckptCudaFreeStaging, and the
// host copies' ckptCudaCopyAsync / ckptCudaWaitCopy (a copy stream; host
// copies are page-locked while the library is loaded); CudaLibraries.cpp
// adds the contractions on cuBLAS and the convolutions on cuDNN. The
// cuSPARSE / cuSPARSELt wrappers (mgpuSpMV, ...) and nvgpu's
// mgpuTensorMapEncodeTiledMemref are not provided.
//
// Device allocations are recorded in the ckpt runtime's device counters
// (ckptRuntimeRecordDeviceAlloc/Free), so live and peak device bytes can be
// read with ckptRuntimeGetStats. mgpuMemAlloc asks the driver for the size
// rounded up to 16 bytes, as the CPU lowering's aligned_alloc does
// (kBufferAlignment in StepAnalysis.h, the granule the planner's memory
// model counts), and records that size: without it a 4-byte loss measured
// 12 bytes under the predicted peak on an H200 (scripts/gpu-check.sh). Errors
// are reported on stderr, naming the driver call and the CUDA error; the
// wrappers never abort.
//
//===----------------------------------------------------------------------===//

#include "CudaContext.h"

#include "ckpt/Runtime/Runtime.h"

#include "cuda.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

using namespace ckpt::cuda;

std::atomic<uint64_t> ckpt::cuda::errorCount{0};

namespace {

/// Writes "<what> failed: <NAME> (<description>)" for the error `result`
/// into `buffer`. The driver stub (no NVIDIA driver installed) cannot name
/// its own errors: the two it returns are named here.
void describeError(CUresult result, const char *what, char *buffer,
                   size_t size) {
  const char *name = nullptr;
  const char *description = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString(result, &description) != CUDA_SUCCESS)
    description = nullptr;
  if (!description) {
    switch (result) {
    case CUDA_ERROR_STUB_LIBRARY:
      name = "CUDA_ERROR_STUB_LIBRARY";
      description = "the CUDA driver stub was loaded: no NVIDIA driver is "
                    "installed";
      break;
    case CUDA_ERROR_NO_DEVICE:
      name = "CUDA_ERROR_NO_DEVICE";
      description = "no CUDA-capable device is detected";
      break;
    default:
      description = "no description";
    }
  }
  if (name)
    std::snprintf(buffer, size, "%s failed: %s (%s)", what, name, description);
  else
    std::snprintf(buffer, size, "%s failed: CUDA error %d (%s)", what,
                  static_cast<int>(result), description);
}

} // namespace

bool ckpt::cuda::check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  ++errorCount;
  char message[512];
  describeError(result, what, message, sizeof(message));
  std::fprintf(stderr, "ckpt_cuda_runtime: %s\n", message);
  return false;
}

thread_local int32_t ckpt::cuda::defaultDevice = 0;

namespace {

/// The primary context of each device, retained on first use. Null when the
/// driver or the device is unusable (the reason has been printed once).
CUcontext primaryContext(int32_t ordinal) {
  static std::mutex mutex;
  static std::vector<CUcontext> contexts;
  static std::vector<bool> tried;
  static bool initTried = false, initOk = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (!initTried) {
    initTried = true;
    CUresult result = cuInit(/*Flags=*/0);
    initOk = result == CUDA_SUCCESS;
    if (!initOk) {
      check(result, "cuInit(0)");
      std::fprintf(stderr, "ckpt_cuda_runtime: no usable CUDA driver; every "
                           "mgpu* call will fail\n");
    }
  }
  if (!initOk || ordinal < 0)
    return nullptr;
  if (static_cast<size_t>(ordinal) >= contexts.size()) {
    contexts.resize(ordinal + 1, nullptr);
    tried.resize(ordinal + 1, false);
  }
  if (!tried[ordinal]) {
    tried[ordinal] = true;
    CUdevice device;
    if (!check(cuDeviceGet(&device, ordinal), "cuDeviceGet")) {
      int count = 0;
      cuDeviceGetCount(&count);
      std::fprintf(stderr,
                   "ckpt_cuda_runtime: no CUDA device %d (%d device(s))\n",
                   ordinal, count);
    } else {
      CUcontext context = nullptr;
      if (CKPT_CUDA_CHECK(cuDevicePrimaryCtxRetain(&context, device)))
        contexts[ordinal] = context;
    }
  }
  return contexts[ordinal];
}

} // namespace

ScopedContext::ScopedContext() {
  CUcontext context = primaryContext(defaultDevice);
  if (context)
    pushed = CKPT_CUDA_CHECK(cuCtxPushCurrent(context));
}

ScopedContext::~ScopedContext() {
  if (pushed)
    CKPT_CUDA_CHECK(cuCtxPopCurrent(nullptr));
}

namespace {

/// The leading fields of a ranked memref descriptor; sizes then strides
/// follow, `rank` of each.
struct MemRefDescriptorHead {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

/// The byte size of a dense memref and checks that it is dense.
bool denseByteSize(int64_t rank, const MemRefDescriptorHead *desc,
                   int64_t elementSizeBytes, uint64_t &bytes) {
  const int64_t *sizes = desc->sizesAndStrides;
  const int64_t *strides = desc->sizesAndStrides + rank;
  int64_t expected = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    if (sizes[i] != 1 && strides[i] != expected)
      return false;
    expected *= sizes[i];
  }
  bytes =
      static_cast<uint64_t>(expected) * static_cast<uint64_t>(elementSizeBytes);
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

CKPT_CUDA_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  ScopedContext scoped;
  CUmodule module = nullptr;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuModuleLoadData(&module, data));
  return module;
}

CKPT_CUDA_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ScopedContext scoped;
  CUmodule module = nullptr;
  if (!scoped.ok())
    return module;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result = cuModuleLoadDataEx(&module, data, 3, options, values);
  if (!check(result, "cuModuleLoadDataEx (PTX JIT)"))
    std::fprintf(stderr, "ckpt_cuda_runtime: PTX JIT log:\n%s\n", log);
  return module;
}

CKPT_CUDA_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (module)
    CKPT_CUDA_CHECK(cuModuleUnload(module));
}

CKPT_CUDA_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                                  const char *name) {
  CUfunction function = nullptr;
  if (!module) {
    std::fprintf(stderr,
                 "ckpt_cuda_runtime: cannot look up kernel '%s': the module "
                 "did not load\n",
                 name ? name : "<null>");
    return function;
  }
  if (!check(cuModuleGetFunction(&function, module, name),
             "cuModuleGetFunction"))
    std::fprintf(stderr, "ckpt_cuda_runtime: kernel '%s' not found\n",
                 name ? name : "<null>");
  return function;
}

/// Sets the dynamic shared memory limit when a kernel asks for more than the
/// default 48 KiB.
static bool prepareSharedMemory(CUfunction function, int32_t smem) {
  if (smem <= 48 * 1024)
    return true;
  CUdevice device;
  int maxShmem = 0;
  if (CKPT_CUDA_CHECK(cuCtxGetDevice(&device)) &&
      CKPT_CUDA_CHECK(cuDeviceGetAttribute(
          &maxShmem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
          device)) &&
      maxShmem < smem) {
    std::fprintf(stderr,
                 "ckpt_cuda_runtime: the kernel asks for %d bytes of shared "
                 "memory, the device allows %d\n",
                 smem, maxShmem);
    return false;
  }
  return CKPT_CUDA_CHECK(cuFuncSetAttribute(
      function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
}

CKPT_CUDA_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                       intptr_t gridY, intptr_t gridZ,
                                       intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem,
                                       CUstream stream, void **params,
                                       void **extra, size_t /*paramsCount*/) {
  ScopedContext scoped;
  if (!scoped.ok())
    return;
  if (!function) {
    std::fprintf(stderr, "ckpt_cuda_runtime: launch of a null kernel\n");
    ++errorCount;
    return;
  }
  if (!prepareSharedMemory(function, smem))
    return;
  ckptRuntimeRecordLaunch();
  CKPT_CUDA_CHECK(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                 blockZ, smem, stream, params, extra));
}

CKPT_CUDA_EXPORT void
mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                        intptr_t clusterY, intptr_t clusterZ, intptr_t gridX,
                        intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                        intptr_t blockY, intptr_t blockZ, int32_t smem,
                        CUstream stream, void **params, void **extra) {
  ScopedContext scoped;
  if (!scoped.ok())
    return;
  if (!function) {
    std::fprintf(stderr, "ckpt_cuda_runtime: launch of a null kernel\n");
    ++errorCount;
    return;
  }
  if (!prepareSharedMemory(function, smem))
    return;
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(clusterX);
  attribute.value.clusterDim.y = static_cast<unsigned>(clusterY);
  attribute.value.clusterDim.z = static_cast<unsigned>(clusterZ);
  CUlaunchConfig config = {};
  config.gridDimX = static_cast<unsigned>(gridX);
  config.gridDimY = static_cast<unsigned>(gridY);
  config.gridDimZ = static_cast<unsigned>(gridZ);
  config.blockDimX = static_cast<unsigned>(blockX);
  config.blockDimY = static_cast<unsigned>(blockY);
  config.blockDimZ = static_cast<unsigned>(blockZ);
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  ckptRuntimeRecordLaunch();
  if (clusterX > 1 || clusterY > 1 || clusterZ > 1)
    CKPT_CUDA_CHECK(cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  CKPT_CUDA_CHECK(cuLaunchKernelEx(&config, function, params, extra));
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

namespace {
/// The stream mgpuStreamCreate hands out on this thread, one per device,
/// created on first use and kept. The lowered host code creates a stream
/// for every launch and every free, waits for it and destroys it (launches
/// are synchronous): one stream serves them all, in the same order, without
/// a cuStreamCreate and a cuStreamDestroy each.
thread_local std::vector<CUstream> launchStreams;
} // namespace

CKPT_CUDA_EXPORT CUstream mgpuStreamCreate() {
  ScopedContext scoped;
  if (!scoped.ok() || defaultDevice < 0)
    return nullptr;
  if (static_cast<size_t>(defaultDevice) >= launchStreams.size())
    launchStreams.resize(defaultDevice + 1, nullptr);
  CUstream &stream = launchStreams[defaultDevice];
  if (!stream &&
      !CKPT_CUDA_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING)))
    stream = nullptr;
  return stream;
}

/// Keeps the thread's launch stream (mgpuStreamCreate's) for the next
/// launch; destroys any other.
CKPT_CUDA_EXPORT void mgpuStreamDestroy(CUstream stream) {
  if (!stream || std::find(launchStreams.begin(), launchStreams.end(),
                           stream) != launchStreams.end())
    return;
  CKPT_CUDA_CHECK(cuStreamDestroy(stream));
}

CKPT_CUDA_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuStreamSynchronize(stream));
}

CKPT_CUDA_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuStreamWaitEvent(stream, event, /*Flags=*/0));
}

CKPT_CUDA_EXPORT CUevent mgpuEventCreate() {
  ScopedContext scoped;
  CUevent event = nullptr;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

CKPT_CUDA_EXPORT void mgpuEventDestroy(CUevent event) {
  if (event)
    CKPT_CUDA_CHECK(cuEventDestroy(event));
}

CKPT_CUDA_EXPORT void mgpuEventSynchronize(CUevent event) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuEventSynchronize(event));
}

CKPT_CUDA_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuEventRecord(event, stream));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

CKPT_CUDA_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                                    bool isHostShared) {
  ScopedContext scoped;
  CUdeviceptr ptr = 0;
  if (!scoped.ok() || sizeBytes == 0)
    return nullptr;
  constexpr uint64_t kGranule = 16; // kBufferAlignment (StepAnalysis.h)
  sizeBytes = (sizeBytes + kGranule - 1) / kGranule * kGranule;
  bool ok =
      isHostShared
          ? check(cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL),
                  "cuMemAllocManaged")
          : check(cuMemAlloc(&ptr, sizeBytes), "cuMemAlloc");
  if (!ok) {
    std::fprintf(stderr,
                 "ckpt_cuda_runtime: could not allocate %llu bytes of %s "
                 "memory\n",
                 static_cast<unsigned long long>(sizeBytes),
                 isHostShared ? "managed" : "device");
    return nullptr;
  }
  void *result = reinterpret_cast<void *>(ptr);
  ckptRuntimeRecordDeviceAlloc(result, sizeBytes);
  return result;
}

CKPT_CUDA_EXPORT void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (!ptr)
    return;
  // Counted as an unknown free when mgpuMemAlloc did not return it; still
  // handed to the driver, which reports an error for a bad pointer.
  if (!ckptRuntimeRecordDeviceFree(ptr)) {
    ++errorCount;
    std::fprintf(stderr,
                 "ckpt_cuda_runtime: mgpuMemFree of %p, which mgpuMemAlloc "
                 "did not return\n",
                 ptr);
  }
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

CKPT_CUDA_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                 CUstream stream) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                  reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                                  stream));
}

CKPT_CUDA_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                   CUstream stream) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                     count, stream));
}

CKPT_CUDA_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                   size_t count, CUstream stream) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                     count, stream));
}

CKPT_CUDA_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuMemHostRegister(ptr, sizeBytes, /*Flags=*/0));
}

CKPT_CUDA_EXPORT void mgpuMemHostUnregister(void *ptr) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuMemHostUnregister(ptr));
}

CKPT_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                int64_t elementSizeBytes) {
  auto *desc = static_cast<MemRefDescriptorHead *>(descriptor);
  uint64_t bytes = 0;
  if (!denseByteSize(rank, desc, elementSizeBytes, bytes)) {
    std::fprintf(stderr, "ckpt_cuda_runtime: mgpuMemHostRegisterMemRef: only "
                         "dense (identity-layout) memrefs can be registered\n");
    ++errorCount;
    return;
  }
  mgpuMemHostRegister(desc->aligned + desc->offset * elementSizeBytes, bytes);
}

CKPT_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t /*rank*/,
                                                  void *descriptor,
                                                  int64_t elementSizeBytes) {
  auto *desc = static_cast<MemRefDescriptorHead *>(descriptor);
  mgpuMemHostUnregister(desc->aligned + desc->offset * elementSizeBytes);
}

CKPT_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}

//===----------------------------------------------------------------------===//
// For drivers (ckpt-run --gpu)
//===----------------------------------------------------------------------===//

/// Initializes the driver and checks that device 0 can be used: returns the
/// number of devices and writes device 0's name into `message`, or returns 0
/// and writes why no device can be used (one line, no trailing newline).
/// Prints nothing.
CKPT_CUDA_EXPORT int ckptCudaProbe(char *message, size_t size) {
  auto say = [&](const char *text) {
    if (size)
      std::snprintf(message, size, "%s", text);
  };
  auto explain = [&](CUresult result, const char *what) {
    if (size)
      describeError(result, what, message, size);
  };
  CUresult result = cuInit(/*Flags=*/0);
  if (result != CUDA_SUCCESS) {
    explain(result, "cuInit");
    return 0;
  }
  int count = 0;
  result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    explain(result, "cuDeviceGetCount");
    return 0;
  }
  if (count <= 0) {
    say("the CUDA driver reports no device");
    return 0;
  }
  CUdevice device;
  char name[256] = {0};
  if (cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuDeviceGetName(name, sizeof(name), device) != CUDA_SUCCESS)
    std::snprintf(name, sizeof(name), "CUDA device 0");
  say(name);
  return count;
}

/// Waits for all work on the current device's primary context; returns 1
/// on success.
CKPT_CUDA_EXPORT int ckptCudaSynchronize(void) {
  ScopedContext scoped;
  return scoped.ok() && CKPT_CUDA_CHECK(cuCtxSynchronize()) ? 1 : 0;
}

/// Driver calls (and wrapper checks) that failed since the library was
/// loaded; each was reported on stderr.
CKPT_CUDA_EXPORT uint64_t ckptCudaErrorCount(void) { return errorCount; }

//===----------------------------------------------------------------------===//
// Host copies: page-locked memory and a copy stream
//===----------------------------------------------------------------------===//

namespace {

void *allocPinned(size_t bytes) {
  ScopedContext scoped;
  void *ptr = nullptr;
  if (!scoped.ok() || !CKPT_CUDA_CHECK(cuMemAllocHost(&ptr, bytes)))
    return nullptr;
  return ptr;
}

void freePinned(void *ptr) {
  ScopedContext scoped;
  if (scoped.ok())
    CKPT_CUDA_CHECK(cuMemFreeHost(ptr));
}

/// Host copies of offloaded values are page-locked while this library is
/// loaded: a copy between device and pageable memory would not be
/// asynchronous. (A failed cuMemAllocHost falls back to pageable memory.)
struct PinnedHostCopies {
  PinnedHostCopies() {
    ckptRuntimeSetHostCopyAllocator(allocPinned, freePinned);
  }
} pinnedHostCopies;

/// The stream every host copy runs on, in issue order (the plan's one
/// link), created on first use; null when it cannot be.
CUstream copyStream() {
  static std::mutex mutex;
  static CUstream stream = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (!stream)
    CKPT_CUDA_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

} // namespace

/// What ckpt-async-host-copies{runtime=cuda} calls for each copy into or out
/// of a host copy: `bytes` from `src` to `dst` on the copy stream, behind
/// the copies issued before it; returns an event (as an integer) that
/// ckptCudaWaitCopy waits for, or 0 when the copy could not be issued (the
/// error was printed and counted).
CKPT_CUDA_EXPORT int64_t ckptCudaCopyAsync(int64_t dst, int64_t src,
                                           int64_t bytes) {
  ScopedContext scoped;
  if (!scoped.ok() || bytes <= 0)
    return 0;
  CUstream stream = copyStream();
  if (!stream)
    return 0;
  CUevent event = nullptr;
  if (!CKPT_CUDA_CHECK(cuMemcpyAsync(static_cast<CUdeviceptr>(dst),
                                     static_cast<CUdeviceptr>(src),
                                     static_cast<size_t>(bytes), stream)) ||
      !CKPT_CUDA_CHECK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING)))
    return 0;
  if (!CKPT_CUDA_CHECK(cuEventRecord(event, stream))) {
    CKPT_CUDA_CHECK(cuEventDestroy(event));
    return 0;
  }
  return reinterpret_cast<int64_t>(event);
}

/// Blocks until the copy of `event` (and those issued before it) has
/// ended, then releases the event.
CKPT_CUDA_EXPORT void ckptCudaWaitCopy(int64_t event) {
  if (!event)
    return;
  ScopedContext scoped;
  if (!scoped.ok())
    return;
  auto *handle = reinterpret_cast<CUevent>(event);
  CKPT_CUDA_CHECK(cuEventSynchronize(handle));
  CKPT_CUDA_CHECK(cuEventDestroy(handle));
}

/// Managed memory for a driver's copies of a step's arguments
/// (ckpt.compile_step with device="cuda": the kernels and the step's host part
/// both read them). Not counted: like the arguments of a CPU step, they are the
/// caller's memory, not the step's. Null (after printing why) on failure.
CKPT_CUDA_EXPORT void *ckptCudaAllocStaging(uint64_t sizeBytes) {
  ScopedContext scoped;
  CUdeviceptr ptr = 0;
  if (!scoped.ok() || sizeBytes == 0 ||
      !check(cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL),
             "cuMemAllocManaged"))
    return nullptr;
  return reinterpret_cast<void *>(ptr);
}

/// Frees what ckptCudaAllocStaging returned.
CKPT_CUDA_EXPORT void ckptCudaFreeStaging(void *ptr) {
  ScopedContext scoped;
  if (ptr && scoped.ok())
    CKPT_CUDA_CHECK(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

/// Frees every live device allocation made through mgpuMemAlloc; returns how
/// many. For drivers that reclaim leaked buffers between runs.
CKPT_CUDA_EXPORT size_t ckptCudaFreeAll(void) {
  std::vector<void *> ptrs(ckptRuntimeListDeviceAllocations(nullptr, 0));
  size_t count = ckptRuntimeListDeviceAllocations(ptrs.data(), ptrs.size());
  ptrs.resize(std::min(count, ptrs.size()));
  for (void *ptr : ptrs)
    mgpuMemFree(ptr, nullptr);
  return ptrs.size();
}
