//===- TreeDecomposition.cpp - Elimination orderings and tree decompositions
//===//

#include "ckpt/Solver/Graph/TreeDecomposition.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <tuple>
#include <unordered_set>

namespace ckpt {
namespace graph {

const char *heuristicName(Heuristic h) {
  return h == Heuristic::MinFill ? "min-fill" : "min-degree";
}

int TreeDecomposition::width() const {
  int w = -1;
  for (auto &b : bags)
    w = std::max(w, static_cast<int>(b.size()) - 1);
  return w;
}

namespace {

/// The greedy elimination loop both adjacency representations share: a lazy
/// binary heap keyed by (fill, degree, id) or (degree, id) picks the next
/// vertex; `Derived` keeps the degrees and fills up to date as it eliminates
/// (CRTP: `alive(v)`, and `take(v, nb, touched)`, which eliminates v, leaves
/// its live neighbourhood in `nb` and the vertices whose key changed in
/// `touched`, each once, through `touch`).
template <typename Derived> class GreedyEliminator {
public:
  /// Runs the elimination; `nbrs` (when non-null) receives N+(v) per step.
  void run(std::vector<int> &order, std::vector<std::vector<int>> *nbrs) {
    for (int v = 0; v < n_; ++v)
      push(v);
    order.clear();
    order.reserve(n_);
    if (nbrs)
      nbrs->clear();
    std::vector<int> nb, touched;
    Derived &self = static_cast<Derived &>(*this);
    while (!heap_.empty()) {
      Entry e = heap_.top();
      heap_.pop();
      int v = std::get<2>(e);
      if (!self.alive(v) || e != entry(v))
        continue;
      order.push_back(v);
      ++stamp_;
      touched.clear();
      self.take(v, nb, touched);
      if (nbrs)
        nbrs->push_back(nb);
      for (int u : touched)
        push(u);
    }
  }

protected:
  GreedyEliminator(int n, Heuristic h)
      : n_(n), h_(h), deg_(n), fill_(n, 0), mark_(n, 0) {}

  bool minFill() const { return h_ == Heuristic::MinFill; }
  void touch(int u, std::vector<int> &touched) {
    if (mark_[u] != stamp_) {
      mark_[u] = stamp_;
      touched.push_back(u);
    }
  }

  int n_;
  Heuristic h_;
  std::vector<int64_t> deg_, fill_;

private:
  using Entry = std::tuple<int64_t, int64_t, int>;
  Entry entry(int v) const {
    if (minFill())
      return Entry(fill_[v], deg_[v], v);
    return Entry(deg_[v], 0, v);
  }
  void push(int v) { heap_.push(entry(v)); }

  std::vector<int> mark_;
  int stamp_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
};

/// Greedy elimination with incremental fill-in / degree maintenance.
///
/// Adjacency lists are unsorted vectors that may still hold eliminated
/// vertices (removed lazily, compacted when more than half is dead);
/// adjacency tests use stamped marker arrays. Eliminating v with live
/// neighbourhood N costs O(sum of deg(u), u in N) plus, for each fill edge
/// xy, O(deg y) to find the common neighbours whose fill drops.
class Eliminator : public GreedyEliminator<Eliminator> {
public:
  Eliminator(const UGraph &g, Heuristic h)
      : GreedyEliminator(g.numVertices(), h), adj_(n_), dead_(n_, 0),
        nbMark_(n_, 0), xMark_(n_, 0) {
    for (int v = 0; v < n_; ++v) {
      NodeRange r = g.neighbors(v);
      adj_[v].assign(r.begin(), r.end());
      deg_[v] = static_cast<int>(r.size());
    }
    if (minFill())
      initFill(g);
  }

private:
  friend class GreedyEliminator<Eliminator>;
  bool alive(int v) const { return !dead_[v]; }
  void take(int v, std::vector<int> &nb, std::vector<int> &touched) {
    compact(v);
    nb = adj_[v];
    eliminate(v, nb, touched);
  }

  void compact(int v) {
    auto &a = adj_[v];
    a.erase(std::remove_if(a.begin(), a.end(), [&](int w) { return dead_[w]; }),
            a.end());
  }

