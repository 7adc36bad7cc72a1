//===- Schedule.cpp - op-level schedules and their exact memory -----------===//

#include "ckpt/Solver/Schedule/Schedule.h"
#include "ckpt/Solver/Schedule/MemorySimulator.h"

#include <algorithm>
#include <limits>
#include <utility>

using namespace ckpt::sched;

int Problem::addInput() {
  Value value;
  values.push_back(value);
  return numValues() - 1;
}

int Problem::addOp(Op op) {
  op.results.clear();
  ops.push_back(std::move(op));
  return numOps() - 1;
}

int Problem::addResult(int producer, int64_t bytes, BufferRule rule,
                       int source) {
  Value value;
  value.bytes = bytes;
  value.producer = producer;
  value.rule = rule;
  value.source = source;
  values.push_back(value);
  int id = numValues() - 1;
  ops[producer].results.push_back(id);
  return id;
}

std::string Problem::validate() const {
  auto opName = [&](int op) {
    return "op " + std::to_string(op) +
           (ops[op].name.empty() ? "" : " ('" + ops[op].name + "')");
  };
  for (int v = 0; v < numValues(); ++v) {
    const Value &value = values[v];
    if (value.bytes < 0)
      return "value " + std::to_string(v) + " has a negative size";
    if (value.producer < -1 || value.producer >= numOps())
      return "value " + std::to_string(v) + " has no valid producer";
    if (value.producer >= 0) {
      const std::vector<int> &results = ops[value.producer].results;
      if (std::find(results.begin(), results.end(), v) == results.end())
        return "value " + std::to_string(v) +
               " is not a result of its producer";
    }
    if (value.rule != BufferRule::Fresh) {
      if (value.producer < 0)
        return "input value " + std::to_string(v) + " cannot share a buffer";
      if (value.source < 0 || value.source >= numValues())
        return "value " + std::to_string(v) + " shares the buffer of no value";
      const std::vector<int> &reads = ops[value.producer].reads;
      if (std::find(reads.begin(), reads.end(), value.source) == reads.end())
        return "value " + std::to_string(v) +
               " shares the buffer of a value its op does not read";
    }
  }
  for (int op = 0; op < numOps(); ++op) {
    if (!(ops[op].cost >= 0) ||
        ops[op].cost == std::numeric_limits<double>::infinity())
      return opName(op) + " has a negative or non-finite cost";
    for (size_t i = 0; i < ops[op].reads.size(); ++i) {
      int r = ops[op].reads[i];
      if (r < 0 || r >= numValues())
        return opName(op) + " reads an unknown value";
      int producer = values[r].producer;
      if (producer >= op)
        return opName(op) + " reads a value of a later op (the ops must be in "
                            "a topological order)";
      for (size_t j = 0; j < i; ++j)
        if (ops[op].reads[j] == r)
          return opName(op) + " reads value " + std::to_string(r) + " twice";
    }
    for (int r : ops[op].results)
      if (r < 0 || r >= numValues() || values[r].producer != op)
        return opName(op) + " lists a result it does not define";
  }
  return "";
}

std::vector<int> Problem::opInputs(int op) const {
  std::vector<int> inputs;
  for (int r : ops[op].reads) {
    int producer = values[r].producer;
    if (producer >= 0 &&
        std::find(inputs.begin(), inputs.end(), producer) == inputs.end())
      inputs.push_back(producer);
  }
  return inputs;
}

Schedule ckpt::sched::identitySchedule(const Problem &problem) {
  Schedule schedule(problem.numOps());
  for (int i = 0; i < problem.numOps(); ++i)
    schedule[i] = i;
  return schedule;
}

std::vector<int> ckpt::sched::runCounts(const Problem &problem,
                                        const Schedule &schedule) {
  std::vector<int> counts(problem.numOps(), 0);
  for (int op : schedule)
    if (op >= 0 && op < problem.numOps())
      ++counts[op];
  return counts;
}

namespace {
/// The rules a schedule follows besides the memory model: every op id
/// exists, ops that cannot be recomputed run once and in the problem's
/// order, and every op runs (unless partial). Fills `counts` (runs per op);
/// returns false with the error set otherwise.
bool checkRuns(const Problem &problem, const Schedule &schedule, bool partial,
               std::vector<int> &counts, Evaluation &out) {
  const int numOps = problem.numOps();
  counts.assign(numOps, 0);
  int lastFixed = -1; // the last op that is not recomputable, in order
  for (size_t e = 0; e < schedule.size(); ++e) {
    int op = schedule[e];
    if (op < 0 || op >= numOps) {
      out.error = "execution " + std::to_string(e) + " names op " +
                  std::to_string(op) + ", which does not exist";
      out.errorIndex = e;
      return false;
    }
    if (!problem.ops[op].recomputable) {
      if (counts[op] > 0) {
        out.error = "execution " + std::to_string(e) + " runs op " +
                    std::to_string(op) + " ('" + problem.ops[op].name +
                    "') again, but it cannot be recomputed";
        out.errorIndex = e;
        return false;
      }
      if (op < lastFixed) {
        out.error = "execution " + std::to_string(e) + " runs op " +
                    std::to_string(op) + " ('" + problem.ops[op].name +
                    "') after op " + std::to_string(lastFixed) +
                    ": ops that cannot be recomputed keep their order";
        out.errorIndex = e;
        return false;
      }
      lastFixed = op;
    }
    ++counts[op];
  }
  for (int op = 0; op < numOps && !partial; ++op) {
    if (counts[op] == 0) {
      out.error = "op " + std::to_string(op) + " ('" + problem.ops[op].name +
                  "') never runs";
      out.errorIndex = schedule.size();
      return false;
    }
  }
  return true;
}
} // namespace

