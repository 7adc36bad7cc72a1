//===- Graph.h - Plain directed data-flow graph for separator analysis -*- C++
//-*-===//
//
// A training step as a directed graph of values: one node per value (the
// output of one operation), an edge u -> v when v reads u. Each node carries
// its output bytes, its compute cost, whether it belongs to the backward pass,
// and whether it is a step input (parameter, data, label: always available,
// never a separator member, never recomputed). Plain C++17, no MLIR/LLVM.
//
// Nodes are dense 0..n-1; the original identifier (JSON id/name, or whatever
// the MLIR analysis assigns) is kept in Node::name / Node::origId for output.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_GRAPH_GRAPH_H
#define CKPT_SOLVER_GRAPH_GRAPH_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {
namespace graph {

/// A read-only range over node ids stored contiguously.
struct NodeRange {
  const int *first = nullptr;
  const int *last = nullptr;
  const int *begin() const { return first; }
  const int *end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
  bool empty() const { return first == last; }
};

struct Node {
  std::string name;      ///< Display name (JSON "name", or the id as text).
  int64_t origId = 0;    ///< Original identifier (JSON "id" / integer name).
  bool backward = false; ///< Belongs to the backward (gradient) pass.
  bool input =
      false; ///< Step input / parameter: never stored, never recomputed.
  double cost = 0.0;  ///< Compute cost (relative time) of producing it.
  uint64_t bytes = 0; ///< Size of the node's output.
};

/// Directed graph with CSR successor and predecessor lists. Build with
/// addNode()/addEdge(), then call finalize() (which sorts adjacency and
/// drops duplicate edges) before querying succ()/pred().
class Graph {
public:
  int addNode(Node n);
  int addNode(std::string name, bool backward, double cost, uint64_t bytes,
              bool input = false);
  /// Adds u -> v (v reads u). Duplicates are removed by finalize().
  void addEdge(int u, int v);
  void finalize();
  bool finalized() const { return finalized_; }

  int numNodes() const { return static_cast<int>(nodes_.size()); }
  /// Number of distinct edges (after finalize()).
  size_t numEdges() const { return succ_.size(); }
  const Node &node(int v) const { return nodes_[v]; }
  Node &node(int v) { return nodes_[v]; }
  const std::vector<Node> &nodes() const { return nodes_; }
  NodeRange succ(int v) const {
    return {succ_.data() + succOff_[v], succ_.data() + succOff_[v + 1]};
  }
  NodeRange pred(int v) const {
    return {pred_.data() + predOff_[v], pred_.data() + predOff_[v + 1]};
  }
  /// Edge list as added, before finalize() (kept for error reporting).
  const std::vector<std::pair<int, int>> &rawEdges() const { return raw_; }

  /// A forward value that may be stored or recomputed: !backward && !input.
  bool isForwardOp(int v) const {
    return !nodes_[v].backward && !nodes_[v].input;
  }

  /// Topological order (Kahn). Returns false on a cycle and sets
  /// *cycleNode to a node on a cycle.
  bool topologicalOrder(std::vector<int> &order,
                        int *cycleNode = nullptr) const;

  /// Loss nodes: forward ops with no forward-op successor. Sorted.
  std::vector<int> lossNodes() const;
  /// Entry nodes: forward ops with no forward-op predecessor (they read
  /// only step inputs, or nothing). Sorted.
  std::vector<int> entryNodes() const;

  std::string name; ///< Graph name (optional).

private:
  std::vector<Node> nodes_;
  std::vector<std::pair<int, int>> raw_;
  std::vector<int> succOff_, succ_, predOff_, pred_;
  bool finalized_ = false;
};

/// Simple undirected graph (no loops, no multi-edges) in CSR form, used by
/// the tree decomposition. Built from a Graph restricted to a node subset.
class UGraph {
public:
  UGraph() = default;
  /// From an edge list over vertices 0..n-1; loops and duplicates dropped.
  UGraph(int n, const std::vector<std::pair<int, int>> &edges);
  int numVertices() const { return static_cast<int>(off_.size()) - 1; }
  size_t numEdges() const { return adj_.size() / 2; }
  NodeRange neighbors(int v) const {
    return {adj_.data() + off_[v], adj_.data() + off_[v + 1]};
  }
  int degree(int v) const { return off_[v + 1] - off_[v]; }
  /// O(log deg) adjacency test (neighbors are sorted).
  bool adjacent(int u, int v) const;

private:
  std::vector<int> off_{0};
  std::vector<int> adj_;
};

/// The undirected graph on the nodes for which keep[v] is true; toGraph
/// maps UGraph vertices back to Graph nodes (filled when non-null).
UGraph undirectedView(const Graph &g, const std::vector<char> &keep,
                      std::vector<int> *toGraph = nullptr);

/// keep-masks for the usual views: every non-input node (the joint graph) and
/// the forward ops only (the forward graph).
std::vector<char> jointMask(const Graph &g);
std::vector<char> forwardMask(const Graph &g);

/// Adds the backward mirror of a forward-only graph, the way reverse-mode
/// autodiff does: for each forward op v a backward node b_v (same bytes, cost
/// 2x forward cost); for each forward edge u -> v between ops, b_v -> b_u; b_v
/// reads v and v's forward-op inputs. Step inputs get no gradient node.
/// `noGradient[v]` (optional) marks forward ops that are not differentiated
/// through (e.g. global statistics under stop-gradient): they get no b_v and
/// pass no gradient, but backward nodes still read them as inputs.
Graph withBackward(const Graph &forward,
                   const std::vector<char> *noGradient = nullptr);

} // namespace graph
} // namespace ckpt

#endif // CKPT_SOLVER_GRAPH_GRAPH_H
