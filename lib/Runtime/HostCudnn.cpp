//===- HostCudnn.cpp - a cuDNN on the host, for tests ---------------------===//
//
// libcudnn.so.9 for the tests of the CUDA runtime's convolutions on a
// machine without a GPU (test/Run/cuda-kernels-host.test): the functions
// the runtime loads, with cuDNN 9's signatures (cudnn_cnn_v9.h,
// cudnn_ops_v9.h) and the argument checks that matter to the runtime: a
// tensor or filter descriptor of sizes and strides of at least 1, NCHW
// float filters, cross-correlation, and output sizes that agree with the
// input, filter, padding, strides and dilations as cuDNN computes them
// (else CUDNN_STATUS_BAD_PARAM, 2000). The convolutions compute on host
// memory: y = alpha conv(x, w) + beta y, dw = alpha conv'(x, dy) + beta dw.
// One algorithm (1), no workspace. Counts its convolutions
// (ckptHostCudnnCalls). Never installed, and on no library path: the tests
// point CKPT_CUDNN at it.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>

#define CKPT_HOST_CUDNN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
constexpr int kSuccess = 0, kBadParam = 2000, kNotSupported = 3000;
int64_t calls = 0;
int handleStorage;

struct Tensor {
  int n = 0, c = 0, h = 0, w = 0, ns = 0, cs = 0, hs = 0, ws = 0;
  int64_t at(int i, int j, int y, int x) const {
    return int64_t(i) * ns + int64_t(j) * cs + int64_t(y) * hs +
           int64_t(x) * ws;
  }
};
struct Filter {
  int k = 0, c = 0, h = 0, w = 0;
  int64_t at(int i, int j, int y, int x) const {
    return ((int64_t(i) * c + j) * h + y) * w + x;
  }
};
struct Conv {
  int ph = -1, pw = -1, u = 0, v = 0, dh = 0, dw = 0;
};
struct AlgoPerf {
  int algo, status;
  float time;
  size_t memory;
  int determinism, mathType, reserved[3];
};

/// Whether y is the output of x convolved with f under c, as cuDNN sizes
/// it (cudnnGetConvolution2dForwardOutputDim).
bool agrees(const Tensor &x, const Filter &f, const Conv &c, const Tensor &y) {
  if (c.u < 1 || x.c != f.c || y.n != x.n || y.c != f.k)
    return false;
  int oh = (x.h + 2 * c.ph - ((f.h - 1) * c.dh + 1)) / c.u + 1;
  int ow = (x.w + 2 * c.pw - ((f.w - 1) * c.dw + 1)) / c.v + 1;
  return oh >= 1 && ow >= 1 && y.h == oh && y.w == ow;
}

/// x's element at output (n, channel j, row oy, column ox) under filter tap
/// (ky, kx), or 0 in the padding.
float tap(const Tensor &x, const float *data, const Conv &c, int n, int j,
          int oy, int ox, int ky, int kx) {
  int y = oy * c.u - c.ph + ky * c.dh, z = ox * c.v - c.pw + kx * c.dw;
  if (y < 0 || z < 0 || y >= x.h || z >= x.w)
    return 0.0f;
  return data[x.at(n, j, y, z)];
}
} // namespace

