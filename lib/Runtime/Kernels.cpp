//===- Kernels.cpp - the BLAS kernels ckpt-call-kernels calls -------------===//
//
// f32 contractions and NCHW convolutions over OpenBLAS's cblas_sgemm
// (loaded at run time, OpenBlas.h; without it, a plain loop nest), on
// operands of any strides (read from their memref descriptors). A contraction
// runs as one sgemm per batch entry when each operand has a unit stride along
// one of its two matrix dimensions, else as a loop nest. A convolution runs as
// im2col into a workspace of at most 8 MiB, reused by the thread, then one
// sgemm per block: as many whole images as fit (their columns side by side, so
// the filter is packed once per block), else a block of output rows of one
// image (at least one row). The workspace is not one of the step's
// buffers: the step's memory is unchanged (Runtime.h).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/MemRefView.h"
#include "ckpt/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "OpenBlas.h"

using ckpt::runtime::View;

namespace {

/// The workspace's bound: 8 MiB, or CKPT_KERNEL_WORKSPACE bytes (at least
/// 64; tests set it small to run the row-blocked paths on small steps).
size_t workspaceBytes() {
  static const size_t bytes = [] {
    const char *text = std::getenv("CKPT_KERNEL_WORKSPACE");
    long long value = text ? std::atoll(text) : 0;
    return value > 0 ? std::max<size_t>(64, static_cast<size_t>(value))
                     : size_t(8) << 20;
  }();
  return bytes;
}

/// Whether a `rows` x `cols` matrix with element strides (row, column) is
/// row-major with a leading dimension, stored in `ld`. A dimension of size
/// 1 has any stride: it is given the one that works.
bool rowMajor(int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride,
              int64_t &ld) {
  if (cols == 1)
    colStride = 1;
  if (rows == 1)
    rowStride = std::max<int64_t>(cols, 1);
  ld = rowStride;
  return colStride == 1 && rowStride >= std::max<int64_t>(cols, 1);
}

/// A row-major sgemm operand: the matrix itself, or its transpose (a
/// column-major matrix); false when neither stride is 1.
bool blasLayout(int64_t rows, int64_t cols, int64_t rowStride,
                int64_t colStride, bool &transposed, int64_t &ld) {
  transposed = !rowMajor(rows, cols, rowStride, colStride, ld);
  return !transposed || rowMajor(cols, rows, colStride, rowStride, ld);
}

/// C += A B through cblas_sgemm when every operand has a unit stride and
/// OpenBLAS loads; returns false (nothing done) otherwise.
bool blasGemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t sam,
              int64_t sak, const float *b, int64_t sbk, int64_t sbn, float *c,
              int64_t scm, int64_t scn) {
  bool ta, tb, tc;
  int64_t lda, ldb, ldc;
  ckpt::runtime::SgemmFunction sgemm = ckpt::runtime::openblasSgemm();
  if (!sgemm || !blasLayout(m, n, scm, scn, tc, ldc))
    return false;
  if (tc) // a column-major C is the row-major C^T = B^T A^T
    return blasGemm(n, m, k, b, sbn, sbk, a, sak, sam, c, scn, scm);
  if (!blasLayout(m, k, sam, sak, ta, lda) ||
      !blasLayout(k, n, sbk, sbn, tb, ldb))
    return false;
  using namespace ckpt::runtime;
  sgemm(kCblasRowMajor, ta ? kCblasTrans : kCblasNoTrans,
        tb ? kCblasTrans : kCblasNoTrans, static_cast<int>(m),
        static_cast<int>(n), static_cast<int>(k), 1.0f, a,
        static_cast<int>(lda), b, static_cast<int>(ldb), 1.0f, c,
        static_cast<int>(ldc));
  return true;
}

/// C[M x N] += A[M x K] B[K x N], each given by its element strides.
void gemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t sam,
          int64_t sak, const float *b, int64_t sbk, int64_t sbn, float *c,
          int64_t scm, int64_t scn) {
  if (m == 0 || n == 0 || k == 0)
    return;
  if (blasGemm(m, n, k, a, sam, sak, b, sbk, sbn, c, scm, scn))
    return;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      float av = a[i * sam + p * sak];
      for (int64_t j = 0; j < n; ++j)
        c[i * scm + j * scn] += av * b[p * sbk + j * sbn];
    }
}

