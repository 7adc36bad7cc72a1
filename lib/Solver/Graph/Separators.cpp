//===- Separators.cpp - Separator chains and stages ----------------------===//

#include "ckpt/Solver/Graph/Separators.h"

#include <algorithm>

namespace ckpt {
namespace graph {

namespace {

struct SweepResult {
  std::vector<std::vector<int>> seps;
  std::vector<int> stageOf;
};

/// The state of one sweep (see sweep()): the marks of the ops, the stage
/// being grown, and the logs that roll a rejected candidate back.
class Sweeper {
public:
  Sweeper(const Graph &g, const std::vector<char> &fwd,
          const std::vector<char> &stop, bool forwardDir)
      : g(g), fwd(fwd), stop(stop), forwardDir(forwardDir), n(g.numNodes()),
        reached(n, 0), expanded(n, 0), stageOf(n, -1), curSep(n, -1) {}

  /// Marks the members of candidate `cand` with `stamp`; false when it is
  /// empty or has a member that is not a forward op or already expanded.
  bool mark(const std::vector<int> &cand, int stamp) {
    bool bad = cand.empty();
    for (int v : cand) {
      if (v < 0 || v >= n || !fwd[v] || expanded[v])
        bad = true;
      else
        curSep[v] = stamp;
    }
    return !bad;
  }

  /// Starts a step: clears the logs and queues the pending ops that are not
  /// in the candidate (all of them for the last step).
  void begin(int stamp, bool last) {
    logReach.clear();
    logExp.clear();
    logStage.clear();
    queue.clear();
    savedPending = pending;
    std::vector<int> keep;
    for (int p : pending) {
      if (!last && curSep[p] == stamp)
        keep.push_back(p);
      else
        queue.push_back(p);
    }
    pending.swap(keep);
  }

  /// Reaches the start ops, on the first kept step only.
  void reachStart(const std::vector<int> &start, int stamp) {
    if (!started)
      for (int e : start)
        reach(e, stamp);
  }

  /// Expands the queue breadth-first. Returns false when a stop node got
  /// expanded (only if checkStop).
  bool bfs(int stamp, bool checkStop) {
    for (size_t qi = 0; qi < queue.size(); ++qi) {
      int v = queue[qi];
      if (expanded[v])
        continue;
      if (checkStop && stop[v])
        return false;
      expanded[v] = 1;
      logExp.push_back(v);
      if (stageOf[v] < 0) {
        stageOf[v] = stageIdx;
        logStage.push_back(v);
      }
      NodeRange r = forwardDir ? g.succ(v) : g.pred(v);
      for (int w : r)
        if (fwd[w])
          reach(w, stamp);
    }
    return true;
  }

  /// The number of ops the step's new stage would hold.
  size_t content() const {
    size_t content = logStage.size();
    for (int p : pending)
      if (stageOf[p] < 0)
        ++content;
    return content;
  }

  /// Forward sweeps: the ops before and in the separator must be closed
  /// under predecessors, else a member would depend on a later stage.
  bool closedUnderPreds(int stamp) const {
    for (int p : pending)
      for (int u : g.pred(p))
        if (fwd[u] && !expanded[u] && !(reached[u] && curSep[u] == stamp))
          return false;
    return true;
  }

  /// Rolls back a rejected step.
  void rollback() {
    for (int v : logExp)
      expanded[v] = 0;
    for (int v : logStage)
      stageOf[v] = -1;
    for (int v : logReach)
      reached[v] = 0;
    pending = savedPending;
  }

  /// Keeps the step: the reached members form the next separator.
  void commit() {
    for (int p : pending)
      if (stageOf[p] < 0)
        stageOf[p] = stageIdx;
    std::vector<int> sep = pending;
    std::sort(sep.begin(), sep.end());
    res.seps.push_back(std::move(sep));
    ++stageIdx;
    started = true;
  }

  /// The last stage must not be empty: drop separators that close it off
  /// (their members then simply belong to the new last stage).
  void dropEmptyLastStages() {
    while (!res.seps.empty()) {
      bool any = false;
      for (int v = 0; v < n && !any; ++v)
        any = stageOf[v] == static_cast<int>(res.seps.size());
      if (any)
        break;
      res.seps.pop_back();
    }
  }

