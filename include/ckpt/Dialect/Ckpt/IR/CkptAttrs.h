//===- CkptAttrs.h - ckpt dialect attributes --------------------*- C++ -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTATTRS_H
#define CKPT_DIALECT_CKPT_IR_CKPTATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"

#include "ckpt/Dialect/Ckpt/IR/CkptEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTATTRS_H
