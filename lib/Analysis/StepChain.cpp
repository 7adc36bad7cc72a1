//===- StepChain.cpp - a training step as a heterogeneous chain -----------===//

#include "ckpt/Analysis/StepChain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <set>

using namespace mlir;
using namespace ckpt;

/// Bytes of an op's shaped results.
static uint64_t resultBytes(Operation *op) {
  uint64_t bytes = 0;
  for (Value result : op->getResults())
    if (isa<ShapedType>(result.getType()))
      bytes += getTypeBytes(result.getType()).value_or(0);
  return bytes;
}

DenseMap<Operation *, int>
ckpt::assignBackwardStages(const StepAnalysis &analysis,
                           const DenseMap<Operation *, int> &forwardStage,
                           int numStages) {
  // A forward value of stage j read by forward ops up to stage m lies in the
  // separators S_j .. S_{m-1} (the separator chain guarantees it): B^j reads
  // it as part of abar^j, and B^{j+1} .. B^m as part of their input a^{k-1}.
  DenseMap<Operation *, int> window; // the last stage that may read it
  for (auto [op, stage] : forwardStage) {
    int last = stage;
    for (Operation *user : op->getUsers()) {
      Operation *top = op->getBlock()->findAncestorOpInBlock(*user);
      auto it = top ? forwardStage.find(top) : forwardStage.end();
      if (it != forwardStage.end())
        last = std::max(last, it->second);
    }
    window[op] = last;
  }

  DenseMap<Operation *, int> stageOf;
  // Ops bound to no stage by what they read (they read only step arguments,
  // constants, or such ops) run as late as possible: with their first user.
  llvm::DenseSet<Operation *> free;
  for (Operation *op : analysis.getBackwardOps()) {
    SmallVector<Operation *> deps;
    StepAnalysis::getDependencies(op, deps);
    bool bound = llvm::any_of(deps, [&](Operation *dep) {
      return analysis.isForward(dep) ? window.count(dep) != 0
                                     : !free.contains(dep);
    });
    // Ops with memory effects are never free: they are placed in block order.
    if (!bound && isMemoryEffectFree(op))
      free.insert(op);
  }
  // The stage of the last op with memory effects placed so far: a later one
  // may not run in a higher stage (an earlier B^l), so side effects keep
  // their block order (B^numStages runs first, B^1 last).
  int effectStage = numStages;
  for (Operation *op : analysis.getBackwardOps()) {
    if (free.contains(op))
      continue;
    SmallVector<Operation *> deps;
    StepAnalysis::getDependencies(op, deps);
    // The B^l it may run in: within every window of the forward values it
    // reads, and not after the backward ops whose results it reads (backward
    // runs from B^numStages down to B^1). As early as possible: the highest.
    // (When the windows do not overlap, the op reads values no single B^l
    // holds together: it runs at the last window's end; that stays correct,
    // as it reads the latest version of each value, only memory suffers.)
    int high = numStages;
    for (Operation *dep : deps) {
      if (analysis.isForward(dep)) {
        auto it = window.find(dep);
        if (it != window.end())
          high = std::min(high, it->second);
      } else {
        auto it = stageOf.find(dep);
        if (it != stageOf.end())
          high = std::min(high, it->second);
      }
    }
    bool effects = !isMemoryEffectFree(op);
    if (effects)
      high = std::min(high, effectStage);
    stageOf[op] = std::max(1, high);
    if (effects)
      effectStage = stageOf[op];
  }
  // Free ops, last first: the stage of their earliest-running user (the
  // highest stage), or B^1 when only the terminator uses them.
  ArrayRef<Operation *> backward = analysis.getBackwardOps();
  for (Operation *op : llvm::reverse(backward)) {
    if (!free.contains(op))
      continue;
    int stage = 0;
    for (Operation *user : op->getUsers()) {
      Operation *top = op->getBlock()->findAncestorOpInBlock(*user);
      auto it = top ? stageOf.find(top) : stageOf.end();
      if (it != stageOf.end())
        stage = std::max(stage, it->second);
    }
    stageOf[op] = stage ? stage : 1;
  }
  return stageOf;
}