  /// The result, once the sweep is over.
  SweepResult take() {
    res.stageOf = std::move(stageOf);
    return std::move(res);
  }

private:
  /// Marks `v` reached: pending when it is in the candidate, else queued.
  void reach(int v, int stamp) {
    if (reached[v])
      return;
    reached[v] = 1;
    logReach.push_back(v);
    if (curSep[v] == stamp)
      pending.push_back(v);
    else
      queue.push_back(v);
  }

  const Graph &g;
  const std::vector<char> &fwd, &stop;
  bool forwardDir;
  int n;
  std::vector<char> reached, expanded;
  std::vector<int> stageOf, curSep;
  std::vector<int> pending, savedPending, queue;
  std::vector<int> logReach, logExp, logStage;
  SweepResult res;
  bool started = false;
  int stageIdx = 0;
};

/// One incremental breadth-first sweep over the forward ops, from `start`
/// (entries, or losses when !forwardDir), blocked in turn by each candidate.
/// R(S_j) -- the ops reachable from the start without passing S_j -- only
/// grows along a properly ordered chain, so each op is expanded once and the
/// whole sweep is linear when no candidate is rejected. A rejected candidate
/// (does not separate: a `stop` op got expanded; is not after the previous
/// one: a member was already expanded; or, with rejectEmpty, closes an empty
/// stage) is rolled back. The kept separator is the set of its members that
/// the sweep reached (the others have no predecessor on the start side and
/// are redundant).
SweepResult sweep(const Graph &g, const std::vector<char> &fwd,
                  const std::vector<int> &start, const std::vector<char> &stop,
                  const std::vector<std::vector<int>> &cands, bool forwardDir,
                  bool rejectEmpty) {
  Sweeper s(g, fwd, stop, forwardDir);
  int numCands = static_cast<int>(cands.size());
  for (int ci = 0; ci <= numCands; ++ci) {
    bool last = ci == numCands;
    int stamp = ci;
    if (!last && !s.mark(cands[ci], stamp))
      continue;
    s.begin(stamp, last);
    s.reachStart(start, stamp);
    bool ok = s.bfs(stamp, !last);
    if (last)
      break;
    size_t content = s.content();
    if (ok && forwardDir)
      ok = s.closedUnderPreds(stamp);
    if (!ok || (rejectEmpty && content == 0)) {
      s.rollback();
      continue;
    }
    s.commit();
  }
  if (rejectEmpty)
    s.dropEmptyLastStages();
  return s.take();
}

/// Places the floating ops (floating[v]) once the other forward ops have
/// their stages (stageOf) and the chain its separators (seps): latest first,
/// each in the stage of its earliest forward reader (the last stage when it
/// is a loss), and in every separator up to its last reader's stage.
void placeFloating(const Graph &g, const std::vector<char> &floating,
                   std::vector<std::vector<int>> &seps,
                   std::vector<int> &stageOf) {
  std::vector<int> topo;
  if (!g.topologicalOrder(topo))
    return;
  int m = static_cast<int>(seps.size());
  bool any = false;
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    int v = *it;
    if (!floating[v])
      continue;
    int first = m, last = 0;
    bool read = false;
    for (int w : g.succ(v)) {
      if (!g.isForwardOp(w))
        continue;
      first = read ? std::min(first, stageOf[w]) : stageOf[w];
      last = std::max(last, stageOf[w]);
      read = true;
    }
    if (!read) // a floating loss: read by stage m
      first = last = m;
    stageOf[v] = first;
    for (int k = first; k < last; ++k)
      seps[k].push_back(v);
    any |= first < last;
  }
  if (any)
    for (auto &sep : seps)
      std::sort(sep.begin(), sep.end());
}

SeparatorChain buildChain(const Graph &g, std::vector<std::vector<int>> seps,
                          std::vector<int> stageOf) {
  SeparatorChain c;
  c.entries = g.entryNodes();
  c.losses = g.lossNodes();
  int n = g.numNodes();
  c.stageOf = std::move(stageOf);
  c.stageOf.resize(n, -1);
  for (int v = 0; v < n; ++v)
    if (!g.isForwardOp(v))
      c.stageOf[v] = -1;
  bool anyOp = false;
  for (int v = 0; v < n; ++v)
    anyOp |= g.isForwardOp(v);
  if (!anyOp)
    return c;
  for (auto &s : seps) {
    Separator sep;
    sep.members = std::move(s);
    for (int v : sep.members)
      sep.bytes += g.node(v).bytes;
    c.separators.push_back(std::move(sep));
  }
  int m = static_cast<int>(c.separators.size());
  c.stages.resize(m + 1);
  for (int j = 0; j <= m; ++j) {
    Stage &st = c.stages[j];
    st.inputSeparator = j - 1;
    st.outputSeparator = j < m ? j : -1;
    st.inputBytes = j > 0 ? c.separators[j - 1].bytes : 0;
    st.outputBytes = j < m ? c.separators[j].bytes : 0;
  }
  for (int v = 0; v < n; ++v) {
    int s = c.stageOf[v];
    if (s < 0 || s > m)
      continue;
    Stage &st = c.stages[s];
    const Node &nd = g.node(v);
    st.nodes.push_back(v);
    st.cost += nd.cost;
    st.bytes += nd.bytes;
    bool readByBackward = false;
    for (int w : g.succ(v))
      readByBackward |= g.node(w).backward;
    if (readByBackward) {
      st.backwardReads.push_back(v);
      st.backwardReadBytes += nd.bytes;
    }
  }
  return c;
}

} // namespace

std::vector<int> anchorNodes(const Graph &g) {
  int n = g.numNodes();
  std::vector<int> topo, anchors;
  if (!g.topologicalOrder(topo))
    return g.entryNodes();
  // height[v]: forward ops on the longest forward path from v to a loss.
  std::vector<int> height(n, 0);
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    int v = *it;
    if (!g.isForwardOp(v))
      continue;
    int h = 0;
    for (int w : g.succ(v))
      if (g.isForwardOp(w))
        h = std::max(h, height[w]);
    height[v] = h + 1;
  }
  int best = 0;
  std::vector<int> entries = g.entryNodes();
  for (int e : entries)
    best = std::max(best, height[e]);
  for (int e : entries)
    if (height[e] == best)
      anchors.push_back(e);
  return anchors;
}

