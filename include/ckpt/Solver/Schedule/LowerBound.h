//===- LowerBound.h - a lower bound on the recompute cost -------*- C++ -*-===//
//
// A lower bound on the recompute cost of every schedule of a problem within
// a budget, for steps far too large for the exact program (Ilp.h), computed
// by Lagrangian relaxation and minimum cuts.
//
// The cut at an op j. Every schedule runs j a first time, at some execution
// T. Every op j depends on (its ancestors) has run before T; every op that
// depends on j runs after T. So a value v of an ancestor that a descendant
// of j reads (or that the step returns) is, after T, either *kept*: its
// buffer is live during T, or *recomputed*: its producer runs again after
// T, which needs each value it reads kept or recomputed in turn (inputs of
// the step are always there). What j reads is kept, and j's fresh results
// are live during T. The bytes live during T are at most the budget, so
//
//   recompute cost >= min  sum over recomputed v of c(v)
//                     s.t. kept bytes + j's result bytes <= budget,
//                          the needed values kept or recomputed,
//                          a recomputed value's inputs kept or recomputed,
//
// where c(v) is its producer's cost split over the producer's results (an
// op that runs again recomputes all of them: never more than its cost). A
// value's kept bytes are its own for a fresh buffer, at most its source's
// for an in-place result, none for a view: never more than what is live;
// but a view available after T makes its source available (its buffer is
// live, or the view is made again from it).
// Each cut is a relaxation of the schedule's memory constraint at one
// instant, so the largest bound over the cuts is a bound too.
//
// Each cut's program is solved through its Lagrangian dual: for a price
// lambda per kept byte, keeping or recomputing is a closure problem (pay
// lambda * bytes to keep a value, c(v) - lambda * bytes more to recompute
// it instead; recomputing implies its inputs are available), solved exactly
// by a minimum cut; minus lambda times the bytes the budget leaves, it is a
// lower bound for every lambda >= 0 (weak duality). The price is searched
// (the dual is concave in it; BoundOptions says how) at the 16 cuts
// whose excess (what must be available, all kept, over the room) is the
// largest relative to the room; at the others it is not searched. On
// problems of over 1500 ops the excess is computed at 1500 cuts spread
// evenly, then around the 16 largest (in order: at every cut, in one
// sweep, inOrderKeptBytes).
//
// In order (BoundScope::InOrder): the same bound over the schedules that run
// each op a first time in the problem's order, as Checkmate's program does
// (Ilp.h) and as most plans do (firstRunsInOrder says whether one does; a
// chain schedule may run a later branch first). At op j's first execution
// every op before j has run and none after it, so the cut's values are
// those of every earlier op that a later op reads (or that is returned),
// not only of j's ancestors read by its descendants: no reordering can move
// a value out of the instant. Stronger where independent branches could be
// reordered (random layered graphs), but only for schedules in order.
//
// Plain C++17, no MLIR/LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_LOWERBOUND_H
#define CKPT_SOLVER_SCHEDULE_LOWERBOUND_H

#include "ckpt/Solver/Schedule/Schedule.h"

#include <cstdint>
#include <vector>

namespace ckpt {
namespace sched {

struct RecomputeBound {
  /// Every schedule within the budget costs at least the step's own cost
  /// (each op once) plus this. 0 when no cut binds.
  double recompute = 0;
  /// No schedule fits: at the cut, what must be live exceeds the budget.
  bool infeasible = false;
  int cutOp = -1;      ///< the op of the binding cut (-1: none)
  int cutsTried = 0;   ///< cuts whose excess at price 0 was computed
  int cutsBinding = 0; ///< of them, those with an excess (the dual is
                       ///< searched at the 16 largest, relative to the room)
  /// At the binding cut, the values that the dual's cheapest solution
  /// within the room recomputes after the cut (a hint for the planner).
  std::vector<int> recomputed;
};

/// Which schedules a bound covers.
enum class BoundScope {
  Any,    ///< every schedule within the budget
  InOrder ///< those whose first executions are in the problem's op order
};

/// How recomputeLowerBound works.
struct BoundOptions {
  BoundScope scope = BoundScope::Any;
  /// Fill RecomputeBound::recomputed (the planner's bound start): the keep
  /// set of the least price tried at which the cut's optimum fits.
  bool keepSet = false;
  /// Search each cut's price by 48 bisection steps (about fifty minimum
  /// cuts per cut) instead of probing where the dual's two bounding lines
  /// cross until no price can raise the bound by more than a relative 1e-9
  /// (a few minimum cuts): the same bound to that precision, a reference
  /// for the tests.
  bool bisect = false;
};

/// The bound at `budget` (bytes), from a cut at every op.
RecomputeBound recomputeLowerBound(const Problem &problem, int64_t budget,
                                   const BoundOptions &options = {});

/// In order, per op j: the bytes of what must be available when j first
/// runs, all kept (the values of earlier ops read at j or later, or
/// returned; a view's source with the view), the excess estimate that picks
/// the cuts to search. On problems of fresh buffers alone, plus j's
/// results, the bytes live while j runs in the schedule as written.
std::vector<double> inOrderKeptBytes(const Problem &problem);

/// Whether `schedule` runs each op a first time in the problem's order
/// (ops 0, 1, 2, ...; recomputations anywhere after): the schedules a
/// BoundScope::InOrder bound covers.
bool firstRunsInOrder(const Schedule &schedule);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_LOWERBOUND_H
