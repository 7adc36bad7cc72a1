//===- LowerBound.cpp - Lagrangian bound on the recompute cost -----------===//
//
// See LowerBound.h for the bound and why it holds. Here: the cuts, the
// closure problem of one price as a minimum cut (Dinic's algorithm on
// doubles), and the search of the price.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/LowerBound.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace ckpt::sched;

namespace {

//===----------------------------------------------------------------------===//
// Maximum flow
//===----------------------------------------------------------------------===//

/// Dinic's maximum flow on double capacities, on a network built once
/// (`add`, then `finish`) and run again with other capacities.
class MaxFlow {
public:
  explicit MaxFlow(int nodes)
      : start(nodes + 1, 0), level(nodes), next(nodes) {}

  /// An edge; its capacity is given to `run` (by the returned index).
  int add(int from, int to) {
    ends.push_back({from, to});
    return static_cast<int>(ends.size()) - 1;
  }

  /// Lays the edges out by node: each node's half-edges in the order of the
  /// `add` calls that name it.
  void finish() {
    const int nodes = static_cast<int>(level.size());
    for (const auto &[from, to] : ends) {
      ++start[from + 1];
      ++start[to + 1];
    }
    for (int u = 0; u < nodes; ++u)
      start[u + 1] += start[u];
    half.resize(start[nodes]);
    forward.resize(ends.size());
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (size_t k = 0; k < ends.size(); ++k) {
      const auto [from, to] = ends[k];
      const int f = fill[from]++, b = fill[to]++;
      half[f] = {to, 0, b};
      half[b] = {from, 0, f};
      forward[k] = f;
    }
  }

  /// The maximum flow from s to t with edge k's capacity cap[k].
  double run(int s, int t, const std::vector<double> &cap) {
    for (Half &h : half)
      h.cap = 0;
    for (size_t k = 0; k < forward.size(); ++k)
      half[forward[k]].cap = cap[k];
    double flow = 0;
    while (bfs(s, t)) {
      for (size_t u = 0; u < next.size(); ++u)
        next[u] = start[u];
      while (double pushed = dfs(s, t, kInf))
        flow += pushed;
    }
    return flow;
  }

  /// After run: whether `node` is on the source's side of a minimum cut.
  bool sourceSide(int node) const { return level[node] >= 0; }

  static constexpr double kInf = std::numeric_limits<double>::infinity();

private:
  struct Half {
    int to;
    double cap;
    int rev;
  };
  static constexpr double kEps = 1e-12;

  bool bfs(int s, int t) {
    std::fill(level.begin(), level.end(), -1);
    queue.clear();
    level[s] = 0;
    queue.push_back(s);
    for (size_t head = 0; head < queue.size(); ++head) {
      int u = queue[head];
      for (int k = start[u]; k < start[u + 1]; ++k) {
        const Half &e = half[k];
        if (e.cap > kEps && level[e.to] < 0) {
          level[e.to] = level[u] + 1;
          queue.push_back(e.to);
        }
      }
    }
    return level[t] >= 0;
  }

  double dfs(int u, int t, double limit) {
    if (u == t)
      return limit;
    for (int &k = next[u]; k < start[u + 1]; ++k) {
      Half &e = half[k];
      if (e.cap <= kEps || level[e.to] != level[u] + 1)
        continue;
      double pushed = dfs(e.to, t, std::min(limit, e.cap));
      if (pushed > 0) {
        e.cap -= pushed;
        half[e.rev].cap += pushed;
        return pushed;
      }
    }
    return 0;
  }