std::vector<char> floatingOps(const Graph &g) {
  int n = g.numNodes();
  std::vector<char> reached(n, 0), floating(n, 0);
  std::vector<int> queue = anchorNodes(g);
  for (int v : queue)
    reached[v] = 1;
  for (size_t i = 0; i < queue.size(); ++i)
    for (int w : g.succ(queue[i]))
      if (g.isForwardOp(w) && !reached[w]) {
        reached[w] = 1;
        queue.push_back(w);
      }
  for (int v = 0; v < n; ++v)
    floating[v] = g.isForwardOp(v) && !reached[v];
  return floating;
}

SeparatorChain chainFromCandidates(const Graph &g,
                                   const std::vector<std::vector<int>> &cands,
                                   bool minimizeSinkSide) {
  SeparatorOptions opts;
  opts.minimizeSinkSide = minimizeSinkSide;
  return chainFromCandidates(g, cands, opts);
}

SeparatorChain chainFromCandidates(const Graph &g,
                                   const std::vector<std::vector<int>> &candsIn,
                                   const SeparatorOptions &opts) {
  int n = g.numNodes();
  std::vector<char> fwd = forwardMask(g);
  // Floating ops take no part in the sweeps: the chain starts at the
  // anchors, and the floating ops are placed once the stages are known.
  std::vector<char> floating(n, 0);
  bool anyFloating = false;
  if (opts.floatSources) {
    floating = floatingOps(g);
    for (int v = 0; v < n; ++v)
      if (floating[v]) {
        fwd[v] = 0;
        anyFloating = true;
      }
  }
  std::vector<std::vector<int>> filtered;
  if (anyFloating)
    for (const auto &cand : candsIn) {
      std::vector<int> kept;
      for (int v : cand)
        if (v < 0 || v >= n || !floating[v])
          kept.push_back(v);
      if (!kept.empty())
        filtered.push_back(std::move(kept));
    }
  const std::vector<std::vector<int>> &cands = anyFloating ? filtered : candsIn;
  std::vector<int> entries, losses;
  for (int v : g.entryNodes())
    if (!floating[v])
      entries.push_back(v);
  for (int v : g.lossNodes())
    if (!floating[v])
      losses.push_back(v);
  std::vector<char> isEntry(n, 0), isLoss(n, 0);
  for (int v : entries)
    isEntry[v] = 1;
  for (int v : losses)
    isLoss[v] = 1;
  bool minimizeSinkSide = opts.minimizeSinkSide;
  SweepResult r = sweep(g, fwd, entries, isLoss, cands, true, true);
  if (minimizeSinkSide && !r.seps.empty()) {
    std::vector<std::vector<int>> rev(r.seps.rbegin(), r.seps.rend());
    SweepResult b = sweep(g, fwd, losses, isEntry, rev, false, false);
    std::vector<std::vector<int>> trimmed(b.seps.rbegin(), b.seps.rend());
    SweepResult r2 = sweep(g, fwd, entries, isLoss, trimmed, true, true);
    // Trimming a separator can break predecessor closure; keep the
    // untrimmed chain when that costs a separator.
    if (r2.seps.size() >= r.seps.size())
      r = std::move(r2);
  }
  if (anyFloating) {
    r.stageOf.resize(n, -1);
    placeFloating(g, floating, r.seps, r.stageOf);
  }
  SeparatorChain c = buildChain(g, std::move(r.seps), std::move(r.stageOf));
  for (int v = 0; v < n; ++v)
    if (floating[v])
      c.floating.push_back(v);
  c.candidates = static_cast<int>(candsIn.size());
  return c;
}

