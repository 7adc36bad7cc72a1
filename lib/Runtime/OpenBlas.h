//===- OpenBlas.h - OpenBLAS, loaded when a kernel needs it -----*- C++ -*-===//
//
// The kernels' one BLAS function, cblas_sgemm, from OpenBLAS loaded at run
// time (dlopen) rather than linked, so that the runtime can choose
// OpenBLAS's kernels before OpenBLAS looks at the CPU: OpenBLAS 0.3.21
// (Debian 12) does not know CPUs newer than itself, such as Xeons of family
// 6 model 207, and falls back there to its SSE3 kernels ("Prescott"),
// about three times slower than its AVX-512 ones.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_RUNTIME_OPENBLAS_H
#define CKPT_LIB_RUNTIME_OPENBLAS_H

namespace ckpt::runtime {

/// cblas_sgemm's signature, its enums as their values (CblasRowMajor = 101,
/// CblasNoTrans = 111, CblasTrans = 112).
using SgemmFunction = void (*)(int order, int transA, int transB, int m, int n,
                               int k, float alpha, const float *a, int lda,
                               const float *b, int ldb, float beta, float *c,
                               int ldc);
inline constexpr int kCblasRowMajor = 101;
inline constexpr int kCblasNoTrans = 111;
inline constexpr int kCblasTrans = 112;

/// OpenBLAS's cblas_sgemm, loaded on the first call (thread-safe): from
/// CKPT_OPENBLAS (a path) when it is set, and then only from there (one
/// line on stderr when it does not load); else the library the build
/// found, else libopenblas.so.0 on the library path. Before loading, where
/// OPENBLAS_CORETYPE is unset, it is set from the CPU's features: SkylakeX
/// with AVX-512 (F, BW, DQ, VL), Haswell with AVX2 and FMA (x86-64 only).
/// OpenBLAS reads it, and OPENBLAS_NUM_THREADS, when it loads. Null when
/// no OpenBLAS loads: the kernels then run loop nests.
SgemmFunction openblasSgemm();

/// The OPENBLAS_CORETYPE the runtime would choose for this CPU, or null to
/// leave OpenBLAS's own detection.
const char *chooseOpenBlasCore();

} // namespace ckpt::runtime

#endif // CKPT_LIB_RUNTIME_OPENBLAS_H
