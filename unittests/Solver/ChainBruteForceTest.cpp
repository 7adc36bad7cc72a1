//===- ChainBruteForceTest.cpp - Chain DP against exhaustive search -------===//
//
// An oracle for the chain DP that shares nothing with Theorem 1's
// recurrence: a shortest-path search over every state the operations of
// Table 1 can reach on a short chain. A state is what is in memory (plain
// a^i, abar^i, the one delta held) plus, for each plain a^i, whether a
// forward has kept it as its input (F_ck^{i+1} or F_all^{i+1}), i.e. whether
// it is a checkpoint. An edge is one operation whose memory while it runs
// fits the limit; its weight is the operation's duration. The cheapest path
// from {a^0, delta^{L+1}} to a state holding delta^0 is the cheapest valid
// sequence at that limit, found without any assumption on its shape.
//
// Persistent schedules (the class Theorem 1 is optimal over): a checkpoint,
// once kept, stays in memory until the backward that consumes it. In the
// operations of Table 1 the only way to drop a plain a^{l-1} before B^l is
// F_none^l, so the persistent search forbids F_none^l on a kept a^{l-1};
// every other sequence the simulator accepts is allowed (any interleaving,
// any number of recomputations, abar^l kept across any span). The
// unrestricted search allows that F_none too.
//
// Checked on a few hundred random chains of 1 to 7 stages, at every limit
// from one below the least feasible one up to the store-all peak:
//  - the DP is feasible exactly where the persistent search finds a path,
//    and its least feasible limit is the search's least (a bottleneck
//    search, computed separately);
//  - the DP's makespan equals the cheapest persistent sequence's;
//  - no sequence, persistent or not, is cheaper than the DP by more than the
//    unrestricted search finds (sanity: the unrestricted optimum is a lower
//    bound of both);
//  - the search's own best sequence, replayed by simulate(), is valid, fits
//    the limit and has the makespan the search computed (so the search's
//    transition rules are the simulator's).
//
//===----------------------------------------------------------------------===//

#include "HandChains.h"

#include "ckpt/Solver/Chain/ChainDP.h"
#include "ckpt/Solver/Chain/ChainModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <unordered_map>
#include <vector>

using namespace ckpt::solver;

namespace {

/// Memory state of a chain of n = L+1 stages (n <= 7): for i = 0..n a 2-bit
/// field for a^i (0 absent, 1 plain, 2 plain and kept), for l = 1..n one bit
/// for abar^l, and the index of the delta held (n+1 when none: never
/// happens, exactly one delta is held at any time).
struct State {
  uint8_t a[8] = {};
  bool abar[8] = {};
  int delta = 0;