  void initFill(const UGraph &g) {
    // fill(v) = C(deg v, 2) - triangles(v). Triangles are counted with the
    // degree ordering (each edge oriented towards the higher rank), in
    // O(m sqrt m), so that a hub does not cost O(deg^2).
    auto rankLess = [&](int a, int b) {
      int da = g.degree(a), db = g.degree(b);
      return da != db ? da < db : a < b;
    };
    std::vector<std::vector<int>> out(n_);
    for (int v = 0; v < n_; ++v)
      for (int w : g.neighbors(v))
        if (rankLess(v, w))
          out[v].push_back(w);
    std::vector<int64_t> tri(n_, 0);
    std::vector<int> stamp(n_, -1);
    for (int u = 0; u < n_; ++u) {
      for (int w : out[u])
        stamp[w] = u;
      for (int w : out[u])
        for (int x : out[w])
          if (stamp[x] == u) {
            ++tri[u];
            ++tri[w];
            ++tri[x];
          }
    }
    for (int v = 0; v < n_; ++v) {
      int64_t d = deg_[v];
      fill_[v] = d * (d - 1) / 2 - tri[v];
    }
  }

  void eliminate(int v, const std::vector<int> &nb, std::vector<int> &touched) {
    dead_[v] = 1;
    bool mf = minFill();
    size_t k = nb.size();
    int nbStamp = ++markStamp_;
    for (int w : nb)
      nbMark_[w] = nbStamp;
    // Step 1: v leaves every neighbour's neighbourhood; the pairs (v, z) of
    // N(u) that were non-adjacent disappear from fill(u).
    for (size_t i = 0; i < k; ++i) {
      int u = nb[i];
      if (mf) {
        int64_t c = 0;
        for (int z : adj_[u])
          if (!dead_[z] && nbMark_[z] == nbStamp)
            ++c;
        fill_[u] -= (deg_[u] - 1) - c;
      }
      --deg_[u];
      touch(u, touched);
    }
    // Step 2: make N(v) a clique. For each fill edge xy, the common
    // neighbours of x and y lose one fill pair, x and y gain one pair per
    // neighbour not adjacent to the other.
    for (size_t i = 0; i < k; ++i) {
      int x = nb[i];
      int xs = ++markStamp_;
      for (int z : adj_[x])
        if (!dead_[z])
          xMark_[z] = xs;
      for (size_t j = i + 1; j < k; ++j) {
        int y = nb[j];
        if (xMark_[y] == xs)
          continue;
        if (mf) {
          int64_t c = 0;
          for (int w : adj_[y]) {
            if (dead_[w] || xMark_[w] != xs)
              continue;
            ++c;
            --fill_[w];
            touch(w, touched);
          }
          fill_[x] += deg_[x] - c;
          fill_[y] += deg_[y] - c;
        }
        adj_[x].push_back(y);
        adj_[y].push_back(x);
        xMark_[y] = xs;
        ++deg_[x];
        ++deg_[y];
      }
    }
    for (int u : nb)
      if (adj_[u].size() > 2 * static_cast<size_t>(deg_[u]) + 16)
        compact(u);
  }

