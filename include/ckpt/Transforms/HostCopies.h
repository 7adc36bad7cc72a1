//===- HostCopies.h - the host copies ckpt-lower-host-copies makes -*- C++
//-*-===//
//
// ckpt-lower-host-copies allocates the host copies of offloaded values
// between calls to the runtime's ckptRuntimeBeginHostCopy and
// ckptRuntimeEndHostCopy; the passes after it (ckpt-async-host-copies,
// ckpt-gpu-managed-memory) recognize them by that call.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_HOSTCOPIES_H
#define CKPT_TRANSFORMS_HOSTCOPIES_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringRef.h"

namespace ckpt {

inline constexpr llvm::StringLiteral kBeginHostCopy =
    "ckptRuntimeBeginHostCopy";
inline constexpr llvm::StringLiteral kEndHostCopy = "ckptRuntimeEndHostCopy";

/// Whether `alloc` is a host copy: right after a call to kBeginHostCopy.
bool isHostCopyAllocation(mlir::memref::AllocOp alloc);

/// Declares `name` of `type` as a private function of `module` with `top`
/// (a builder at the module's top: successive declarations keep their
/// order), unless the module has that symbol already (a runtime function
/// that lowered code calls).
void declareRuntimeFunction(mlir::OpBuilder &top, mlir::ModuleOp module,
                            llvm::StringRef name, mlir::FunctionType type);

} // namespace ckpt

#endif // CKPT_TRANSFORMS_HOSTCOPIES_H