  std::vector<std::pair<int, int>> ends; ///< per edge: from, to
  std::vector<int> start;                ///< per node: its first half-edge
  std::vector<Half> half;
  std::vector<int> forward; ///< per edge: its half-edge at `from`
  std::vector<int> level, next, queue;
};

//===----------------------------------------------------------------------===//
// One cut
//===----------------------------------------------------------------------===//

/// The program of the cut at one op: its values and their constraints.
struct Cut {
  int op = -1;
  double room = 0;             ///< budget minus the bytes of the op's results
  std::vector<int> values;     ///< ancestors' results (local index i);
                               ///< -1: an unrelated op's pseudo-value
  std::vector<double> bytes;   ///< kept bytes
  std::vector<double> cost;    ///< recompute cost
  std::vector<char> needed;    ///< available after the cut
  std::vector<char> mustKeep;  ///< read by the op itself, or not recomputable
  std::vector<char> fixedKeep; ///< read by the op: kept, never recomputed
  std::vector<std::vector<int>> inputs; ///< local indexes a recompute needs
  std::vector<int> viewOf; ///< a view's source (local index), else -1
  /// Keeping all that must be available exceeds the room (else `inputs`
  /// is not filled: the bound is 0).
  bool binds = false;
  double kept = 0; ///< the bytes of what must be available
};

/// The cuts where the Lagrangian dual is searched: those whose excess at
/// price 0 is largest (each costs about fifty minimum cuts by bisection, a
/// few where the dual's lines cross).
constexpr int kLagrangianCuts = 16;
/// At most this many cuts are scanned first (every stride-th), then the
/// neighbourhoods of the kRefine largest excesses.
constexpr int kScanCuts = 1500;
constexpr size_t kRefine = 16;

/// The closure problem at price `lambda`: its least cost (without the
/// -lambda * room term) and the bytes its optimum keeps.
struct Closure {
  double cost = 0;
  double kept = 0;
  std::vector<int> recomputed; ///< local indexes recomputed after the cut
};

/// The closure problem of a cut as a network: built once, solved at each
/// price tried.
class CutNetwork {
public:
  explicit CutNetwork(const Cut &cut)
      : cut(cut), n(static_cast<int>(cut.values.size())), flow(2 + 2 * n) {
    for (int i = 0; i < n; ++i) {
      // Available: lambda * bytes (kept unless recomputed).
      if (cut.bytes[i] > 0)
        edge(a(i), kT, Cap::Keep, i);
      if (cut.needed[i] || cut.fixedKeep[i])
        edge(kS, a(i), Cap::Inf, i);
      if (cut.viewOf[i] >= 0)
        edge(a(i), a(cut.viewOf[i]), Cap::Inf, i);
      if (cut.mustKeep[i]) {
        edge(r(i), kT, Cap::Inf, i);
        continue;
      }
      // Recomputed instead of kept: c - lambda * bytes more (a cost when
      // positive, a gain when negative).
      edge(r(i), kT, Cap::ExtraCost, i);
      edge(kS, r(i), Cap::ExtraGain, i);
      edge(r(i), a(i), Cap::Inf, i);
      for (int u : cut.inputs[i])
        edge(r(i), a(u), Cap::Inf, i);
    }
    flow.finish();
    cap.resize(kinds.size());
  }

  Closure solve(double lambda) {
    double constant = 0;
    for (size_t k = 0; k < kinds.size(); ++k) {
      const int i = owner[k];
      const double keep = lambda * cut.bytes[i];
      const double extra = cut.cost[i] - keep;
      switch (kinds[k]) {
      case Cap::Keep:
        cap[k] = keep > 0 ? keep : 0;
        break;
      case Cap::Inf:
        cap[k] = MaxFlow::kInf;
        break;
      case Cap::ExtraCost:
        cap[k] = extra > 0 ? extra : 0;
        break;
      case Cap::ExtraGain:
        cap[k] = extra < 0 ? -extra : 0;
        constant += extra < 0 ? extra : 0;
        break;
      }
    }
    Closure out;
    out.cost = flow.run(kS, kT, cap) + constant;
    for (int i = 0; i < n; ++i) {
      if (flow.sourceSide(a(i)) && !flow.sourceSide(r(i)))
        out.kept += cut.bytes[i];
      if (flow.sourceSide(r(i)) && cut.values[i] >= 0)
        out.recomputed.push_back(i);
    }
    return out;
  }

private:
  enum class Cap : uint8_t { Keep, Inf, ExtraCost, ExtraGain };
  static constexpr int kS = 0, kT = 1;
  static int a(int i) { return 2 + 2 * i; }
  static int r(int i) { return 3 + 2 * i; }
  void edge(int from, int to, Cap kind, int i) {
    flow.add(from, to);
    kinds.push_back(kind);
    owner.push_back(i);
  }

