//===- GemmTest.cpp - strided contractions as column-major sgemms ---------===//
//
// The plan that the CUDA runtime hands cuBLAS (ckpt/Runtime/Gemm.h), run
// here through a plain column-major strided batched sgemm written from
// cuBLAS's documentation, against the contraction computed on logical
// indices: every layout an importer writes (each operand's dimensions in any
// order, padded rows, size-1 dimensions, one or two batch dimensions or
// none) must give the same C. Integer-valued inputs: the sums are exact.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/Gemm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

using namespace ckpt::gemm;

namespace {

/// cublasSgemmStridedBatched's semantics with alpha = beta = 1: for each
/// batch entry, C (m x n, column-major) += op(F) op(S).
void referenceSgemm(const ColumnMajorGemm &g, const float *f, const float *s,
                    float *c, int64_t count, int64_t sf, int64_t ss,
                    int64_t sc) {
  for (int64_t e = 0; e < count; ++e)
    for (int64_t j = 0; j < g.n; ++j)
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t p = 0; p < g.k; ++p) {
          float x = g.transFirst ? f[e * sf + p + i * g.ldFirst]
                                 : f[e * sf + i + p * g.ldFirst];
          float y = g.transSecond ? s[e * ss + j + p * g.ldSecond]
                                  : s[e * ss + p + j * g.ldSecond];
          c[e * sc + i + j * g.ldc] += x * y;
        }
}

/// An operand stored densely with its four dimensions in the order `order`
/// (outermost first) and `pad` extra elements after each innermost run.
struct Stored {
  std::vector<float> data;
  BatchedOperand view;
};

Stored store(std::array<int64_t, 4> sizes, std::array<int, 4> order,
             int64_t pad, bool hasBatch0, bool hasBatch1, std::mt19937 &rng) {
  Stored out;
  int64_t stride = 1;
  std::array<int64_t, 4> strides{};
  for (int i = 3; i >= 0; --i) {
    strides[order[i]] = stride;
    stride *= sizes[order[i]] + (i == 3 ? pad : 0);
  }
  out.data.resize(static_cast<size_t>(stride));
  std::uniform_int_distribution<int> value(-4, 4);
  for (float &v : out.data)
    v = static_cast<float>(value(rng));
  out.view.data = out.data.data();
  for (int d = 0; d < 4; ++d) {
    bool absent = (d == 0 && !hasBatch0) || (d == 1 && !hasBatch1);
    out.view.size[d] = absent ? 1 : sizes[d];
    out.view.stride[d] = absent ? 0 : strides[d];
  }
  return out;
}

float at(const BatchedOperand &x, int64_t e0, int64_t e1, int64_t r,
         int64_t c) {
  return x.data[e0 * x.stride[0] + e1 * x.stride[1] + r * x.stride[2] +
                c * x.stride[3]];
}

std::array<int, 4> randomOrder(std::mt19937 &rng) {
  std::array<int, 4> order = {0, 1, 2, 3};
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

TEST(Gemm, EveryLayoutGivesTheContraction) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> dim(1, 4), pad(0, 2), coin(0, 1);
  int planned = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    bool b0 = coin(rng), b1 = coin(rng);
    int64_t e0 = b0 ? dim(rng) : 1, e1 = b1 ? dim(rng) : 1;
    int64_t m = dim(rng), n = dim(rng), k = dim(rng);
    Stored a = store({e0, e1, m, k}, randomOrder(rng), pad(rng), b0, b1, rng);
    Stored b = store({e0, e1, k, n}, randomOrder(rng), pad(rng), b0, b1, rng);
    Stored c = store({e0, e1, m, n}, randomOrder(rng), pad(rng), b0, b1, rng);
    std::vector<float> expected = c.data;
    BatchedOperand want = c.view;
    want.data = expected.data();
    for (int64_t x = 0; x < e0; ++x)
      for (int64_t y = 0; y < e1; ++y)
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j)
            for (int64_t p = 0; p < k; ++p)
              want.data[x * want.stride[0] + y * want.stride[1] +
                        i * want.stride[2] + j * want.stride[3]] +=
                  at(a.view, x, y, i, p) * at(b.view, x, y, p, j);
    bool ran = forEachGemm(a.view, b.view, c.view,
                           [](const ColumnMajorGemm &g, auto... rest) {
                             referenceSgemm(g, rest...);
                           });
    // Every operand has a unit stride (its innermost dimension) along one
    // of its matrix dimensions exactly when that dimension is stored last.
    auto unit = [](const BatchedOperand &x, int64_t rows, int64_t cols) {
      return x.stride[2] == 1 || x.stride[3] == 1 || rows == 1 || cols == 1;
    };
    bool mappable =
        unit(a.view, m, k) && unit(b.view, k, n) && unit(c.view, m, n);
    if (ran)
      ++planned;
    if (!mappable) {
      EXPECT_FALSE(ran) << "trial " << trial;
      continue;
    }
    ASSERT_TRUE(ran) << "trial " << trial;
    EXPECT_EQ(c.data, expected) << "trial " << trial;
  }
  // Most random layouts map (each operand needs one of its two matrix
  // dimensions innermost): the check above ran on many of each kind.
  EXPECT_GT(planned, 300);
}

TEST(Gemm, SwapsOperandsForARowMajorResult) {
  // Row-major A (2x3), B (3x4), C (2x4): C^T = B^T A^T, no transposes.
  std::optional<ColumnMajorGemm> g =
      planGemm({2, 3, 3, 1}, {3, 4, 4, 1}, {2, 4, 4, 1});
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->swapped);
  EXPECT_FALSE(g->transFirst);
  EXPECT_FALSE(g->transSecond);
  EXPECT_EQ(g->m, 4);
  EXPECT_EQ(g->n, 2);
  EXPECT_EQ(g->k, 3);
  EXPECT_EQ(g->ldFirst, 4);
  EXPECT_EQ(g->ldSecond, 3);
  EXPECT_EQ(g->ldc, 4);
}

TEST(Gemm, TransposesAColumnMajorOperandOfARowMajorResult) {
  // A^T stored row-major (A is 2x3 with strides (1, 2)): C^T = B^T A^T
  // with A^T's storage read transposed.
  std::optional<ColumnMajorGemm> g =
      planGemm({2, 3, 1, 2}, {3, 4, 4, 1}, {2, 4, 4, 1});
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->swapped);
  EXPECT_FALSE(g->transFirst);
  EXPECT_TRUE(g->transSecond);
  EXPECT_EQ(g->ldSecond, 2);
}

TEST(Gemm, RefusesAnOperandWithoutAUnitStride) {
  // Every other element of a row: no unit stride in A.
  EXPECT_FALSE(planGemm({2, 3, 6, 2}, {3, 4, 4, 1}, {2, 4, 4, 1}));
  // A leading dimension shorter than a column: overlapping columns.
  EXPECT_FALSE(planGemm({2, 3, 1, 1}, {3, 4, 4, 1}, {2, 4, 4, 1}));
  // Sizes past cuBLAS's int.
  EXPECT_FALSE(planGemm({int64_t(1) << 32, 1, 1, 1}, {1, 1, 1, 1},
                        {int64_t(1) << 32, 1, 1, 1}));
}

} // namespace
