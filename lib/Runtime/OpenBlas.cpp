//===- OpenBlas.cpp - OpenBLAS, loaded when a kernel first needs it -------===//

#include "OpenBlas.h"

#include "ckpt/Runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace ckpt::runtime {

const char *chooseOpenBlasCore() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return "Haswell";
#endif
  return nullptr;
}

namespace {
void *loadOpenBlas() {
  if (!std::getenv("OPENBLAS_CORETYPE"))
    if (const char *core = chooseOpenBlasCore())
      setenv("OPENBLAS_CORETYPE", core, /*overwrite=*/0);
  // The user's library, and only it.
  const char *chosen = std::getenv("CKPT_OPENBLAS");
  if (chosen && *chosen) {
    void *handle = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      std::fprintf(stderr,
                   "ckpt runtime: cannot load OpenBLAS from CKPT_OPENBLAS='%s' "
                   "(%s): the kernels run loop nests\n",
                   chosen, why ? why : "unknown reason");
    }
    return handle;
  }
  const char *candidates[] = {
#ifdef CKPT_OPENBLAS_PATH
      CKPT_OPENBLAS_PATH,
#endif
      "libopenblas.so.0",
  };
  for (const char *path : candidates)
    if (void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))
      return handle;
  return nullptr;
}

} // namespace

/// Loaded once, never closed: its threads may outlive any caller.
static void *openblasHandle() {
  static void *handle = loadOpenBlas();
  return handle;
}

SgemmFunction openblasSgemm() {
  static const SgemmFunction sgemm =
      openblasHandle() ? reinterpret_cast<SgemmFunction>(
                             dlsym(openblasHandle(), "cblas_sgemm"))
                       : nullptr;
  return sgemm;
}

} // namespace ckpt::runtime

extern "C" const char *ckptRuntimeBlasCore(void) {
  using CoreName = char *(*)();
  void *handle = ckpt::runtime::openblasHandle();
  auto name =
      handle
          ? reinterpret_cast<CoreName>(dlsym(handle, "openblas_get_corename"))
          : nullptr;
  return name ? name() : nullptr;
}
