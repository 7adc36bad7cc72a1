//===- HostCublas.cpp - a cuBLAS on the host, for tests -------------------===//
//
// libcublas.so.13 for the tests of the CUDA runtime's contraction on a
// machine without a GPU (test/Run/cuda-kernels-host.test): the three
// functions the runtime loads, with cuBLAS's documented signatures and
// argument checks, computing on host memory. cublasSgemmStridedBatched is
// C_e = alpha op(A_e) op(B_e) + beta C_e for each batch entry e, column-major,
// and returns CUBLAS_STATUS_INVALID_VALUE (7) for the arguments cuBLAS
// refuses (a negative size, a leading dimension below the rows of its
// operand's storage). It counts its calls (ckptHostCublasCalls). Never
// installed, and on no library path: the tests point CKPT_CUBLAS at it.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>

#define CKPT_HOST_CUBLAS_EXPORT                                                \
  extern "C" __attribute__((visibility("default")))

namespace {
constexpr int kSuccess = 0, kInvalidValue = 7, kOpN = 0, kOpT = 1;
int64_t calls = 0;
int handleStorage;
} // namespace

CKPT_HOST_CUBLAS_EXPORT int cublasCreate_v2(void **handle) {
  *handle = &handleStorage;
  return kSuccess;
}

CKPT_HOST_CUBLAS_EXPORT const char *cublasGetStatusString(int status) {
  return status == kInvalidValue ? "CUBLAS_STATUS_INVALID_VALUE"
                                 : "CUBLAS_STATUS_UNKNOWN";
}

CKPT_HOST_CUBLAS_EXPORT int64_t ckptHostCublasCalls() { return calls; }

CKPT_HOST_CUBLAS_EXPORT int
cublasSgemmStridedBatched(void *handle, int transa, int transb, int m, int n,
                          int k, const float *alpha, const float *a, int lda,
                          long long strideA, const float *b, int ldb,
                          long long strideB, const float *beta, float *c,
                          int ldc, long long strideC, int batchCount) {
  ++calls;
  bool ta = transa == kOpT, tb = transb == kOpT;
  if (handle != &handleStorage || (transa != kOpN && !ta) ||
      (transb != kOpN && !tb) || m < 0 || n < 0 || k < 0 || batchCount < 0 ||
      lda < std::max(1, ta ? k : m) || ldb < std::max(1, tb ? n : k) ||
      ldc < std::max(1, m))
    return kInvalidValue;
  for (int e = 0; e < batchCount; ++e) {
    const float *ae = a + e * strideA, *be = b + e * strideB;
    float *ce = c + e * strideC;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        float sum = 0.0f;
        for (int p = 0; p < k; ++p)
          sum += (ta ? ae[p + i * lda] : ae[i + p * lda]) *
                 (tb ? be[j + p * ldb] : be[p + j * ldb]);
        ce[i + j * ldc] = *alpha * sum + *beta * ce[i + j * ldc];
      }
  }
  return kSuccess;
}
