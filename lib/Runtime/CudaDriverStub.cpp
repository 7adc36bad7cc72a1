//===- CudaDriverStub.cpp - a CUDA driver that has no device -------------===//
//
// libcuda.so.1 for machines whose CUDA toolkit ships no driver stub
// (lib64/stubs/libcuda.so): every driver function libckpt_cuda_runtime.so
// calls, each returning CUDA_ERROR_STUB_LIBRARY, as NVIDIA's stub does.
// ckpt_cuda_runtime links against it (its SONAME is the driver's,
// libcuda.so.1), so that the runtime builds where no driver is installed;
// on a machine with a GPU the driver's own libcuda.so.1 is loaded instead:
// nothing points the loader at this one (it lies in build/lib/cuda-stub,
// which is on no library path and in no RPATH). The tests put it on
// LD_LIBRARY_PATH to see a runtime that loads but finds no device.
//
// The prototypes are cuda.h's, whose macros give the versioned names
// (cuMemAlloc -> cuMemAlloc_v2, ...) the real driver exports.
//
// Built with CKPT_STUB_HOST_CONTEXT (ckpt_cuda_host_driver, for tests of
// the runtime's host-side functions on managed pointers that are host
// memory here): a context can be made current on device 0, and streams
// created, destroyed (both counted: ckptHostDriverStreams) and synchronized
// (cuInit, cuDeviceGet, cuDevicePrimaryCtxRetain, cuCtxPushCurrent,
// cuCtxPopCurrent, cuStreamCreate, cuStreamDestroy and cuStreamSynchronize
// succeed); everything else fails as the stub does.
//
//===----------------------------------------------------------------------===//

#include "cuda.h"

#define CKPT_STUB_EXPORT __attribute__((visibility("default")))

#ifdef CKPT_STUB_HOST_CONTEXT
#define CKPT_HOST_CONTEXT_RESULT CUDA_SUCCESS
#else
#define CKPT_HOST_CONTEXT_RESULT CUDA_ERROR_STUB_LIBRARY
#endif

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif

extern "C" {

CKPT_STUB_EXPORT CUresult CUDAAPI cuCtxGetDevice(CUdevice *device) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx) {
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) {
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuCtxSynchronize(void) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
#ifdef CKPT_STUB_HOST_CONTEXT
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
#endif
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI
cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuDeviceGetCount(int *count) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuDeviceGetName(char *name, int len,
                                                  CUdevice dev) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx,
                                                           CUdevice dev) {
#ifdef CKPT_STUB_HOST_CONTEXT
  static int context;
  *pctx = reinterpret_cast<CUcontext>(&context);
#endif
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuEventCreate(CUevent *phEvent,
                                                unsigned int Flags) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuEventDestroy(CUevent hEvent) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuEventRecord(CUevent hEvent,
                                                CUstream hStream) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuEventSynchronize(CUevent hEvent) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI
cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuGetErrorName(CUresult error,
                                                 const char **pStr) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuGetErrorString(CUresult error,
                                                   const char **pStr) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuInit(unsigned int Flags) {
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuLaunchKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config,
                                                   CUfunction f,
                                                   void **kernelParams,
                                                   void **extra) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr,
                                             size_t bytesize) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr,
                                                    size_t bytesize,
                                                    unsigned int flags) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemFreeHost(void *p) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize,
                                                    unsigned int Flags) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemHostUnregister(void *p) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst,
                                                CUdeviceptr src,
                                                size_t ByteCount,
                                                CUstream hStream) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice,
                                                   unsigned short us, size_t N,
                                                   CUstream hStream) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice,
                                                   unsigned int ui, size_t N,
                                                   CUstream hStream) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc,
                                                      CUmodule hmod,
                                                      const char *name) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuModuleLoadData(CUmodule *module,
                                                   const void *image) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module,
                                                     const void *image,
                                                     unsigned int numOptions,
                                                     CUjit_option *options,
                                                     void **optionValues) {
  return CUDA_ERROR_STUB_LIBRARY;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuModuleUnload(CUmodule hmod) {
  return CUDA_ERROR_STUB_LIBRARY;
}

#ifdef CKPT_STUB_HOST_CONTEXT
namespace {
int streamsCreated = 0, streamsDestroyed = 0;
char streamStorage[1024];
} // namespace

/// The streams cuStreamCreate and cuStreamDestroy have made and destroyed
/// (for the tests of the runtime's stream reuse).
CKPT_STUB_EXPORT int ckptHostDriverStreams(int destroyed) {
  return destroyed ? streamsDestroyed : streamsCreated;
}
#endif

CKPT_STUB_EXPORT CUresult CUDAAPI cuStreamCreate(CUstream *phStream,
                                                 unsigned int Flags) {
#ifdef CKPT_STUB_HOST_CONTEXT
  *phStream = reinterpret_cast<CUstream>(
      streamStorage + (streamsCreated++ % sizeof(streamStorage)));
#endif
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuStreamDestroy(CUstream hStream) {
#ifdef CKPT_STUB_HOST_CONTEXT
  ++streamsDestroyed;
#endif
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuStreamSynchronize(CUstream hStream) {
  return CKPT_HOST_CONTEXT_RESULT;
}

CKPT_STUB_EXPORT CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream,
                                                    CUevent hEvent,
                                                    unsigned int Flags) {
  return CUDA_ERROR_STUB_LIBRARY;
}

} // extern "C"