  uint32_t key() const {
    uint32_t k = 0;
    for (int i = 0; i < 8; ++i)
      k = k * 3 + a[i];
    for (int l = 0; l < 8; ++l)
      k = k * 2 + abar[l];
    return k * 9 + static_cast<uint32_t>(delta);
  }
};

int64_t held(const Chain &c, const State &s) {
  const int n = c.numStages();
  int64_t m = c.wdelta[s.delta];
  for (int i = 0; i <= n; ++i)
    if (s.a[i])
      m += c.wa[i];
  for (int l = 1; l <= n; ++l)
    if (s.abar[l])
      m += c.wabarAt(l);
  return m;
}

/// Applies `op` to `s`: false when its inputs are missing, its output is
/// already held, or (persistent) it is an F_none dropping a checkpoint.
/// `memory` is what is in use while it runs.
bool apply(const Chain &c, const State &s, const Op &op, bool persistent,
           State &out, int64_t &memory) {
  const int l = op.stage;
  out = s;
  if (op.kind == OpKind::Backward) {
    if (s.delta != l || !s.abar[l] || (!s.a[l - 1] && !s.abar[l - 1]))
      return false;
    memory = held(c, s) + c.obAt(l);
    out.abar[l] = false;
    out.a[l - 1] = 0;
    out.delta = l - 1;
    return true;
  }
  if (!s.a[l - 1] && !s.abar[l - 1])
    return false;
  // Outputs nothing will read: once delta^d is held, only B^d..B^1 remain,
  // and they read abar^{<=d} and a^{<d} (directly or through forwards).
  if (l > s.delta || (l == s.delta && op.kind != OpKind::FAll))
    return false;
  if (op.kind == OpKind::FAll ? s.abar[l] : s.a[l] != 0)
    return false;
  if (op.kind == OpKind::FNone && persistent && s.a[l - 1] == 2)
    return false;
  memory = held(c, s) + (op.kind == OpKind::FAll ? c.wabarAt(l) : c.wa[l]) +
           c.ofAt(l);
  if (op.kind == OpKind::FAll)
    out.abar[l] = true;
  else
    out.a[l] = 1;
  if (op.kind == OpKind::FNone)
    out.a[l - 1] = 0;
  else if (s.a[l - 1])
    out.a[l - 1] = 2;
  return true;
}

State initial(const Chain &c) {
  State s;
  s.a[0] = 1;
  s.delta = c.numStages();
  return s;
}

std::vector<Op> allOps(const Chain &c) {
  std::vector<Op> ops;
  for (int l = 1; l <= c.numStages(); ++l)
    for (OpKind k :
         {OpKind::FAll, OpKind::FCk, OpKind::FNone, OpKind::Backward})
      ops.push_back(Op{k, l});
  return ops;
}

struct Best {
  bool found = false;
  double makespan = 0;
  std::vector<Op> sequence;
};

/// The cheapest sequence whose every operation runs within `limit`.
Best cheapest(const Chain &c, int64_t limit, bool persistent) {
  Best best;
  const std::vector<Op> ops = allOps(c);
  State s0 = initial(c);
  if (held(c, s0) > limit)
    return best;
  struct Entry {
    double cost;
    uint32_t key;
    bool operator>(const Entry &o) const { return cost > o.cost; }
  };
  struct Node {
    double cost;
    State state;
    uint32_t parent;
    Op op;
  };
  std::unordered_map<uint32_t, Node> nodes;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  nodes[s0.key()] = Node{0, s0, s0.key(), Op{}};
  queue.push({0, s0.key()});
  while (!queue.empty()) {
    Entry e = queue.top();
    queue.pop();
    const Node node = nodes.at(e.key);
    if (e.cost > node.cost)
      continue;
    if (node.state.delta == 0) {
      best.found = true;
      best.makespan = node.cost;
      for (uint32_t k = e.key; k != s0.key(); k = nodes.at(k).parent)
        best.sequence.push_back(nodes.at(k).op);
      std::reverse(best.sequence.begin(), best.sequence.end());
      return best;
    }
    for (const Op &op : ops) {
      State next;
      int64_t memory;
      if (!apply(c, node.state, op, persistent, next, memory) || memory > limit)
        continue;
      const double cost =
          node.cost +
          (op.kind == OpKind::Backward ? c.ubAt(op.stage) : c.ufAt(op.stage));
      auto [it, inserted] =
          nodes.try_emplace(next.key(), Node{cost, next, e.key, op});
      if (!inserted) {
        if (cost >= it->second.cost)
          continue;
        it->second = Node{cost, next, e.key, op};
      }
      queue.push({cost, next.key()});
    }
  }
  return best;
}

/// The least limit under which some sequence exists: a bottleneck search
/// (minimise the largest memory of any operation on the path).
int64_t leastLimit(const Chain &c, bool persistent) {
  const std::vector<Op> ops = allOps(c);
  State s0 = initial(c);
  using Entry = std::pair<int64_t, uint32_t>;
  std::unordered_map<uint32_t, std::pair<int64_t, State>> nodes;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  nodes[s0.key()] = {held(c, s0), s0};
  queue.push({held(c, s0), s0.key()});
  while (!queue.empty()) {
    auto [peak, key] = queue.top();
    queue.pop();
    const auto node = nodes.at(key);
    if (peak > node.first)
      continue;
    if (node.second.delta == 0)
      return peak;
    for (const Op &op : ops) {
      State next;
      int64_t memory;
      if (!apply(c, node.second, op, persistent, next, memory))
        continue;
      const int64_t p = std::max(peak, memory);
      auto [it, inserted] = nodes.try_emplace(next.key(), p, next);
      if (!inserted) {
        if (p >= it->second.first)
          continue;
        it->second.first = p;
      }
      queue.push({p, next.key()});
    }
  }
  return -1;
}

/// A random chain with small integer sizes and durations (wabar >= wa).
/// With `gradientsLikeActivations` every delta^i has the size of a^i (the
/// model's usual case); otherwise delta^i is drawn on its own.
Chain randomChain(std::mt19937 &rng, int stages,
                  bool gradientsLikeActivations) {
  std::uniform_int_distribution<int64_t> size(0, 5), extra(0, 4), over(0, 1);
  std::uniform_int_distribution<int> time(0, 7);
  Chain c;
  for (int i = 0; i <= stages; ++i) {
    c.wa.push_back(size(rng));
    c.wdelta.push_back(gradientsLikeActivations ? c.wa.back() : size(rng));
  }
  for (int l = 1; l <= stages; ++l) {
    c.uf.push_back(time(rng));
    c.ub.push_back(time(rng));
    c.wabar.push_back(c.wa[l] + extra(rng));
    c.of.push_back(over(rng));
    c.ob.push_back(over(rng));
  }
  return c;
}

/// Whether B^l can never raise what is held: delta^{l-1} is no larger than
/// what B^l frees (delta^l, abar^l and a plain a^{l-1}), for every l.
bool backwardsNeverGrow(const Chain &c) {
  for (int l = 1; l <= c.numStages(); ++l)
    if (c.wdelta[l - 1] > c.wdelta[l] + c.wabarAt(l) + c.wa[l - 1])
      return false;
  return true;
}

struct Tally {
  int chains = 0, limits = 0, dpAbove = 0, nonPersistentCheaper = 0;
};

/// Compares the DP with the searches at every limit from one below the
/// least feasible one to the store-all peak. `mustEqual`: the DP's makespan
/// must be the persistent optimum; otherwise it must not be below it.
void compareAtEveryLimit(const Chain &c, bool mustEqual, bool unrestricted,
                         Tally &tally, const std::string &where) {
  ++tally.chains;
  const int stages = c.numStages();
  const int64_t least = leastLimit(c, true);
  ASSERT_GE(least, 0) << where;
  EXPECT_EQ(minFeasibleLimit(c), least) << where;
  std::vector<Op> storeAll;
  for (int l = 1; l <= stages; ++l)
    storeAll.push_back(Op{OpKind::FAll, l});
  for (int l = stages; l >= 1; --l)
    storeAll.push_back(Op{OpKind::Backward, l});
  const Simulation all = simulate(c, storeAll);
  ASSERT_TRUE(all.valid) << where;
  for (int64_t limit = std::max<int64_t>(least - 1, 0); limit <= all.peak;
       ++limit) {
    ++tally.limits;
    const std::string at = where + " limit " + std::to_string(limit);
    const Best p = cheapest(c, limit, true);
    const DPSolution dp = solveChainDP(c, limit);
    ASSERT_EQ(dp.error, "") << at;
    ASSERT_EQ(dp.feasible, p.found) << at;
    ASSERT_EQ(p.found, limit >= least) << at;
    if (!p.found)
      continue;
    std::vector<const Best *> found = {&p};
    if (mustEqual) {
      EXPECT_EQ(dp.makespan, p.makespan)
          << at << "\n  dp:     " << toString(dp.sequence)
          << "\n  search: " << toString(p.sequence);
    } else {
      EXPECT_GE(dp.makespan, p.makespan) << at;
      tally.dpAbove += dp.makespan > p.makespan;
    }
    Best any;
    if (unrestricted) {
      any = cheapest(c, limit, false);
      ASSERT_TRUE(any.found) << at;
      EXPECT_LE(any.makespan, p.makespan) << at;
      tally.nonPersistentCheaper += any.makespan < p.makespan;
      found.push_back(&any);
    }
    for (const Best *b : found) {
      Simulation sim = simulate(c, b->sequence);
      ASSERT_TRUE(sim.valid) << at << ": " << sim.error;
      EXPECT_LE(sim.peak, limit) << at;
      EXPECT_EQ(sim.makespan, b->makespan) << at;
    }
  }
}

} // namespace

