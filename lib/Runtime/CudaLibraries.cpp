//===- CudaLibraries.cpp - contractions on cuBLAS, convolutions on cuDNN --===//
//
// ckpt-call-kernels{runtime=cuda} turns the f32 contractions whose layout
// maps onto a column-major sgemm (ckpt/Runtime/Gemm.h) into calls of
// ckpt_cuda_contract_f32, and the NCHW convolutions and their filter
// gradients whose filter is packed into calls of ckpt_cuda_conv2d_*_f32,
// with the arguments of the CPU kernels (Runtime.h). Neither library is
// linked: each is loaded on first use, from CKPT_CUBLAS / CKPT_CUDNN (a
// path) or by its soname (libcublas.so.13 then .12; libcudnn.so.9), so that
// the runtime builds and loads without them. PyTorch's CUDA wheels ship
// both (nvidia/cu13/lib, nvidia/cudnn/lib); the CUDA 13 toolkit of these
// machines has neither. Their workspaces (cuBLAS's, allocated with its
// handle; cuDNN's, one device buffer grown as an algorithm needs) are not
// step buffers and are not counted, like the CPU kernels' workspace. Each
// call runs on the legacy default stream and is waited for before it
// returns, as every kernel launch is.
//
//===----------------------------------------------------------------------===//

#include "CudaContext.h"

#include "ckpt/Runtime/Gemm.h"
#include "ckpt/Runtime/MemRefView.h"
#include "ckpt/Runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

using namespace ckpt::cuda;
using ckpt::runtime::View;

namespace {

/// A library loaded with dlopen, once, and the functions it must have; or
/// why it could not be.
struct Library {
  const char *name;
  void *handle = nullptr;
  char path[512] = {0};
  char error[1024] = {0};

  /// Loads from the path in `env` when set, else the first of `sonames`
  /// the dynamic loader finds; `what` names the library in errors.
  Library(const char *what, const char *env,
          std::initializer_list<const char *> sonames, const char *example)
      : name(what) {
    const char *named = std::getenv(env);
    if (named && *named) {
      std::snprintf(path, sizeof(path), "%s", named);
      handle = dlopen(named, RTLD_NOW | RTLD_LOCAL);
      if (!handle)
        std::snprintf(error, sizeof(error), "cannot load %s from %s='%s': %s",
                      what, env, named, dlerror());
      return;
    }
    for (const char *name : sonames) {
      handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle) {
        std::snprintf(path, sizeof(path), "%s", name);
        return;
      }
    }
    std::string names;
    for (const char *name : sonames)
      names += (names.empty() ? "" : " or ") + std::string(name);
    std::snprintf(error, sizeof(error),
                  "cannot load %s (%s on the library path); set %s to its "
                  "path, e.g. PyTorch's %s",
                  what, names.c_str(), env, example);
  }

  /// Binds `fn` to the function `name`, or records that it is missing.
  template <typename Fn> void get(const char *name, Fn &fn) {
    if (!handle)
      return;
    fn = reinterpret_cast<Fn>(dlsym(handle, name));
    if (!fn && !error[0])
      std::snprintf(error, sizeof(error), "'%s' has no %s", path, name);
  }

  bool ok() const { return handle && !error[0]; }

  /// Prints and counts the load error; returns ok().
  bool usable() const {
    if (ok())
      return true;
    ++errorCount;
    std::fprintf(stderr, "ckpt_cuda_runtime: %s\n", error);
    return false;
  }
};

/// Prints "ckpt_cuda_runtime: <what> failed: <library> status N (<name>)"
/// and counts an error when `status` is not 0 (success, in both
/// libraries); `lib` names the library and has its statusString.
template <typename Lib>
bool checkStatus(const Lib &lib, int status, const char *what) {
  if (status == 0)
    return true;
  ++errorCount;
  std::fprintf(stderr, "ckpt_cuda_runtime: %s failed: %s status %d (%s)\n",
               what, lib.name, status, lib.statusString(status));
  return false;
}

