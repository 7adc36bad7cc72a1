//===- StepAnalysis.h - phases, activations, memory of a step ---*- C++ -*-===//
//
// What the planner knows about one ckpt.step before planning:
//  - the phase split: forward = the ops the loss depends on (through operands
//    and through values used inside their regions), backward = the rest;
//  - the activations: forward tensor values that backward ops read;
//  - which forward ops may be recomputed (known, side-effect free);
//  - the memory timeline of an op order: every tensor result is a buffer from
//    its definition to its last use, with in-place reuse where one-shot
//    bufferization does it; step arguments are outside the budget.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ANALYSIS_STEPANALYSIS_H
#define CKPT_ANALYSIS_STEPANALYSIS_H

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace ckpt {

/// Phase split and activations of a ckpt.step. Cached per step with
/// `getAnalysis<StepAnalysis>()` / `getChildAnalysis<StepAnalysis>(step)`.
class StepAnalysis {
public:
  explicit StepAnalysis(mlir::Operation *op);

  StepOp getStep() const { return step; }

  /// Top-level ops of the step's block (terminator excluded), in block order.
  llvm::ArrayRef<mlir::Operation *> getForwardOps() const { return forward; }
  llvm::ArrayRef<mlir::Operation *> getBackwardOps() const { return backward; }
  bool isForward(mlir::Operation *op) const { return forwardSet.contains(op); }

  /// Forward tensor values read by backward ops (or nested ops of backward
  /// ops), in block order of their definitions.
  llvm::ArrayRef<mlir::Value> getActivations() const { return activations; }
  bool isActivation(mlir::Value value) const {
    return activationSet.contains(value);
  }

  /// Whether `op` may be executed again to recompute its results: registered,
  /// free of memory effects (recursively), and not a ckpt structural op.
  static bool isRecomputable(mlir::Operation *op);

  /// The values `op` reads from outside itself: its operands and the values
  /// its regions use that are defined above them.
  static void getReadValues(mlir::Operation *op,
                            llvm::SetVector<mlir::Value> &values);

  /// Top-level ops of the block that define the values `op` reads (see
  /// getReadValues), each once.
  static void getDependencies(mlir::Operation *op,
                              llvm::SmallVectorImpl<mlir::Operation *> &deps);

  /// Whether `op`, a top-level op of the step, computes its results from
  /// constants alone: recomputable, and everything it reads comes from
  /// constant-like ops of the step (no argument) — arith.constant,
  /// tensor.empty, a linalg.fill of a constant. The planner neither keeps
  /// nor stages such ops; the rewrite clones them where they are needed.
  bool isConstantLike(mlir::Operation *op) const;

private:
  StepOp step;
  std::vector<mlir::Operation *> forward, backward;
  llvm::DenseSet<mlir::Operation *> forwardSet;
  std::vector<mlir::Value> activations;
  llvm::DenseSet<mlir::Value> activationSet;
  /// Memo of isConstantLike.
  mutable llvm::DenseMap<mlir::Operation *, bool> constantLike;
};

/// One buffer of the memory model: the values that share it, its size and the
/// positions (in the simulated order) where it is created and last used.
struct Buffer {
  uint64_t bytes = 0;
  unsigned def = 0;
  unsigned lastUse = 0;
  llvm::SmallVector<mlir::Value, 2> values;
};

/// Live memory over an op order.
struct MemoryTimeline {
  std::vector<Buffer> buffers;
  /// Buffer index of each tensor value (absent: block argument or scalar).
  llvm::DenseMap<mlir::Value, unsigned> bufferOf;
  /// Bytes live while the op at each position runs (its inputs and outputs
  /// included).
  std::vector<uint64_t> liveDuring;
  uint64_t peak = 0;
  unsigned peakPosition = 0;
};

/// Simulates the buffers of `order` (top-level ops of one block, in execution
/// order; ops of that block not in `order` are ignored) with the simulator of
/// lib/Solver (sched::evaluate) on the problem buildOrderProblem makes of it
/// (StepProblem.h gives the memory rules): views share their source's
/// buffer, destination-style and elementwise ops write in place into a dead
/// init, block arguments are outside the budget, values the terminator reads
/// stay live to the end, and recompute regions run flattened. Positions are
/// those of `order` (a buffer used inside a region is used at the region's
/// position; liveDuring of a region is its highest point).
///
/// `alignment` > 1 rounds every buffer up to a multiple of it, as the
/// allocator does: pass kBufferAlignment to predict what ckpt-run measures.
MemoryTimeline simulateMemory(llvm::ArrayRef<mlir::Operation *> order,
                              unsigned alignment = 1);

/// simulateMemory over the ops of `block` in their order, terminator aside.
MemoryTimeline simulateBlock(mlir::Block &block, unsigned alignment = 1);

/// The alignment ckpt-lower-to-cpu gives buffers (one-shot bufferization's
/// buffer-alignment); allocations are rounded up to a multiple of it.
inline constexpr unsigned kBufferAlignment = 16;

} // namespace ckpt

#endif // CKPT_ANALYSIS_STEPANALYSIS_H
