//===- Jit.h - JIT a lowered training step ----------------------*- C++ -*-===//
//
// One place that turns a module lowered to the LLVM dialect into code: a
// target machine for the chosen CPU and optimization level, MLIR's
// ExecutionEngine over it, and the ckpt runtime's allocation hooks bound into
// the JIT'd code. Used by ckpt-run and by the Python extension _ckpt_mlir
// (ckpt.compile_step, a step compiled and called in process).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ENGINE_JIT_H
#define CKPT_ENGINE_JIT_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace ckpt {

/// The functions lowered code calls for its memory: the three hooks of
/// `finalize-memref-to-llvm{use-generic-functions}` and the brackets of the
/// host copies of offloaded values (`ckpt-lower-host-copies`).
struct JitHooks {
  void *(*alloc)(size_t);
  void *(*alignedAlloc)(size_t, size_t);
  void (*free)(void *);
  void (*beginHostCopy)();
  void (*endHostCopy)();
};

struct JitOptions {
  /// LLVM's optimization level of the IR passes, 0-3, and of the code
  /// generator unless `codegenLevel` is set (code generation at 2 costs
  /// little; the IR passes at 1 and above cost most of a large step's
  /// compile time).
  unsigned optLevel = 0;
  std::optional<unsigned> codegenLevel;
  /// 'host' or empty (the CPU running the JIT), 'generic' (x86-64 baseline),
  /// 'avx2' (x86-64-v3) or an LLVM CPU name.
  std::string cpu;
  /// Let LLVM reassociate and contract floating-point additions and
  /// multiplications (the `reassoc` and `contract` flags on every fadd, fsub
  /// and fmul): reductions (batch norm's sums, a loss's) vectorize, and
  /// multiply-adds fuse. Results may differ in the last bits from the code
  /// without it (ckpt.compile_step's `fast_math`); ckpt-run leaves it off,
  /// so that its outputs hash the same at every level.
  bool reassociate = false;
  /// Shared libraries the JIT'd code may call into.
  llvm::SmallVector<std::string> sharedLibs;
  JitHooks hooks;
};

/// JITs `module` (lowered to the LLVM dialect) with `options`; the hooks,
/// memrefCopy and the runtime's kernels are bound before anything is
/// compiled. Errors are one
/// sentence each ("cannot create a target machine for CPU ...").
llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>>
jitModule(mlir::ModuleOp module, const JitOptions &options);

/// The CPU ckpt-run and ckpt.compile_step compile for when none is given:
/// the environment variable CKPT_ISA, else the host.
std::string defaultJitCpu();

} // namespace ckpt

#endif // CKPT_ENGINE_JIT_H
