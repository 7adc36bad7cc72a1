//===- ProblemChain.cpp - a schedule problem seen as a chain --------------===//

#include "ckpt/Solver/Schedule/ProblemChain.h"

#include "ckpt/Solver/Schedule/MemorySimulator.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace ckpt;
using namespace ckpt::sched;

namespace {

/// Bytes of an op's results.
int64_t resultBytes(const Problem &problem, int op) {
  int64_t bytes = 0;
  for (int r : problem.ops[op].results)
    bytes += problem.values[r].bytes;
  return bytes;
}

/// Peaks of subsets of a problem's ops run alone: `evaluate` with
/// EvalOptions::partial, on one simulator for all the stages.
class PeakAlone {
public:
  explicit PeakAlone(const Problem &problem)
      : simulator(problem), counts(problem.numOps(), 0) {}

  /// The peak of `ops` (distinct ops, in order) run alone.
  int64_t operator()(const std::vector<int> &ops) {
    for (int op : ops)
      ++counts[op];
    MemorySimulator::Score score =
        simulator.run(ops, std::numeric_limits<int64_t>::max(),
                      MemorySimulator::Detail::None, &counts);
    for (int op : ops)
      --counts[op];
    return score.valid ? score.peak : 0;
  }

private:
  MemorySimulator simulator;
  std::vector<int> counts;
};

/// The stage (1-based) whose B^l runs each backward op: the latest stage
/// whose forward values it reads, but no later than the stages of the
/// backward ops whose results it reads (backward runs from `numStages` down
/// to 1); ops that cannot be recomputed keep their order. Ops that read no
/// staged value run with their first reader.
void assignBackwardStages(const Problem &problem, std::vector<int> &stageOf,
                          const std::vector<char> &forward, int numStages) {
  const int n = problem.numOps();
  // A forward value of stage j read by forward ops up to stage m lies in the
  // separators S_j .. S_{m-1}: B^j .. B^m may read it.
  std::vector<int> window(n, 0);
  std::vector<std::vector<int>> users(n);
  for (int op = 0; op < n; ++op)
    for (int p : problem.opInputs(op))
      users[p].push_back(op);
  for (int op = 0; op < n; ++op) {
    if (!forward[op] || stageOf[op] == 0)
      continue;
    int last = stageOf[op];
    for (int user : users[op])
      if (forward[user] && stageOf[user] > 0)
        last = std::max(last, stageOf[user]);
    window[op] = last;
  }
  std::vector<char> isFree(n, 0);
  for (int op = 0; op < n; ++op) {
    if (forward[op])
      continue;
    bool bound = false;
    for (int dep : problem.opInputs(op))
      if (forward[dep] ? window[dep] != 0 : !isFree[dep])
        bound = true;
    if (!bound && problem.ops[op].recomputable)
      isFree[op] = 1;
  }
  int effectStage = numStages;
  for (int op = 0; op < n; ++op) {
    if (forward[op] || isFree[op])
      continue;
    int high = numStages;
    for (int dep : problem.opInputs(op)) {
      if (forward[dep]) {
        if (window[dep] != 0)
          high = std::min(high, window[dep]);
      } else if (stageOf[dep] > 0) {
        high = std::min(high, stageOf[dep]);
      }
    }
    bool effects = !problem.ops[op].recomputable;
    if (effects)
      high = std::min(high, effectStage);
    stageOf[op] = std::max(1, high);
    if (effects)
      effectStage = stageOf[op];
  }
  for (int op = n - 1; op >= 0; --op) {
    if (!isFree[op])
      continue;
    int stage = 0;
    for (int user : users[op])
      if (!forward[user])
        stage = std::max(stage, stageOf[user]);
    stageOf[op] = stage ? stage : 1;
  }
}

} // namespace

namespace {

/// Builds the chain of a problem (see buildProblemChain), phase by phase.
class ChainBuilder {
public:
  ChainBuilder(const Problem &problem, const ChainOptions &options)
      : problem(problem), options(options), n(problem.numOps()),
        peakAlone(problem), forward(n), marker(n, 0), constant(n), kept(n, 0),
        nodeOf(n, -1) {}

  ProblemChain build() {
    classifyOps();
    buildGraph();
    findSeparators();
    forwardStages();
    backwardStages();
    return std::move(result);
  }

private:
  /// Which ops are forward, markers, constant-like, and kept.
  void classifyOps() {
    for (int op : options.markers)
      marker[op] = 1;
    for (int op = 0; op < n; ++op) {
      forward[op] = !problem.ops[op].backward;
      constant[op] = forward[op] && problem.ops[op].constant;
      kept[op] = forward[op] && !constant[op] && !marker[op] &&
                 !problem.ops[op].recomputable;
    }
  }