SeparatorChain separatorChain(const Graph &g, const SeparatorOptions &opts) {
  int n = g.numNodes();
  // With floating sources the decomposition sees only the ops reachable
  // from the anchors; s is adjacent to the anchors alone.
  std::vector<char> floating(n, 0);
  if (opts.floatSources)
    floating = floatingOps(g);
  std::vector<int> toU(n, -1), toG;
  for (int v = 0; v < n; ++v)
    if (g.isForwardOp(v) && !floating[v]) {
      toU[v] = static_cast<int>(toG.size());
      toG.push_back(v);
    }
  int k = static_cast<int>(toG.size());
  if (k == 0)
    return chainFromCandidates(g, {}, opts);
  int s = k, t = k + 1;
  std::vector<std::pair<int, int>> edges;
  for (int v = 0; v < n; ++v) {
    if (toU[v] < 0)
      continue;
    for (int w : g.succ(v))
      if (toU[w] >= 0)
        edges.emplace_back(toU[v], toU[w]);
  }
  for (int v : g.entryNodes())
    if (toU[v] >= 0)
      edges.emplace_back(s, toU[v]);
  for (int v : g.lossNodes())
    if (toU[v] >= 0)
      edges.emplace_back(toU[v], t);
  UGraph u(k + 2, edges);
  TreeDecomposition td = decompose(u, opts.heuristic);
  int nb = td.numBags();
  auto holds = [&](int b, int x) {
    return std::binary_search(td.bags[b].begin(), td.bags[b].end(), x);
  };
  int bs = -1, bt = -1;
  for (int b = 0; b < nb && (bs < 0 || bt < 0); ++b) {
    if (bs < 0 && holds(b, s))
      bs = b;
    if (bt < 0 && holds(b, t))
      bt = b;
  }
  // Tree path bs .. bt through their lowest common ancestor.
  std::vector<int> depth(nb, -1);
  auto depthOf = [&](int b) {
    std::vector<int> chain;
    while (b >= 0 && depth[b] < 0) {
      chain.push_back(b);
      b = td.parent[b];
    }
    int d = b >= 0 ? depth[b] : -1;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      depth[*it] = ++d;
  };
  depthOf(bs);
  depthOf(bt);
  std::vector<int> up, down;
  int a = bs, b = bt;
  while (a != b) {
    if (depth[a] >= depth[b]) {
      up.push_back(a);
      a = td.parent[a];
    } else {
      down.push_back(b);
      b = td.parent[b];
    }
  }
  up.push_back(a);
  up.insert(up.end(), down.rbegin(), down.rend());
  std::vector<std::vector<int>> cands;
  for (size_t i = 0; i + 1 < up.size(); ++i) {
    const auto &x = td.bags[up[i]], &y = td.bags[up[i + 1]];
    std::vector<int> inter;
    std::set_intersection(x.begin(), x.end(), y.begin(), y.end(),
                          std::back_inserter(inter));
    bool virt = false;
    for (int v : inter)
      virt |= v == s || v == t;
    if (virt || inter.empty())
      continue;
    for (int &v : inter)
      v = toG[v];
    std::sort(inter.begin(), inter.end());
    if (!cands.empty() && cands.back() == inter)
      continue;
    cands.push_back(std::move(inter));
  }
  SeparatorChain c = chainFromCandidates(g, cands, opts);
  c.width = td.width();
  return c;
}