  const Cut &cut;
  const int n;
  MaxFlow flow;
  std::vector<Cap> kinds; ///< per edge: how its capacity follows the price
  std::vector<int> owner; ///< per edge: the value whose price it follows
  std::vector<double> cap;
};

/// The bytes a kept value holds: never more than what is live.
double keptBytes(const Problem &problem, int v) {
  const Value &value = problem.values[v];
  switch (value.rule) {
  case BufferRule::Fresh:
    return static_cast<double>(value.bytes);
  case BufferRule::View:
    return 0;
  case BufferRule::InPlace: {
    // Its own buffer, or its source's (through views and in-place results).
    int root = value.source;
    while (root >= 0 && problem.values[root].rule != BufferRule::Fresh)
      root = problem.values[root].source;
    double own = static_cast<double>(value.bytes);
    if (root < 0)
      return own;
    return std::min(own, static_cast<double>(problem.values[root].bytes));
  }
  }
  return 0;
}

/// The budget less j's results, which are live during T: the fresh ones in
/// buffers of their own (a view or an in-place result may share what j
/// reads).
double roomAt(const Problem &problem, int j, int64_t budget) {
  double room = static_cast<double>(budget);
  for (int v : problem.ops[j].results)
    if (problem.values[v].rule == BufferRule::Fresh)
      room -= static_cast<double>(problem.values[v].bytes);
  return room;
}

/// Builds the cut at one op, phase by phase (see buildCut).
class CutBuilder {
public:
  CutBuilder(const Problem &problem, int j,
             const std::vector<std::vector<int>> &readers)
      : problem(problem), j(j), numOps(problem.numOps()), readers(readers),
        ancestor(numOps, 0), descendant(numOps, 0),
        local(problem.numValues(), -1) {
    cut.op = j;
  }

  /// Marks the ancestors of j (ops that ran before T) and its descendants
  /// (ops that run after): in order, every op is one or the other.
  void markRelatives(bool inOrder) {
    if (inOrder) {
      for (int op = 0; op < numOps; ++op) {
        ancestor[op] = op < j;
        descendant[op] = op > j;
      }
      return;
    }
    std::vector<int> stack{j};
    while (!stack.empty()) {
      int op = stack.back();
      stack.pop_back();
      for (int r : problem.ops[op].reads) {
        int p = problem.values[r].producer;
        if (p >= 0 && !ancestor[p]) {
          ancestor[p] = 1;
          stack.push_back(p);
        }
      }
    }
    stack.push_back(j);
    while (!stack.empty()) {
      int op = stack.back();
      stack.pop_back();
      for (int v : problem.ops[op].results)
        for (int reader : readers[v])
          if (!descendant[reader]) {
            descendant[reader] = 1;
            stack.push_back(reader);
          }
    }
  }

  /// Adds the ancestors' results as the cut's values; those j reads are
  /// kept.
  void addAncestorValues() {
    for (int op = 0; op < numOps; ++op) {
      if (!ancestor[op])
        continue;
      const Op &o = problem.ops[op];
      for (int v : o.results) {
        local[v] = static_cast<int>(cut.values.size());
        cut.values.push_back(v);
        cut.bytes.push_back(keptBytes(problem, v));
        cut.cost.push_back(o.cost / static_cast<double>(o.results.size()));
        bool needed = problem.values[v].returned;
        for (int reader : readers[v])
          needed = needed || descendant[reader];
        cut.needed.push_back(needed);
        cut.mustKeep.push_back(!o.recomputable);
        cut.fixedKeep.push_back(0);
        cut.inputs.emplace_back();
        const Value &value = problem.values[v];
        cut.viewOf.push_back(value.rule == BufferRule::View && value.source >= 0
                                 ? local[value.source]
                                 : -1);
      }
    }
    for (int r : problem.ops[j].reads)
      if (local[r] >= 0) {
        cut.fixedKeep[local[r]] = 1;
        cut.mustKeep[local[r]] = 1;
      }
    numValues = cut.values.size();
  }