/// Writes what `lib` loaded (or why it did not) into `message`; 1 or 0.
int report(const Library &lib, char *message, size_t size) {
  if (size)
    std::snprintf(message, size, "%s", lib.ok() ? lib.path : lib.error);
  return lib.ok() ? 1 : 0;
}

/// The handle of `lib` (cuBLAS's, cuDNN's: one instantiation each) for the
/// current device, created on first use with `lib.create` (the device's
/// primary context must be current). Null after printing why.
template <typename Lib> void *deviceHandle(const Lib &lib, const char *what) {
  static std::mutex mutex;
  static std::vector<void *> handles;
  if (!lib.usable())
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (defaultDevice < 0)
    return nullptr;
  if (static_cast<size_t>(defaultDevice) >= handles.size())
    handles.resize(defaultDevice + 1, nullptr);
  void *&handle = handles[defaultDevice];
  if (!handle && !checkStatus(lib, lib.create(&handle), what))
    handle = nullptr;
  return handle;
}

} // namespace

//===----------------------------------------------------------------------===//
// Contractions on cuBLAS
//===----------------------------------------------------------------------===//

namespace {

using CublasCreate = int (*)(void **);
using CublasSgemmStridedBatched = int (*)(void *, int transa, int transb, int m,
                                          int n, int k, const float *alpha,
                                          const float *a, int lda,
                                          long long strideA, const float *b,
                                          int ldb, long long strideB,
                                          const float *beta, float *c, int ldc,
                                          long long strideC, int batchCount);
using CublasStatusString = const char *(*)(int);
constexpr int kCublasOpN = 0, kCublasOpT = 1;

struct Cublas : Library {
  CublasCreate create = nullptr;
  CublasSgemmStridedBatched sgemm = nullptr;
  CublasStatusString statusString = nullptr;

  Cublas()
      : Library("cuBLAS", "CKPT_CUBLAS", {"libcublas.so.13", "libcublas.so.12"},
                "nvidia/cu13/lib/libcublas.so.13") {
    get("cublasCreate_v2", create);
    get("cublasSgemmStridedBatched", sgemm);
    get("cublasGetStatusString", statusString);
  }
};

const Cublas &cublas() {
  static const Cublas lib;
  return lib;
}

bool checkCublas(int status, const char *what) {
  return checkStatus(cublas(), status, what);
}

/// An operand's (batch0, batch1, rows, cols) from its descriptor and the
/// memref dimension of each (-1: none).
ckpt::gemm::BatchedOperand operand(const CkptUnrankedMemRef *m,
                                   std::initializer_list<int64_t> dims) {
  View v(m);
  ckpt::gemm::BatchedOperand out;
  out.data = v.data;
  int i = 0;
  for (int64_t d : dims) {
    out.size[i] = v.size(d);
    out.stride[i] = v.stride(d);
    ++i;
  }
  return out;
}

} // namespace

/// Loads cuBLAS (without touching a device): returns 1 and writes the
/// library loaded into `message`, or returns 0 and writes why it cannot be
/// loaded. For drivers that check before running a step.
CKPT_CUDA_EXPORT int ckptCudaLoadBlas(char *message, size_t size) {
  return report(cublas(), message, size);
}

