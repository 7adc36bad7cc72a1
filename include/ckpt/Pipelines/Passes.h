//===- Passes.h - the GPU passes of ckpt-lower-to-nvptx ---------*- C++ -*-===//

#ifndef CKPT_PIPELINES_PASSES_H
#define CKPT_PIPELINES_PASSES_H

#include "ckpt/Transforms/PassOptions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace ckpt {

#define GEN_PASS_DECL
#include "ckpt/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ckpt/Pipelines/Passes.h.inc"

} // namespace ckpt

#endif // CKPT_PIPELINES_PASSES_H