/// The thread's workspace, grown to `floats` (never shrunk).
float *workspace(size_t floats) {
  thread_local std::vector<float> buffer;
  if (buffer.size() < floats)
    buffer.resize(floats);
  return buffer.data();
}

/// col[(ci, ky, kx), (r - r0, ox)] = x[ci, r sh + ky dh, ox sw + kx dw] for
/// the output rows r0 <= r < r1: the columns of one image's block, in a
/// matrix whose rows are `ld` floats apart.
void im2col(const float *x, const int64_t *xs, int64_t c, int64_t kh,
            int64_t kw, int64_t ow, int64_t r0, int64_t r1, int64_t sh,
            int64_t sw, int64_t dh, int64_t dw, float *col, int64_t ld) {
  for (int64_t ci = 0; ci < c; ++ci)
    for (int64_t ky = 0; ky < kh; ++ky)
      for (int64_t kx = 0; kx < kw; ++kx) {
        float *dst = col + ((ci * kh + ky) * kw + kx) * ld;
        for (int64_t r = r0; r < r1; ++r) {
          const float *src =
              x + ci * xs[1] + (r * sh + ky * dh) * xs[2] + kx * dw * xs[3];
          for (int64_t ox = 0; ox < ow; ++ox)
            *dst++ = src[ox * sw * xs[3]];
        }
      }
}

/// Output rows per im2col block: the block's columns fit the workspace.
int64_t blockRows(int64_t taps, int64_t oh, int64_t ow) {
  int64_t rowFloats = std::max<int64_t>(1, taps * ow);
  int64_t fit =
      static_cast<int64_t>(workspaceBytes() / sizeof(float)) / rowFloats;
  return std::max<int64_t>(1, std::min(oh, fit));
}

/// Whole images per block when several fit the workspace, each needing
/// `floatsPerPixel` floats per output pixel (its im2col columns and the
/// F-row matrix beside them); 1 when they do not (rows are blocked then).
/// One sgemm over several images packs the filter once and has a wider N:
/// on ResNet-18 at 64x64 the last stage has 2x2 outputs per image.
int64_t blockImages(int64_t n, int64_t floatsPerPixel, int64_t oh, int64_t ow) {
  int64_t imageFloats = std::max<int64_t>(1, floatsPerPixel * oh * ow);
  int64_t fit =
      static_cast<int64_t>(workspaceBytes() / sizeof(float)) / imageFloats;
  return std::max<int64_t>(1, std::min(n, fit));
}

/// im2col of the `count` whole images from `img0` side by side: image b's
/// columns start at column b * oh * ow of a matrix whose rows are
/// count * oh * ow floats apart.
void im2colImages(const View &in, int64_t img0, int64_t count, int64_t c,
                  int64_t kh, int64_t kw, int64_t oh, int64_t ow, int64_t sh,
                  int64_t sw, int64_t dh, int64_t dw, float *col) {
  int64_t pixels = oh * ow, width = count * pixels;
  for (int64_t b = 0; b < count; ++b)
    im2col(in.data + (img0 + b) * in.strides[0], in.strides, c, kh, kw, ow, 0,
           oh, sh, sw, dh, dw, col + b * pixels, width);
}

} // namespace

extern "C" void _mlir_ciface_ckpt_kernel_contract_f32(
    const CkptUnrankedMemRef *am, const CkptUnrankedMemRef *bm,
    const CkptUnrankedMemRef *cm, int64_t ab0, int64_t ab1, int64_t ai,
    int64_t ak, int64_t bb0, int64_t bb1, int64_t bk, int64_t bj, int64_t cb0,
    int64_t cb1, int64_t ci, int64_t cj) {
  View a(am), b(bm), c(cm);
  int64_t m = c.size(ci), n = c.size(cj), k = a.size(ak);
  for (int64_t e0 = 0; e0 < c.size(cb0); ++e0)
    for (int64_t e1 = 0; e1 < c.size(cb1); ++e1)
      gemm(m, n, k, a.data + e0 * a.stride(ab0) + e1 * a.stride(ab1),
           a.stride(ai), a.stride(ak),
           b.data + e0 * b.stride(bb0) + e1 * b.stride(bb1), b.stride(bk),
           b.stride(bj), c.data + e0 * c.stride(cb0) + e1 * c.stride(cb1),
           c.stride(ci), c.stride(cj));
}