Evaluation ckpt::sched::evaluate(const Problem &problem,
                                 const Schedule &schedule,
                                 const EvalOptions &options) {
  Evaluation out;
  std::vector<int> counts;
  if (!checkRuns(problem, schedule, options.partial, counts, out))
    return out;

  // The memory model itself: the engine the searches use too.
  using Detail = MemorySimulator::Detail;
  MemorySimulator simulator(problem);
  Detail detail = options.buffers ? Detail::Full
                  : options.live  ? Detail::Live
                                  : Detail::None;
  MemorySimulator::Score score =
      simulator.run(schedule, std::numeric_limits<int64_t>::max(), detail,
                    options.partial ? &counts : nullptr);
  if (!score.valid) {
    size_t e = score.failedExecution;
    const Op &op = problem.ops[schedule[e]];
    out.error = "execution " + std::to_string(e) + " (op " +
                std::to_string(schedule[e]) + ", '" + op.name +
                "') reads a value of op " +
                std::to_string(problem.values[score.failedValue].producer) +
                " before it is computed";
    out.errorIndex = e;
    return out;
  }
  out.valid = true;
  out.cost = score.cost;
  out.peak = score.peak;
  out.peakIndex = score.peakIndex;
  if (options.live)
    out.live = std::move(simulator.liveAt);
  if (options.buffers) {
    const size_t numBuffers = simulator.bufferBytes.size();
    out.buffers.resize(numBuffers);
    for (size_t b = 0; b < numBuffers; ++b) {
      EvaluatedBuffer &buffer = out.buffers[b];
      buffer.bytes = simulator.bufferBytes[b];
      buffer.def = simulator.bufferDef[b];
      buffer.lastUse = simulator.bufferLast[b];
      for (size_t i = simulator.bufferStart[b];
           i < simulator.bufferStart[b + 1]; ++i) {
        int y = simulator.bufferVersions[i];
        buffer.versions.push_back(
            {simulator.versionExec[y], simulator.versionValue[y]});
      }
    }
  }
  return out;
}

Schedule ckpt::sched::keepSetSchedule(const Problem &problem,
                                      const std::vector<char> &keep,
                                      bool perReader) {
  const int numValues = problem.numValues();
  std::vector<char> recomputed(numValues, 0);
  std::vector<int> set; // what `recomputed` marks, for perReader
  auto available = [&](int value) {
    const Value &v = problem.values[value];
    if (v.producer < 0 || v.returned || recomputed[value])
      return true;
    const Op &op = problem.ops[v.producer];
    return op.backward || !op.recomputable ||
           (value < static_cast<int>(keep.size()) && keep[value]);
  };
  Schedule schedule;
  schedule.reserve(problem.ops.size());
  // Recomputes what `value` needs, inputs first (an explicit stack: forward
  // chains can be thousands of ops long).
  auto ensure = [&](int value) {
    std::vector<std::pair<int, size_t>> stack; // (op, next read to check)
    if (available(value))
      return;
    stack.push_back({problem.values[value].producer, 0});
    while (!stack.empty()) {
      auto &[op, next] = stack.back();
      const std::vector<int> &reads = problem.ops[op].reads;
      if (next < reads.size()) {
        int read = reads[next++];
        if (!available(read))
          stack.push_back({problem.values[read].producer, 0});
        continue;
      }
      int done = op;
      stack.pop_back();
      // Two reads may need the same op: it runs once.
      if (!problem.ops[done].results.empty() &&
          recomputed[problem.ops[done].results.front()])
        continue;
      schedule.push_back(done);
      for (int result : problem.ops[done].results) {
        recomputed[result] = 1;
        set.push_back(result);
      }
    }
  };
  for (int op = 0; op < problem.numOps(); ++op) {
    if (problem.ops[op].backward) {
      if (perReader) {
        for (int value : set)
          recomputed[value] = 0;
        set.clear();
      }
      for (int read : problem.ops[op].reads)
        ensure(read);
    }
    schedule.push_back(op);
  }
  return schedule;
}

