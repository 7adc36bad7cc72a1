//===- CkptInterfaces.cpp - ckpt op interfaces ----------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptInterfaces.h"

#include "ckpt/Dialect/Ckpt/IR/CkptInterfaces.cpp.inc"
