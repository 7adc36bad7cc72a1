//===- Passes.h - ckpt passes -----------------------------------*- C++ -*-===//

#ifndef CKPT_TRANSFORMS_PASSES_H
#define CKPT_TRANSFORMS_PASSES_H

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/PassOptions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace ckpt {

#define GEN_PASS_DECL
#include "ckpt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ckpt/Transforms/Passes.h.inc"

} // namespace ckpt

#endif // CKPT_TRANSFORMS_PASSES_H