CKPT_HOST_CUDNN_EXPORT int cudnnCreate(void **handle) {
  *handle = &handleStorage;
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT const char *cudnnGetErrorString(int status) {
  return status == kBadParam       ? "CUDNN_STATUS_BAD_PARAM"
         : status == kNotSupported ? "CUDNN_STATUS_NOT_SUPPORTED"
                                   : "CUDNN_STATUS_UNKNOWN";
}

CKPT_HOST_CUDNN_EXPORT int64_t ckptHostCudnnCalls() { return calls; }

CKPT_HOST_CUDNN_EXPORT int cudnnCreateTensorDescriptor(void **d) {
  *d = new Tensor();
  return kSuccess;
}
CKPT_HOST_CUDNN_EXPORT int cudnnCreateFilterDescriptor(void **d) {
  *d = new Filter();
  return kSuccess;
}
CKPT_HOST_CUDNN_EXPORT int cudnnCreateConvolutionDescriptor(void **d) {
  *d = new Conv();
  return kSuccess;
}
CKPT_HOST_CUDNN_EXPORT int cudnnDestroyTensorDescriptor(void *d) {
  delete static_cast<Tensor *>(d);
  return kSuccess;
}
CKPT_HOST_CUDNN_EXPORT int cudnnDestroyFilterDescriptor(void *d) {
  delete static_cast<Filter *>(d);
  return kSuccess;
}
CKPT_HOST_CUDNN_EXPORT int cudnnDestroyConvolutionDescriptor(void *d) {
  delete static_cast<Conv *>(d);
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int cudnnSetTensor4dDescriptorEx(void *d, int dataType,
                                                        int n, int c, int h,
                                                        int w, int ns, int cs,
                                                        int hs, int ws) {
  if (dataType != 0 || n < 1 || c < 1 || h < 1 || w < 1 || ns < 1 || cs < 1 ||
      hs < 1 || ws < 1)
    return kBadParam;
  *static_cast<Tensor *>(d) = {n, c, h, w, ns, cs, hs, ws};
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int cudnnSetFilter4dDescriptor(void *d, int dataType,
                                                      int format, int k, int c,
                                                      int h, int w) {
  if (dataType != 0 || format != 0 || k < 1 || c < 1 || h < 1 || w < 1)
    return kBadParam;
  *static_cast<Filter *>(d) = {k, c, h, w};
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int
cudnnSetConvolution2dDescriptor(void *d, int ph, int pw, int u, int v, int dh,
                                int dw, int mode, int computeType) {
  if (ph < 0 || pw < 0 || u < 1 || v < 1 || dh < 1 || dw < 1 ||
      computeType != 0)
    return kBadParam;
  if (mode != 1) // only cross-correlation here
    return kNotSupported;
  *static_cast<Conv *>(d) = {ph, pw, u, v, dh, dw};
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int cudnnSetConvolutionMathType(void *, int mathType) {
  return mathType >= 0 && mathType <= 3 ? kSuccess : kBadParam;
}

CKPT_HOST_CUDNN_EXPORT int
cudnnGetConvolutionForwardAlgorithm_v7(void *handle, void *x, void *w, void *c,
                                       void *y, int requested, int *returned,
                                       AlgoPerf *results) {
  if (handle != &handleStorage || requested < 1 ||
      !agrees(*static_cast<Tensor *>(x), *static_cast<Filter *>(w),
              *static_cast<Conv *>(c), *static_cast<Tensor *>(y)))
    return kBadParam;
  *returned = 1;
  results[0] = {1, kSuccess, 0.0f, 0, 1, 3, {0, 0, 0}};
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int cudnnGetConvolutionBackwardFilterAlgorithm_v7(
    void *handle, void *x, void *dy, void *c, void *dw, int requested,
    int *returned, AlgoPerf *results) {
  if (handle != &handleStorage || requested < 1 ||
      !agrees(*static_cast<Tensor *>(x), *static_cast<Filter *>(dw),
              *static_cast<Conv *>(c), *static_cast<Tensor *>(dy)))
    return kBadParam;
  *returned = 1;
  results[0] = {1, kSuccess, 0.0f, 0, 1, 3, {0, 0, 0}};
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int
cudnnGetConvolutionForwardWorkspaceSize(void *, void *x, void *w, void *c,
                                        void *y, int algo, size_t *bytes) {
  if (algo != 1 || !agrees(*static_cast<Tensor *>(x), *static_cast<Filter *>(w),
                           *static_cast<Conv *>(c), *static_cast<Tensor *>(y)))
    return kBadParam;
  *bytes = 0;
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int cudnnGetConvolutionBackwardFilterWorkspaceSize(
    void *, void *x, void *dy, void *c, void *dw, int algo, size_t *bytes) {
  if (algo != 1 ||
      !agrees(*static_cast<Tensor *>(x), *static_cast<Filter *>(dw),
              *static_cast<Conv *>(c), *static_cast<Tensor *>(dy)))
    return kBadParam;
  *bytes = 0;
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int
cudnnConvolutionForward(void *handle, const void *alpha, void *xd,
                        const void *xp, void *wd, const void *wp, void *cd,
                        int algo, void *, size_t, const void *beta, void *yd,
                        void *yp) {
  ++calls;
  const Tensor &x = *static_cast<Tensor *>(xd), &y = *static_cast<Tensor *>(yd);
  const Filter &f = *static_cast<Filter *>(wd);
  const Conv &c = *static_cast<Conv *>(cd);
  if (handle != &handleStorage || algo != 1 || !agrees(x, f, c, y))
    return kBadParam;
  const auto *xs = static_cast<const float *>(xp);
  const auto *ws = static_cast<const float *>(wp);
  auto *ys = static_cast<float *>(yp);
  float a = *static_cast<const float *>(alpha),
        b = *static_cast<const float *>(beta);
  for (int n = 0; n < y.n; ++n)
    for (int k = 0; k < y.c; ++k)
      for (int oy = 0; oy < y.h; ++oy)
        for (int ox = 0; ox < y.w; ++ox) {
          float sum = 0.0f;
          for (int j = 0; j < f.c; ++j)
            for (int ky = 0; ky < f.h; ++ky)
              for (int kx = 0; kx < f.w; ++kx)
                sum += tap(x, xs, c, n, j, oy, ox, ky, kx) *
                       ws[f.at(k, j, ky, kx)];
          float &out = ys[y.at(n, k, oy, ox)];
          out = a * sum + b * out;
        }
  return kSuccess;
}

CKPT_HOST_CUDNN_EXPORT int
cudnnConvolutionBackwardFilter(void *handle, const void *alpha, void *xd,
                               const void *xp, void *dyd, const void *dyp,
                               void *cd, int algo, void *, size_t,
                               const void *beta, void *dwd, void *dwp) {
  ++calls;
  const Tensor &x = *static_cast<Tensor *>(xd),
               &dy = *static_cast<Tensor *>(dyd);
  const Filter &f = *static_cast<Filter *>(dwd);
  const Conv &c = *static_cast<Conv *>(cd);
  if (handle != &handleStorage || algo != 1 || !agrees(x, f, c, dy))
    return kBadParam;
  const auto *xs = static_cast<const float *>(xp);
  const auto *gs = static_cast<const float *>(dyp);
  auto *dws = static_cast<float *>(dwp);
  float a = *static_cast<const float *>(alpha),
        b = *static_cast<const float *>(beta);
  for (int k = 0; k < f.k; ++k)
    for (int j = 0; j < f.c; ++j)
      for (int ky = 0; ky < f.h; ++ky)
        for (int kx = 0; kx < f.w; ++kx) {
          float sum = 0.0f;
          for (int n = 0; n < dy.n; ++n)
            for (int oy = 0; oy < dy.h; ++oy)
              for (int ox = 0; ox < dy.w; ++ox)
                sum += tap(x, xs, c, n, j, oy, ox, ky, kx) *
                       gs[dy.at(n, k, oy, ox)];
          float &out = dws[f.at(k, j, ky, kx)];
          out = a * sum + b * out;
        }
  return kSuccess;
}
