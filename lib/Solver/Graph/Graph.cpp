//===- Graph.cpp - Plain directed data-flow graph -------------------------===//

#include "ckpt/Solver/Graph/Graph.h"

#include <algorithm>

namespace ckpt {
namespace graph {

int Graph::addNode(Node n) {
  nodes_.push_back(std::move(n));
  finalized_ = false;
  return static_cast<int>(nodes_.size()) - 1;
}

int Graph::addNode(std::string nm, bool backward, double cost, uint64_t bytes,
                   bool input) {
  Node n;
  n.origId = static_cast<int64_t>(nodes_.size());
  n.name = std::move(nm);
  n.backward = backward;
  n.input = input;
  n.cost = cost;
  n.bytes = bytes;
  return addNode(std::move(n));
}

void Graph::addEdge(int u, int v) {
  raw_.emplace_back(u, v);
  finalized_ = false;
}

static void buildCsr(int n, std::vector<std::pair<int, int>> &edges,
                     std::vector<int> &off, std::vector<int> &adj) {
  // edges must be sorted by (first, second) and unique.
  off.assign(static_cast<size_t>(n) + 1, 0);
  for (auto &e : edges)
    ++off[static_cast<size_t>(e.first) + 1];
  for (int i = 0; i < n; ++i)
    off[i + 1] += off[i];
  adj.resize(edges.size());
  for (size_t i = 0; i < edges.size(); ++i)
    adj[i] = edges[i].second;
}

void Graph::finalize() {
  int n = numNodes();
  std::vector<std::pair<int, int>> e;
  e.reserve(raw_.size());
  for (auto &p : raw_)
    if (p.first >= 0 && p.first < n && p.second >= 0 && p.second < n)
      e.push_back(p);
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  buildCsr(n, e, succOff_, succ_);
  for (auto &p : e)
    std::swap(p.first, p.second);
  std::sort(e.begin(), e.end());
  buildCsr(n, e, predOff_, pred_);
  finalized_ = true;
}

bool Graph::topologicalOrder(std::vector<int> &order, int *cycleNode) const {
  int n = numNodes();
  std::vector<int> indeg(n);
  for (int v = 0; v < n; ++v)
    indeg[v] = static_cast<int>(pred(v).size());
  order.clear();
  order.reserve(n);
  for (int v = 0; v < n; ++v)
    if (indeg[v] == 0)
      order.push_back(v);
  for (size_t i = 0; i < order.size(); ++i)
    for (int w : succ(order[i]))
      if (--indeg[w] == 0)
        order.push_back(w);
  if (static_cast<int>(order.size()) == n)
    return true;
  if (cycleNode) {
    // Walk predecessors among the unprocessed nodes until one repeats: that
    // node lies on a cycle.
    int v = 0;
    while (indeg[v] == 0)
      ++v;
    std::vector<char> seen(n, 0);
    while (!seen[v]) {
      seen[v] = 1;
      for (int u : pred(v))
        if (indeg[u] > 0) {
          v = u;
          break;
        }
    }
    *cycleNode = v;
  }
  return false;
}

std::vector<int> Graph::lossNodes() const {
  std::vector<int> out;
  for (int v = 0; v < numNodes(); ++v) {
    if (!isForwardOp(v))
      continue;
    bool hasFwdSucc = false;
    for (int w : succ(v))
      hasFwdSucc |= isForwardOp(w);
    if (!hasFwdSucc)
      out.push_back(v);
  }
  return out;
}

std::vector<int> Graph::entryNodes() const {
  std::vector<int> out;
  for (int v = 0; v < numNodes(); ++v) {
    if (!isForwardOp(v))
      continue;
    bool hasFwdPred = false;
    for (int u : pred(v))
      hasFwdPred |= isForwardOp(u);
    if (!hasFwdPred)
      out.push_back(v);
  }
  return out;
}

UGraph::UGraph(int n, const std::vector<std::pair<int, int>> &edges) {
  std::vector<std::pair<int, int>> e;
  e.reserve(edges.size() * 2);
  for (auto &p : edges) {
    if (p.first == p.second)
      continue;
    e.emplace_back(p.first, p.second);
    e.emplace_back(p.second, p.first);
  }
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  buildCsr(n, e, off_, adj_);
}

bool UGraph::adjacent(int u, int v) const {
  NodeRange r = neighbors(u);
  return std::binary_search(r.begin(), r.end(), v);
}

UGraph undirectedView(const Graph &g, const std::vector<char> &keep,
                      std::vector<int> *toGraph) {
  int n = g.numNodes();
  std::vector<int> idx(n, -1);
  std::vector<int> back;
  for (int v = 0; v < n; ++v)
    if (keep[v]) {
      idx[v] = static_cast<int>(back.size());
      back.push_back(v);
    }
  std::vector<std::pair<int, int>> edges;
  for (int v = 0; v < n; ++v) {
    if (idx[v] < 0)
      continue;
    for (int w : g.succ(v))
      if (idx[w] >= 0)
        edges.emplace_back(idx[v], idx[w]);
  }
  UGraph u(static_cast<int>(back.size()), edges);
  if (toGraph)
    *toGraph = std::move(back);
  return u;
}

std::vector<char> jointMask(const Graph &g) {
  std::vector<char> m(g.numNodes());
  for (int v = 0; v < g.numNodes(); ++v)
    m[v] = !g.node(v).input;
  return m;
}

std::vector<char> forwardMask(const Graph &g) {
  std::vector<char> m(g.numNodes());
  for (int v = 0; v < g.numNodes(); ++v)
    m[v] = g.isForwardOp(v);
  return m;
}

Graph withBackward(const Graph &fwd, const std::vector<char> *noGradient) {
  Graph g;
  g.name = fwd.name;
  int n = fwd.numNodes();
  for (int v = 0; v < n; ++v)
    g.addNode(fwd.node(v));
  auto differentiated = [&](int v) {
    return fwd.isForwardOp(v) && !(noGradient && (*noGradient)[v]);
  };
  std::vector<int> grad(n, -1);
  // Backward nodes in reverse order of creation, so that ids follow the
  // order in which a reverse sweep would create them.
  for (int v = n - 1; v >= 0; --v) {
    if (!differentiated(v))
      continue;
    const Node &f = fwd.node(v);
    grad[v] =
        g.addNode("d_" + f.name, /*backward=*/true, 2.0 * f.cost, f.bytes);
  }
  for (int v = 0; v < n; ++v)
    for (int w : fwd.succ(v))
      g.addEdge(v, w);
  for (int v = 0; v < n; ++v) {
    if (grad[v] < 0)
      continue;
    g.addEdge(v, grad[v]);
    for (int u : fwd.pred(v)) {
      g.addEdge(u, grad[v]);
      if (grad[u] >= 0)
        g.addEdge(grad[v], grad[u]);
    }
  }
  g.finalize();
  return g;
}

} // namespace graph
} // namespace ckpt