  /// Adds a pseudo-value for each op unrelated to j that matters.
  void addUnrelatedOps() {
    // Ops related to j neither way (a weight's gradient beside the chain of
    // activation gradients) whose reads are all ancestors' values or inputs
    // and whose results are needed after T: each runs before T, and then
    // its needed results are live during T, or after, and then what it
    // reads is kept or recomputed. A pseudo-value for each: kept, it holds
    // those results' bytes; "recomputed", the op runs after T, at no cost
    // (its one run), with its reads as inputs.
    for (int op = 0; op < numOps; ++op) {
      if (op == j || ancestor[op] || descendant[op])
        continue;
      const Op &o = problem.ops[op];
      bool early = true;
      for (int r : o.reads) {
        // Constant-like ops (an empty tensor, a fill) can run anywhere:
        // their values count as always there, at no cost (a relaxation).
        int p = problem.values[r].producer;
        early = early && (p < 0 || ancestor[p] || problem.ops[p].constant);
      }
      double bytes = 0;
      for (int v : o.results) {
        bool needed = problem.values[v].returned;
        for (int reader : readers[v])
          needed = needed || descendant[reader];
        if (needed)
          bytes += keptBytes(problem, v);
      }
      if (!early || bytes <= 0)
        continue;
      unrelated.push_back(op);
      cut.values.push_back(-1);
      cut.bytes.push_back(bytes);
      cut.cost.push_back(0);
      cut.needed.push_back(1);
      cut.mustKeep.push_back(0);
      cut.fixedKeep.push_back(0);
      cut.inputs.emplace_back();
      cut.viewOf.push_back(-1);
    }
  }

  /// Sets cut.kept, the estimate of what must be kept at price 0, and
  /// cut.binds.
  void estimateKept() {
    // An estimate of what must be kept at price 0 (an unrelated op counted
    // at the least of its results and its reads not counted yet): where it
    // fits, the cut is not searched (boundAt); the others are searched in
    // the order of their excess. (Only which cuts are searched depends on
    // it: the bound holds at every cut and price.)
    // A view available after T holds its source's buffer, or is made again
    // from its source: either way the source is available (sources come
    // first: a backward scan carries it down chains of views).
    std::vector<char> counted(numValues, 0);
    for (size_t i = numValues; i-- > 0;)
      if (cut.needed[i] || cut.fixedKeep[i] || counted[i]) {
        counted[i] = 1;
        if (cut.viewOf[i] >= 0)
          counted[cut.viewOf[i]] = 1;
      }
    double kept = 0;
    for (size_t i = 0; i < numValues; ++i)
      if (counted[i])
        kept += cut.bytes[i];
    for (size_t k = 0; k < unrelated.size(); ++k) {
      double reads = 0;
      for (int r : problem.ops[unrelated[k]].reads)
        if (local[r] >= 0 && !counted[local[r]])
          reads += cut.bytes[local[r]];
      if (reads < cut.bytes[numValues + k]) {
        for (int r : problem.ops[unrelated[k]].reads)
          if (local[r] >= 0)
            counted[local[r]] = 1;
        kept += reads;
      } else {
        kept += cut.bytes[numValues + k];
      }
    }
    cut.kept = kept;
    cut.binds = kept > cut.room;
  }

  /// Fills cut.inputs: the values each recomputation reads.
  void addInputs() {
    // Ops are in a topological order: inputs have local indexes already.
    for (size_t i = 0; i < numValues; ++i) {
      const Op &o = problem.ops[problem.values[cut.values[i]].producer];
      for (int r : o.reads)
        if (local[r] >= 0)
          cut.inputs[i].push_back(local[r]);
    }
    for (size_t k = 0; k < unrelated.size(); ++k)
      for (int r : problem.ops[unrelated[k]].reads)
        if (local[r] >= 0)
          cut.inputs[numValues + k].push_back(local[r]);
  }