/// The filter w [F, C, KH, KW] as F x (C KH KW) row-major: itself when its
/// three inner dimensions are contiguous, else a packed copy in `packed`.
/// Returns the matrix and stores its leading dimension in `ld`.
static float *filterMatrix(const View &w, std::vector<float> &packed,
                           int64_t &ld) {
  int64_t f = w.sizes[0], c = w.sizes[1], kh = w.sizes[2], kw = w.sizes[3];
  if (w.strides[3] == 1 && w.strides[2] == kw && w.strides[1] == kh * kw) {
    ld = w.strides[0];
    return w.data;
  }
  packed.assign(static_cast<size_t>(f * c * kh * kw), 0.0f);
  for (int64_t i = 0; i < f; ++i)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x)
          packed[((i * c + ci) * kh + y) * kw + x] =
              w.data[i * w.strides[0] + ci * w.strides[1] + y * w.strides[2] +
                     x * w.strides[3]];
  ld = c * kh * kw;
  return packed.data();
}

extern "C" void _mlir_ciface_ckpt_kernel_conv2d_nchw_fchw_f32(
    const CkptUnrankedMemRef *im, const CkptUnrankedMemRef *wm,
    const CkptUnrankedMemRef *om, int64_t sh, int64_t sw, int64_t dh,
    int64_t dw) {
  View in(im), w(wm), out(om);
  int64_t n = out.sizes[0], f = out.sizes[1], oh = out.sizes[2],
          ow = out.sizes[3];
  int64_t c = w.sizes[1], kh = w.sizes[2], kw = w.sizes[3];
  int64_t taps = c * kh * kw;
  std::vector<float> packed;
  int64_t filterLd = 0;
  const float *filter = filterMatrix(w, packed, filterLd);
  int64_t images = blockImages(n, taps + f, oh, ow), pixels = oh * ow;
  if (images > 1) {
    // Several images per sgemm: Y (F x images pixels) = filter col, then
    // added into each image's output.
    int64_t cols = images * pixels;
    float *col = workspace(static_cast<size_t>((taps + f) * cols));
    float *product = col + taps * cols;
    for (int64_t img0 = 0; img0 < n; img0 += images) {
      int64_t count = std::min(images, n - img0), width = count * pixels;
      im2colImages(in, img0, count, c, kh, kw, oh, ow, sh, sw, dh, dw, col);
      std::fill(product, product + f * width, 0.0f);
      gemm(f, width, taps, filter, filterLd, 1, col, width, 1, product, width,
           1);
      for (int64_t b = 0; b < count; ++b)
        for (int64_t i = 0; i < f; ++i) {
          const float *src = product + i * width + b * pixels;
          float *y =
              out.data + (img0 + b) * out.strides[0] + i * out.strides[1];
          for (int64_t r = 0; r < oh; ++r)
            for (int64_t o = 0; o < ow; ++o)
              y[r * out.strides[2] + o * out.strides[3]] += src[r * ow + o];
        }
    }
    return;
  }
  int64_t rows = blockRows(taps, oh, ow);
  float *col =
      workspace(static_cast<size_t>(rows * std::max<int64_t>(1, taps * ow)));
  for (int64_t img = 0; img < n; ++img) {
    const float *x = in.data + img * in.strides[0];
    float *y = out.data + img * out.strides[0];
    for (int64_t r0 = 0; r0 < oh; r0 += rows) {
      int64_t r1 = std::min(oh, r0 + rows), cols = (r1 - r0) * ow;
      im2col(x, in.strides, c, kh, kw, ow, r0, r1, sh, sw, dh, dw, col, cols);
      // y[:, rows r0..r1) += filter (F x taps) col (taps x cols).
      if (out.strides[3] == 1 && out.strides[2] == ow) {
        gemm(f, cols, taps, filter, filterLd, 1, col, cols, 1, y + r0 * ow,
             out.strides[1], 1);
      } else {
        for (int64_t r = r0; r < r1; ++r)
          gemm(f, ow, taps, filter, filterLd, 1, col + (r - r0) * ow, cols, 1,
               y + r * out.strides[2], out.strides[1], out.strides[3]);
      }
    }
  }
}

