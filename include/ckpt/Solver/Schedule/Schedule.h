//===- Schedule.h - op-level schedules and their exact memory ---*- C++ -*-===//
//
// The one currency of planning: a *schedule* is the sequence of op executions
// of a computation, in which an op may run several times (recomputation). A
// `Problem` describes the computation: its ops in the order they were written
// (a topological order), the values they read and define, and how each value
// gets its buffer. `evaluate` runs a schedule through the memory model and
// returns its cost (the sum of the executions' costs) and its peak of live
// bytes. Every planner (the chain DP expanded, the greedy and local search,
// the ILP) produces a schedule, and one engine scores them all
// (MemorySimulator.h: evaluate runs it, the searches run it on every move
// they try); the MLIR analysis (simulateMemory) is built on it, so that a
// schedule's peak here is the peak the rewritten step has, and what ckpt-run
// measures.
//
// Memory model (docs/PLANNING.md, "Memory of a schedule"):
//  - every execution of an op gives each of its results a new *version*;
//    a read of a value reads its latest version;
//  - a version lives from its execution to its last read (to the end when
//    the computation returns it; a version nobody reads dies at once);
//  - each version gets a buffer by its value's rule: Fresh (a new buffer of
//    `bytes`, none when 0), View (the buffer of the version of `source` the
//    execution reads, none when that has none) or InPlace (that buffer when
//    no later execution reads it, else a new one);
//  - a buffer is live from its first version's execution to the last read
//    of any of its versions; inputs (values no op defines) are outside the
//    budget; the bytes live while an execution runs include what it reads
//    and what it defines.
//
// Plain C++17, no MLIR/LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_SCHEDULE_H
#define CKPT_SOLVER_SCHEDULE_SCHEDULE_H

#include "ckpt/Solver/Graph/Graph.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {
namespace sched {

/// How a value gets its buffer.
enum class BufferRule : uint8_t {
  Fresh,  ///< A new buffer of `bytes` (no buffer when 0).
  View,   ///< The buffer of `source` (none when `source` has none).
  InPlace ///< The buffer of `source` when no later execution reads that
          ///< buffer, else a new buffer of `bytes`.
};

/// A value: the result of one op, or an input of the computation.
struct Value {
  int64_t bytes = 0; ///< Size of a buffer of its own.
  int producer = -1; ///< The op defining it; -1 for an input.
  BufferRule rule = BufferRule::Fresh;
  int source = -1;       ///< View / InPlace: the value whose buffer it takes.
  bool returned = false; ///< Read at the end: its last version lives on.
};

/// An op of the computation.
struct Op {
  std::string name;
  double cost = 0;          ///< Time of one execution.
  bool recomputable = true; ///< May run more than once.
  bool backward = false;    ///< For producers and reports only.
  /// Constant-like (computed from constants alone, e.g. a tensor.empty or a
  /// fill of a constant): planners re-run it next to every recomputed op
  /// that reads it rather than keep its result.
  bool constant = false;
  std::vector<int> reads;   ///< Values read (distinct).
  std::vector<int> results; ///< Values defined.
};

/// The computation to schedule. Ops are listed in a topological order: an op
/// reads only inputs and values of earlier ops.
class Problem {
public:
  /// Adds an input (outside the budget) and returns its value id.
  int addInput();
  /// Adds an op; its results are added with `addResult`.
  int addOp(Op op);
  /// Adds a result of op `producer` and returns its value id.
  int addResult(int producer, int64_t bytes,
                BufferRule rule = BufferRule::Fresh, int source = -1);

  int numOps() const { return static_cast<int>(ops.size()); }
  int numValues() const { return static_cast<int>(values.size()); }

  /// Checks references and the topological order; empty when valid, else a
  /// message naming the op or value.
  std::string validate() const;

  /// The ops whose results `op` reads (each once, in read order).
  std::vector<int> opInputs(int op) const;