  Cut cut;

private:
  const Problem &problem;
  const int j;
  const int numOps;
  const std::vector<std::vector<int>> &readers;
  std::vector<char> ancestor, descendant;
  std::vector<int> local;     ///< per value: its local index, else -1
  std::vector<int> unrelated; ///< the ops of the pseudo-values
  size_t numValues = 0;       ///< the ancestors' values
};

/// The cut at op j; its recomputations' inputs only when `withInputs` and
/// the cut binds. With `inOrder`, the ops before j in the problem's order
/// have run and those after it have not (BoundScope::InOrder).
Cut buildCut(const Problem &problem, int j, int64_t budget,
             const std::vector<std::vector<int>> &readers, bool inOrder,
             bool withInputs = true) {
  CutBuilder b(problem, j, readers);
  b.markRelatives(inOrder);
  b.cut.room = roomAt(problem, j, budget);
  b.addAncestorValues();
  b.addUnrelatedOps();
  b.estimateKept();
  if (b.cut.binds && withInputs)
    b.addInputs();
  return std::move(b.cut);
}

/// The cut's bound: the best Lagrangian value over the prices tried.
struct CutBound {
  double value = 0;
  bool infeasible = false;
  /// The values the dual's cheapest solution that fits recomputes.
  std::vector<int> recomputed;
};

CutBound boundAt(const Cut &cut, const BoundOptions &options) {
  CutBound out;
  // Price 0: keeping is free, nothing is recomputed, what is kept is what
  // must be available: when that fits, the bound is 0. (A cut whose room is
  // negative never gets here: recomputeLowerBound reports it.)
  if (!cut.binds)
    return out;
  double hi = 0;
  for (size_t i = 0; i < cut.values.size(); ++i)
    if (cut.bytes[i] > 0)
      hi = std::max(hi, cut.cost[i] / cut.bytes[i]);
  hi = hi > 0 ? 2 * hi : 1;
  auto offer = [&](double lambda, const Closure &c) {
    out.value = std::max(out.value, c.cost - lambda * cut.room);
  };
  // A price at which the optimum fits the room (or none: infeasible).
  CutNetwork network(cut);
  Closure atHi = network.solve(hi);
  for (int doubling = 0; atHi.kept > cut.room && doubling < 40; ++doubling) {
    hi *= 4;
    atHi = network.solve(hi);
  }
  if (atHi.kept > cut.room) {
    out.infeasible = true;
    return out;
  }
  offer(hi, atHi);
  // The price between lo (the optimum keeps more than the room) and hi (it
  // fits). The dual g is concave and piecewise linear, with slope
  // kept - room at each price tried; at price 0 keeping all that must be
  // available is optimal: g(0) = 0, slope kept - room. With `bisect`: 48
  // bisection steps. Without: the lines through (lo, g(lo)) and (hi, g(hi))
  // with those slopes bound g above between them; the probe is where they
  // cross (the middle when that is within 1% of an end), until the
  // crossing's value is within a relative 1e-9 of the best found. The keep
  // set is that of the least price tried that fits.
  double lo = 0, gLo = 0, slopeLo = cut.kept - cut.room;
  double gHi = atHi.cost - hi * cut.room, slopeHi = atHi.kept - cut.room;
  Closure fits = std::move(atHi);
  const bool bisect = options.bisect;
  for (int step = 0; step < (bisect ? 48 : 64); ++step) {
    double price = 0.5 * (lo + hi);
    if (!bisect) {
      if (!(slopeLo > slopeHi))
        break;
      double cross = std::clamp((gHi - gLo + slopeLo * lo - slopeHi * hi) /
                                    (slopeLo - slopeHi),
                                lo, hi);
      if (gLo + slopeLo * (cross - lo) - out.value <=
          1e-9 * std::abs(out.value))
        break;
      double margin = 0.01 * (hi - lo);
      if (cross - lo >= margin && hi - cross >= margin)
        price = cross;
    }
    Closure c = network.solve(price);
    offer(price, c);
    if (c.kept > cut.room) {
      lo = price;
      gLo = c.cost - price * cut.room;
      slopeLo = c.kept - cut.room;
    } else {
      hi = price;
      gHi = c.cost - price * cut.room;
      slopeHi = c.kept - cut.room;
      fits = std::move(c);
    }
  }
  if (options.keepSet)
    for (int i : fits.recomputed)
      out.recomputed.push_back(cut.values[i]);
  return out;
}

} // namespace

