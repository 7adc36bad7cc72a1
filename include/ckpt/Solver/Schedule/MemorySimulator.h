//===- MemorySimulator.h - the memory model of schedules --------*- C++ -*-===//
//
// The one engine that runs a schedule through the memory model of
// Schedule.h: every execution's versions, the buffer each version gets, the
// bytes live during each execution, the peak, the cost, and the bytes above
// a budget. `sched::evaluate` is this engine plus the rules a schedule must
// follow (op ids, ops that cannot be recomputed, every op running); the
// greedy and the local searches (Remat.cpp) run it directly on each move
// they try, reusing its buffers, and read the details a move needs
// (versions, reads, buffers). unittests/Solver/ScheduleTest.cpp checks it
// against a reference written from the model's definition on thousands of
// random schedules and on every move of random searches.
//
// Plain C++17, no MLIR/LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_MEMORY_SIMULATOR_H
#define CKPT_SOLVER_SCHEDULE_MEMORY_SIMULATOR_H

#include "ckpt/Solver/Schedule/Schedule.h"

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ckpt {
namespace sched {

/// Work that searches share, in simulated units (executions plus reads per
/// simulation): they stop once it is spent. Deterministic, unlike time.
struct Work {
  int64_t left = std::numeric_limits<int64_t>::max();
  bool spent() const { return left <= 0; }
};

/// Runs schedules of one problem through the memory model; reusable.
class MemorySimulator {
public:
  explicit MemorySimulator(const Problem &problem, Work *work = nullptr);

  /// What a run keeps besides its score.
  enum class Detail {
    None, ///< the score only
    Live, ///< and `liveAt`
    Full  ///< and every table below
  };

  /// The score of a run.
  struct Score {
    /// Every read found a version computed earlier.
    bool valid = false;
    double cost = 0;      ///< sum of the executions' costs
    int64_t peak = 0;     ///< most bytes live during one execution
    size_t peakIndex = 0; ///< first execution at the peak
    double area = 0;      ///< sum over executions of the bytes above budget
    /// When not valid: the first execution that reads a value not computed
    /// yet, and that value.
    size_t failedExecution = 0;
    int failedValue = -1;
  };

  /// Runs `schedule` (op ids of the problem, not checked). With `runCounts`
  /// (partial evaluation: runs per op), a read of a value whose producer
  /// never runs is a read of an input.
  Score run(const Schedule &schedule, int64_t budget, Detail detail,
            const std::vector<int> *runCounts = nullptr);

  /// `schedule` without the recomputations nothing needs (`sched::prune`,
  /// Schedule.h, is this on a simulator of its own) into `out` (which may
  /// be `schedule`), reusing this simulator's tables and buffers (the
  /// searches prune every schedule they ruin).
  void prune(const Schedule &schedule, Schedule &out);

  /// Whether the searches using this simulator should stop.
  bool exhausted(int64_t maxEvaluations) const {
    return evaluations >= maxEvaluations || (work && work->spent());
  }

  /// Runs so far.
  int64_t evaluations = 0;

  /// The work counter the runs spend (null: none).
  Work *sharedWork() const { return work; }

  // The tables of the last run, by *version* (a result of one execution, in
  // execution order) and by *buffer* (in creation order). Filled by every
  // valid run: the version and buffer tables; with Detail::Live or Full:
  // liveAt; with Detail::Full: the read, value and buffer indexes.
  std::vector<int> versionValue;     ///< the value it is a version of
  std::vector<uint32_t> versionExec; ///< the execution that defines it
  std::vector<uint32_t> versionLast; ///< its last read (the end: returned)
  std::vector<int> versionSource;    ///< version whose buffer it may take
  std::vector<int> versionBuffer;    ///< its buffer, or -1 (none)
  std::vector<int64_t> bufferBytes;  ///< size
  std::vector<uint32_t> bufferDef;   ///< the execution that allocates it
  std::vector<uint32_t> bufferLast;  ///< the last read of any of its versions
  std::vector<int64_t> liveAt;       ///< bytes live during each execution
  std::vector<uint32_t> readStart;   ///< reads of version y: readExec
  std::vector<uint32_t> readExec;    ///< [readStart[y], readStart[y + 1])
  std::vector<uint32_t> valueStart;  ///< versions of value v: valueVersions
  std::vector<int> valueVersions;    ///< [valueStart[v], valueStart[v + 1])
  std::vector<uint32_t> bufferStart; ///< versions of buffer b: bufferVersions
  std::vector<int> bufferVersions;   ///< [bufferStart[b], bufferStart[b + 1])

  // Queries on a Detail::Full run.
  /// The latest version of `value` defined before execution `q`, or -1.
  int versionBefore(int value, size_t q) const;
  /// The first read of version `y` after execution `e`, or SIZE_MAX.
  size_t nextRead(int y, size_t e) const;
  /// Whether execution `e` reads version `y`.
  bool readAt(int y, size_t e) const;

private:
  /// Pass 1 of `run`: the versions and their last reads; false (with the
  /// failed execution and value in `out`) when a read finds no version.
  bool findVersions(const Schedule &schedule, bool full,
                    const std::vector<int> *runCounts, Score &out);
  /// Pass 2 of `run`: the buffers of the versions, in creation order.
  void assignBuffers();
  /// The bytes live during each of the `end` executions: the peak and the
  /// area over `budget` into `out`, and liveAt when `live`.
  void countLiveBytes(size_t end, int64_t budget, bool live, Score &out);
  void buildIndexes();

  const Problem &problem;
  Work *work;
  // The problem flat, for the runs' scans: per op, its reads of values ops
  // define (inputs are outside the budget) and its results; per value, what
  // the buffer rules need.
  struct FlatOp {
    int readBegin, readEnd;     ///< opReads[readBegin, readEnd)
    int resultBegin, resultEnd; ///< opResults[resultBegin, resultEnd)
    int64_t units;              ///< one execution plus all its reads
    double cost;
  };
  std::vector<FlatOp> flatOps;
  std::vector<int> opReads, opResults;
  std::vector<int> valueProducer, valueSource, returnedValues;
  std::vector<int64_t> valueBytes;
  std::vector<BufferRule> valueRule;
  std::vector<char> opRecomputable;
  std::vector<int> latest;     // per value: its latest version, -1 between runs
  std::vector<int> pruneCount; // prune: executions left per op
  std::vector<char> pruneNeeded; // prune: per value, its version is read
  std::vector<char> pruneKeep;   // prune: per execution
  std::vector<std::pair<int, uint32_t>> readPairs; // (version, execution)
  std::vector<int64_t> delta;
  std::vector<uint32_t> cursor;
};

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_MEMORY_SIMULATOR_H