/// C += A B on cuBLAS, with the arguments of the CPU kernel
/// _mlir_ciface_ckpt_kernel_contract_f32 (Runtime.h): one strided batched
/// sgemm per entry of the outer batch dimension. Managed buffers: the
/// pointers are the device's.
CKPT_CUDA_EXPORT void _mlir_ciface_ckpt_cuda_contract_f32(
    const CkptUnrankedMemRef *am, const CkptUnrankedMemRef *bm,
    const CkptUnrankedMemRef *cm, int64_t ab0, int64_t ab1, int64_t ai,
    int64_t ak, int64_t bb0, int64_t bb1, int64_t bk, int64_t bj, int64_t cb0,
    int64_t cb1, int64_t ci, int64_t cj) {
  ScopedContext scoped;
  if (!scoped.ok())
    return;
  void *handle = deviceHandle(cublas(), "cublasCreate_v2");
  if (!handle)
    return;
  const float one = 1.0f;
  bool ok = true;
  bool mapped = ckpt::gemm::forEachGemm(
      operand(am, {ab0, ab1, ai, ak}), operand(bm, {bb0, bb1, bk, bj}),
      operand(cm, {cb0, cb1, ci, cj}),
      [&](const ckpt::gemm::ColumnMajorGemm &g, const float *first,
          const float *second, float *c, int64_t count, int64_t strideFirst,
          int64_t strideSecond, int64_t strideC) {
        ok = ok &&
             checkCublas(
                 cublas().sgemm(handle, g.transFirst ? kCublasOpT : kCublasOpN,
                                g.transSecond ? kCublasOpT : kCublasOpN,
                                static_cast<int>(g.m), static_cast<int>(g.n),
                                static_cast<int>(g.k), &one, first,
                                static_cast<int>(g.ldFirst), strideFirst,
                                second, static_cast<int>(g.ldSecond),
                                strideSecond, &one, c, static_cast<int>(g.ldc),
                                strideC, static_cast<int>(count)),
                 "cublasSgemmStridedBatched");
      });
  if (!mapped) {
    ++errorCount;
    std::fprintf(stderr, "ckpt_cuda_runtime: ckpt_cuda_contract_f32: an "
                         "operand has no unit stride (ckpt-call-kernels "
                         "should have left this contraction to the loops)\n");
    return;
  }
  CKPT_CUDA_CHECK(cuStreamSynchronize(nullptr));
}

//===----------------------------------------------------------------------===//
// Convolutions on cuDNN
//===----------------------------------------------------------------------===//
//
// cuDNN 9's convolution API (cudnn_cnn_v9.h), with its enum values and the
// layout of its algorithm records written out here (the header is not
// needed to build). Cross-correlation without padding (the importers pad
// the input), FMA math (no TF32: the results stay within the CPU kernels'
// error bound), alpha = beta = 1 (linalg accumulates into the output).

namespace {

using DnnCreate = int (*)(void **);
using DnnStatusString = const char *(*)(int);
using DnnCreateDesc = int (*)(void **);
using DnnDestroyDesc = int (*)(void *);
using DnnSetTensor4dEx = int (*)(void *, int dataType, int n, int c, int h,
                                 int w, int ns, int cs, int hs, int ws);
using DnnSetFilter4d = int (*)(void *, int dataType, int format, int k, int c,
                               int h, int w);
using DnnSetConv2d = int (*)(void *, int padH, int padW, int u, int v,
                             int dilationH, int dilationW, int mode,
                             int computeType);
using DnnSetMathType = int (*)(void *, int);

/// cudnnConvolutionFwdAlgoPerf_t and cudnnConvolutionBwdFilterAlgoPerf_t.
struct DnnAlgoPerf {
  int algo;
  int status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
};

using DnnGetAlgo = int (*)(void *handle, void *x, void *wOrDy, void *conv,
                           void *yOrDw, int requested, int *returned,
                           DnnAlgoPerf *results);
using DnnWorkspaceSize = int (*)(void *handle, void *x, void *wOrDy, void *conv,
                                 void *yOrDw, int algo, size_t *bytes);
/// cudnnConvolutionForward (x, w -> y) and cudnnConvolutionBackwardFilter
/// (x, dy -> dw) take their operands in the same order.
using DnnConvolve = int (*)(void *handle, const void *alpha, void *xDesc,
                            const void *x, void *secondDesc, const void *second,
                            void *conv, int algo, void *workspace,
                            size_t workspaceBytes, const void *beta,
                            void *outDesc, void *out);

constexpr int kDnnFloat = 0, kDnnNchw = 0, kDnnCrossCorrelation = 1,
              kDnnFmaMath = 3;

struct Cudnn : Library {
  DnnCreate create = nullptr;
  DnnStatusString statusString = nullptr;
  DnnCreateDesc createTensor = nullptr, createFilter = nullptr,
                createConv = nullptr;
  DnnDestroyDesc destroyTensor = nullptr, destroyFilter = nullptr,
                 destroyConv = nullptr;
  DnnSetTensor4dEx setTensor = nullptr;
  DnnSetFilter4d setFilter = nullptr;
  DnnSetConv2d setConv = nullptr;
  DnnSetMathType setMathType = nullptr;
  DnnGetAlgo forwardAlgo = nullptr, filterAlgo = nullptr;
  DnnWorkspaceSize forwardWorkspace = nullptr, filterWorkspace = nullptr;
  DnnConvolve forward = nullptr, backwardFilter = nullptr;