std::vector<double> ckpt::sched::inOrderKeptBytes(const Problem &problem) {
  const int numOps = problem.numOps();
  // A value counts at the cut at j when its producer runs before j and it,
  // or a view of it (transitively), is read at j or later or is returned
  // (buildCut's needed, read-by-j and view rules): from its producer + 1 to
  // `last`. Views come after their sources: a backward pass carries `last`
  // down chains of views.
  std::vector<int> last(problem.numValues(), -1);
  for (int op = 0; op < numOps; ++op)
    for (int r : problem.ops[op].reads)
      last[r] = std::max(last[r], op);
  for (int v = problem.numValues(); v-- > 0;) {
    const Value &value = problem.values[v];
    if (value.returned)
      last[v] = numOps;
    if (value.rule == BufferRule::View && value.source >= 0)
      last[value.source] = std::max(last[value.source], last[v]);
  }
  std::vector<double> delta(numOps + 1, 0);
  for (int v = 0; v < problem.numValues(); ++v) {
    const int p = problem.values[v].producer;
    if (p < 0 || last[v] <= p)
      continue;
    const double bytes = keptBytes(problem, v);
    delta[p + 1] += bytes;
    delta[std::min(last[v], numOps - 1) + 1] -= bytes;
  }
  std::vector<double> kept(numOps);
  double sum = 0;
  for (int j = 0; j < numOps; ++j)
    kept[j] = sum += delta[j];
  return kept;
}

bool ckpt::sched::firstRunsInOrder(const Schedule &schedule) {
  int next = 0; // the op whose first execution comes next
  for (int op : schedule) {
    if (op > next)
      return false;
    if (op == next)
      ++next;
  }
  return true;
}

RecomputeBound ckpt::sched::recomputeLowerBound(const Problem &problem,
                                                int64_t budget,
                                                const BoundOptions &options) {
  const bool inOrder = options.scope == BoundScope::InOrder;
  RecomputeBound out;
  const int numOps = problem.numOps();
  if (numOps == 0)
    return out;
  std::vector<std::vector<int>> readers(problem.numValues());
  for (int op = 0; op < numOps; ++op)
    for (int r : problem.ops[op].reads)
      readers[r].push_back(op);
  // A cut at every op. Its excess at price 0 costs a pass over the problem:
  // on a large problem, of every stride-th op first, then of the ops
  // around the kRefine largest; the Lagrangian (boundAt) at the
  // kLagrangianCuts that exceed the room the most.
  std::vector<std::pair<double, int>> binding; // (relative excess, op)
  auto largestFirst = [&] {
    std::sort(binding.begin(), binding.end(), [](const auto &a, const auto &b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
  };
  std::vector<char> tried(numOps, 0);
  // In order, every cut's kept bytes at once (a sweep): every cut is tried.
  const std::vector<double> keptInOrder =
      inOrder ? inOrderKeptBytes(problem) : std::vector<double>();
  auto tryCut = [&](int j) {
    if (tried[j])
      return true;
    tried[j] = 1;
    double kept, room;
    if (inOrder) {
      kept = keptInOrder[j];
      room = roomAt(problem, j, budget);
    } else {
      Cut cut = buildCut(problem, j, budget, readers, /*inOrder=*/false,
                         /*withInputs=*/false);
      kept = cut.kept;
      room = cut.room;
    }
    ++out.cutsTried;
    if (room < 0) {
      out.infeasible = true;
      out.cutOp = j;
      return false;
    }
    if (kept > room)
      binding.push_back({(kept - room) / std::max(room, 1.0), j});
    return true;
  };
  const int stride =
      inOrder ? 1 : std::max(1, (numOps + kScanCuts - 1) / kScanCuts);
  for (int j = 0; j < numOps; j += stride)
    if (!tryCut(j))
      return out;
  if (stride > 1) {
    largestFirst();
    std::vector<int> around;
    for (size_t k = 0; k < binding.size() && k < kRefine; ++k)
      around.push_back(binding[k].second);
    for (int j : around)
      for (int k = std::max(0, j - stride);
           k <= std::min(numOps - 1, j + stride); ++k)
        if (!tryCut(k))
          return out;
  }
  out.cutsBinding = static_cast<int>(binding.size());
  largestFirst();
  if (binding.size() > static_cast<size_t>(kLagrangianCuts))
    binding.resize(kLagrangianCuts);
  for (const auto &[excess, j] : binding) {
    CutBound b =
        boundAt(buildCut(problem, j, budget, readers, inOrder), options);
    if (b.infeasible) {
      out.infeasible = true;
      out.cutOp = j;
      return out;
    }
    if (b.value > out.recompute) {
      out.recompute = b.value;
      out.cutOp = j;
      out.recomputed = std::move(b.recomputed);
    }
  }
  // Floating point: stay on the safe side of the exact value.
  out.recompute = std::max(0.0, out.recompute * (1 - 1e-9) - 1e-12);
  return out;
}
