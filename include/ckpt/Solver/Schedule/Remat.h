//===- Remat.h - op-level rematerialization planners ------------*- C++ -*-===//
//
// Planners over a sched::Problem that search schedules directly, scored by
// the exact simulator of Schedule.h:
//
//  - fitBudget: greedy. While the peak is above the budget, at the first
//    execution at the peak, every buffer live across it that no execution
//    there reads is a candidate: its value is freed after its last read
//    before the peak and recomputed right before its next read, with the
//    values that recomputation reads either kept longer or recomputed too
//    (three variants). Candidates are ranked by extra cost per byte saved;
//    the best few are evaluated exactly and the one that lowers the peak
//    (else the bytes above the budget summed over executions) at the least
//    extra cost per byte is applied.
//  - dropRecomputations: removes recomputations, the most expensive first,
//    while the peak stays within the budget.
//  - improve: dropRecomputations, then ruin-and-recreate: remove one
//    recomputation (with what only it needed), refit greedily, keep the
//    result when it is cheaper and fits.
//  - leastPeak: fitBudget towards a budget of 0 bytes: the lowest peak the
//    greedy reaches from a start.
//  - lowerPeak: ruin-and-recreate towards a lower peak: remove one
//    recomputation, refit one byte under the current peak.
//  With a nonzero `seed`, the greedy picks by randomly scaled ratios: the
//  least-budget search restarts it with a few fixed seeds.
//
// Deterministic: work limits count evaluations, never wall time.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_REMAT_H
#define CKPT_SOLVER_SCHEDULE_REMAT_H

#include "ckpt/Solver/Schedule/MemorySimulator.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include <cstdint>
#include <limits>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace ckpt {
namespace sched {

struct Repeats;

/// Limits of the searches.
struct SearchOptions {
  /// Candidates evaluated exactly per greedy step.
  int candidates = 8;
  /// Upper bound on exact evaluations per call (a work limit).
  int64_t maxEvaluations = 20000;
  /// Ruin-and-recreate rounds in `improve` (0: drop only).
  int rounds = 2;
  /// Insert a recomputation among those of its stage in op order (the form
  /// of Checkmate's program, Ilp.h) instead of right before its reader.
  bool sortedInsertion = false;
  /// 0: the greedy applies the best move; else it picks by ratios scaled
  /// by random factors in [1, 2) drawn from this seed (deterministic).
  uint64_t seed = 0;
  /// The greedy counts the bytes a move saves at the peak only up to the
  /// peak's excess over the budget (a small move that suffices beats a large
  /// one that is cheaper per byte); false: every byte counts.
  bool capExcess = true;
  /// The greedy also tries each candidate recomputed right after the
  /// peak's execution (where what that execution reads is still in memory,
  /// so keeping it one execution longer costs nothing at the peak), not
  /// only right before the value's next read. The least-peak search sets it
  /// (a value whose inputs die at the peak is recomputed from them there,
  /// instead of being kept across it); plans at a budget do not.
  bool recomputeAfterPeak = false;
  /// Work shared with other searches (optional).
  Work *work = nullptr;
  /// `improve` runs the two refits of each ruined schedule on two threads.
  /// The schedule it returns is the same as with one thread.
  bool parallel = false;
  /// The pool the second thread's work runs on (MLIR's context pool in a
  /// pass); null: LLVM's default pool of the process.
  llvm::ThreadPoolInterface *threads = nullptr;
  /// The problem's identical blocks (Repeats.h), or none. With them, each
  /// greedy step that lowers the peak also tries the chosen move's
  /// equivalents in the other blocks of its run, as many as the excess over
  /// the budget needs (ruled by the bytes the move alone saves), all in one
  /// step: taken when they lower the peak at the move's own cost per byte
  /// or less, else the move alone. Not with sortedInsertion or a seed.
  const Repeats *repeats = nullptr;
  /// Counts the equivalents the greedy applied with `repeats` (optional).
  int64_t *imagesApplied = nullptr;
};

/// Greedily recomputes values of `start` until its peak is within `budget`.
/// Returns the schedule with the lowest (peak, cost) it reached: within the
/// budget when it succeeded. `start` must be a valid schedule.
Schedule fitBudget(const Problem &problem, const Schedule &start,
                   int64_t budget, const SearchOptions &options = {});

/// Removes recomputations, the most expensive first, while the peak stays
/// within `budget` (never makes a schedule within budget go above it).
Schedule dropRecomputations(const Problem &problem, const Schedule &schedule,
                            int64_t budget, const SearchOptions &options = {});

/// dropRecomputations, then ruin-and-recreate rounds: each recomputation in
/// turn is removed with what only it needed, and the greedy refits the rest
/// twice, with and without capExcess, keeping a refit that is cheaper.
/// `schedule` must be within `budget`; so is the result, and it costs no
/// more. (options.capExcess is not used.)
Schedule improve(const Problem &problem, const Schedule &schedule,
                 int64_t budget, const SearchOptions &options = {});

/// The lowest-peak schedule the greedy reaches from `start`.
Schedule leastPeak(const Problem &problem, const Schedule &start,
                   const SearchOptions &options = {});

/// Ruin-and-recreate towards a lower peak: removes one recomputation of
/// `start` at a time and fits the rest greedily one byte under the current
/// peak; keeps the result when its peak is lower (or equal and cheaper).
/// `options.rounds` bounds the successive lowerings.
Schedule lowerPeak(const Problem &problem, const Schedule &start,
                   const SearchOptions &options = {});

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_REMAT_H
