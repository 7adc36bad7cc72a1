//===- Allocations.h - the allocation behind a memref -----------*- C++ -*-===//
//
// Shared by ckpt-lower-frees and ckpt-check-peak (internal to
// lib/Transforms).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_TRANSFORMS_ALLOCATIONS_H
#define CKPT_LIB_TRANSFORMS_ALLOCATIONS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace ckpt {

/// The memref.alloc `value` is (a view of, through view-like ops and
/// casts), or null when it comes from anything else (an argument, a call).
mlir::memref::AllocOp findAllocation(mlir::Value value);

} // namespace ckpt

#endif // CKPT_LIB_TRANSFORMS_ALLOCATIONS_H