  Cudnn()
      : Library("cuDNN", "CKPT_CUDNN", {"libcudnn.so.9"},
                "nvidia/cudnn/lib/libcudnn.so.9") {
    get("cudnnCreate", create);
    get("cudnnGetErrorString", statusString);
    get("cudnnCreateTensorDescriptor", createTensor);
    get("cudnnCreateFilterDescriptor", createFilter);
    get("cudnnCreateConvolutionDescriptor", createConv);
    get("cudnnDestroyTensorDescriptor", destroyTensor);
    get("cudnnDestroyFilterDescriptor", destroyFilter);
    get("cudnnDestroyConvolutionDescriptor", destroyConv);
    get("cudnnSetTensor4dDescriptorEx", setTensor);
    get("cudnnSetFilter4dDescriptor", setFilter);
    get("cudnnSetConvolution2dDescriptor", setConv);
    get("cudnnSetConvolutionMathType", setMathType);
    get("cudnnGetConvolutionForwardAlgorithm_v7", forwardAlgo);
    get("cudnnGetConvolutionBackwardFilterAlgorithm_v7", filterAlgo);
    get("cudnnGetConvolutionForwardWorkspaceSize", forwardWorkspace);
    get("cudnnGetConvolutionBackwardFilterWorkspaceSize", filterWorkspace);
    get("cudnnConvolutionForward", forward);
    get("cudnnConvolutionBackwardFilter", backwardFilter);
  }
};

const Cudnn &cudnn() {
  static const Cudnn lib;
  return lib;
}

bool checkCudnn(int status, const char *what) {
  return checkStatus(cudnn(), status, what);
}

#define CKPT_CUDNN_CHECK(expr) checkCudnn((expr), #expr)

/// cuDNN's workspace: one device buffer (not managed, not counted), grown
/// to the largest size an algorithm asked for. Null after printing why.
void *dnnWorkspace(size_t bytes) {
  static std::mutex mutex;
  static CUdeviceptr buffer = 0;
  static size_t capacity = 0;
  std::lock_guard<std::mutex> lock(mutex);
  if (bytes > capacity) {
    if (buffer)
      CKPT_CUDA_CHECK(cuMemFree(buffer));
    buffer = 0;
    capacity = 0;
    if (!CKPT_CUDA_CHECK(cuMemAlloc(&buffer, bytes)))
      return nullptr;
    capacity = bytes;
  }
  return reinterpret_cast<void *>(buffer);
}

/// The descriptors of one convolution, destroyed with the object.
struct ConvDescriptors {
  void *x = nullptr, *other = nullptr, *filter = nullptr, *conv = nullptr;
  bool ok = false;

