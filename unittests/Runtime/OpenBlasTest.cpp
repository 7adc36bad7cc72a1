//===- OpenBlasTest.cpp - the runtime's choice of OpenBLAS kernels --------===//
//
// ckptRuntimeBlasCore (Runtime.h): OpenBLAS, loaded at run time, runs the
// kernels the CPU's features call for. The expected core is derived here
// from the CPU's features as OpenBLAS names its targets; a user's
// OPENBLAS_CORETYPE wins. Skipped where no OpenBLAS loads.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <strings.h>

namespace {

/// What the CPU supports, as OpenBLAS's DYNAMIC_ARCH targets: the widest.
const char *expectedCore() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return "Haswell";
#endif
  return nullptr;
}

TEST(OpenBlas, RunsTheKernelsTheCpuCallsFor) {
  const char *userSet = std::getenv("OPENBLAS_CORETYPE");
  std::string want = userSet ? userSet : "";
  const char *core = ckptRuntimeBlasCore();
  if (!core)
    GTEST_SKIP() << "no OpenBLAS loads here";
  if (want.empty() && expectedCore())
    want = expectedCore();
  if (want.empty())
    GTEST_SKIP() << "the CPU has neither AVX-512 nor AVX2: OpenBLAS chose "
                 << core;
  EXPECT_EQ(strcasecmp(core, want.c_str()), 0)
      << "OpenBLAS runs " << core << ", not " << want;
  // The environment now names it, for OpenBLAS and anything started after.
  const char *set = std::getenv("OPENBLAS_CORETYPE");
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(strcasecmp(set, want.c_str()), 0);
}

} // namespace