  std::vector<Op> ops;
  std::vector<Value> values;
};

/// A schedule: op ids in execution order.
using Schedule = std::vector<int>;

/// Every op once, in the problem's order (nothing recomputed).
Schedule identitySchedule(const Problem &problem);

/// One buffer of an evaluated schedule.
struct EvaluatedBuffer {
  int64_t bytes = 0;
  size_t def = 0; ///< Execution that creates it.
  size_t lastUse =
      0; ///< Last execution reading it (size() of the schedule: the end).
  /// The versions it holds, as (execution, value) pairs, in creation order.
  std::vector<std::pair<size_t, int>> versions;
};

struct EvalOptions {
  bool live = false;    ///< Fill Evaluation::live.
  bool buffers = false; ///< Fill Evaluation::buffers.
  /// Evaluate a part of a computation: ops that never run are allowed, and
  /// their results are treated as inputs (outside the budget).
  bool partial = false;
};

/// The outcome of `evaluate`.
struct Evaluation {
  bool valid = false;
  std::string error;         ///< Why not valid (names the execution and op).
  size_t errorIndex = 0;     ///< The offending execution.
  double cost = 0;           ///< Sum of the executions' costs.
  int64_t peak = 0;          ///< Most bytes live while one execution runs.
  size_t peakIndex = 0;      ///< First execution at the peak.
  std::vector<int64_t> live; ///< Bytes live during each execution.
  std::vector<EvaluatedBuffer> buffers; ///< In creation order.
};

/// Evaluates `schedule` on `problem`. It is valid when every op id exists,
/// every op runs at least once, ops that are not recomputable run exactly
/// once and in the problem's relative order, and every read finds a version
/// computed earlier.
Evaluation evaluate(const Problem &problem, const Schedule &schedule,
                    const EvalOptions &options = {});

/// Drops recomputations (executions after an op's first) whose results no
/// later execution reads, until none is left. Keeps first executions.
Schedule prune(const Problem &problem, const Schedule &schedule);

/// The schedule of a keep set (PyTorch's selective activation checkpointing,
/// `torch.utils.checkpoint` when only block inputs are kept): every op runs
/// once in the problem's order, except that before a backward op runs, each
/// forward value it reads that is not available is recomputed, its own
/// missing inputs first. A forward value is available when `keep` holds it,
/// when its producer cannot be recomputed, or once it was recomputed (that
/// version then serves every later read). Constant-like ops are re-run next
/// to the recomputations that read them unless kept. `keep` has one entry
/// per value; inputs, returned values and backward results are always
/// available. With `perReader`, a recomputed version serves only the
/// backward op it was recomputed for: the next backward op that reads the
/// value recomputes it again (less memory, more time).
Schedule keepSetSchedule(const Problem &problem, const std::vector<char> &keep,
                         bool perReader = false);

/// Per op, how many times `schedule` runs it.
std::vector<int> runCounts(const Problem &problem, const Schedule &schedule);

/// The problem of a data-flow graph in the standard model: one op per node
/// that is not a graph input, in a topological order of the graph (the
/// nodes' order when it is one), with one fresh result of the node's bytes
/// and the node's cost; graph inputs are inputs; nodes without successors
/// are returned. `opNode[i]` (when given) is the graph node of op i. Each
/// result's bytes are rounded up to a multiple of `alignment` (1: the
/// node's bytes as given; 16: the buffers of a step ckpt-plan plans, see
/// kBufferAlignment in StepAnalysis.h). With `lossValue`, the loss node
/// (the rule of python/ckpt/import_graph.py) gets a second result of 4
/// bytes (aligned), returned: the loss the imported step returns. Forward
/// ops are the loss and what it depends on, as ckpt-plan's step analysis
/// takes them (the graph's flags where no loss can be told).
Problem problemFromGraph(const graph::Graph &graph,
                         std::vector<int> *opNode = nullptr,
                         int64_t alignment = 1, bool lossValue = false);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_SCHEDULE_H