/// dW (F x taps, rows `ld` apart) += the filter gradient of every image,
/// one image and block of output rows at a time.
static void accumulateFilterGradRows(const View &in, const View &g, int64_t c,
                                     int64_t kh, int64_t kw, int64_t sh,
                                     int64_t sw, int64_t dh, int64_t dw,
                                     float *target, int64_t ld) {
  int64_t n = g.sizes[0], f = g.sizes[1], oh = g.sizes[2], ow = g.sizes[3];
  int64_t taps = c * kh * kw;
  int64_t rows = blockRows(taps, oh, ow);
  float *col =
      workspace(static_cast<size_t>(rows * std::max<int64_t>(1, taps * ow)));
  for (int64_t img = 0; img < n; ++img) {
    const float *x = in.data + img * in.strides[0];
    const float *gi = g.data + img * g.strides[0];
    for (int64_t r0 = 0; r0 < oh; r0 += rows) {
      int64_t r1 = std::min(oh, r0 + rows), cols = (r1 - r0) * ow;
      im2col(x, in.strides, c, kh, kw, ow, r0, r1, sh, sw, dh, dw, col, cols);
      // dW (F x taps) += g[:, block] (F x cols) col^T (cols x taps).
      if (g.strides[3] == 1 && g.strides[2] == ow) {
        gemm(f, taps, cols, gi + r0 * ow, g.strides[1], 1, col, 1, cols, target,
             ld, 1);
      } else {
        for (int64_t r = r0; r < r1; ++r)
          gemm(f, taps, ow, gi + r * g.strides[2], g.strides[1], g.strides[3],
               col + (r - r0) * ow, 1, cols, target, ld, 1);
      }
    }
  }
}

extern "C" void _mlir_ciface_ckpt_kernel_conv2d_filter_grad_f32(
    const CkptUnrankedMemRef *im, const CkptUnrankedMemRef *gm,
    const CkptUnrankedMemRef *wm, int64_t sh, int64_t sw, int64_t dh,
    int64_t dw) {
  View in(im), g(gm), dwv(wm);
  int64_t n = g.sizes[0], f = g.sizes[1], oh = g.sizes[2], ow = g.sizes[3];
  int64_t c = dwv.sizes[1], kh = dwv.sizes[2], kw = dwv.sizes[3];
  int64_t taps = c * kh * kw;
  // dW as F x taps: itself when contiguous, else accumulated apart.
  bool direct =
      dwv.strides[3] == 1 && dwv.strides[2] == kw && dwv.strides[1] == kh * kw;
  std::vector<float> acc;
  float *target = dwv.data;
  int64_t ld = dwv.strides[0];
  if (!direct) {
    acc.assign(static_cast<size_t>(f * taps), 0.0f);
    target = acc.data();
    ld = taps;
  }
  int64_t images = blockImages(n, taps + f, oh, ow), pixels = oh * ow;
  if (images > 1) {
    // Several images per sgemm: dW += G (F x images pixels) col^T, with G
    // the images' output gradients side by side.
    int64_t cols = images * pixels;
    float *col = workspace(static_cast<size_t>((taps + f) * cols));
    float *grads = col + taps * cols;
    for (int64_t img0 = 0; img0 < n; img0 += images) {
      int64_t count = std::min(images, n - img0), width = count * pixels;
      im2colImages(in, img0, count, c, kh, kw, oh, ow, sh, sw, dh, dw, col);
      for (int64_t b = 0; b < count; ++b)
        for (int64_t i = 0; i < f; ++i) {
          const float *src =
              g.data + (img0 + b) * g.strides[0] + i * g.strides[1];
          float *dst = grads + i * width + b * pixels;
          for (int64_t r = 0; r < oh; ++r)
            for (int64_t o = 0; o < ow; ++o)
              dst[r * ow + o] = src[r * g.strides[2] + o * g.strides[3]];
        }
      gemm(f, taps, width, grads, width, 1, col, 1, width, target, ld, 1);
    }
  } else {
    accumulateFilterGradRows(in, g, c, kh, kw, sh, sw, dh, dw, target, ld);
  }
  if (!direct)
    for (int64_t i = 0; i < f; ++i)
      for (int64_t ci = 0; ci < c; ++ci)
        for (int64_t y = 0; y < kh; ++y)
          for (int64_t x = 0; x < kw; ++x)
            dwv.data[i * dwv.strides[0] + ci * dwv.strides[1] +
                     y * dwv.strides[2] + x * dwv.strides[3]] +=
                acc[((i * c + ci) * kh + y) * kw + x];
}