// The search on the chain of docs/SOLVER.md, computed there by hand:
// store-all needs 12 (makespan 11, every duration once); the least feasible
// limit is 10, where the cheapest persistent sequence recomputes F^1 once
// (Fck1 Fall2 Fall3 B3 B2 Fall1 B1, makespan 12); 9 is infeasible.
TEST(ChainBruteForce, HandChain) {
  const Chain c = chain2();
  ASSERT_EQ(c.validate(), "");
  Best all = cheapest(c, 12, true);
  ASSERT_TRUE(all.found);
  EXPECT_EQ(all.makespan, 11);
  EXPECT_EQ(leastLimit(c, true), 10);
  EXPECT_FALSE(cheapest(c, 9, true).found);
  Best least = cheapest(c, 10, true);
  ASSERT_TRUE(least.found);
  EXPECT_EQ(least.makespan, 12);
  Simulation sim = simulate(c, least.sequence);
  EXPECT_TRUE(sim.valid) << sim.error;
  EXPECT_LE(sim.peak, 10);
  EXPECT_EQ(sim.makespan, 12);
}

// Gradients the size of their activations: the DP is the persistent
// optimum at every limit.
TEST(ChainBruteForce, DPEqualsCheapestPersistentSequence) {
  std::mt19937 rng(20261123);
  Tally tally;
  for (int iter = 0; iter < 300 && !HasFailure(); ++iter) {
    const int stages = 1 + iter % 7;
    Chain c = randomChain(rng, stages, true);
    ASSERT_EQ(c.validate(), "");
    compareAtEveryLimit(c, true, stages <= 6, tally,
                        "iter " + std::to_string(iter));
  }
  EXPECT_EQ(tally.chains, 300);
  EXPECT_GT(tally.limits, 3000);
  RecordProperty("limits", tally.limits);
  RecordProperty("nonPersistentCheaper", tally.nonPersistentCheaper);
}