SeparatorChain articulationChain(const Graph &g) {
  return articulationChain(g, SeparatorOptions());
}

SeparatorChain articulationChain(const Graph &g, const SeparatorOptions &opts) {
  int n = g.numNodes();
  std::vector<int> topo;
  if (!g.topologicalOrder(topo))
    return chainFromCandidates(g, {}, opts);
  std::vector<char> floating(n, 0);
  if (opts.floatSources)
    floating = floatingOps(g);
  auto inChain = [&](int v) { return g.isForwardOp(v) && !floating[v]; };
  // Dominators of the virtual sink in the forward DAG rooted at the virtual
  // source (Cooper, Harvey & Kennedy's intersection, processed in
  // topological order; the source is index n with position -1).
  std::vector<int> pos(n + 1, -1), idom(n + 1, -2);
  int src = n;
  int p = 0;
  for (int v : topo)
    if (inChain(v))
      pos[v] = p++;
  pos[src] = -1;
  idom[src] = src;
  auto intersect = [&](int x, int y) {
    while (x != y) {
      while (pos[x] > pos[y])
        x = idom[x];
      while (pos[y] > pos[x])
        y = idom[y];
    }
    return x;
  };
  for (int v : topo) {
    if (!inChain(v))
      continue;
    int d = -1;
    for (int u : g.pred(v)) {
      if (!inChain(u))
        continue;
      d = d < 0 ? u : intersect(d, u);
    }
    idom[v] = d < 0 ? src : d;
  }
  int d = -1;
  for (int l : g.lossNodes())
    if (inChain(l))
      d = d < 0 ? l : intersect(d, l);
  std::vector<std::vector<int>> cands;
  while (d >= 0 && d != src) {
    cands.push_back({d});
    d = idom[d];
  }
  std::reverse(cands.begin(), cands.end());
  return chainFromCandidates(g, cands, opts);
}

