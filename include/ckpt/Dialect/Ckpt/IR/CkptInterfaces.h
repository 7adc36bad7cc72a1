//===- CkptInterfaces.h - ckpt op interfaces --------------------*- C++ -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTINTERFACES_H
#define CKPT_DIALECT_CKPT_IR_CKPTINTERFACES_H

#include "mlir/IR/OpDefinition.h"

#include "ckpt/Dialect/Ckpt/IR/CkptInterfaces.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTINTERFACES_H