// Gradients of any size. Where no backward grows what is held, the DP is
// still the persistent optimum; elsewhere it is never below it, and can be
// above: C2 runs B^l right after the sub-chain above l, while a persistent
// sequence may recompute earlier stages first, while the smaller delta^l is
// held instead of delta^{l-1}.
TEST(ChainBruteForce, DPAgainstPersistentSequencesAnyGradientSize) {
  std::mt19937 rng(7);
  Tally tally;
  int growing = 0;
  for (int iter = 0; iter < 300 && !HasFailure(); ++iter) {
    const int stages = 1 + iter % 7;
    Chain c = randomChain(rng, stages, false);
    ASSERT_EQ(c.validate(), "");
    const bool exact = backwardsNeverGrow(c);
    growing += !exact;
    compareAtEveryLimit(c, exact, false, tally, "iter " + std::to_string(iter));
  }
  EXPECT_GT(growing, 10);
  RecordProperty("growing", growing);
  EXPECT_GT(tally.dpAbove, 0);
  RecordProperty("dpAbove", tally.dpAbove);
}

// The smallest case found by the search above, by hand. Stage 4's gradient
// delta^3 (5) is larger than what B^4 frees (delta^4 1, abar^4 1, a^3 0).
// At limit 15 the DP keeps a^3, runs F_none^4 and recomputes abar^4 after
// B^5 (makespan 75); the persistent sequence keeps abar^4 from the first
// pass and recomputes abar^3 before B^4, while delta^4 (1) is held instead
// of delta^3 (5): makespan 69, peak 15.
TEST(ChainBruteForce, RecomputingBeforeAGrowingBackwardPays) {
  Chain c;
  c.wa = {1, 4, 5, 0, 1, 4};
  c.wdelta = {1, 2, 0, 5, 1, 4};
  c.uf = {3, 7, 5, 6, 7};
  c.ub = {2, 2, 3, 5, 1};
  c.wabar = {8, 6, 1, 1, 7};
  c.of = {1, 1, 0, 0, 1};
  c.ob = {1, 0, 1, 1, 1};
  ASSERT_EQ(c.validate(), "");
  EXPECT_FALSE(backwardsNeverGrow(c));
  DPSolution dp = solveChainDP(c, 15);
  ASSERT_TRUE(dp.feasible);
  EXPECT_EQ(dp.makespan, 75);
  std::vector<Op> better;
  for (const char *name :
       {"Fck1", "Fn2", "Fn3", "Fall4", "Fall5", "B5", "Fck1", "Fn2", "Fall3",
        "B4", "B3", "Fck1", "Fall2", "B2", "Fall1", "B1"}) {
    Op op;
    ASSERT_TRUE(parseOp(name, op));
    better.push_back(op);
  }
  Simulation sim = simulate(c, better);
  ASSERT_TRUE(sim.valid) << sim.error;
  EXPECT_EQ(sim.peak, 15);
  EXPECT_EQ(sim.makespan, 69);
  EXPECT_EQ(cheapest(c, 15, true).makespan, 69);
}