  ~ConvDescriptors() {
    const Cudnn &lib = cudnn();
    if (x)
      lib.destroyTensor(x);
    if (other)
      lib.destroyTensor(other);
    if (filter)
      lib.destroyFilter(filter);
    if (conv)
      lib.destroyConv(conv);
  }
};

/// A 4-d tensor descriptor over `v` with its strides, `rows` and `cols` for
/// its last two sizes (the rows of the input a convolution reads).
bool setTensor(void *desc, const View &v, int64_t rows, int64_t cols) {
  auto i = [](int64_t x) { return static_cast<int>(x); };
  // A dimension of size 1 may have any stride: give it a positive one.
  int64_t strides[4];
  for (int d = 0; d < 4; ++d)
    strides[d] = v.strides[d] > 0 ? v.strides[d] : 1;
  return CKPT_CUDNN_CHECK(cudnn().setTensor(
      desc, kDnnFloat, i(v.sizes[0]), i(v.sizes[1]), i(rows), i(cols),
      i(strides[0]), i(strides[1]), i(strides[2]), i(strides[3])));
}

/// Sets up the descriptors of a convolution reading `in` (only its first
/// (OH - 1) sh + (KH - 1) dh + 1 rows, and likewise columns: cuDNN derives
/// the output's size from the input's), with the filter `w` and the
/// output-sized tensor `out`.
void describe(ConvDescriptors &d, const View &in, const View &w,
              const View &out, int64_t sh, int64_t sw, int64_t dh, int64_t dw,
              const char *what) {
  const Cudnn &lib = cudnn();
  const int64_t *sizes[3] = {in.sizes, w.sizes, out.sizes};
  const int64_t *strides[3] = {in.strides, w.strides, out.strides};
  if (!ckpt::gemm::fitsCudnn(sizes, strides, /*filter=*/1)) {
    ++errorCount;
    std::fprintf(stderr,
                 "ckpt_cuda_runtime: %s: the filter is not packed, or a size "
                 "or stride does not fit cuDNN (ckpt-call-kernels should "
                 "have left this convolution to the loops)\n",
                 what);
    return;
  }
  int64_t rows = (out.sizes[2] - 1) * sh + (w.sizes[2] - 1) * dh + 1;
  int64_t cols = (out.sizes[3] - 1) * sw + (w.sizes[3] - 1) * dw + 1;
  auto i = [](int64_t x) { return static_cast<int>(x); };
  d.ok = CKPT_CUDNN_CHECK(lib.createTensor(&d.x)) &&
         CKPT_CUDNN_CHECK(lib.createTensor(&d.other)) &&
         CKPT_CUDNN_CHECK(lib.createFilter(&d.filter)) &&
         CKPT_CUDNN_CHECK(lib.createConv(&d.conv)) &&
         setTensor(d.x, in, rows, cols) &&
         setTensor(d.other, out, out.sizes[2], out.sizes[3]) &&
         CKPT_CUDNN_CHECK(lib.setFilter(d.filter, kDnnFloat, kDnnNchw,
                                        i(w.sizes[0]), i(w.sizes[1]),
                                        i(w.sizes[2]), i(w.sizes[3]))) &&
         CKPT_CUDNN_CHECK(lib.setConv(d.conv, 0, 0, i(sh), i(sw), i(dh), i(dw),
                                      kDnnCrossCorrelation, kDnnFloat)) &&
         CKPT_CUDNN_CHECK(lib.setMathType(d.conv, kDnnFmaMath));
}

/// Runs `convolve` (x and `second` into `out`, described by d.x,
/// `secondDesc` and `outDesc`) with the first algorithm cuDNN's heuristics
/// rank that it can set up, and its workspace; `algo` and `size` are the
/// forward or the filter-gradient functions, which take the descriptors in
/// the same order.
bool runConvolution(void *handle, const ConvDescriptors &d, void *secondDesc,
                    void *outDesc, DnnGetAlgo algo, DnnWorkspaceSize size,
                    DnnConvolve convolve, const float *x, const float *second,
                    float *out, const char *what) {
  DnnAlgoPerf results[8];
  int returned = 0;
  if (!checkCudnn(
          algo(handle, d.x, secondDesc, d.conv, outDesc, 8, &returned, results),
          what))
    return false;
  const float one = 1.0f;
  for (int r = 0; r < returned; ++r) {
    size_t bytes = 0;
    if (results[r].status != 0 || size(handle, d.x, secondDesc, d.conv, outDesc,
                                       results[r].algo, &bytes) != 0)
      continue;
    void *workspace = bytes ? dnnWorkspace(bytes) : nullptr;
    if (bytes && !workspace)
      return false;
    return checkCudnn(convolve(handle, &one, d.x, x, secondDesc, second, d.conv,
                               results[r].algo, workspace, bytes, &one, outDesc,
                               out),
                      what) &&
           CKPT_CUDA_CHECK(cuStreamSynchronize(nullptr));
  }
  ++errorCount;
  std::fprintf(stderr,
               "ckpt_cuda_runtime: %s: cuDNN has no algorithm for this "
               "convolution\n",
               what);
  return false;
}

/// A convolution of the input `im` with strides (sh, sw) and dilations
/// (dh, dw), its filter `wm` and the output-sized tensor `om`: O += conv(I,
/// W) (cuDNN's forward), or with `filterGradient` W += the filter gradient
/// of I and the output gradient O (cuDNN's backward-filter).
void convolve(const CkptUnrankedMemRef *im, const CkptUnrankedMemRef *wm,
              const CkptUnrankedMemRef *om, int64_t sh, int64_t sw, int64_t dh,
              int64_t dw, bool filterGradient) {
  ScopedContext scoped;
  if (!scoped.ok())
    return;
  void *handle = deviceHandle(cudnn(), "cudnnCreate");
  if (!handle)
    return;
  View in(im), w(wm), out(om);
  ConvDescriptors d;
  describe(d, in, w, out, sh, sw, dh, dw,
           filterGradient ? "ckpt_cuda_conv2d_filter_grad_f32"
                          : "ckpt_cuda_conv2d_nchw_fchw_f32");
  if (!d.ok)
    return;
  const Cudnn &lib = cudnn();
  if (filterGradient)
    runConvolution(handle, d, d.other, d.filter, lib.filterAlgo,
                   lib.filterWorkspace, lib.backwardFilter, in.data, out.data,
                   w.data, "cudnnConvolutionBackwardFilter");
  else
    runConvolution(handle, d, d.filter, d.other, lib.forwardAlgo,
                   lib.forwardWorkspace, lib.forward, in.data, w.data, out.data,
                   "cudnnConvolutionForward");
}

} // namespace

