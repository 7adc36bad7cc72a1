//===- Ilp.h - the exact schedule: Checkmate's MILP with CBC ----*- C++ -*-===//
//
// The optimal rematerialization schedule of a sched::Problem under a memory
// budget, as the mixed-integer program of Checkmate (Jain et al. 2020,
// "Checkmate: breaking the memory wall with optimal tensor
// rematerialization", the MILP with freeing variables and a fixed order of
// first computations), solved by COIN-OR CBC (Debian's coinor-libcbc-dev).
//
// Stage t runs op t (the problem's order) after recomputing any earlier ops
// it chooses (R[t][i], in the problem's order); S[t][i] keeps op i's results
// from stage t-1 into stage t; FREE[t][i,k] frees op i's results after op k
// of stage t; U[t][k], the bytes live while op k of stage t runs, stays
// within the budget. Objective: the total cost of the schedule.
//
// The memory model is the standard one of Schedule.h with every result a
// fresh buffer: a View result holds no bytes and keeps its source's op alive
// as long as it is read; InPlace results count as fresh buffers (an upper
// bound on what in-place writes need). Returned results stay until the end.
// On problems with no View or InPlace results the program is exact.
//
// With paging (IlpOptions::paging: POET's variables, Patil et al. 2022,
// on Checkmate's stages), the program may also move an op's results to
// host memory and back over a link (Offload.h), at most once each: the
// offload is issued as a stage starts (nothing in that stage reads them)
// and waited for as it ends, leaving device memory; a reload is issued as
// a stage starts, its buffer counted from there, and read from the next
// stage on; no recomputation while the host copy exists. A stage takes the
// longest of its executions' costs, its offloads' and its reloads' copy
// times; the objective is the sum over stages (the program's time). The
// plan's time in evaluateTransfers, where copies overlap across stages,
// is at most it. Only ops with one result that owns its whole buffer move.
//
// The program's own claims: its optimum and lower bound hold for the
// schedules it describes (each stage's recomputations in the problem's op
// order, each op at most once per stage), not for every schedule: a schedule
// that recomputes in another order can be cheaper (IlpResult::lowerBound).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_ILP_H
#define CKPT_SOLVER_SCHEDULE_ILP_H

#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/Schedule.h"
#include "ckpt/Solver/Support/Budget.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace ckpt {
namespace sched {

/// Whether this build has CBC (otherwise solveIlp reports an error). CBC
/// runs in a process of its own, ckpt-ilp-worker (IlpWorker.h).
bool ilpAvailable();

/// The machine's physical memory in bytes (0 when unknown).
int64_t physicalMemoryBytes();

/// The bytes CBC may use under `spec` (the `ilp-memory` option): bytes, or
/// a share of the machine's memory; 0 (no limit) for a share of a machine
/// whose memory is unknown.
int64_t ilpMemoryLimitBytes(const BudgetSpec &spec);

struct IlpOptions {
  /// Wall-clock seconds from `started` (or from the call) to the answer,
  /// building the program included: CBC stops itself before, and is
  /// stopped at 105% of it at the latest; <= 0: none.
  double timeLimit = 60;
  std::optional<std::chrono::steady_clock::time_point> started;
  /// CBC's branch-and-bound nodes (0: none): a limit that gives the same
  /// answer on any machine and under any load.
  int64_t nodeLimit = 0;
  /// Bytes CBC may use (0: none): a program estimated larger is refused
  /// before it is built, and CBC's address space is capped at it.
  int64_t memoryLimit = 0;
  int threads = 1;
  bool log = false; ///< CBC's log on stdout
  /// A schedule to start from (used when it runs the problem's ops in its
  /// order, with recomputations in that order, and fits the budget).
  const Schedule *warmStart = nullptr;
  /// Paging over this link (the header): the program may also offload.
  std::optional<LinkSpec> paging;
};

struct IlpResult {
  std::string error; ///< non-empty: nothing else is meaningful
  /// Non-empty when CBC stopped early for a reason the user should know
  /// (its memory limit, a crash) but a schedule was found before.
  std::string warning;
  enum class Status {
    Optimal,    ///< proven optimal (within CBC's gap tolerance)
    Feasible,   ///< a schedule, not proven optimal when the time ran out
    Infeasible, ///< proven: no schedule of this form fits the budget
    Unknown     ///< no schedule found, infeasibility not proven
  } status = Status::Unknown;
  Schedule schedule; ///< when Optimal or Feasible
  /// Total cost of `schedule` (every execution); with paging, the time of
  /// `schedule` with `transfers` (evaluateTransfers), at most `programTime`.
  double cost = 0;
  /// Paging: the plan's copies, its evaluation over the link, and its time
  /// in the program (the stages' longest parts summed), which `lowerBound`
  /// bounds and the status is about.
  std::vector<Transfer> transfers;
  TransferEvaluation evaluation;
  double programTime = 0;
  /// CBC's proven lower bound on the total cost of the program's schedules
  /// (see the header: not of every schedule). It equals `cost` only when
  /// the status is Optimal, which needs CBC's own optimal schedule to fit
  /// the budget in the exact simulation (evaluate).
  double lowerBound = 0;
  bool warmStarted = false;
  bool stoppedByNodes = false; ///< CBC reached nodeLimit
  int64_t variables = 0, constraints = 0, nonzeros = 0;
  int64_t estimatedBytes = 0; ///< what CBC was estimated to need
  int64_t peakBytes = 0;      ///< CBC's measured peak resident memory
  double seconds = 0;         ///< wall time of solveIlp
};

const char *statusName(IlpResult::Status status);

/// Solves the program of `problem` under `budget` bytes.
IlpResult solveIlp(const Problem &problem, int64_t budget,
                   const IlpOptions &options = {});

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_ILP_H
