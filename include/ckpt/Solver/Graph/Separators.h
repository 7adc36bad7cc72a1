//===- Separators.h - Separator chains and stages of a training graph -*- C++
//-*-===//
//
// From a Graph (forward + backward + step inputs) to an ordered chain of
// separators S_0 .. S_{m-1} from the step inputs to the loss, and the m+1
// stages between them, ready for the chain model (ChainModel.h): per stage
// its forward ops, compute cost, input/output separator bytes (omega_a), and
// the forward values its backward reads (omega_abar). See docs/SEPARATORS.md.
//
// Model. Only forward ops (Graph::isForwardOp: not backward, not an input)
// take part. Entries are forward ops with no forward-op predecessor, losses
// are forward ops with no forward-op successor; a virtual source s precedes
// every entry and a virtual sink t follows every loss. A separator is a set S
// of forward ops such that every directed path from s to t meets S. For an
// ordered chain, stage j (0..m) holds the ops reachable from s without
// passing S_j (and not in an earlier stage) plus the members of S_j not in an
// earlier stage; stage m holds the rest. Guarantees (checked by
// validateChain): the stages partition the forward ops; every forward edge
// u -> v with stage(u) < stage(v) has u in every separator S_k,
// stage(u) <= k < stage(v) -- so stage j+1.. can be recomputed from S_j and
// the step inputs alone; each separator is minimal on the source side (every
// member has a predecessor before it) and, by default, on the sink side.
//
// Floating sources (SeparatorOptions::floatSources). A forward op with no
// forward-op predecessor reads only step inputs, so it can run in any stage
// up to the one of its first reader. Only the *anchors* -- the entries with
// the longest forward path to a loss (the start of the main path: the first
// layer) -- start the chain; every forward op not reachable from an anchor
// (a bias broadcast feeding the last layer, a label transform, a weight
// preprocessing chain) is *floating*: it takes no part in the separator
// search and is placed, latest first, in the stage of its earliest forward
// reader (the last stage for a floating loss); when later stages read it too
// it joins every separator up to its last reader. With floating sources the
// guarantees above hold with "entries" read as "anchors", and each separator
// cuts every path from an anchor to a loss (floating ops are recomputed from
// step inputs where their stage is).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_GRAPH_SEPARATORS_H
#define CKPT_SOLVER_GRAPH_SEPARATORS_H

#include "ckpt/Solver/Graph/Graph.h"
#include "ckpt/Solver/Graph/TreeDecomposition.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {
namespace graph {

struct Separator {
  std::vector<int> members; ///< Graph node ids, sorted.
  uint64_t bytes = 0;       ///< Sum of the members' bytes (omega_a).
};

struct Stage {
  std::vector<int> nodes;   ///< Forward ops of the stage, sorted.
  int inputSeparator = -1;  ///< Index into separators; -1: step inputs only.
  int outputSeparator = -1; ///< Index into separators; -1: the loss.
  double cost = 0.0;        ///< Sum of the nodes' cost (forward compute).
  uint64_t bytes = 0;       ///< Sum of the nodes' bytes.
  uint64_t inputBytes = 0;  ///< Bytes of the input separator (0 for stage 0).
  uint64_t outputBytes = 0; ///< Bytes of the output separator (0 for last).
  /// Forward ops of this stage read by a backward node (edges fwd -> bwd):
  /// what the stage's backward needs (omega_abar), sorted.
  std::vector<int> backwardReads;
  uint64_t backwardReadBytes = 0;
};

struct SeparatorChain {
  std::vector<Separator> separators; ///< Ordered from the inputs to the loss.
  std::vector<Stage> stages;         ///< separators.size() + 1 (0 if no ops).
  std::vector<int> stageOf; ///< Per Graph node; -1 unless a forward op.
  std::vector<int> entries; ///< Forward ops with no forward-op pred.
  std::vector<int> losses;  ///< Forward ops with no forward-op succ.
  /// Floating forward ops (sorted; empty unless floatSources): not reachable
  /// from an anchor, each placed in the stage of its earliest reader.
  std::vector<int> floating;
  /// Width of the tree decomposition the candidates came from (forward ops +
  /// virtual source and sink); -1 for chains not built from one.
  int width = -1;
  /// Number of candidate separators considered before filtering.
  int candidates = 0;
};

struct SeparatorOptions {
  Heuristic heuristic = Heuristic::MinFill;
  /// Also drop members that cannot reach the loss without passing another
  /// member (sink-side minimality). Source-side minimality is always applied.
  bool minimizeSinkSide = true;
  /// Float every forward op not reachable from an anchor (see floatingOps
  /// and the top of this file) instead of starting the chain from it. Off by
  /// default (graphs with one entry are unaffected); the MLIR planner turns
  /// it on.
  bool floatSources = false;
};

/// The anchors of `g`: the entries (forward ops with no forward-op
/// predecessor) whose longest forward path to a loss, counted in ops, is the
/// longest of all entries. Sorted. `g` must be finalized and acyclic.
std::vector<int> anchorNodes(const Graph &g);

/// Per node: 1 for the forward ops not reachable from an anchor through
/// forward ops (each reads only step inputs and other floating ops).
std::vector<char> floatingOps(const Graph &g);

/// The separator chain from a tree decomposition of the forward graph (plus
/// virtual source and sink): the intersections of adjacent bags along the
/// tree path from the source's bag to the sink's bag, in path order, filtered
/// and minimised by chainFromCandidates. `g` must be finalized and acyclic.
SeparatorChain separatorChain(const Graph &g,
                              const SeparatorOptions &opts = {});

/// Baseline: single-value separators only (the articulation points between
/// inputs and loss, i.e. the dominators of the loss), like openai's 'memory'.
SeparatorChain articulationChain(const Graph &g);
/// The same with options (floatSources: dominators from the anchors).
SeparatorChain articulationChain(const Graph &g, const SeparatorOptions &opts);

/// Builds a chain from candidate separators given in source-to-sink order.
/// A candidate is dropped when it does not separate, when it is not entirely
/// after the previously kept one, or when it would close an empty stage; the
/// kept ones are made minimal (members unreachable from the source side, and
/// with minimizeSinkSide those that cannot reach the sink side, are removed).
SeparatorChain chainFromCandidates(const Graph &g,
                                   const std::vector<std::vector<int>> &cands,
                                   bool minimizeSinkSide = true);
/// The same with options (heuristic unused). With floatSources, floating
/// members are removed from the candidates first.
SeparatorChain chainFromCandidates(const Graph &g,
                                   const std::vector<std::vector<int>> &cands,
                                   const SeparatorOptions &opts);

/// Checks the guarantees listed at the top of this file.
bool validateChain(const Graph &g, const SeparatorChain &c,
                   std::string *why = nullptr);

/// True when every path in the forward graph from an entry to a loss meets S
/// (plain BFS; for tests and checks). With `floating`, paths start only at
/// the entries it does not mark (the anchors).
bool separates(const Graph &g, const std::vector<int> &s,
               const std::vector<char> *floating = nullptr);

} // namespace graph
} // namespace ckpt

#endif // CKPT_SOLVER_GRAPH_SEPARATORS_H
