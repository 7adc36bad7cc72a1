//===- CkptTypes.cpp - ckpt dialect types ---------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptTypes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ckpt;

#define GET_TYPEDEF_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptTypes.cpp.inc"

void CkptDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ckpt/Dialect/Ckpt/IR/CkptTypes.cpp.inc"
      >();
}
