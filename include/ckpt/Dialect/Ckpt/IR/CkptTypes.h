//===- CkptTypes.h - ckpt dialect types -------------------------*- C++ -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTTYPES_H
#define CKPT_DIALECT_CKPT_IR_CKPTTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptTypes.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTTYPES_H
