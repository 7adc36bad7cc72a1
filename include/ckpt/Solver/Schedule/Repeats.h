//===- Repeats.h - identical blocks of a problem ----------------*- C++ -*-===//
//
// Runs of identical blocks in a problem's op order: the layers of a
// transformer, the bottleneck blocks of a ResNet stage. A run is `count`
// consecutive blocks of `period` ops each, op start + b * period + j being
// the j-th op of block b, where each op of a block is identical to the same
// op of the next block:
//
//   - the same name, cost, flags (recomputable, backward, constant) and
//     results (bytes, buffer rule, number);
//   - the same number of reads, and read for read the same value, two step
//     inputs (the blocks' own weights), or values at the same result index
//     of two ops `period` apart (what the block before or inside the block
//     computed); a view's or in-place result's source the same way.
//
// So the blocks are the same computation on their own inputs, one block
// later, as far as planning sees it: the problem holds no attributes (two
// linalg.generic ops with other payloads but the same name, cost and
// buffers are identical here). Blocks of constant-like ops alone are not
// runs. Planners use it to apply a move's equivalents in the other blocks
// at once (Remat.h: SearchOptions::repeats); any schedule they build is
// still simulated whole, so a run found where the blocks are not used alike
// costs time, never a wrong schedule.
//
// Found in linear time: from the first op with an identical op later, the
// distance to the next identical op is the candidate period; the run extends
// forward while each op is identical to the op a period later, then
// backward; it is kept when it spans at least `minCount` whole blocks. Runs
// do not overlap. Failed tries compare at most a period each; past 16
// comparisons per op in all, a failed try skips the ops it compared.
//
// Plain C++ (no MLIR): the solver layer.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_REPEATS_H
#define CKPT_SOLVER_SCHEDULE_REPEATS_H

#include "ckpt/Solver/Schedule/Schedule.h"

#include <vector>

namespace ckpt {
namespace sched {

/// `count` identical blocks of `period` ops from op `start`.
struct RepeatRun {
  int start = 0;
  int period = 0;
  int count = 0;
};

/// The runs of identical blocks of a problem, in op order.
struct Repeats {
  std::vector<RepeatRun> runs;
  /// Per op: the index of its run in `runs`, or -1.
  std::vector<int> runOf;

  bool empty() const { return runs.empty(); }
  /// The values at the same place as `value` in the other blocks of its
  /// producer's run, nearest block first (the block after before the one
  /// before); none for a value outside every run.
  std::vector<int> images(const Problem &problem, int value) const;
};

/// The runs of at least `minCount` identical blocks (at least 2) of at least
/// `minPeriod` ops each, found from the first op on.
Repeats findRepeats(const Problem &problem, int minCount = 3,
                    int minPeriod = 1);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_REPEATS_H