  std::vector<std::vector<int>> adj_;
  std::vector<char> dead_;
  std::vector<int> nbMark_, xMark_;
  int markStamp_ = 0;
};

/// The same greedy elimination on bitset adjacency rows, for graphs small
/// enough (n <= kBitsetMaxVertices) that n^2 bits fit comfortably: adjacency
/// tests, common-neighbour counts and clique completion become word-parallel,
/// which matters when bags are large (e.g. random layered DAGs, width ~170).
/// Produces exactly the same order as Eliminator (same keys, same ties).
class BitsetEliminator : public GreedyEliminator<BitsetEliminator> {
public:
  BitsetEliminator(const UGraph &g, Heuristic h)
      : GreedyEliminator(g.numVertices(), h), words_((n_ + 63) / 64),
        rows_(static_cast<size_t>(n_) * words_, 0), alive_(words_, 0),
        nbm_(words_) {
    for (int v = 0; v < n_; ++v) {
      set(alive_.data(), v);
      for (int w : g.neighbors(v))
        set(row(v), w);
      deg_[v] = g.degree(v);
    }
    if (minFill())
      for (int v = 0; v < n_; ++v) {
        int64_t adjPairs = 0;
        for (int u : g.neighbors(v))
          adjPairs += andCount(row(v), row(u));
        int64_t d = deg_[v];
        fill_[v] = d * (d - 1) / 2 - adjPairs / 2;
      }
  }

private:
  friend class GreedyEliminator<BitsetEliminator>;
  bool alive(int v) const { return test(alive_.data(), v); }
  uint64_t *row(int v) {
    return rows_.data() + static_cast<size_t>(v) * words_;
  }
  static void set(uint64_t *r, int b) { r[b >> 6] |= uint64_t(1) << (b & 63); }
  static bool test(const uint64_t *r, int b) {
    return (r[b >> 6] >> (b & 63)) & 1;
  }
  int64_t andCount(const uint64_t *a, const uint64_t *b) const {
    int64_t c = 0;
    for (int i = 0; i < words_; ++i)
      c += __builtin_popcountll(a[i] & b[i]);
    return c;
  }
  /// Eliminates v: its live neighbourhood into `nb`, made a clique.
  void take(int v, std::vector<int> &nb, std::vector<int> &touched) {
    alive_[v >> 6] &= ~(uint64_t(1) << (v & 63));
    uint64_t *rv = row(v);
    nb.clear();
    for (int i = 0; i < words_; ++i) {
      nbm_[i] = rv[i] & alive_[i];
      for (uint64_t w = nbm_[i]; w; w &= w - 1)
        nb.push_back(i * 64 + __builtin_ctzll(w));
    }
    bool mf = minFill();
    for (int u : nb) {
      uint64_t *ru = row(u);
      ru[v >> 6] &= ~(uint64_t(1) << (v & 63));
      if (mf)
        fill_[u] -= (deg_[u] - 1) - andCount(ru, nbm_.data());
      --deg_[u];
      touch(u, touched);
    }
    for (size_t i = 0; i < nb.size(); ++i) {
      int x = nb[i];
      uint64_t *rx = row(x);
      // Missing neighbours of x inside N(v), beyond x (each pair once).
      for (int wi = x >> 6; wi < words_; ++wi) {
        uint64_t miss = nbm_[wi] & ~rx[wi];
        if (wi == (x >> 6))
          miss &= (x & 63) == 63 ? 0 : ~uint64_t(0) << ((x & 63) + 1);
        for (; miss; miss &= miss - 1) {
          int y = wi * 64 + __builtin_ctzll(miss);
          uint64_t *ry = row(y);
          if (mf) {
            int64_t c = 0;
            for (int k = 0; k < words_; ++k) {
              uint64_t com = rx[k] & ry[k] & alive_[k];
              for (; com; com &= com - 1) {
                int w = k * 64 + __builtin_ctzll(com);
                ++c;
                --fill_[w];
                touch(w, touched);
              }
            }
            fill_[x] += deg_[x] - c;
            fill_[y] += deg_[y] - c;
          }
          set(rx, y);
          set(ry, x);
          ++deg_[x];
          ++deg_[y];
        }
      }
    }
  }

