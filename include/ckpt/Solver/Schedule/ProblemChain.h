//===- ProblemChain.h - a schedule problem seen as a chain ------*- C++ -*-===//
//
// The chain model of Beaumont et al. 2019 for a training step given as a
// sched::Problem: the forward ops (Op::backward false) are cut into stages at
// small separators (a tree decomposition, articulation points, or given
// candidate ops), every backward op is given the stage whose B^l runs it,
// and each stage gets u_f, u_b, w_a, w_abar, w_delta, o_f, o_b (see
// docs/PLANNING.md, "The chain"). A chain sequence (Fall/Fck/Fn/B) expands
// back into an op-level schedule, which the simulator of Schedule.h scores
// exactly: the chain DP is one producer of schedules among others.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_PROBLEM_CHAIN_H
#define CKPT_SOLVER_SCHEDULE_PROBLEM_CHAIN_H

#include "ckpt/Solver/Chain/ChainModel.h"
#include "ckpt/Solver/Graph/Graph.h"
#include "ckpt/Solver/Graph/Separators.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include <cstdint>
#include <vector>

namespace ckpt {
namespace sched {

/// Which separators cut the forward ops into stages.
enum class SeparatorKind {
  TreeDecomposition, ///< bag intersections of a min-fill tree decomposition
  Articulation,      ///< single values only (openai's 'memory' mode)
  Candidates         ///< only the results of the given candidate ops
};

struct ChainOptions {
  SeparatorKind kind = SeparatorKind::TreeDecomposition;
  /// Candidates: ops whose results may separate, in a topological order.
  std::vector<int> candidates;
  /// Ops that are graph nodes without bytes of their own and belong to no
  /// stage (computed once): the markers whose input is a candidate
  /// (ckpt.checkpoint in 'manual' mode).
  std::vector<int> markers;
};

/// A problem seen as a chain.
struct ProblemChain {
  /// The chain: stages 1..L+1 (the last one holds the loss).
  solver::Chain chain;
  /// The graph of the ops with results, and its separator chain.
  graph::Graph graph;
  graph::SeparatorChain separators;
  std::vector<int> nodeOp; ///< op of each graph node
  /// Per op: the 1-based stage of a forward op in a stage (recomputed with
  /// it) or of a backward op (the B^l that runs it); 0 for forward ops in
  /// no stage (kept, constant-like, markers), computed once.
  std::vector<int> stageOf;
  /// Forward ops per stage (index l-1), in the problem's order.
  std::vector<std::vector<int>> stageOps;
  /// Bytes of forward results that cannot be recomputed: outside the chain,
  /// live for the whole step in the worst case.
  int64_t persistentBytes = 0;
  /// Cost of the ops run once whatever the schedule (kept and constant-like
  /// forward ops).
  double fixedTime = 0;
};

/// Builds the chain of `problem`.
ProblemChain buildProblemChain(const Problem &problem,
                               const ChainOptions &options = {});

/// The op-level schedule of a chain sequence: the forward ops in the
/// problem's order (the first forward sweep), then for every later F^l the
/// ops of stage l (with the constant-like ops they read), and for every B^l
/// its backward ops in the problem's order; recomputations nobody reads are
/// pruned. A sequence without recomputation gives the identity schedule.
Schedule expandSequence(const Problem &problem, const ProblemChain &chain,
                        const std::vector<solver::Op> &sequence);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_PROBLEM_CHAIN_H