  /// The graph: one node per op with results.
  void buildGraph() {
    // The graph: one node per op with results. Kept and constant-like
    // forward ops are graph inputs (constant-like ones without bytes).
    graph::Graph &g = result.graph;
    for (int op = 0; op < n; ++op) {
      if (problem.ops[op].results.empty())
        continue;
      bool input = constant[op] || kept[op];
      int64_t bytes = constant[op] || marker[op] ? 0 : resultBytes(problem, op);
      nodeOf[op] =
          g.addNode(problem.ops[op].name, !forward[op], problem.ops[op].cost,
                    static_cast<uint64_t>(bytes), input);
      result.nodeOp.push_back(op);
      if (kept[op])
        result.persistentBytes += bytes;
      if (input)
        result.fixedTime += problem.ops[op].cost;
    }
    for (int op = 0; op < n; ++op) {
      if (nodeOf[op] < 0)
        continue;
      for (int dep : problem.opInputs(op))
        if (nodeOf[dep] >= 0)
          g.addEdge(nodeOf[dep], nodeOf[op]);
    }
    g.finalize();
  }

  /// The separator chain of the kind asked for (at least one stage).
  void findSeparators() {
    const graph::Graph &g = result.graph;
    graph::SeparatorOptions sepOptions;
    sepOptions.floatSources = true;
    switch (options.kind) {
    case SeparatorKind::TreeDecomposition:
      result.separators = graph::separatorChain(g, sepOptions);
      break;
    case SeparatorKind::Articulation:
      result.separators = graph::articulationChain(g, sepOptions);
      break;
    case SeparatorKind::Candidates: {
      std::vector<std::vector<int>> candidates;
      for (int op : options.candidates)
        if (op >= 0 && op < n && nodeOf[op] >= 0 && g.isForwardOp(nodeOf[op]))
          candidates.push_back({nodeOf[op]});
      result.separators = graph::chainFromCandidates(g, candidates, sepOptions);
      break;
    }
    }
    std::vector<graph::Stage> &stages = result.separators.stages;
    if (stages.empty())
      stages.emplace_back(); // no recomputable forward op: one empty stage
    numStages = static_cast<int>(stages.size()); // L + 1
  }

  /// The forward stages: their ops, uf, wa, wabar and of.
  void forwardStages() {
    const graph::Graph &g = result.graph;
    const std::vector<graph::Stage> &stages = result.separators.stages;
    const int L = numStages - 1;
    solver::Chain &chain = result.chain;
    chain.uf.assign(numStages, 0.0);
    chain.ub.assign(numStages, 0.0);
    chain.of.assign(numStages, 0);
    chain.ob.assign(numStages, 0);
    chain.wabar.assign(numStages, 0);
    chain.wa.assign(L + 2, 0);
    chain.wdelta.assign(L + 2, 0);
    result.stageOf.assign(n, 0);
    result.stageOps.assign(numStages, {});

    for (int j = 0; j < numStages; ++j) {
      const graph::Stage &stage = stages[j];
      std::vector<int> &ops = result.stageOps[j];
      for (int node : stage.nodes) {
        int op = result.nodeOp[node];
        ops.push_back(op);
        if (!marker[op])
          result.stageOf[op] = j + 1;
        chain.uf[j] += problem.ops[op].cost;
      }
      std::sort(ops.begin(), ops.end());
      int64_t out = static_cast<int64_t>(stage.outputBytes);
      std::set<int> saved(stage.backwardReads.begin(),
                          stage.backwardReads.end());
      if (stage.outputSeparator >= 0) {
        for (int member :
             result.separators.separators[stage.outputSeparator].members)
          saved.insert(member);
      } else {
        out = 0;
        for (int loss : result.separators.losses)
          out += static_cast<int64_t>(g.node(loss).bytes);
        saved.insert(result.separators.losses.begin(),
                     result.separators.losses.end());
      }
      chain.wa[j + 1] = out;
      int64_t abar = 0;
      for (int node : saved)
        abar += static_cast<int64_t>(g.node(node).bytes);
      chain.wabar[j] = std::max(abar, out);
      int64_t peak = peakAlone(ops);
      chain.of[j] = peak > out ? peak - out : 0;
    }
    chain.wa[0] = 0; // a^0: step inputs, outside the budget
    // Markers belong to no stage.
    for (std::vector<int> &ops : result.stageOps)
      ops.erase(std::remove_if(ops.begin(), ops.end(),
                               [&](int op) { return marker[op] != 0; }),
                ops.end());
  }

