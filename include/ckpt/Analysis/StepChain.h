//===- StepChain.h - a training step as a heterogeneous chain ---*- C++ -*-===//
//
// Builds the chain model of Beaumont et al. 2019 for a ckpt.step: the step's
// top-level ops become a graph (lib/Solver), its forward part is cut into
// stages at small separators (tree decomposition, or articulation points;
// with floating sources: forward ops computed from step arguments alone that
// are not on the main path, such as a bias broadcast feeding the last layer,
// join the stage of their first reader), and every stage gets u_f, u_b, w_a, w_abar, w_delta, o_f, o_b from the cost
// model and the memory simulation. docs/PLANNING.md gives the exact rules.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ANALYSIS_STEPCHAIN_H
#define CKPT_ANALYSIS_STEPCHAIN_H

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Solver/ChainModel.h"
#include "ckpt/Solver/Graph.h"
#include "ckpt/Solver/Separators.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace ckpt {

/// Which separators cut the forward pass into stages.
enum class SeparatorKind {
  TreeDecomposition, ///< bag intersections of a min-fill tree decomposition
  Articulation,      ///< single values only (openai's 'memory' mode)
  /// Only the outputs of matmul and convolution ops (those that separate):
  /// openai's 'speed' mode.
  MatmulConv,
  /// Only the values the user marked with ckpt.checkpoint (those that
  /// separate): openai's 'collection' mode. The checkpoint ops themselves
  /// are kept (computed once, never part of a stage).
  Checkpoints
};

/// A ckpt.step seen as a chain.
struct StepChain {
  /// The chain: stages 1..L+1 (the last one holds the loss).
  solver::Chain chain;
  /// The graph of the step's top-level ops and its separator chain.
  graph::Graph graph;
  graph::SeparatorChain separators;
  /// The op of each graph node.
  std::vector<mlir::Operation *> nodeOps;
  /// 1-based chain stage of each forward op in a stage and of each backward
  /// op (the stage whose backward B^l runs it). Kept forward ops are absent.
  llvm::DenseMap<mlir::Operation *, int> stageOf;
  /// Number of forward ops per stage (index l-1).
  std::vector<uint64_t> stageOps;
  /// Bytes outside the chain model, live for the whole step in the worst
  /// case: kept forward values (not recomputable: side effects, unknown
  /// ops, ckpt.checkpoint). The parameter gradients the step returns are in
  /// the chain: they are counted in w_delta from the stage producing them on.
  uint64_t persistentBytes = 0;
  /// Time of the kept forward ops, run once whatever the schedule.
  double fixedTime = 0;
};

/// Assigns every backward op of the step to the stage whose backward B^l
/// runs it: the latest stage whose forward values it reads (`forwardStage`,
/// 1-based), but no later than the stages of the backward ops whose results
/// it reads (backward runs from stage `numStages` down to 1). Ops that read
/// no staged value run in B^numStages.
llvm::DenseMap<mlir::Operation *, int>
assignBackwardStages(const StepAnalysis &analysis,
                     const llvm::DenseMap<mlir::Operation *, int> &forwardStage,
                     int numStages);

/// Builds the chain of `step`. Fails with an error at the offending op (e.g.
/// dynamic shapes).
mlir::FailureOr<StepChain> buildStepChain(StepOp step,
                                          const StepAnalysis &analysis,
                                          const DeviceProfile &device,
                                          const MeasuredProfile *profile,
                                          SeparatorKind kind);

} // namespace ckpt

#endif // CKPT_ANALYSIS_STEPCHAIN_H