bool validateChain(const Graph &g, const SeparatorChain &c, std::string *why) {
  auto fail = [&](std::string msg) {
    if (why)
      *why = std::move(msg);
    return false;
  };
  int n = g.numNodes();
  int m = static_cast<int>(c.separators.size());
  if (static_cast<int>(c.stageOf.size()) != n)
    return fail("stageOf has the wrong size");
  bool anyOp = false;
  for (int v = 0; v < n; ++v)
    anyOp |= g.isForwardOp(v);
  if (!anyOp)
    return c.stages.empty() ? true : fail("stages without forward ops");
  if (static_cast<int>(c.stages.size()) != m + 1)
    return fail("expected separators + 1 stages");
  size_t total = 0;
  for (int j = 0; j <= m; ++j) {
    if (c.stages[j].nodes.empty())
      return fail("stage " + std::to_string(j) + " is empty");
    for (int v : c.stages[j].nodes)
      if (v < 0 || v >= n || c.stageOf[v] != j)
        return fail("stage " + std::to_string(j) +
                    " lists a node whose "
                    "stageOf differs");
    total += c.stages[j].nodes.size();
  }
  size_t ops = 0;
  for (int v = 0; v < n; ++v) {
    if (g.isForwardOp(v)) {
      ++ops;
      if (c.stageOf[v] < 0 || c.stageOf[v] > m)
        return fail("forward op '" + g.node(v).name + "' has no stage");
    } else if (c.stageOf[v] != -1) {
      return fail("node '" + g.node(v).name +
                  "' is not a forward op but "
                  "has a stage");
    }
  }
  if (ops != total)
    return fail("the stages do not partition the forward ops");
  // memberships per node, sorted by separator index.
  std::vector<std::vector<int>> memberOf(n);
  for (int j = 0; j < m; ++j) {
    if (c.separators[j].members.empty())
      return fail("separator " + std::to_string(j) + " is empty");
    for (int v : c.separators[j].members) {
      if (v < 0 || v >= n || !g.isForwardOp(v))
        return fail("separator " + std::to_string(j) +
                    " holds a node that is not a forward op");
      if (c.stageOf[v] > j)
        return fail("member '" + g.node(v).name + "' of separator " +
                    std::to_string(j) + " lies in a later stage");
      memberOf[v].push_back(j);
    }
  }
  // Floating ops (if any) read only step inputs and floating ops; every
  // other entry (an anchor) starts the chain.
  std::vector<char> floating(n, 0);
  for (int v : c.floating) {
    if (v < 0 || v >= n || !g.isForwardOp(v))
      return fail("a floating node is not a forward op");
    floating[v] = 1;
  }
  for (int v : c.floating)
    for (int u : g.pred(v))
      if (g.isForwardOp(u) && !floating[u])
        return fail("floating op '" + g.node(v).name + "' reads '" +
                    g.node(u).name + "', which is not floating");
  for (int v : g.entryNodes())
    if (!floating[v] && c.stageOf[v] != 0)
      return fail("entry '" + g.node(v).name + "' is not in stage 0");
  std::vector<char> isLoss(n, 0);
  for (int v : g.lossNodes())
    isLoss[v] = 1;
  for (int u = 0; u < n; ++u) {
    if (!g.isForwardOp(u))
      continue;
    int su = c.stageOf[u];
    int reach = isLoss[u] ? m : su;
    for (int w : g.succ(u)) {
      if (!g.isForwardOp(w))
        continue;
      if (c.stageOf[w] < su)
        return fail("edge '" + g.node(u).name + "' -> '" + g.node(w).name +
                    "' goes back to an earlier stage");
      reach = std::max(reach, c.stageOf[w]);
    }
    // u must be kept in every separator S_k, su <= k < reach.
    const auto &mo = memberOf[u];
    auto lo = std::lower_bound(mo.begin(), mo.end(), su);
    auto hi = std::lower_bound(mo.begin(), mo.end(), reach);
    if (hi - lo != reach - su)
      return fail("'" + g.node(u).name + "' (stage " + std::to_string(su) +
                  ") is read in stage " + std::to_string(reach) +
                  " but is missing from a separator in between");
  }
  return true;
}

bool separates(const Graph &g, const std::vector<int> &s,
               const std::vector<char> *floating) {
  int n = g.numNodes();
  auto floats = [&](int v) {
    return floating && v < static_cast<int>(floating->size()) && (*floating)[v];
  };
  std::vector<char> blocked(n, 0), seen(n, 0), isLoss(n, 0);
  for (int v : s)
    if (v >= 0 && v < n)
      blocked[v] = 1;
  for (int v : g.lossNodes())
    isLoss[v] = 1;
  std::vector<int> q;
  for (int e : g.entryNodes())
    if (!blocked[e] && !floats(e)) {
      seen[e] = 1;
      q.push_back(e);
    }
  for (size_t i = 0; i < q.size(); ++i) {
    int v = q[i];
    if (isLoss[v])
      return false;
    for (int w : g.succ(v))
      if (g.isForwardOp(w) && !blocked[w] && !seen[w]) {
        seen[w] = 1;
        q.push_back(w);
      }
  }
  return true;
}

} // namespace graph
} // namespace ckpt