Schedule ckpt::sched::prune(const Problem &problem, const Schedule &schedule) {
  Schedule out;
  MemorySimulator(problem).prune(schedule, out);
  return out;
}

namespace {

/// Per node: whether it is `node` or one of its ancestors.
std::vector<char> ancestorsOf(const ckpt::graph::Graph &graph, int node) {
  std::vector<char> reached(graph.numNodes(), 0);
  std::vector<int> stack{node};
  reached[node] = 1;
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    for (int p : graph.pred(v))
      if (!reached[p]) {
        reached[p] = 1;
        stack.push_back(p);
      }
  }
  return reached;
}

/// The loss node of a graph with backward nodes, by the rule of
/// python/ckpt/import_graph.py (find_loss, without --loss): the only forward
/// node (not an input) that no forward node reads, when every other forward
/// node reaches it; else the only backward node whose predecessors are all
/// forward; in a graph without backward nodes, the only node no node reads
/// (the importer's graph.target_node is not read here); else -1.
int lossNode(const ckpt::graph::Graph &graph) {
  const int n = graph.numNodes();
  auto forward = [&](int v) {
    return !graph.node(v).backward && !graph.node(v).input;
  };
  int sink = -1, sinks = 0, forwardNodes = 0, backwardNodes = 0;
  for (int v = 0; v < n; ++v) {
    if (graph.node(v).backward)
      ++backwardNodes;
    if (!forward(v))
      continue;
    ++forwardNodes;
    bool readByForward = false;
    for (int s : graph.succ(v))
      readByForward = readByForward || !graph.node(s).backward;
    if (!readByForward) {
      sink = v;
      ++sinks;
    }
  }
  if (backwardNodes == 0) {
    int last = -1, lasts = 0;
    for (int v = 0; v < n; ++v)
      if (!graph.node(v).input && graph.succ(v).empty()) {
        last = v;
        ++lasts;
      }
    return lasts == 1 ? last : -1;
  }
  if (sinks == 1) {
    std::vector<char> reached = ancestorsOf(graph, sink);
    int count = 0;
    for (int v = 0; v < n; ++v)
      count += reached[v] && forward(v) ? 1 : 0;
    if (count == forwardNodes)
      return sink;
  }
  int candidate = -1, candidates = 0;
  for (int v = 0; v < n; ++v) {
    if (!graph.node(v).backward || graph.pred(v).empty())
      continue;
    bool allForward = true;
    for (int p : graph.pred(v))
      allForward = allForward && !graph.node(p).backward;
    if (allForward) {
      candidate = v;
      ++candidates;
    }
  }
  return candidates == 1 ? candidate : -1;
}

} // namespace

Problem ckpt::sched::problemFromGraph(const graph::Graph &graph,
                                      std::vector<int> *opNode,
                                      int64_t alignment, bool lossValue) {
  alignment = std::max<int64_t>(alignment, 1);
  auto aligned = [&](int64_t bytes) {
    return (bytes + alignment - 1) / alignment * alignment;
  };
  Problem problem;
  std::vector<int> order;
  graph.topologicalOrder(order);
  // Keep the nodes' own order when it is topological.
  bool ordered = true;
  for (int v = 0; v < graph.numNodes() && ordered; ++v)
    for (int u : graph.pred(v))
      if (u >= v)
        ordered = false;
  if (ordered)
    for (int v = 0; v < graph.numNodes(); ++v)
      order[v] = v;
  // Forward: the loss and what it depends on, as ckpt-plan's step analysis
  // classifies the ops of the graph imported by ckpt.import_graph; the
  // graph's flags where no loss can be told.
  std::vector<char> isBackward(graph.numNodes());
  for (int v = 0; v < graph.numNodes(); ++v)
    isBackward[v] = graph.node(v).backward;
  const int loss = lossNode(graph);
  if (loss >= 0) {
    std::vector<char> forward = ancestorsOf(graph, loss);
    for (int v = 0; v < graph.numNodes(); ++v)
      isBackward[v] = !forward[v];
  }
  std::vector<int> valueOf(graph.numNodes(), -1);
  for (int v : order)
    if (graph.node(v).input)
      valueOf[v] = problem.addInput();
  if (opNode)
    opNode->clear();
  for (int v : order) {
    const graph::Node &node = graph.node(v);
    if (node.input)
      continue;
    Op op;
    op.name = node.name;
    op.cost = node.cost;
    op.backward = isBackward[v];
    for (int u : graph.pred(v))
      op.reads.push_back(valueOf[u]);
    int id = problem.addOp(std::move(op));
    valueOf[v] =
        problem.addResult(id, aligned(static_cast<int64_t>(node.bytes)));
    if (lossValue && v == loss) // the loss value, a float, returned
      problem.values[problem.addResult(id, aligned(4))].returned = true;
    if (graph.succ(v).empty())
      problem.values[valueOf[v]].returned = true;
    if (opNode)
      opNode->push_back(v);
  }
  return problem;
}