FailureOr<StepChain> ckpt::buildStepChain(StepOp step,
                                          const StepAnalysis &analysis,
                                          const DeviceProfile &device,
                                          const MeasuredProfile *profile,
                                          SeparatorKind kind) {
  StepChain result;
  Block &block = step.getBody().front();

  // Costs of every top-level op (also rejects dynamic shapes).
  DenseMap<Operation *, double> time;
  for (Operation &op : block.without_terminator()) {
    FailureOr<OpCost> cost = getOpCost(&op, device, profile);
    if (failed(cost))
      return failure();
    time[&op] = cost->time;
  }

  // The graph: one node per top-level op with results. Forward ops that are
  // not recomputable (side effects, unknown ops, user checkpoints) are kept:
  // graph inputs, never recomputed, their buffers persistent. Constant-like
  // ops are graph inputs with no bytes: they are cloned where needed.
  DenseMap<Operation *, int> nodeOf;
  graph::Graph &g = result.graph;
  for (Operation &op : block.without_terminator()) {
    if (op.getNumResults() == 0)
      continue;
    bool forward = analysis.isForward(&op);
    bool constant = forward && analysis.isConstantLike(&op);
    // In 'manual' mode a checkpoint is a node of the forward graph (a view:
    // no bytes of its own), so that the value it marks can separate.
    bool checkpointNode =
        kind == SeparatorKind::Checkpoints && isa<CheckpointOp>(op);
    bool kept = forward && !constant && !checkpointNode &&
                !StepAnalysis::isRecomputable(&op);
    uint64_t bytes = constant || checkpointNode ? 0 : resultBytes(&op);
    int id = g.addNode(op.getName().getStringRef().str(), !forward, time[&op],
                       bytes, /*input=*/constant || kept);
    nodeOf[&op] = id;
    result.nodeOps.push_back(&op);
    if (kept)
      result.persistentBytes += bytes;
    if (constant || kept)
      result.fixedTime += time[&op];
  }
  for (Operation *op : result.nodeOps) {
    SmallVector<Operation *> deps;
    StepAnalysis::getDependencies(op, deps);
    for (Operation *dep : deps) {
      auto it = nodeOf.find(dep);
      if (it != nodeOf.end())
        g.addEdge(it->second, nodeOf[op]);
    }
  }
  g.finalize();

  // Forward ops that read only step arguments (and constants) need not start
  // the chain: a bias broadcast feeding the last layer would otherwise be an
  // entry with a path to the loss that bypasses every separator. Only the
  // anchors (the entries with the longest path to the loss: the first layer)
  // start it; every op not reachable from them floats into the stage of its
  // earliest reader, where it is computed and recomputed
  // (docs/SEPARATORS.md, "Floating sources").
  graph::SeparatorOptions options;
  options.floatSources = true;
  switch (kind) {
  case SeparatorKind::TreeDecomposition:
    result.separators = graph::separatorChain(g, options);
    break;
  case SeparatorKind::Articulation:
    result.separators = graph::articulationChain(g, options);
    break;
  case SeparatorKind::MatmulConv:
  case SeparatorKind::Checkpoints: {
    // Single-value candidates in block (topological) order; those that do
    // not separate are dropped by chainFromCandidates.
    std::vector<std::vector<int>> candidates;
    for (Operation *op : result.nodeOps) {
      Operation *value = nullptr;
      if (kind == SeparatorKind::MatmulConv) {
        auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        if ((linalgOp && (linalg::isaContractionOpInterface(linalgOp) ||
                          linalg::isaConvolutionOpInterface(linalgOp))) ||
            isa<tosa::MatMulOp, tosa::Conv2DOp, tosa::Conv3DOp,
                tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(op))
          value = op;
      } else if (auto checkpoint = dyn_cast<CheckpointOp>(op)) {
        value = checkpoint.getInput().getDefiningOp();
      }
      auto it = value ? nodeOf.find(value) : nodeOf.end();
      if (it != nodeOf.end() && g.isForwardOp(it->second))
        candidates.push_back({it->second});
    }
    result.separators = graph::chainFromCandidates(g, candidates, options);
    break;
  }
  }
  std::vector<graph::Stage> &stages = result.separators.stages;
  if (stages.empty())
    stages.emplace_back(); // no recomputable forward op: one empty stage
  const int numStages = static_cast<int>(stages.size()); // L + 1
  const int L = numStages - 1;

  solver::Chain &chain = result.chain;
  chain.uf.assign(numStages, 0.0);
  chain.ub.assign(numStages, 0.0);
  chain.of.assign(numStages, 0);
  chain.ob.assign(numStages, 0);
  chain.wabar.assign(numStages, 0);
  chain.wa.assign(L + 2, 0);
  chain.wdelta.assign(L + 2, 0);
  result.stageOps.assign(numStages, 0);

  // Forward: stage membership, u_f, w_a, w_abar, o_f.
  for (int j = 0; j < numStages; ++j) {
    const graph::Stage &stage = stages[j];
    SmallVector<Operation *> ops;
    for (int node : stage.nodes) {
      Operation *op = result.nodeOps[node];
      // A checkpoint ('manual' mode) belongs to no stage: computed once.
      if (!isa<CheckpointOp>(op))
        result.stageOf[op] = j + 1;
      ops.push_back(op);
      chain.uf[j] += time[op];
    }
    result.stageOps[j] = ops.size();
    // a^l: the output separator (the loss's own bytes for the last stage).
    uint64_t out = stage.outputBytes;
    std::set<int> saved(stage.backwardReads.begin(), stage.backwardReads.end());
    if (stage.outputSeparator >= 0) {
      for (int member : result.separators.separators[stage.outputSeparator].members)
        saved.insert(member);
    } else {
      out = 0;
      for (int loss : result.separators.losses)
        out += g.node(loss).bytes;
      saved.insert(result.separators.losses.begin(),
                   result.separators.losses.end());
    }
    chain.wa[j + 1] = out;
    uint64_t abar = 0;
    for (int node : saved)
      abar += g.node(node).bytes;
    chain.wabar[j] = std::max<uint64_t>(abar, out);
    // Temporaries of the stage's forward beyond what it outputs.
    llvm::sort(ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    MemoryTimeline sim = simulateMemory(ops);
    chain.of[j] = sim.peak > out ? static_cast<int64_t>(sim.peak - out) : 0;
  }
  // a^0 are step arguments: outside the budget.
  chain.wa[0] = 0;

  // Backward: which B^l runs each backward op.
  DenseMap<Operation *, int> backwardStage =
      assignBackwardStages(analysis, result.stageOf, numStages);
  std::vector<SmallVector<Operation *>> backwardOps(numStages);
  for (Operation *op : analysis.getBackwardOps()) {
    int stage = backwardStage.lookup(op);
    result.stageOf[op] = stage;
    chain.ub[stage - 1] += time[op];
    backwardOps[stage - 1].push_back(op);
  }

  // Gradients of activations are as large as the activations. The backward
  // values the step returns (parameter gradients) stay until the end: the
  // ones B^l produces ride along with delta^{l-1}, so that after B^l the
  // memory holds every parameter gradient of the stages l..L+1.
  std::vector<uint64_t> returnedBytes(numStages + 1, 0);
  llvm::DenseSet<Operation *> counted;
  for (Value value : step.getReturnOp().getOperands()) {
    Operation *def = value.getDefiningOp();
    if (!def || analysis.isForward(def) || !counted.insert(def).second)
      continue;
    auto it = result.stageOf.find(def);
    int stage = it == result.stageOf.end() ? numStages : it->second;
    returnedBytes[stage] += getTypeBytes(value.getType()).value_or(0);
  }
  uint64_t later = 0; // returned bytes of the stages after i
  for (int i = L + 1; i >= 0; --i) {
    chain.wdelta[i] = chain.wa[i] + later;
    if (i >= 1)
      later += returnedBytes[i];
  }

  // o_b^l: what B^l's ops hold at their peak, and at least what B^l adds to
  // delta^{l-1}: the gradient of a^{l-1} and the parameter gradients of
  // stage l (the chain model counts the output of B^l in o_b; the gradients
  // of later stages are already held in delta^l).
  for (int j = 0; j < numStages; ++j) {
    MemoryTimeline sim = simulateMemory(backwardOps[j]);
    chain.ob[j] = static_cast<int64_t>(
        std::max<uint64_t>(sim.peak, chain.wa[j] + returnedBytes[j + 1]));
  }
  return result;
}
