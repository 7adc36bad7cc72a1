//===- TreeDecomposition.h - Tree decompositions of undirected graphs -*- C++
//-*-===//
//
// Greedy elimination orderings (min-fill, min-degree) with incremental
// fill/degree maintenance and a lazy priority queue, the tree decomposition
// an ordering induces, a validator, and an exact treewidth for small graphs
// (<= 25 vertices). Plain C++17, no MLIR/LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_GRAPH_TREE_DECOMPOSITION_H
#define CKPT_SOLVER_GRAPH_TREE_DECOMPOSITION_H

#include "ckpt/Solver/Graph/Graph.h"

#include <string>
#include <vector>

namespace ckpt {
namespace graph {

enum class Heuristic { MinFill, MinDegree };

/// "min-fill" / "min-degree".
const char *heuristicName(Heuristic h);

/// A tree decomposition: bags (sorted vertex lists) and a tree over the bags
/// given by parent pointers (exactly one root, parent -1).
struct TreeDecomposition {
  std::vector<std::vector<int>> bags;
  std::vector<int> parent;

  int numBags() const { return static_cast<int>(bags.size()); }
  /// Largest bag size minus one (-1 for an empty decomposition).
  int width() const;
};

/// Greedy elimination ordering. Ties are broken by smaller degree, then by
/// smaller vertex id, so the result is deterministic.
std::vector<int> eliminationOrder(const UGraph &g, Heuristic h);

/// The same, forcing one of the two implementations (bitset rows, used up to
/// 4096 vertices, or adjacency lists); for tests comparing them.
std::vector<int> eliminationOrderForTesting(const UGraph &g, Heuristic h,
                                            bool bitset);

/// The tree decomposition induced by eliminating in `order` (a permutation
/// of the vertices): bag(v) = {v} + the neighbours of v still present when v
/// is eliminated (fill edges included); the parent of bag(v) is the bag of
/// the earliest-eliminated vertex among those neighbours. Components are
/// linked into one tree through empty intersections.
TreeDecomposition decomposeWithOrder(const UGraph &g,
                                     const std::vector<int> &order);

/// eliminationOrder + decomposeWithOrder in one pass.
TreeDecomposition decompose(const UGraph &g, Heuristic h);

/// Width of the decomposition an ordering induces, without building bags.
int orderWidth(const UGraph &g, const std::vector<int> &order);

/// Checks that `td` is a tree decomposition of `g`: the bags form one tree,
/// every vertex and every edge lies in some bag, and the bags holding any
/// vertex form a connected subtree. On failure returns false and explains in
/// *why (when non-null).
bool validate(const UGraph &g, const TreeDecomposition &td,
              std::string *why = nullptr);

/// Exact treewidth for graphs with at most `maxVertices` (<= 30) vertices,
/// by a memoised search over elimination prefixes (Bodlaender et al.'s
/// O*(2^n) recurrence), between a degeneracy lower bound and the min-fill
/// upper bound. Returns -1 when the graph is larger than maxVertices.
int exactTreewidth(const UGraph &g, int maxVertices = 25);

} // namespace graph
} // namespace ckpt

#endif // CKPT_SOLVER_GRAPH_TREE_DECOMPOSITION_H
