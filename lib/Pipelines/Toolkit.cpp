//===- Toolkit.cpp - where the CUDA toolkit is
//-----------------------------===//

#include "Toolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace llvm;
using namespace ckpt;
using namespace ckpt::detail;

namespace {
bool hasLibdevice(StringRef dir) {
  SmallString<256> file(dir);
  llvm::sys::path::append(file, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::is_regular_file(file);
}

} // namespace

/// The toolkit: `toolkit` when given; else the first of CUDA_ROOT,
/// CUDA_HOME and CUDA_PATH that is set (MLIR's own order: a named toolkit is
/// used or is an error, never skipped); else /usr/local/cuda when it
/// exists; else the toolkit of the `ptxas` on PATH.
Toolkit ckpt::detail::findToolkit(StringRef toolkit) {
  auto named = [](StringRef path, StringRef by) {
    return Toolkit{path.str(), by.str(), hasLibdevice(path)};
  };
  if (!toolkit.empty())
    return named(toolkit, "toolkit=");
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(name))
      return named(value, name);
  if (llvm::sys::fs::is_directory("/usr/local/cuda"))
    return named("/usr/local/cuda", "");
  if (llvm::ErrorOr<std::string> ptxas =
          llvm::sys::findProgramByName("ptxas")) {
    StringRef bin = llvm::sys::path::parent_path(*ptxas);
    return named(llvm::sys::path::parent_path(bin), "");
  }
  return Toolkit();
}

/// Whether the kernels are linked with libdevice: unless math=approx, when
/// the toolkit has it (else they get ckpt-gpu-approximate-math). The one
/// rule for the pipeline builder and ckpt-gpu-module-to-binary.
bool ckpt::detail::linksLibdevice(MathMode math, const Toolkit &toolkit) {
  return math != MathMode::Approx && toolkit.libdevice;
}
