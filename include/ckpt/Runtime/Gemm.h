//===- Gemm.h - a strided contraction as column-major sgemm calls -*- C++
//-*-===//
//
// How one f32 contraction C[M x N] += A[M x K] B[K x N], each operand given
// by its element strides, maps onto a column-major sgemm as cuBLAS takes it
// (cublasSgemm_v2, cublasSgemmStridedBatched): which operand goes first,
// whether each is transposed, and the leading dimensions. A row-major C is
// the column-major C^T = B^T A^T, so the operands then swap. Used by the CUDA
// runtime's contraction (lib/Runtime/CudaBlas.cpp), and at compile time by
// ckpt-call-kernels{runtime=cuda}, which sends a contraction to cuBLAS only
// when its static layout maps (the same function, so the two cannot
// disagree); and the same for a convolution's filter, which cuDNN needs
// packed. Header-only, no MLIR or LLVM dependency.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_RUNTIME_GEMM_H
#define CKPT_RUNTIME_GEMM_H

#include <algorithm>
#include <cstdint>
#include <optional>

namespace ckpt::gemm {

/// The CUDA runtime's contraction on cuBLAS and convolutions on cuDNN
/// (their C interfaces are `_mlir_ciface_` followed by these names), which
/// ckpt-call-kernels{runtime=cuda} calls with the CPU kernels' arguments.
inline constexpr const char *kCudaContractFunction = "ckpt_cuda_contract_f32";
inline constexpr const char *kCudaConvFunction =
    "ckpt_cuda_conv2d_nchw_fchw_f32";
inline constexpr const char *kCudaFilterGradFunction =
    "ckpt_cuda_conv2d_filter_grad_f32";

/// Whether a filter [F, C, KH, KW] of these sizes and element strides is
/// packed (row-major without gaps), as cuDNN's filter descriptor needs. A
/// dimension of size 1 may have any stride.
inline bool isPackedFilter(const int64_t *sizes, const int64_t *strides) {
  int64_t expected = 1;
  for (int d = 3; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      return false;
    expected *= sizes[d];
  }
  return true;
}

/// Whether cuDNN can take a convolution whose three 4-d operands have these
/// sizes and element strides, operand `filter` being its filter (or filter
/// gradient): every size and stride fits cuDNN's int and is not negative,
/// and the filter is packed. The pass asks this of static types, the
/// runtime of the descriptors.
inline bool fitsCudnn(const int64_t *const sizes[3],
                      const int64_t *const strides[3], int filter) {
  for (int i = 0; i < 3; ++i)
    for (int d = 0; d < 4; ++d)
      if (sizes[i][d] < 0 || sizes[i][d] > 0x7fffffff || strides[i][d] < 0 ||
          strides[i][d] > 0x7fffffff)
        return false;
  return isPackedFilter(sizes[filter], strides[filter]);
}

/// A matrix of `rows` x `cols` elements at element strides (rowStride,
/// colStride).
struct Matrix {
  int64_t rows, cols, rowStride, colStride;
};

/// One column-major sgemm: C (m x n, leading dimension ldc) += op(first)
/// op(second), with op the transpose where `transFirst`/`transSecond`.
/// `swapped`: first is B and second is A (C is stored as C^T), else first
/// is A and second is B.
struct ColumnMajorGemm {
  bool swapped = false, transFirst = false, transSecond = false;
  int64_t m = 0, n = 0, k = 0, ldFirst = 1, ldSecond = 1, ldc = 1;
};

/// The leading dimension of `x` stored column-major (x[i][j] at i + j ld),
/// or nullopt when its strides are not that. A dimension of size 1 takes
/// any stride: it is given the one that works.
inline std::optional<int64_t> columnMajorLd(const Matrix &x) {
  int64_t rowStride = x.rows == 1 ? 1 : x.rowStride;
  int64_t ld = x.cols == 1 ? std::max<int64_t>(x.rows, 1) : x.colStride;
  if (rowStride != 1 || ld < std::max<int64_t>(x.rows, 1))
    return std::nullopt;
  return ld;
}

/// `x` as a column-major operand: itself (trans false) or the transpose of
/// a column-major matrix (trans true, x[i][j] at j + i ld). Nullopt when
/// neither stride is a unit one.
inline std::optional<int64_t> operandLd(const Matrix &x, bool &trans) {
  trans = false;
  if (std::optional<int64_t> ld = columnMajorLd(x))
    return ld;
  trans = true;
  return columnMajorLd({x.cols, x.rows, x.colStride, x.rowStride});
}

/// C += A B as one column-major sgemm, or nullopt when an operand has no
/// unit stride (or a size does not fit cuBLAS's int).
inline std::optional<ColumnMajorGemm> planGemm(const Matrix &a, const Matrix &b,
                                               const Matrix &c) {
  constexpr int64_t kIntMax = 0x7fffffff;
  ColumnMajorGemm g;
  Matrix first = a, second = b;
  std::optional<int64_t> ldc = columnMajorLd(c);
  if (!ldc) {
    // C^T (n x m) = B^T A^T.
    ldc = columnMajorLd({c.cols, c.rows, c.colStride, c.rowStride});
    if (!ldc)
      return std::nullopt;
    g.swapped = true;
    first = {b.cols, b.rows, b.colStride, b.rowStride};
    second = {a.cols, a.rows, a.colStride, a.rowStride};
  }
  std::optional<int64_t> ld1 = operandLd(first, g.transFirst);
  std::optional<int64_t> ld2 = operandLd(second, g.transSecond);
  if (!ld1 || !ld2)
    return std::nullopt;
  g.m = first.rows;
  g.n = second.cols;
  g.k = first.cols;
  g.ldFirst = *ld1;
  g.ldSecond = *ld2;
  g.ldc = *ldc;
  for (int64_t v : {g.m, g.n, g.k, g.ldFirst, g.ldSecond, g.ldc})
    if (v > kIntMax)
      return std::nullopt;
  return g;
}

/// One operand of a batched contraction: its first element, and the size
/// and element stride of its (batch0, batch1, rows, cols) dimensions (size
/// 1, stride 0 for a batch dimension it does not have).
struct BatchedOperand {
  float *data;
  int64_t size[4], stride[4];

  Matrix matrix() const { return {size[2], size[3], stride[2], stride[3]}; }
};

/// C += A B for every batch entry, as column-major strided batched sgemms
/// over batch1, one per batch0 entry: calls `sgemm(plan, first, second, c,
/// batch1 size, and the batch1 strides of first, second and C)`. Returns
/// false, calling nothing, when the matrices do not map (planGemm).
template <typename StridedBatchedSgemm>
bool forEachGemm(const BatchedOperand &a, const BatchedOperand &b,
                 const BatchedOperand &c, StridedBatchedSgemm sgemm) {
  std::optional<ColumnMajorGemm> plan =
      planGemm(a.matrix(), b.matrix(), c.matrix());
  if (!plan)
    return false;
  if (plan->m == 0 || plan->n == 0 || c.size[0] == 0 || c.size[1] == 0)
    return true;
  const BatchedOperand &first = plan->swapped ? b : a;
  const BatchedOperand &second = plan->swapped ? a : b;
  for (int64_t e = 0; e < c.size[0]; ++e)
    sgemm(*plan, first.data + e * first.stride[0],
          second.data + e * second.stride[0], c.data + e * c.stride[0],
          c.size[1], first.stride[1], second.stride[1], c.stride[1]);
  return true;
}

} // namespace ckpt::gemm

#endif // CKPT_RUNTIME_GEMM_H
