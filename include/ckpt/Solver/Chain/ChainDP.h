//===- ChainDP.h - Optimal persistent checkpointing DP ----------*- C++ -*-===//
//
// The dynamic program of Beaumont et al. 2019, Theorem 1 (C_BP, m_none,
// m_all, C1, C2, C_ck, C_all) with the sequence reconstruction of
// Algorithm 2, computed by a fast vectorised, pruned and multi-threaded
// implementation (see docs/SOLVER.md). Plain C++17, no MLIR/LLVM.
//
// All memory quantities here are in *units* (bytes in exact mode, slots in
// slot mode): pass a chain converted with toUnits() and the limit in units.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_CHAIN_CHAIN_DP_H
#define CKPT_SOLVER_CHAIN_CHAIN_DP_H

#include "ckpt/Solver/Chain/ChainModel.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ckpt {
namespace solver {

/// The instruction set the DP's inner kernels run with in this process:
/// "avx512", "avx2" or "generic" (the x86-64 baseline): the best this CPU
/// has, or less when the environment variable CKPT_ISA (generic, avx2)
/// asks for it, for tests and benchmarks of each path on one machine.
const char *chainKernelIsa();

/// Options of the dynamic program.
struct DPOptions {
  /// true: Theorem 1 as stated (C_BP = min(C1, C2)). false: the automatic
  /// differentiation model used for the `revolve` baseline: C2 (F_all
  /// followed by a sub-chain) is allowed only for one-stage chains, i.e.
  /// every B^l is immediately preceded by F_all^l and only plain a^l are
  /// checkpointed (paper Section 5.3).
  bool allowAllChains = true;
  /// Worker threads; 0 = std::thread::hardware_concurrency() (at most 8).
  unsigned threads = 0;
  /// Build the operation sequence (Algorithm 2); false = makespan only.
  bool reconstruct = true;
  /// Refuse (with an error) to allocate a DP table larger than this. Only
  /// exact mode with large integer sizes can get there: use slots then.
  /// (solveChainDP stores only the values its one limit reads, which can
  /// be far fewer than ChainDPTable's for every limit up to the same.)
  size_t maxTableBytes = size_t(2) << 30;
  /// Cache tiling of the table fill (tuning only, results do not depend on
  /// it): column block width and row tile height, see docs/SOLVER.md.
  int tileColumns = 16;
  int tileRows = 16;
};

/// Result of solveChainDP().
struct DPSolution {
  std::string error;            ///< Non-empty: the DP could not run.
  bool feasible = false;        ///< C_BP(1, L+1, limit - wa[0]) < infinity.
  double makespan = 0;          ///< Sum of durations of `sequence`.
  std::vector<Op> sequence;     ///< Algorithm 2's sequence (if feasible).
  int64_t minFeasibleLimit = 0; ///< Least limit (units) that is feasible.
  size_t tableBytes = 0;        ///< Memory used by the DP table (the
                                ///< values this limit reads).
};

/// Solves C_BP(1, L+1, limit - wa[0]) for `unitChain` (sizes in units) and
/// reconstructs the optimal persistent sequence. Requires a chain that
/// passes Chain::validate().
DPSolution solveChainDP(const Chain &unitChain, int64_t limit,
                        const DPOptions &options = {});

/// The DP table filled once for every limit up to a maximum, so that the
/// optimal sequence for any smaller limit costs only a reconstruction (the
/// planners search the budget of the chain this way).
class ChainDPTable {
public:
  /// Fills the table of `unitChain` for limits up to `maxLimit` (units).
  /// Sets `error` and returns null on failure (table too large).
  static std::unique_ptr<ChainDPTable> build(const Chain &unitChain,
                                             int64_t maxLimit,
                                             const DPOptions &options,
                                             std::string &error);
  ~ChainDPTable();

  /// The least feasible limit (units, a^0 included).
  int64_t minFeasibleLimit() const;
  /// The limit the table was filled for.
  int64_t maxLimit() const;
  /// The optimal sequence and its makespan for `limit` <= maxLimit();
  /// false when infeasible.
  bool solve(int64_t limit, std::vector<Op> &sequence, double &makespan) const;

private:
  struct Impl;
  explicit ChainDPTable(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// The least limit (units, a^0 included) for which solveChainDP() is
/// feasible: wa[0] + the least m with C_BP(1, L+1, m) finite, computed by a
/// feasibility DP over the same thresholds as Theorem 1 (O(L^3), no table
/// over memory).
int64_t minFeasibleLimit(const Chain &unitChain, bool allowAllChains = true);

/// min(minFeasibleLimit(unitChain, allowAllChains), cap + 1): whether a
/// limit up to `cap` (>= 0) is feasible, and the least one if so, on
/// integers as narrow as the cap allows (16-bit for a few thousand slots).
int64_t minFeasibleLimit(const Chain &unitChain, bool allowAllChains,
                         int64_t cap);

} // namespace solver
} // namespace ckpt

#endif // CKPT_SOLVER_CHAIN_CHAIN_DP_H
