//===- MemRefView.h - an f32 memref descriptor, read ------------*- C++ -*-===//
//
// The kernels the lowered code calls through `llvm.emit_c_interface` on
// unranked memrefs (the CPU kernels, lib/Runtime/Kernels.cpp; the CUDA
// runtime's library kernels, lib/Runtime/CudaLibraries.cpp) read each
// operand's data, sizes and strides from its descriptor through this.
// Header-only.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_RUNTIME_MEMREFVIEW_H
#define CKPT_RUNTIME_MEMREFVIEW_H

#include "ckpt/Runtime/Runtime.h"

#include <cstdint>

namespace ckpt::runtime {

/// An f32 memref descriptor read through its unranked form: the first
/// element (aligned pointer plus offset), then `rank` sizes and strides.
struct View {
  float *data;
  int64_t rank;
  const int64_t *sizes;
  const int64_t *strides;

  explicit View(const CkptUnrankedMemRef *m) {
    const auto *words = static_cast<const int64_t *>(m->descriptor);
    rank = m->rank;
    auto *aligned = reinterpret_cast<float *>(words[1]);
    data = aligned + words[2];
    sizes = words + 3;
    strides = words + 3 + rank;
  }
  /// Size and stride of dimension `dim`; -1 (a dimension the operand does
  /// not have) is size 1, stride 0.
  int64_t size(int64_t dim) const { return dim < 0 ? 1 : sizes[dim]; }
  int64_t stride(int64_t dim) const { return dim < 0 ? 0 : strides[dim]; }
};

} // namespace ckpt::runtime

#endif // CKPT_RUNTIME_MEMREFVIEW_H
