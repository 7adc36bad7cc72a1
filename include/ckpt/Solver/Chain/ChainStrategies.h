//===- ChainStrategies.h - Checkpointing strategies on a chain --*- C++ -*-===//
//
// One interface for the optimal persistent DP and the baselines, so that
// they compare like for like: every strategy yields a sequence of Table 1
// operations whose makespan and peak are measured by the same simulator, in
// the same memory model (exact sizes, or slots as in Section 5.2).
//
// Strategies (exact definitions in docs/SOLVER.md):
//   optimal      Theorem 1 + Algorithm 2 (ChainDP.h).
//   store-all    F_all^1..F_all^{L+1}, B^{L+1}..B^1: no recomputation.
//   periodic:K   PyTorch checkpoint_sequential with K segments over the L
//                non-loss stages (K-1 checkpointed segments of floor(L/K)
//                stages, the last segment and the loss run with F_all).
//   sqrt         periodic:K with K = max(1, round(sqrt(L))).
//   revolve      Griewank's optimum in the AD model converted as in Section
//                5.3: only plain a^l are stored, every B^l is immediately
//                preceded by F_all^l (the persistent DP restricted so).
//   memory-poor  keep only a^0; before each B^l recompute a^{l-1} from a^0.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_CHAIN_CHAIN_STRATEGIES_H
#define CKPT_SOLVER_CHAIN_CHAIN_STRATEGIES_H

#include "ckpt/Solver/Chain/ChainModel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {
namespace solver {

/// A checkpointing strategy.
struct Strategy {
  enum class Kind { Optimal, StoreAll, Periodic, Sqrt, Revolve, MemoryPoor };
  Kind kind = Kind::Optimal;
  int segments = 0; ///< K, for Periodic only.

  /// Canonical name: "optimal", "periodic:4", ...
  std::string name() const;
};

/// Whether `text` is spelled "periodic:...": then `segments` is its K when
/// that is an integer >= 1, else 0 with `error` saying so. Shared by the
/// chain strategies and the planner's (PlanStrategy).
bool parsePeriodic(std::string_view text, int &segments, std::string &error);

/// Parses "optimal", "store-all", "periodic:K" (K >= 1), "sqrt", "revolve"
/// or "memory-poor". On failure returns false and sets `error`.
bool parseStrategy(std::string_view text, Strategy &out, std::string &error);

/// One line per strategy, for --help texts.
std::string strategyHelp();

/// Options for runStrategy().
struct SolveOptions {
  unsigned threads = 0;        ///< DP worker threads (0 = auto).
  bool withSequence = true;    ///< Return the sequence.
  bool withMinFeasible = true; ///< Compute minFeasibleMemory.
};

/// The outcome of running a strategy on a chain under a budget.
struct StrategyResult {
  std::string error; ///< Non-empty: bad input (nothing else is set).
  Strategy strategy;
  MemoryModel budget;
  bool feasible = false; ///< Peak (in units) within the limit.
  double makespan = 0;   ///< Sum of the sequence's durations.
  int64_t peak = 0;      ///< Simulated peak with exact sizes (bytes).
  int64_t peakUnits = 0; ///< Simulated peak in units (= peak if exact).
  std::vector<Op> sequence;
  /// The least memory M (same unit as budget.memory, same slot count) for
  /// which this strategy is feasible; nullopt if it is feasible for no M
  /// (only possible in slot mode, when S is too small).
  std::optional<int64_t> minFeasibleMemory;
};

/// Runs `strategy` on `chain` (validated by the caller or here) within
/// `budget`. For an infeasible budget the sequence is empty and makespan/
/// peak are 0.
StrategyResult runStrategy(const Chain &chain, const Strategy &strategy,
                           const MemoryModel &budget,
                           const SolveOptions &options = {});

/// What a strategy needs at one budget in slot mode: the least limit in
/// units at which it is feasible with `memory` (the DP's feasibility bound,
/// or a fixed sequence's peak), as runStrategy finds it.
struct SlotProbe {
  int64_t memory = 0;
  int64_t needed = 0;
};

/// The least memory M for which `strategy` is feasible with `slots` slots
/// (0 = exact). Exact mode: from the strategy's peak or the DP's
/// feasibility bound directly. Slot mode: a search on M (feasibility is
/// monotone in M because rounded sizes only shrink as M grows), which
/// starts from `known` when given (it must hold what the strategy needs
/// with these slots). Returns false and sets `error` on bad input; `out` is
/// nullopt when no M works.
bool minFeasibleMemory(const Chain &chain, const Strategy &strategy,
                       int64_t slots, std::optional<int64_t> &out,
                       std::string &error, const SlotProbe *known = nullptr);

/// The fixed sequences of the non-DP baselines (L = chain length).
std::vector<Op> storeAllSequence(int L);
/// Requires 1 <= K <= max(L, 1).
std::vector<Op> periodicSequence(int L, int K);
std::vector<Op> memoryPoorSequence(int L);

/// One point of a memory sweep.
struct SweepPoint {
  int64_t memory = 0;
  StrategyResult result;
};

/// Runs `strategy` for `count` budgets evenly spaced (rounded to integers,
/// duplicates removed) from its least feasible memory to the memory
/// store-all needs (both with `slots`), the time/memory trade-off curve.
bool sweep(const Chain &chain, const Strategy &strategy, int64_t slots,
           int count, std::vector<SweepPoint> &out, std::string &error,
           unsigned threads = 0);

} // namespace solver
} // namespace ckpt

#endif // CKPT_SOLVER_CHAIN_CHAIN_STRATEGIES_H
