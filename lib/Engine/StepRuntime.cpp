//===- StepRuntime.cpp - load the CUDA runtime a JIT'd step calls ---------===//

#include "ckpt/Engine/StepRuntime.h"
#include "ckpt/Runtime/Gemm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

#include <dlfcn.h>
#include <initializer_list>
#include <type_traits>

using namespace ckpt;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<StepRuntime> ckpt::loadCudaRuntime(llvm::StringRef path,
                                                  llvm::StringRef missingHint) {
  std::string file = path.str();
  if (!llvm::sys::fs::exists(file))
    return error("no CUDA runtime at '" + file +
                 "': ckpt was built without the CUDA toolkit "
                 "(CKPT_ENABLE_CUDA=OFF or no toolkit found)" +
                 missingHint);
  // RTLD_LOCAL: its symbols reach the JIT through the path in
  // JitOptions::sharedLibs, not the global scope. Loading fails when
  // libcuda.so.1 (the driver) is missing. Never closed: JIT'd code may call
  // it until the process ends.
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return error("no CUDA device available: cannot load '" + file + "' (" +
                 (why ? why : "unknown reason") + ")");
  }
  StepRuntime runtime;
  const char *missing = nullptr;
  auto get = [&](const char *name, auto &fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(handle, name));
    if (!fn && !missing)
      missing = name;
  };
  get("ckptRuntimeReset", runtime.reset);
  get("ckptRuntimeGetStats", runtime.getStats);
  get("ckptRuntimeFindAllocation", runtime.findHost);
  get("ckptRuntimeFreeAll", runtime.freeAllHost);
  get("_mlir_memref_to_llvm_free", runtime.freeHost);
  get("_mlir_memref_to_llvm_alloc", runtime.alloc);
  get("_mlir_memref_to_llvm_aligned_alloc", runtime.alignedAlloc);
  get("ckptRuntimeBeginHostCopy", runtime.beginHostCopy);
  get("ckptRuntimeEndHostCopy", runtime.endHostCopy);
  get("ckptRuntimeFindDeviceAllocation", runtime.findDevice);
  get("mgpuMemFree", runtime.freeDevice);
  get("mgpuMemAlloc", runtime.allocDevice);
  get("ckptCudaCopyAsync", runtime.copyAsync);
  get("ckptCudaWaitCopy", runtime.waitCopy);
  get("ckptCudaFreeAll", runtime.freeAllDevice);
  get("ckptCudaAllocStaging", runtime.allocStaging);
  get("ckptCudaFreeStaging", runtime.freeStaging);
  get("ckptCudaProbe", runtime.probe);
  get("ckptCudaSynchronize", runtime.synchronize);
  get("ckptCudaErrorCount", runtime.errorCount);
  get("ckptCudaLoadBlas", runtime.loadBlas);
  get("ckptCudaLoadDnn", runtime.loadDnn);
  if (missing)
    return error("'" + file + "' does not define " + missing +
                 " (a libckpt_cuda_runtime.so from another build?)");
  runtime.cudaLibrary = file;
  return runtime;
}

llvm::Expected<std::string> ckpt::probeCudaDevice(const StepRuntime &runtime) {
  char message[512] = {0};
  if (!runtime.probe || runtime.probe(message, sizeof(message)) <= 0)
    return error(llvm::Twine("no CUDA device available (") + message + ")");
  return std::string(message);
}

llvm::Error ckpt::loadCudaLibrariesIfCalled(const StepRuntime &runtime,
                                            mlir::ModuleOp module) {
  auto load =
      [&](int (*loader)(char *, size_t),
          std::initializer_list<const char *> functions) -> llvm::Error {
    if (!loader || llvm::none_of(functions, [&](const char *name) {
          return module.lookupSymbol(name) != nullptr;
        }))
      return llvm::Error::success();
    char message[1024] = {0};
    if (loader(message, sizeof(message)) <= 0)
      return error(message);
    return llvm::Error::success();
  };
  if (llvm::Error e = load(runtime.loadBlas, {gemm::kCudaContractFunction}))
    return e;
  return load(runtime.loadDnn,
              {gemm::kCudaConvFunction, gemm::kCudaFilterGradFunction});
}
