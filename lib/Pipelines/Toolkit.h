//===- Toolkit.h - where the CUDA toolkit is ---------------------*- C++
//-*-===//
//
// Internal to lib/Pipelines: the CUDA toolkit the NVPTX lowering uses (for
// ptxas, fatbinary and libdevice), found by the same rule in the pipeline
// builder (NVPTX.cpp) and in ckpt-gpu-module-to-binary.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_PIPELINES_TOOLKIT_H
#define CKPT_LIB_PIPELINES_TOOLKIT_H

#include "ckpt/Pipelines/Passes.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace ckpt {
namespace detail {

/// The name of the NVPTX lowering, for messages.
inline constexpr llvm::StringLiteral kPipelineName = "ckpt-lower-to-nvptx";

/// Where the CUDA toolkit is, for ptxas, fatbinary and libdevice.
struct Toolkit {
  std::string path;       ///< Empty: none found.
  std::string namedBy;    ///< "toolkit=", "CUDA_HOME", ...: who named it.
  bool libdevice = false; ///< path/nvvm/libdevice/libdevice.10.bc exists.
};

/// The toolkit: `toolkit` when given; else the first of CUDA_ROOT,
/// CUDA_HOME and CUDA_PATH that is set (MLIR's own order: a named toolkit is
/// used or is an error, never skipped); else /usr/local/cuda when it
/// exists; else the toolkit of the `ptxas` on PATH.
Toolkit findToolkit(llvm::StringRef toolkit);

/// Whether the kernels are linked with libdevice: unless math=approx, when
/// the toolkit has it (else they get ckpt-gpu-approximate-math). The one
/// rule for the pipeline builder and ckpt-gpu-module-to-binary.
bool linksLibdevice(MathMode math, const Toolkit &toolkit);

} // namespace detail
} // namespace ckpt

#endif // CKPT_LIB_PIPELINES_TOOLKIT_H
