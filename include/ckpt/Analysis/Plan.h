//===- Plan.h - plan a step under a memory budget ---------------*- C++ -*-===//

#ifndef CKPT_ANALYSIS_PLAN_H
#define CKPT_ANALYSIS_PLAN_H

#include "ckpt/Analysis/StepChain.h"
#include "ckpt/Solver/ChainStrategies.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

/// A budget as the user wrote it: bytes, or a percentage of the store-all peak.
struct BudgetSpec {
  bool percent = false;
  double value = 0; ///< bytes, or percent (0 < value)
};

/// Budgets in bytes are below 2^63 (kept in signed 64-bit counts).
constexpr double kMaxBudgetBytes = 9223372036854775808.0; // 2^63

/// Parses "1048576", "512KiB", "1.5GiB", "2MB", "70%" (units B, KB, MB, GB,
/// KiB, MiB, GiB, TiB; decimal units are powers of 1000). Returns
/// std::nullopt and sets `error` on malformed input or a byte budget of
/// kMaxBudgetBytes or more.
std::optional<BudgetSpec> parseBudget(llvm::StringRef text, std::string &error);

/// Checks a `slots` option (0: exact sizes, else positive); emits an error
/// at `loc` otherwise.
mlir::LogicalResult checkSlots(mlir::Location loc, int64_t slots);

/// "1.50 MiB (1572864 B)"-style rendering of a byte count.
std::string formatBytes(uint64_t bytes);

/// The predicted outcome of one strategy on a step.
struct PlanResult {
  bool feasible = false;
  uint64_t budget = 0;     ///< bytes
  uint64_t peak = 0;       ///< predicted peak bytes (chain + persistent)
  double time = 0;         ///< predicted seconds (makespan + fixed)
  std::vector<solver::Op> sequence;
  /// Least budget (bytes) for which the strategy is feasible, if any.
  std::optional<uint64_t> minFeasibleBudget;
  std::string error;       ///< the solver refused the input
};

/// Runs `strategy` on the step's chain under `budget` bytes with `slots`
/// memory slots (0 = exact sizes).
PlanResult planChain(const StepChain &stepChain,
                     const solver::Strategy &strategy, uint64_t budget,
                     int64_t slots);

/// The separators a strategy plans over: 'articulation' (single values),
/// 'speed' (matmul and convolution outputs), 'manual' (checkpointed
/// values), the tree-decomposition chain otherwise.
SeparatorKind separatorKindFor(llvm::StringRef strategy);

/// Whether `strategy` is a fixed schedule over its own separators ('speed',
/// 'manual'): every stage but the loss runs F_ck in the forward sweep, and
/// is recomputed once (F_all) right before its backward.
bool isKeepSeparatorsStrategy(llvm::StringRef strategy);

/// Fck1 .. FckL Fall(L+1) B(L+1) FallL BL .. Fall1 B1.
std::vector<solver::Op> keepSeparatorsSequence(int length);

/// Runs `strategy` (any name ckpt-plan takes) on the step's chain under
/// `budget` bytes with `slots` slots: the chain strategies through
/// planChain, 'articulation' as the optimal DP, 'speed' and 'manual' as
/// keepSeparatorsSequence evaluated by the chain simulator (exact bytes).
/// Unknown names give a result with `error` set.
PlanResult planStrategy(const StepChain &stepChain, llvm::StringRef strategy,
                        uint64_t budget, int64_t slots);

/// The first forward operation kind of each stage in `sequence` ("all",
/// "ck" or "none"), index l-1.
std::vector<std::string> stageKinds(const std::vector<solver::Op> &sequence,
                                    int numStages);

} // namespace ckpt

#endif // CKPT_ANALYSIS_PLAN_H