extern "C" void _mlir_ciface_ckpt_kernel_exp_contract_f32(
    const CkptUnrankedMemRef *sm, const CkptUnrankedMemRef *lm,
    const CkptUnrankedMemRef *vm, const CkptUnrankedMemRef *om, int64_t sb0,
    int64_t sb1, int64_t si, int64_t sk, int64_t lb0, int64_t lb1, int64_t li,
    int64_t vb0, int64_t vb1, int64_t vk, int64_t vj, int64_t ob0, int64_t ob1,
    int64_t oi, int64_t oj) {
  View s(sm), l(lm), v(vm), o(om);
  int64_t m = o.size(oi), n = o.size(oj), k = s.size(sk);
  if (m == 0 || n == 0 || k == 0)
    return;
  // Rows of P = exp(S - LSE) per block: the block fits the workspace.
  int64_t rows = std::max<int64_t>(
      1, std::min<int64_t>(
             m, static_cast<int64_t>(workspaceBytes() / sizeof(float)) / k));
  float *p = workspace(static_cast<size_t>(rows * k));
  for (int64_t e0 = 0; e0 < o.size(ob0); ++e0)
    for (int64_t e1 = 0; e1 < o.size(ob1); ++e1) {
      const float *sp = s.data + e0 * s.stride(sb0) + e1 * s.stride(sb1);
      const float *lp = l.data + e0 * l.stride(lb0) + e1 * l.stride(lb1);
      const float *vp = v.data + e0 * v.stride(vb0) + e1 * v.stride(vb1);
      float *op = o.data + e0 * o.stride(ob0) + e1 * o.stride(ob1);
      for (int64_t r0 = 0; r0 < m; r0 += rows) {
        int64_t r1 = std::min(m, r0 + rows);
        for (int64_t i = r0; i < r1; ++i) {
          float lse = lp[i * l.stride(li)];
          float *row = p + (i - r0) * k;
          for (int64_t c = 0; c < k; ++c)
            row[c] = std::exp(sp[i * s.stride(si) + c * s.stride(sk)] - lse);
        }
        gemm(r1 - r0, n, k, p, k, 1, vp, v.stride(vk), v.stride(vj),
             op + r0 * o.stride(oi), o.stride(oi), o.stride(oj));
      }
    }
}

extern "C" void _mlir_ciface_ckpt_kernel_embedding_grad_f32(
    const CkptUnrankedMemRef *im, const CkptUnrankedMemRef *gm,
    const CkptUnrankedMemRef *wm, int64_t i0, int64_t i1, int64_t g0,
    int64_t g1, int64_t gc, int64_t wr, int64_t wc, int64_t lo, int64_t hi) {
  const auto *iw = static_cast<const int64_t *>(im->descriptor);
  const int64_t *ids = reinterpret_cast<const int64_t *>(iw[1]) + iw[2];
  const int64_t *isizes = iw + 3, *istrides = iw + 3 + im->rank;
  auto isize = [&](int64_t d) { return d < 0 ? 1 : isizes[d]; };
  auto istride = [&](int64_t d) { return d < 0 ? 0 : istrides[d]; };
  View g(gm), w(wm);
  int64_t cols = w.size(wc);
  // Each output entry gets its tokens' values in token order, as the
  // loop nest adds them.
  for (int64_t t0 = 0; t0 < isize(i0); ++t0)
    for (int64_t t1 = 0; t1 < isize(i1); ++t1) {
      int64_t id = ids[t0 * istride(i0) + t1 * istride(i1)];
      id = std::min(std::max(id, lo), hi);
      if (id < 0 || id >= w.size(wr))
        continue; // no row of W has that index
      const float *src = g.data + t0 * g.stride(g0) + t1 * g.stride(g1);
      float *dst = w.data + id * w.stride(wr);
      for (int64_t c = 0; c < cols; ++c)
        dst[c * w.stride(wc)] += src[c * g.stride(gc)];
    }
}
