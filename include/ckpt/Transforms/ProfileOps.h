//===- ProfileOps.h - what ckpt-profile-ops puts in a step ------*- C++ -*-===//
//
// The runtime's two marks (Runtime.h) that `ckpt-profile-ops` puts around
// the ops of a step; the keys of their ids are the module's
// ckpt.profile_keys (kProfileKeysAttrName, CkptOps.h).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_PROFILEOPS_H
#define CKPT_TRANSFORMS_PROFILEOPS_H

#include "llvm/ADT/StringRef.h"

namespace ckpt {

inline constexpr llvm::StringLiteral kProfileBegin = "ckptRuntimeProfileBegin";
inline constexpr llvm::StringLiteral kProfileEnd = "ckptRuntimeProfileEnd";

} // namespace ckpt

#endif // CKPT_TRANSFORMS_PROFILEOPS_H