  int words_;
  std::vector<uint64_t> rows_, alive_;
  std::vector<uint64_t> nbm_;
};

constexpr int kBitsetMaxVertices = 4096;

void runElimination(const UGraph &g, Heuristic h, std::vector<int> &order,
                    std::vector<std::vector<int>> *nbrs) {
  if (g.numVertices() <= kBitsetMaxVertices)
    BitsetEliminator(g, h).run(order, nbrs);
  else
    Eliminator(g, h).run(order, nbrs);
}

TreeDecomposition
buildFromNeighbourhoods(int n, const std::vector<int> &order,
                        const std::vector<std::vector<int>> &nbrs) {
  TreeDecomposition td;
  std::vector<int> pos(n, 0);
  for (int i = 0; i < n; ++i)
    pos[order[i]] = i;
  td.bags.resize(n);
  td.parent.assign(n, -1);
  int firstRoot = -1;
  for (int i = 0; i < n; ++i) {
    auto &bag = td.bags[i];
    bag = nbrs[i];
    bag.push_back(order[i]);
    std::sort(bag.begin(), bag.end());
    int best = -1;
    for (int w : nbrs[i])
      if (best < 0 || pos[w] < best)
        best = pos[w];
    td.parent[i] = best;
  }
  // Link the roots (one per connected component) into a single tree.
  for (int i = n - 1; i >= 0; --i)
    if (td.parent[i] < 0) {
      if (firstRoot < 0)
        firstRoot = i;
      else
        td.parent[i] = firstRoot;
    }
  return td;
}

} // namespace

std::vector<int> eliminationOrderForTesting(const UGraph &g, Heuristic h,
                                            bool bitset) {
  std::vector<int> order;
  if (bitset)
    BitsetEliminator(g, h).run(order, nullptr);
  else
    Eliminator(g, h).run(order, nullptr);
  return order;
}

std::vector<int> eliminationOrder(const UGraph &g, Heuristic h) {
  std::vector<int> order;
  runElimination(g, h, order, nullptr);
  return order;
}

TreeDecomposition decompose(const UGraph &g, Heuristic h) {
  std::vector<int> order;
  std::vector<std::vector<int>> nbrs;
  runElimination(g, h, order, &nbrs);
  return buildFromNeighbourhoods(g.numVertices(), order, nbrs);
}

static void eliminateInOrder(const UGraph &g, const std::vector<int> &order,
                             std::vector<std::vector<int>> &nbrs) {
  int n = g.numVertices();
  std::vector<int> pos(n);
  for (int i = 0; i < n; ++i)
    pos[order[i]] = i;
  // Classic: the higher neighbourhoods of the filled graph, computed by
  // pushing each N+(v) minus its first vertex into that vertex's set.
  std::vector<std::vector<int>> higher(n);
  for (int v = 0; v < n; ++v)
    for (int w : g.neighbors(v))
      if (pos[w] > pos[v])
        higher[v].push_back(w);
  nbrs.assign(n, {});
  for (int i = 0; i < n; ++i) {
    int v = order[i];
    auto &h = higher[v];
    std::sort(h.begin(), h.end(),
              [&](int a, int b) { return pos[a] < pos[b]; });
    h.erase(std::unique(h.begin(), h.end()), h.end());
    nbrs[i] = h;
    if (!h.empty()) {
      auto &p = higher[h[0]];
      p.insert(p.end(), h.begin() + 1, h.end());
    }
    std::vector<int>().swap(h);
  }
}

TreeDecomposition decomposeWithOrder(const UGraph &g,
                                     const std::vector<int> &order) {
  std::vector<std::vector<int>> nbrs;
  eliminateInOrder(g, order, nbrs);
  return buildFromNeighbourhoods(g.numVertices(), order, nbrs);
}

int orderWidth(const UGraph &g, const std::vector<int> &order) {
  std::vector<std::vector<int>> nbrs;
  eliminateInOrder(g, order, nbrs);
  int w = -1;
  for (auto &b : nbrs)
    w = std::max(w, static_cast<int>(b.size()));
  return w;
}

bool validate(const UGraph &g, const TreeDecomposition &td, std::string *why) {
  auto fail = [&](std::string msg) {
    if (why)
      *why = std::move(msg);
    return false;
  };
  int n = g.numVertices();
  int nb = td.numBags();
  if (static_cast<int>(td.parent.size()) != nb)
    return fail("parent array size differs from the number of bags");
  if (n == 0)
    return true;
  if (nb == 0)
    return fail("no bags");
  // One tree: exactly one root, and every bag reaches it.
  int roots = 0;
  for (int b = 0; b < nb; ++b) {
    if (td.parent[b] < 0)
      ++roots;
    else if (td.parent[b] >= nb || td.parent[b] == b)
      return fail("bag " + std::to_string(b) + " has an invalid parent");
  }
  if (roots != 1)
    return fail("the bags form " + std::to_string(roots) + " trees, not one");
  std::vector<int> state(nb, 0); // 0 unknown, 1 in progress, 2 reaches root
  for (int b = 0; b < nb; ++b) {
    std::vector<int> path;
    int c = b;
    while (c >= 0 && state[c] == 0) {
      state[c] = 1;
      path.push_back(c);
      c = td.parent[c];
    }
    if (c >= 0 && state[c] == 1)
      return fail("the parent pointers contain a cycle through bag " +
                  std::to_string(c));
    for (int p : path)
      state[p] = 2;
  }
  // Vertices: in some bag; their bags connected (k bags joined by k-1 tree
  // edges whose both ends hold the vertex).
  std::vector<int> count(n, 0), joins(n, 0);
  std::vector<int> stamp(n, -1);
  for (int b = 0; b < nb; ++b)
    for (int v : td.bags[b]) {
      if (v < 0 || v >= n)
        return fail("bag " + std::to_string(b) + " holds an unknown vertex");
      if (stamp[v] == b)
        return fail("bag " + std::to_string(b) + " holds a vertex twice");
      stamp[v] = b;
      ++count[v];
    }
  for (int b = 0; b < nb; ++b) {
    int p = td.parent[b];
    if (p < 0)
      continue;
    const auto &pb = td.bags[p];
    for (int v : td.bags[b])
      if (std::binary_search(pb.begin(), pb.end(), v))
        ++joins[v];
  }
  for (int v = 0; v < n; ++v) {
    if (count[v] == 0)
      return fail("vertex " + std::to_string(v) + " is in no bag");
    if (joins[v] != count[v] - 1)
      return fail("the bags holding vertex " + std::to_string(v) +
                  " are not connected");
  }
  for (auto &b : td.bags)
    if (!std::is_sorted(b.begin(), b.end()))
      return fail("a bag is not sorted");
  // Edges: each edge uv must share a bag. For each vertex u, mark the
  // vertices that share a bag with u, lazily via the bag lists.
  std::vector<std::vector<int>> bagsOf(n);
  for (int b = 0; b < nb; ++b)
    for (int v : td.bags[b])
      bagsOf[v].push_back(b);
  for (int u = 0; u < n; ++u)
    for (int v : g.neighbors(u)) {
      if (v < u)
        continue;
      const auto &small =
          bagsOf[u].size() <= bagsOf[v].size() ? bagsOf[u] : bagsOf[v];
      int other = &small == &bagsOf[u] ? v : u;
      bool found = false;
      for (int b : small)
        if (std::binary_search(td.bags[b].begin(), td.bags[b].end(), other)) {
          found = true;
          break;
        }
      if (!found)
        return fail("edge " + std::to_string(u) + "-" + std::to_string(v) +
                    " is in no bag");
    }
  return true;
}

namespace {

class ExactTW {
public:
  explicit ExactTW(const UGraph &g) : n_(g.numVertices()), adj_(n_, 0) {
    for (int v = 0; v < n_; ++v)
      for (int w : g.neighbors(v))
        adj_[v] |= 1u << w;
    all_ = n_ == 32 ? ~0u : ((1u << n_) - 1);
  }

