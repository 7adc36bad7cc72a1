//===- InitCkpt.h - register the ckpt dialect and passes --------*- C++ -*-===//
//
// The entry points for using ckpt inside another MLIR compiler.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_INITCKPT_H
#define CKPT_INITCKPT_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ckpt {

/// Adds the ckpt dialect to `registry`.
void registerCkptDialect(mlir::DialectRegistry &registry);

/// Adds the ckpt dialect and the upstream dialects a training step is written
/// in (func, arith, math, linalg, tensor, bufferization, memref, scf, tosa,
/// gpu, nvvm, llvm), with the interface models they need: ckpt's cost and
/// bufferization models, and upstream's bufferization models of arith,
/// func, linalg, scf and tensor (what the lowerings bufferize).
void registerTrainingStepDialects(mlir::DialectRegistry &registry);

/// Registers every ckpt pass (and, later, pipeline) with the global pass
/// registry, so that `--ckpt-*` flags and `-p 'builtin.module(ckpt-*)'`
/// resolve. Safe to call more than once.
void registerPasses();

} // namespace ckpt

#endif // CKPT_INITCKPT_H
