//===- CkptDialect.h - ckpt dialect -----------------------------*- C++ -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTDIALECT_H
#define CKPT_DIALECT_CKPT_IR_CKPTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTDIALECT_H