/// Loads cuDNN (without touching a device), as ckptCudaLoadBlas does cuBLAS.
CKPT_CUDA_EXPORT int ckptCudaLoadDnn(char *message, size_t size) {
  return report(cudnn(), message, size);
}

/// O += conv(I, W) on cuDNN, with the arguments of the CPU kernel
/// _mlir_ciface_ckpt_kernel_conv2d_nchw_fchw_f32 (Runtime.h).
CKPT_CUDA_EXPORT void _mlir_ciface_ckpt_cuda_conv2d_nchw_fchw_f32(
    const CkptUnrankedMemRef *im, const CkptUnrankedMemRef *wm,
    const CkptUnrankedMemRef *om, int64_t sh, int64_t sw, int64_t dh,
    int64_t dw) {
  convolve(im, wm, om, sh, sw, dh, dw, /*filterGradient=*/false);
}

/// dW += the filter gradient of a convolution of I with output gradient G,
/// on cuDNN, with the arguments of the CPU kernel
/// _mlir_ciface_ckpt_kernel_conv2d_filter_grad_f32 (Runtime.h).
CKPT_CUDA_EXPORT void _mlir_ciface_ckpt_cuda_conv2d_filter_grad_f32(
    const CkptUnrankedMemRef *im, const CkptUnrankedMemRef *gm,
    const CkptUnrankedMemRef *wm, int64_t sh, int64_t sw, int64_t dh,
    int64_t dw) {
  convolve(im, wm, gm, sh, sw, dh, dw, /*filterGradient=*/true);
}