  /// |Q(S, v)|: vertices outside S + v reachable from v through S.
  int q(uint32_t s, int v) const {
    uint32_t comp = 1u << v, frontier = comp, reach = 0;
    while (frontier) {
      uint32_t nb = 0;
      for (uint32_t f = frontier; f; f &= f - 1)
        nb |= adj_[__builtin_ctz(f)];
      reach |= nb;
      frontier = nb & s & ~comp;
      comp |= frontier;
    }
    reach &= ~s & ~(1u << v);
    return __builtin_popcount(reach);
  }

  bool atMost(int k) {
    k_ = k;
    failed_.clear();
    return search(0);
  }

private:
  bool search(uint32_t s) {
    uint32_t rest = all_ & ~s;
    if (__builtin_popcount(rest) <= k_ + 1)
      return true;
    if (failed_.count(s))
      return false;
    for (uint32_t r = rest; r; r &= r - 1) {
      int v = __builtin_ctz(r);
      if (q(s, v) <= k_ && search(s | (1u << v)))
        return true;
    }
    failed_.insert(s);
    return false;
  }

  int n_;
  std::vector<uint32_t> adj_;
  uint32_t all_ = 0;
  int k_ = 0;
  std::unordered_set<uint32_t> failed_;
};

} // namespace

int exactTreewidth(const UGraph &g, int maxVertices) {
  int n = g.numVertices();
  if (n > maxVertices || n > 30)
    return -1;
  if (n == 0)
    return -1;
  int ub = decompose(g, Heuristic::MinFill).width();
  ub = std::min(ub, decompose(g, Heuristic::MinDegree).width());
  // Degeneracy lower bound.
  std::vector<int> deg(n);
  std::vector<char> gone(n, 0);
  for (int v = 0; v < n; ++v)
    deg[v] = g.degree(v);
  int lb = 0;
  for (int step = 0; step < n; ++step) {
    int best = -1;
    for (int v = 0; v < n; ++v)
      if (!gone[v] && (best < 0 || deg[v] < deg[best]))
        best = v;
    lb = std::max(lb, deg[best]);
    gone[best] = 1;
    for (int w : g.neighbors(best))
      --deg[w];
  }
  ExactTW solver(g);
  for (int k = lb; k < ub; ++k)
    if (solver.atMost(k))
      return k;
  return ub;
}

} // namespace graph
} // namespace ckpt