  /// The backward stages: their ops, ub, wdelta and ob.
  void backwardStages() {
    const int L = numStages - 1;
    solver::Chain &chain = result.chain;
    assignBackwardStages(problem, result.stageOf, forward, numStages);
    std::vector<std::vector<int>> backwardOps(numStages);
    for (int op = 0; op < n; ++op) {
      if (forward[op])
        continue;
      int stage = result.stageOf[op];
      chain.ub[stage - 1] += problem.ops[op].cost;
      backwardOps[stage - 1].push_back(op);
    }

    // Returned backward values (parameter gradients) stay until the end: the
    // ones B^l produces ride along with delta^{l-1}.
    std::vector<int64_t> returnedBytes(numStages + 1, 0);
    for (int op = 0; op < n; ++op) {
      if (forward[op])
        continue;
      for (int r : problem.ops[op].results)
        if (problem.values[r].returned)
          returnedBytes[result.stageOf[op]] += problem.values[r].bytes;
    }
    int64_t later = 0;
    for (int i = L + 1; i >= 0; --i) {
      chain.wdelta[i] = chain.wa[i] + later;
      if (i >= 1)
        later += returnedBytes[i];
    }
    for (int j = 0; j < numStages; ++j) {
      int64_t peak = peakAlone(backwardOps[j]);
      chain.ob[j] = std::max(peak, chain.wa[j] + returnedBytes[j + 1]);
    }
  }

  const Problem &problem;
  const ChainOptions &options;
  const int n;
  ProblemChain result;
  PeakAlone peakAlone;
  std::vector<char> forward, marker, constant, kept;
  std::vector<int> nodeOf; ///< per op: its graph node, or -1
  int numStages = 0;       ///< L + 1
};

} // namespace

ProblemChain ckpt::sched::buildProblemChain(const Problem &problem,
                                            const ChainOptions &options) {
  return ChainBuilder(problem, options).build();
}

Schedule ckpt::sched::expandSequence(const Problem &problem,
                                     const ProblemChain &chain,
                                     const std::vector<solver::Op> &sequence) {
  const int n = problem.numOps();
  const int numStages = chain.chain.numStages();
  // The first forward sweep: the leading forward operations.
  size_t sweep = 0;
  while (sweep < sequence.size() &&
         sequence[sweep].kind != solver::OpKind::Backward)
    ++sweep;
  bool recomputes = false;
  for (size_t i = sweep; i < sequence.size(); ++i)
    if (sequence[i].kind != solver::OpKind::Backward)
      recomputes = true;
  if (!recomputes)
    return identitySchedule(problem);

  std::vector<std::vector<int>> backwardOps(numStages);
  Schedule schedule;
  for (int op = 0; op < n; ++op) {
    if (!problem.ops[op].backward)
      schedule.push_back(op);
    else
      backwardOps[chain.stageOf[op] - 1].push_back(op);
  }
  // The constant-like ops an op reads, transitively, in order.
  std::vector<int> mark(n, -1);
  auto withConstants = [&](const std::vector<int> &ops, int stamp) {
    std::vector<int> out;
    std::vector<int> stack;
    for (int op : ops) {
      stack.assign(1, op);
      std::vector<int> found;
      while (!stack.empty()) {
        int cur = stack.back();
        stack.pop_back();
        for (int dep : problem.opInputs(cur))
          if (problem.ops[dep].constant && problem.ops[dep].recomputable &&
              mark[dep] != stamp) {
            mark[dep] = stamp;
            found.push_back(dep);
            stack.push_back(dep);
          }
      }
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
      out.push_back(op);
    }
    return out;
  };
  int stamp = 0;
  for (size_t i = sweep; i < sequence.size(); ++i) {
    const solver::Op &op = sequence[i];
    if (op.stage < 1 || op.stage > numStages)
      continue;
    if (op.kind == solver::OpKind::Backward) {
      const std::vector<int> &ops = backwardOps[op.stage - 1];
      schedule.insert(schedule.end(), ops.begin(), ops.end());
    } else {
      std::vector<int> ops =
          withConstants(chain.stageOps[op.stage - 1], ++stamp);
      schedule.insert(schedule.end(), ops.begin(), ops.end());
    }
  }
  return prune(problem, schedule);
}
