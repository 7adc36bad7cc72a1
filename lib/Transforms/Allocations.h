//===- Allocations.h - the allocation behind a memref -----------*- C++ -*-===//
//
// Shared by ckpt-lower-frees, ckpt-lower-host-copies and ckpt-check-peak
// (internal to lib/Transforms).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_TRANSFORMS_ALLOCATIONS_H
#define CKPT_LIB_TRANSFORMS_ALLOCATIONS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace ckpt {

/// The memref.alloc `value` is (a view of, through view-like ops and
/// casts), or null when it comes from anything else (an argument, a call).
mlir::memref::AllocOp findAllocation(mlir::Value value);

/// Whether `type` lives in host memory: memory space 1, the host copies of
/// offloaded values, which ckpt-run counts apart from the step's buffers.
bool isHostSpace(mlir::MemRefType type);

} // namespace ckpt

#endif // CKPT_LIB_TRANSFORMS_ALLOCATIONS_H
