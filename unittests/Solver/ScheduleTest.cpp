//===- ScheduleTest.cpp - schedules, their memory, and the planners -------===//
//
// The memory model on hand-worked schedules and against its definition on
// random moves, the greedy and local search, the chain expansion, and the
// ILP against an exhaustive search (of the program's own schedules, on random
// problems too).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/Schedule.h"
#include "ckpt/Solver/Graph/Graph.h"
#include "ckpt/Solver/Schedule/Ilp.h"
#include "ckpt/Solver/Schedule/LowerBound.h"
#include "ckpt/Solver/Schedule/MemorySimulator.h"
#include "ckpt/Solver/Schedule/Planner.h"
#include "ckpt/Solver/Schedule/ProblemChain.h"
#include "ckpt/Solver/Schedule/Remat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>

using namespace ckpt;
using namespace ckpt::sched;

namespace {

/// A training chain in the standard model: forward ops f1..fn (each
/// reading the previous one; f1 reads the input), a loss reading fn, and
/// backward ops bn..b1 (bi reads the previous gradient, fi and f(i-1)), like
/// the Checkmate graphs. `bytes[i]` is fi's size, gradients as large as the
/// value they are the gradient of; the last gradient is returned.
Problem trainingChain(const std::vector<int64_t> &bytes,
                      const std::vector<double> &costs) {
  Problem p;
  int x = p.addInput();
  const int n = static_cast<int>(bytes.size());
  std::vector<int> f(n);
  int prev = x;
  for (int i = 0; i < n; ++i) {
    Op op;
    op.name = "f" + std::to_string(i + 1);
    op.cost = costs[i];
    op.reads = {prev};
    int id = p.addOp(op);
    f[i] = p.addResult(id, bytes[i]);
    prev = f[i];
  }
  Op loss;
  loss.name = "loss";
  loss.cost = 1;
  loss.reads = {prev};
  int lossOp = p.addOp(loss);
  int grad = p.addResult(lossOp, 16);
  for (int i = n - 1; i >= 0; --i) {
    Op op;
    op.name = "b" + std::to_string(i + 1);
    op.cost = 2 * costs[i];
    op.backward = true;
    op.reads = {grad, f[i]};
    if (i > 0)
      op.reads.push_back(f[i - 1]);
    int id = p.addOp(op);
    grad = p.addResult(id, i > 0 ? bytes[i - 1] : 16);
  }
  p.values[grad].returned = true;
  p.values[p.ops[lossOp].results[0]].returned = true;
  return p;
}

TEST(Schedule, IdentityOfAChainByHand) {
  // f1 f2 f3 (10, 20, 30 B), loss (16), b3 (reads g, f3, f2; 20 B),
  // b2 (reads g3, f2, f1; 10 B), b1 (reads g2, f1; 16 B, returned).
  Problem p = trainingChain({10, 20, 30}, {1, 1, 1});
  ASSERT_EQ(p.validate(), "");
  EvalOptions options;
  options.live = true;
  Evaluation e = evaluate(p, identitySchedule(p), options);
  ASSERT_TRUE(e.valid) << e.error;
  // Live while each op runs: f1 10, f2 30, f3 60, loss 76, b3 96 (f3 dies),
  // b2 10 + 20 + 16 + 20 + 10 = 76, b1 10 + 16 + 10 + 16 = 52.
  EXPECT_EQ(e.live, (std::vector<int64_t>{10, 30, 60, 76, 96, 76, 52}));
  EXPECT_EQ(e.peak, 96);
  EXPECT_EQ(e.peakIndex, 4u);
  EXPECT_DOUBLE_EQ(e.cost, 3 + 1 + 6);
}

TEST(Schedule, RecomputationMakesAVersion) {
  Problem p = trainingChain({10, 20, 30}, {1, 1, 1});
  // Run f1 again before b2: the first f1 dies at f2 (its last reader), the
  // second lives from its run to b1.
  Schedule s = {0, 1, 2, 3, 4, 0, 5, 6};
  EvalOptions options;
  options.live = true;
  Evaluation e = evaluate(p, s, options);
  ASSERT_TRUE(e.valid) << e.error;
  // f1 10, f2 30 -> f1 dies, f3 50, loss 66, b3 86, f1' 20+16+20+10 = 66,
  // b2 66 + 10 = 76, b1 10 + 16 + 10 + 16 = 52.
  EXPECT_EQ(e.live, (std::vector<int64_t>{10, 30, 50, 66, 86, 66, 76, 52}));
  EXPECT_EQ(e.peak, 86);
  EXPECT_DOUBLE_EQ(e.cost, 11);
}

TEST(Schedule, InvalidSchedulesNameTheirFault) {
  Problem p = trainingChain({10, 20}, {1, 1});
  Evaluation e = evaluate(p, {0, 1, 2, 3});
  EXPECT_FALSE(e.valid);
  EXPECT_NE(e.error.find("op 4 ('b1') never runs"), std::string::npos)
      << e.error;
  e = evaluate(p, {1, 0, 2, 3, 4});
  EXPECT_FALSE(e.valid);
  EXPECT_NE(e.error.find("before it is computed"), std::string::npos)
      << e.error;
  e = evaluate(p, {0, 1, 2, 3, 4, 9});
  EXPECT_FALSE(e.valid);
  EXPECT_NE(e.error.find("which does not exist"), std::string::npos) << e.error;
  p.ops[0].recomputable = false;
  e = evaluate(p, {0, 1, 2, 3, 0, 4});
  EXPECT_FALSE(e.valid);
  EXPECT_NE(e.error.find("cannot be recomputed"), std::string::npos) << e.error;
}

TEST(Schedule, ViewsAndInPlaceShareBuffers) {
  Problem p;
  int x = p.addInput();
  auto op = [&](const char *name, std::vector<int> reads) {
    Op o;
    o.name = name;
    o.reads = std::move(reads);
    return p.addOp(o);
  };
  int a = p.addResult(op("a", {x}), 64);
  int v = p.addResult(op("view", {a}), 64, BufferRule::View, a);
  int e = p.addResult(op("empty", {}), 32);
  int w = p.addResult(op("write", {v, e}), 32, BufferRule::InPlace, e);
  int u = p.addResult(op("use", {v, w}), 16);
  p.values[u].returned = true;
  ASSERT_EQ(p.validate(), "");
  EvalOptions options;
  options.live = true;
  options.buffers = true;
  Evaluation r = evaluate(p, identitySchedule(p), options);
  ASSERT_TRUE(r.valid) << r.error;
  // a 64; the view shares it; empty 32; write takes empty's buffer (it dies
  // there); use reads the view (so a's buffer) and write: 64 + 32 + 16.
  EXPECT_EQ(r.live, (std::vector<int64_t>{64, 64, 96, 96, 112}));
  ASSERT_EQ(r.buffers.size(), 3u);
  EXPECT_EQ(r.buffers[0].versions.size(), 2u); // a and its view
  EXPECT_EQ(r.buffers[0].lastUse, 4u);
  EXPECT_EQ(r.buffers[1].versions.size(), 2u); // empty, then write
  // When the init is read later, the write gets a buffer of its own.
  Op late;
  late.name = "late";
  late.reads = {e};
  p.values[p.addResult(p.addOp(late), 8)].returned = true;
  r = evaluate(p, identitySchedule(p), options);
  ASSERT_TRUE(r.valid) << r.error;
  EXPECT_EQ(r.buffers.size(), 5u);
}

TEST(Schedule, PruneDropsWhatNobodyReads) {
  Problem p = trainingChain({10, 20, 30}, {1, 1, 1});
  // f1 f2 run again before b3, which reads f2: f1' is read by f2', kept; a
  // third f1 before b1 is read by b1 (kept); f3 again at the end: dropped.
  Schedule s = {0, 1, 2, 3, 0, 1, 4, 5, 0, 6, 2};
  Schedule pruned = prune(p, s);
  EXPECT_EQ(pruned, (Schedule{0, 1, 2, 3, 0, 1, 4, 5, 0, 6}));
  // Chains of useless recomputations go too, innermost last.
  EXPECT_EQ(prune(p, {0, 1, 2, 3, 4, 5, 6, 0, 1}), identitySchedule(p));
}

TEST(Schedule, KeepSetRecomputesOnceBeforeTheFirstBackwardRead) {
  // Ops: f1 f2 f3 (0..2), loss (3), b3 (4: reads f3, f2), b2 (5: f2, f1),
  // b1 (6: f1). Values: f1 1, f2 2, f3 3.
  Problem p = trainingChain({10, 20, 30}, {1, 1, 1});
  auto keep = [&](std::vector<int> values) {
    std::vector<char> k(p.numValues(), 0);
    for (int v : values)
      k[v] = 1;
    return k;
  };
  // Everything kept: the step as written.
  EXPECT_EQ(keepSetSchedule(p, keep({1, 2, 3})), identitySchedule(p));
  // f2 kept: f3 again before b3 (from the kept f2), f1 again before b2; b1
  // reads the f1 recomputed for b2.
  EXPECT_EQ(keepSetSchedule(p, keep({2})),
            (Schedule{0, 1, 2, 3, 2, 4, 0, 5, 6}));
  // Nothing kept: f3 needs f2 needs f1, inputs first; each runs once more.
  Schedule none = keepSetSchedule(p, keep({}));
  EXPECT_EQ(none, (Schedule{0, 1, 2, 3, 0, 1, 2, 4, 5, 6}));
  EXPECT_TRUE(evaluate(p, none).valid);
  // An op that cannot run again is kept whatever the set says.
  p.ops[0].recomputable = false;
  EXPECT_EQ(keepSetSchedule(p, keep({})),
            (Schedule{0, 1, 2, 3, 1, 2, 4, 5, 6}));
}

TEST(Schedule, ProblemFromGraphKeepsTheFileOrder) {
  graph::Graph g;
  int in = g.addNode("in", false, 0, 100, /*input=*/true);
  int a = g.addNode("a", false, 1, 10);
  int b = g.addNode("b", false, 2, 20);
  int c = g.addNode("c", true, 3, 30);
  g.addEdge(in, a);
  g.addEdge(a, b);
  g.addEdge(a, c);
  g.addEdge(b, c);
  g.finalize();
  std::vector<int> opNode;
  Problem p = problemFromGraph(g, &opNode);
  ASSERT_EQ(p.validate(), "");
  EXPECT_EQ(p.numOps(), 3);
  EXPECT_EQ(opNode, (std::vector<int>{a, b, c}));
  EXPECT_TRUE(p.ops[2].backward);
  EXPECT_TRUE(p.values[p.ops[2].results[0]].returned);
  EXPECT_FALSE(p.values[p.ops[0].results[0]].returned);
  // The input is outside the budget: a 10, b 30, c 60.
  EXPECT_EQ(evaluate(p, identitySchedule(p)).peak, 60);
}

/// Every schedule of the ILP's form on a small problem in which only the
/// forward ops may run again, recomputing only in the backward: stage t runs
/// op t after any subset of the forward ops (in op order). The least cost
/// within the budget, or infinity.
double exhaustiveOptimum(const Problem &p, int64_t budget) {
  const int n = p.numOps();
  std::vector<int> forward;
  int firstBackward = n;
  for (int i = 0; i < n; ++i) {
    if (!p.ops[i].backward)
      forward.push_back(i);
    else
      firstBackward = std::min(firstBackward, i);
  }
  double best = std::numeric_limits<double>::infinity();
  Schedule s = identitySchedule(p);
  s.resize(firstBackward);
  std::function<void(int)> stage = [&](int t) {
    if (t == n) {
      Evaluation e = evaluate(p, s);
      if (e.valid && e.peak <= budget)
        best = std::min(best, e.cost);
      return;
    }
    for (uint32_t mask = 0; mask < (1u << forward.size()); ++mask) {
      size_t mark = s.size();
      for (size_t i = 0; i < forward.size(); ++i)
        if (mask & (1u << i))
          s.push_back(forward[i]);
      s.push_back(t);
      stage(t + 1);
      s.resize(mark);
    }
  };
  stage(firstBackward);
  return best;
}

TEST(Planner, IlpMatchesExhaustiveSearch) {
  if (!ilpAvailable())
    GTEST_SKIP() << "built without CBC";
  // f1..f4 (8, 64, 8, 64 B; costs 1, 4, 1, 2), the loss, b4..b1; backward
  // ops run once (so the exhaustive search covers the ILP's space but for
  // forward-stage recomputations, which cannot help here).
  Problem p = trainingChain({8, 64, 8, 64}, {1, 4, 1, 2});
  for (Op &op : p.ops)
    if (op.backward)
      op.recomputable = false;
  int64_t storeAll = evaluate(p, identitySchedule(p)).peak;
  int feasibleBudgets = 0;
  for (int64_t budget = storeAll; budget > 0; budget -= 8) {
    double exhaustive = exhaustiveOptimum(p, budget);
    IlpOptions options;
    options.timeLimit = 120;
    IlpResult ilp = solveIlp(p, budget, options);
    ASSERT_EQ(ilp.error, "") << budget;
    if (exhaustive == std::numeric_limits<double>::infinity()) {
      EXPECT_EQ(ilp.status, IlpResult::Status::Infeasible) << budget;
      break;
    }
    ++feasibleBudgets;
    ASSERT_EQ(ilp.status, IlpResult::Status::Optimal) << budget;
    EXPECT_DOUBLE_EQ(ilp.cost, exhaustive) << budget;
    EXPECT_DOUBLE_EQ(ilp.lowerBound, exhaustive) << budget;
    Evaluation e = evaluate(p, ilp.schedule);
    EXPECT_TRUE(e.valid) << e.error;
    EXPECT_LE(e.peak, budget);
    EXPECT_DOUBLE_EQ(e.cost, ilp.cost);
    // optimal: within the budget, within 1% of the optimum here.
    PlanOptions plan;
    plan.budget = budget;
    plan.slots = 0;
    PlanResult ours = planSchedule(p, plan);
    ASSERT_EQ(ours.error, "");
    ASSERT_TRUE(ours.feasible) << budget;
    EXPECT_LE(ours.peak, budget);
    EXPECT_LE(ours.time, exhaustive * 1.01) << budget;
  }
  EXPECT_GE(feasibleBudgets, 3); // the test covers recomputation
}

TEST(Planner, GreedyFitsAndDropKeepsTheBudget) {
  Problem p = trainingChain({64, 48, 32, 64, 16}, {4, 2, 1, 3, 1});
  int64_t storeAll = evaluate(p, identitySchedule(p)).peak;
  for (int64_t budget = storeAll; budget > storeAll / 3; budget -= 8) {
    Schedule s = fitBudget(p, identitySchedule(p), budget);
    Evaluation e = evaluate(p, s);
    ASSERT_TRUE(e.valid) << e.error;
    if (e.peak > budget)
      continue; // the greedy's limit; leastPeak covers lower budgets
    Schedule d = dropRecomputations(p, s, budget);
    Evaluation ed = evaluate(p, d);
    ASSERT_TRUE(ed.valid) << ed.error;
    EXPECT_LE(ed.peak, budget);
    EXPECT_LE(ed.cost, e.cost);
    Schedule i = improve(p, d, budget);
    Evaluation ei = evaluate(p, i);
    ASSERT_TRUE(ei.valid) << ei.error;
    EXPECT_LE(ei.peak, budget);
    EXPECT_LE(ei.cost, ed.cost);
  }
}

TEST(Planner, GreedyCountsOnlyTheBytesMissing) {
  // f1..f4 (64, 16, 56, 32 B; costs 9, 4, 8, 6), the loss (16 B, cost 1),
  // b4..b1 (twice the forward costs): 82 in all. Store-all peak 240 B, at b4
  // (f1 64 + f2 16 + f3 56 + f4 32 + loss 16 + its output 56). At 232 B the
  // peak is 8 B over. Live across b4 and not read there: f1 (next read b2)
  // and f2 (next read b3). Recomputing f1 before b2 costs 9 for 64 B, f2
  // before b3 costs 4 for 16 B (b3 then holds f1, f3, the loss, g4, f2 and
  // its output: 224 B). Per byte f1 is cheaper (0.14 against 0.25), but
  // either saves the 8 B missing, and f2 costs less: 86 in all, the
  // optimum. Counting every byte, the greedy takes f1: 91.
  Problem p = trainingChain({64, 16, 56, 32}, {9, 4, 8, 6});
  ASSERT_EQ(evaluate(p, identitySchedule(p)).peak, 240);
  ASSERT_EQ(evaluate(p, identitySchedule(p)).cost, 82);
  const int64_t budget = 232;
  EXPECT_EQ(exhaustiveOptimum(p, budget), 86);
  Evaluation capped = evaluate(p, fitBudget(p, identitySchedule(p), budget));
  ASSERT_TRUE(capped.valid) << capped.error;
  EXPECT_EQ(capped.peak, 224);
  EXPECT_EQ(capped.cost, 86);
  SearchOptions everyByte;
  everyByte.capExcess = false;
  Evaluation uncapped =
      evaluate(p, fitBudget(p, identitySchedule(p), budget, everyByte));
  ASSERT_TRUE(uncapped.valid) << uncapped.error;
  EXPECT_EQ(uncapped.peak, 176);
  EXPECT_EQ(uncapped.cost, 91);
  // improve refits with both: from the uncapped fit it reaches 86 too.
  Schedule improved =
      improve(p, fitBudget(p, identitySchedule(p), budget, everyByte), budget);
  EXPECT_EQ(evaluate(p, improved).cost, 86);
}

TEST(Planner, LeastFeasibleBudgetIsConsistent) {
  // Planning at the least feasible budget an infeasible plan names succeeds.
  Problem p = trainingChain({64, 48, 32, 64, 16}, {4, 2, 1, 3, 1});
  PlanOptions options;
  options.budget = 1;
  PlanResult r = planSchedule(p, options);
  ASSERT_EQ(r.error, "");
  ASSERT_FALSE(r.feasible);
  ASSERT_TRUE(r.leastPeak);
  options.budget = *r.leastPeak;
  PlanResult at = planSchedule(p, options);
  ASSERT_TRUE(at.feasible);
  EXPECT_LE(at.peak, *r.leastPeak);
}

/// A random layered training DAG (like MOCCASIN's): forward op i reads op
/// i-1 and up to two of the five before it; each backward op reads its
/// consumers' gradients, its inputs and its own value. Sizes and costs come
/// from std::mt19937's raw output (specified by the standard).
Problem randomLayered(int n, unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](uint32_t k) { return static_cast<int>(rng() % k); };
  const int64_t sizes[] = {4, 8, 8, 16, 16, 32, 48, 64};
  Problem p;
  int x = p.addInput();
  std::vector<std::vector<int>> preds(n);
  std::vector<std::vector<int>> consumers(n);
  std::vector<int> value(n);
  for (int i = 0; i < n; ++i) {
    std::vector<int> in;
    if (i > 0) {
      in.push_back(i - 1);
      for (int j = pick(3); j > 0; --j)
        in.push_back(std::max(0, i - 1 - pick(5)));
      std::sort(in.begin(), in.end());
      in.erase(std::unique(in.begin(), in.end()), in.end());
    }
    preds[i] = in;
    Op op;
    op.name = "r" + std::to_string(i);
    op.cost = 1 + pick(20);
    op.reads = {};
    if (in.empty())
      op.reads.push_back(x);
    for (int u : in) {
      op.reads.push_back(value[u]);
      consumers[u].push_back(i);
    }
    value[i] = p.addResult(p.addOp(op), 1024 * sizes[pick(8)]);
  }
  std::vector<int> grad(n, -1);
  for (int i = n - 1; i >= 0; --i) {
    Op op;
    op.name = "grad_r" + std::to_string(i);
    op.cost = 1 + pick(40);
    op.backward = true;
    for (int c : consumers[i])
      op.reads.push_back(grad[c]);
    for (int u : preds[i])
      op.reads.push_back(value[u]);
    op.reads.push_back(value[i]);
    grad[i] = p.addResult(p.addOp(op), p.values[value[i]].bytes);
  }
  p.values[grad[0]].returned = true;
  return p;
}

TEST(Planner, SeededGreedyIsDeterministicAndLowerPeakOnlyLowers) {
  int lowered = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    Problem p = randomLayered(24, seed);
    ASSERT_EQ(p.validate(), "");
    SearchOptions seeded;
    seeded.seed = seed;
    Schedule a = fitBudget(p, identitySchedule(p), 0, seeded);
    Schedule b = fitBudget(p, identitySchedule(p), 0, seeded);
    EXPECT_EQ(a, b) << seed;
    EXPECT_TRUE(evaluate(p, a).valid) << seed;
    Schedule start = leastPeak(p, identitySchedule(p));
    Evaluation before = evaluate(p, start);
    ASSERT_TRUE(before.valid) << before.error;
    SearchOptions options;
    options.rounds = 32;
    Evaluation after = evaluate(p, lowerPeak(p, start, options));
    ASSERT_TRUE(after.valid) << after.error;
    EXPECT_LE(after.peak, before.peak) << seed;
    lowered += after.peak < before.peak;
    // The least feasible budget is no higher than the plain greedy's.
    PlanOptions plan;
    plan.budget = 1;
    PlanResult r = planSchedule(p, plan);
    ASSERT_TRUE(r.leastPeak) << seed;
    EXPECT_LE(*r.leastPeak, before.peak) << seed;
  }
  EXPECT_GT(lowered, 0); // the search has cases where it matters
}

/// randomLayered with some results sharing a buffer: a View or an InPlace
/// result of the first value the op reads, when an op produced it.
Problem randomLayeredWithViews(int n, unsigned seed) {
  Problem p = randomLayered(n, seed);
  std::mt19937 rng(seed * 7919u + 1);
  for (Op &op : p.ops) {
    if (op.reads.empty() || p.values[op.reads[0]].producer < 0)
      continue;
    Value &result = p.values[op.results[0]];
    switch (rng() % 4) {
    case 0:
      result.rule = BufferRule::View;
      result.source = op.reads[0];
      break;
    case 1:
      result.rule = BufferRule::InPlace;
      result.source = op.reads[0];
      break;
    default:
      break;
    }
  }
  return p;
}

/// A random valid schedule: the problem's order with `extra` recomputations
/// inserted at random positions after each recomputed op's first execution
/// (its inputs then have versions).
Schedule randomSchedule(const Problem &p, int extra, std::mt19937 &rng) {
  Schedule s = identitySchedule(p);
  for (int k = 0; k < extra; ++k) {
    int op = static_cast<int>(rng() % p.numOps());
    if (!p.ops[op].recomputable)
      continue;
    size_t first = std::find(s.begin(), s.end(), op) - s.begin();
    size_t at = first + 1 + rng() % (s.size() - first);
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), op);
  }
  return s;
}

/// prune from its definition (Schedule.h), the slow way: while some
/// execution after its op's first, of an op that may be recomputed, defines
/// only versions nobody reads (a read of a value up to its next definition,
/// or the end for a returned value), remove it.
Schedule referencePrune(const Problem &p, Schedule s) {
  auto readBefore = [&](int value, size_t from) {
    for (size_t e = from; e < s.size(); ++e) {
      const Op &op = p.ops[s[e]];
      if (std::count(op.reads.begin(), op.reads.end(), value))
        return true;
      if (std::count(op.results.begin(), op.results.end(), value))
        return false; // redefined first
    }
    return p.values[value].returned;
  };
  for (bool removed = true; removed;) {
    removed = false;
    for (size_t e = 0; e < s.size() && !removed; ++e) {
      const Op &op = p.ops[s[e]];
      if (!op.recomputable ||
          std::find(s.begin(), s.end(), s[e]) == s.begin() + e)
        continue; // a first execution, or one that cannot be recomputed
      bool needed = false;
      for (int r : op.results)
        needed = needed || readBefore(r, e + 1);
      if (!needed) {
        s.erase(s.begin() + e);
        removed = true;
      }
    }
  }
  return s;
}

/// The memory model written out from its definition (Schedule.h), the slow
/// way and independently of MemorySimulator: every version is looked up by
/// scanning back, every buffer's bytes are added at every execution it is
/// live. Returns false when a read finds no version.
struct Reference {
  bool valid = false;
  double cost = 0;
  int64_t peak = 0;
  size_t peakIndex = 0;
  std::vector<int64_t> live;
};

Reference referenceModel(const Problem &p, const Schedule &s) {
  Reference out;
  const size_t end = s.size();
  struct Version {
    int value;
    size_t exec, last;
    int buffer = -1;
  };
  std::vector<Version> versions;
  // The version of `value` the execution `e` sees: the latest defined
  // before e (scan back over every version).
  auto seen = [&](int value, size_t e) {
    int found = -1;
    for (size_t y = 0; y < versions.size(); ++y)
      if (versions[y].value == value && versions[y].exec < e)
        found = static_cast<int>(y);
    return found;
  };
  for (size_t e = 0; e < end; ++e) {
    const Op &op = p.ops[s[e]];
    for (int r : op.reads) {
      if (p.values[r].producer < 0)
        continue;
      int y = seen(r, e);
      if (y < 0)
        return out;
      versions[y].last = e;
    }
    for (int r : op.results)
      versions.push_back({r, e, e});
    out.cost += op.cost;
  }
  for (int v = 0; v < p.numValues(); ++v) {
    int y = seen(v, end);
    if (p.values[v].returned && y >= 0)
      versions[y].last = end;
  }
  out.valid = true;
  struct Buf {
    int64_t bytes;
    size_t def, last;
  };
  std::vector<Buf> buffers;
  for (Version &version : versions) {
    const Value &value = p.values[version.value];
    int shared = -1;
    if (value.rule != BufferRule::Fresh && value.source >= 0) {
      int y = seen(value.source, version.exec);
      shared = y >= 0 ? versions[y].buffer : -1;
    }
    if (value.rule == BufferRule::View && shared < 0)
      continue;
    if (value.rule == BufferRule::View ||
        (value.rule == BufferRule::InPlace && shared >= 0 &&
         buffers[shared].last <= version.exec)) {
      version.buffer = shared;
      buffers[shared].last = std::max(buffers[shared].last, version.last);
      continue;
    }
    if (value.bytes == 0)
      continue;
    version.buffer = static_cast<int>(buffers.size());
    buffers.push_back({value.bytes, version.exec, version.last});
  }
  out.live.assign(end, 0);
  for (size_t e = 0; e < end; ++e)
    for (const Buf &buffer : buffers)
      if (buffer.def <= e && e <= buffer.last)
        out.live[e] += buffer.bytes;
  for (size_t e = 0; e < end; ++e)
    if (out.live[e] > out.peak) {
      out.peak = out.live[e];
      out.peakIndex = e;
    }
  return out;
}

TEST(Schedule, MemoryModelAgreesWithItsDefinitionOnEveryMove) {
  // One engine (MemorySimulator) scores every plan: evaluate runs it, and
  // the searches run it, reused, on every move they try. Random walks of
  // moves like theirs (insert a recomputation anywhere, drop one, swap two
  // neighbours), valid or not, on random problems with and without shared
  // buffers: at every step the reused engine in each detail mode and
  // evaluate agree with the model written out from its definition.
  using Detail = MemorySimulator::Detail;
  int steps = 0, invalid = 0, withSharing = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    Problem p = seed % 2 ? randomLayeredWithViews(4 + seed % 11, seed)
                         : randomLayered(4 + seed % 11, seed);
    ASSERT_EQ(p.validate(), "") << seed;
    MemorySimulator simulator(p);
    std::mt19937 rng(seed);
    for (int walk = 0; walk < 5; ++walk) {
      Schedule s = randomSchedule(p, static_cast<int>(rng() % 6), rng);
      for (int move = 0; move < 40; ++move) {
        Schedule trial = s;
        int kind = static_cast<int>(rng() % 3);
        if (kind == 0) { // insert a recomputation
          int op = static_cast<int>(rng() % p.numOps());
          if (!p.ops[op].recomputable)
            continue;
          trial.insert(trial.begin() + rng() % (trial.size() + 1), op);
        } else if (kind == 1) { // drop an execution of a recomputed op
          size_t e = rng() % trial.size();
          if (runCounts(p, trial)[trial[e]] < 2)
            continue;
          trial.erase(trial.begin() + e);
        } else if (trial.size() > 1) { // swap two neighbours
          size_t e = rng() % (trial.size() - 1);
          if (!p.ops[trial[e]].recomputable &&
              !p.ops[trial[e + 1]].recomputable)
            continue; // ops that cannot be recomputed keep their order
          std::swap(trial[e], trial[e + 1]);
        }
        Reference ref = referenceModel(p, trial);
        int64_t budget = ref.peak / 2;
        std::string at = std::to_string(seed) + "/" + std::to_string(walk) +
                         "/" + std::to_string(move);
        MemorySimulator::Score none =
            simulator.run(trial, budget, Detail::None);
        MemorySimulator::Score full =
            simulator.run(trial, budget, Detail::Full);
        ASSERT_EQ(none.valid, ref.valid) << at;
        ASSERT_EQ(full.valid, ref.valid) << at;
        // prune, on a reused simulator (copying and in place) and on its
        // own, against its definition.
        const Schedule expected = referencePrune(p, trial);
        Schedule pruned;
        simulator.prune(trial, pruned);
        EXPECT_EQ(pruned, expected) << at;
        simulator.prune(pruned, pruned);
        EXPECT_EQ(pruned, expected) << at;
        EXPECT_EQ(prune(p, trial), expected) << at;
        EvalOptions options;
        options.live = true;
        Evaluation e = evaluate(p, trial, options);
        if (!ref.valid) {
          ++invalid;
          EXPECT_FALSE(e.valid) << at;
          continue; // a search never keeps an invalid move
        }
        ASSERT_TRUE(e.valid) << at << ": " << e.error;
        double area = 0;
        for (int64_t bytes : ref.live)
          area += static_cast<double>(std::max<int64_t>(0, bytes - budget));
        for (const MemorySimulator::Score &score : {none, full}) {
          EXPECT_DOUBLE_EQ(score.cost, ref.cost) << at;
          EXPECT_EQ(score.peak, ref.peak) << at;
          EXPECT_EQ(score.peakIndex, ref.peakIndex) << at;
          EXPECT_DOUBLE_EQ(score.area, area) << at;
        }
        EXPECT_EQ(simulator.liveAt, ref.live) << at;
        EXPECT_EQ(e.live, ref.live) << at;
        EXPECT_EQ(e.peak, ref.peak) << at;
        EXPECT_DOUBLE_EQ(e.cost, ref.cost) << at;
        s = trial; // the walk goes on from a valid schedule
        ++steps;
        withSharing += seed % 2;
      }
    }
  }
  EXPECT_GT(steps, 3000);
  EXPECT_GT(invalid, 100);
  EXPECT_GT(withSharing, 0);
}

TEST(Planner, OneThreadOrTwoPlanTheSame) {
  // With two threads, strategy=optimal runs the chain and the every-byte
  // search beside the first greedy, `improve` runs its two refits side by
  // side and `drop` its next trial beside the current one, redoing what the
  // one-thread search would have done differently (a refit or a trial
  // after a change, work limits reached). Plans, and what the searches
  // spend, must be the same, also where the work limits cut a search short.
  int limited = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    Problem p = seed % 2 ? randomLayeredWithViews(30 + seed, seed)
                         : randomLayered(30 + seed, seed);
    ASSERT_EQ(p.validate(), "") << seed;
    const int64_t top = evaluate(p, identitySchedule(p)).peak;
    for (double fraction : {0.8, 0.6, 0.45}) {
      const int64_t budget = static_cast<int64_t>(fraction * top);
      std::string at = std::to_string(seed) + "@" + std::to_string(fraction);
      PlanOptions one, two;
      one.budget = two.budget = budget;
      one.parallel = false;
      two.parallel = true;
      PlanResult a = planSchedule(p, one), b = planSchedule(p, two);
      EXPECT_EQ(a.feasible, b.feasible) << at;
      EXPECT_EQ(a.schedule, b.schedule) << at;
      EXPECT_EQ(a.leastPeak, b.leastPeak) << at;
      EXPECT_EQ(a.producer, b.producer) << at;
      if (!a.feasible)
        continue;
      // The greedy (candidates on two threads) and improve on their own,
      // under tight limits: evaluations and work units.
      for (int64_t evaluations : {int64_t{7}, int64_t{20000}}) {
        SearchOptions greedyOne, greedyTwo;
        greedyOne.maxEvaluations = greedyTwo.maxEvaluations = evaluations;
        greedyTwo.parallel = true;
        EXPECT_EQ(fitBudget(p, identitySchedule(p), budget, greedyOne),
                  fitBudget(p, identitySchedule(p), budget, greedyTwo))
            << at << " evaluations " << evaluations;
      }
      Schedule start = fitBudget(p, identitySchedule(p), budget);
      if (evaluate(p, start).peak > budget)
        continue;
      for (int64_t units : {int64_t{3000}, int64_t{30000}, int64_t{300000}})
        for (int64_t evaluations : {int64_t{15}, int64_t{20000}}) {
          Work workOne, workTwo;
          workOne.left = workTwo.left = units;
          SearchOptions searchOne, searchTwo;
          searchOne.work = &workOne;
          searchTwo.work = &workTwo;
          searchOne.maxEvaluations = searchTwo.maxEvaluations = evaluations;
          searchTwo.parallel = true;
          Schedule x = improve(p, start, budget, searchOne);
          Schedule y = improve(p, start, budget, searchTwo);
          EXPECT_EQ(x, y) << at << " units " << units << " evaluations "
                          << evaluations;
          EXPECT_EQ(workOne.left, workTwo.left) << at << " units " << units;
          limited += workOne.spent();
        }
    }
  }
  EXPECT_GT(limited, 0); // some searches ran out of work
}

TEST(LowerBound, TightOnAChainByHand) {
  // x -> f0 -> a (100 B, cost 1) -> f1 -> b (100 B, cost 5) -> loss -> l
  // (4 B, backward); g1 reads l and a -> gb (50 B); g0 reads gb and x -> ga
  // (100 B, returned). When the loss runs, b and l are live, and a too
  // unless f0 runs again later. At 203 B (one byte under 100 + 100 + 4) the
  // optimum recomputes a once (cost 1); the bound is the Lagrangian dual,
  // the linear relaxation's value: keep 99 of a's 100 bytes, recompute the
  // rest, 0.01; at 200 B, 0.04. f1 needs a and b at once: under 200 B
  // nothing fits, and the cut at f1 says so.
  Problem p;
  int x = p.addInput();
  auto add = [&](const char *name, std::vector<int> reads, int64_t bytes,
                 double cost, bool backward) {
    Op op;
    op.name = name;
    op.cost = cost;
    op.backward = backward;
    op.reads = std::move(reads);
    return p.addResult(p.addOp(op), bytes);
  };
  int a = add("f0", {x}, 100, 1, false);
  int b = add("f1", {a}, 100, 5, false);
  int l = add("loss", {b}, 4, 1, true);
  int gb = add("g1", {l, a}, 50, 1, true);
  int ga = add("g0", {gb, x}, 100, 1, true);
  p.values[ga].returned = true;
  ASSERT_EQ(p.validate(), "");
  const BoundOptions bisect{BoundScope::Any, /*keepSet=*/true,
                            /*bisect=*/true};
  RecomputeBound at203 = recomputeLowerBound(p, 203, bisect);
  EXPECT_FALSE(at203.infeasible);
  EXPECT_NEAR(at203.recompute, 0.01, 1e-6);
  EXPECT_EQ(at203.cutOp, 2); // the loss
  EXPECT_NEAR(recomputeLowerBound(p, 200, bisect).recompute, 0.04, 1e-6);
  // The default price search (probes where the dual's lines cross): the
  // same values.
  EXPECT_NEAR(recomputeLowerBound(p, 203).recompute, 0.01, 1e-6);
  EXPECT_NEAR(recomputeLowerBound(p, 200).recompute, 0.04, 1e-6);
  EXPECT_TRUE(recomputeLowerBound(p, 199).infeasible);
  PlanOptions options;
  options.budget = 203;
  PlanResult plan = planSchedule(p, options);
  ASSERT_TRUE(plan.feasible);
  EXPECT_DOUBLE_EQ(plan.time, 9 + 1);
  options.budget = 200;
  EXPECT_DOUBLE_EQ(planSchedule(p, options).time, 9 + 1);
  // At 204 B everything stays: no recomputation, bound 0.
  EXPECT_EQ(recomputeLowerBound(p, 204).recompute, 0);
  options.budget = 204;
  EXPECT_DOUBLE_EQ(planSchedule(p, options).time, 9);
  RecomputeBound at199 = recomputeLowerBound(p, 199, bisect);
  EXPECT_TRUE(at199.infeasible);
  EXPECT_EQ(at199.cutOp, 1); // f1
  options.budget = 199;
  EXPECT_FALSE(planSchedule(p, options).feasible);
}

/// A random training step like linalg's after bufferization: every op
/// writes into a constant-like empty tensor made right before it (its
/// result in place on it), some backward ops rebuild a forward value from
/// forward values alone (like batch norm's normalized input), and views.
Problem randomWithEmpties(int n, unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](uint32_t k) { return static_cast<int>(rng() % k); };
  Problem p;
  int x = p.addInput();
  auto op = [&](std::string name, std::vector<int> reads, int64_t bytes,
                bool backward, BufferRule rule = BufferRule::InPlace) {
    Op empty;
    empty.name = "empty";
    empty.cost = 0.01;
    empty.constant = true;
    empty.backward = backward;
    int e = p.addResult(p.addOp(empty), bytes);
    Op o;
    o.name = std::move(name);
    o.cost = 1 + pick(20);
    o.backward = backward;
    o.reads = std::move(reads);
    o.reads.push_back(e);
    return p.addResult(p.addOp(o), bytes, rule,
                       rule == BufferRule::View ? o.reads[0] : e);
  };
  std::vector<int> fwd;
  for (int i = 0; i < n; ++i) {
    std::vector<int> in{i ? fwd[i - 1] : x};
    if (i > 2 && pick(3) == 0)
      in.push_back(fwd[i - 2 - pick(2)]);
    bool view = i > 0 && pick(5) == 0;
    fwd.push_back(op("f" + std::to_string(i), in, 1024 * (1 + pick(8)), false,
                     view ? BufferRule::View : BufferRule::InPlace));
  }
  int g = op("loss", {fwd.back()}, 16, true);
  for (int i = n - 1; i >= 0; --i) {
    std::vector<int> reads{g, fwd[i]};
    if (pick(2)) // a forward value rebuilt from forward values alone
      reads.push_back(op("norm" + std::to_string(i), {fwd[i]},
                         p.values[fwd[i]].bytes, true));
    g = op("g" + std::to_string(i), reads, p.values[fwd[i]].bytes, true);
  }
  p.values[g].returned = true;
  return p;
}

TEST(LowerBound, NeverAboveAPlanOnRandomProblems) {
  // The bound holds for every schedule: never above what `optimal` plans,
  // and never "infeasible" where a plan fits. It binds somewhere. At the
  // store-all peak it is 0. The default price search (probes where the
  // dual's bounding lines cross) reaches the bisection's bound within a
  // relative 1e-6, in fewer minimum cuts.
  int binding = 0, infeasible = 0, withEmpties = 0, inOrder = 0;
  for (unsigned seed = 1; seed <= 45; ++seed) {
    Problem p = seed % 3 == 0   ? randomWithEmpties(6 + seed / 3, seed)
                : seed % 3 == 1 ? randomLayeredWithViews(16 + seed, seed)
                                : randomLayered(16 + seed, seed);
    ASSERT_EQ(p.validate(), "") << seed;
    const int64_t top = evaluate(p, identitySchedule(p)).peak;
    EXPECT_EQ(recomputeLowerBound(p, top).recompute, 0) << seed;
    double base = 0;
    for (const Op &op : p.ops)
      base += op.cost;
    for (double fraction : {0.9, 0.7, 0.5, 0.35, 0.2}) {
      const int64_t budget = static_cast<int64_t>(fraction * top);
      std::string at = std::to_string(seed) + "@" + std::to_string(fraction);
      RecomputeBound bound = recomputeLowerBound(
          p, budget, {BoundScope::Any, /*keepSet=*/true, /*bisect=*/true});
      RecomputeBound fast = recomputeLowerBound(p, budget);
      EXPECT_EQ(fast.infeasible, bound.infeasible) << at;
      EXPECT_NEAR(fast.recompute, bound.recompute,
                  1e-6 * bound.recompute + 1e-12)
          << at;
      EXPECT_TRUE(fast.recomputed.empty()) << at;
      PlanOptions options;
      options.budget = budget;
      PlanResult plan = planSchedule(p, options);
      if (bound.infeasible) {
        EXPECT_FALSE(plan.feasible) << at;
        ++infeasible;
        continue;
      }
      if (!plan.feasible)
        continue;
      EXPECT_LE(base + bound.recompute, plan.time * (1 + 1e-12)) << at;
      EXPECT_LE(base + fast.recompute, plan.time * (1 + 1e-12)) << at;
      // In order: never above a plan that runs the ops in order.
      RecomputeBound ordered =
          recomputeLowerBound(p, budget, {BoundScope::InOrder});
      EXPECT_FALSE(ordered.infeasible) << at;
      if (firstRunsInOrder(plan.schedule)) {
        EXPECT_LE(base + ordered.recompute, plan.time * (1 + 1e-12)) << at;
        ++inOrder;
      }
      withEmpties += seed % 3 == 0 && bound.recompute > 0;
      binding += bound.recompute > 0;
    }
  }
  EXPECT_GT(binding, 20);
  EXPECT_GT(infeasible, 0);
  EXPECT_GT(withEmpties, 3);
  EXPECT_GT(inOrder, 100); // of 45 x 5 budgets
}

/// The least cost within `budget` over every schedule of the ILP program's
/// form: stage t runs op t after recomputing any subset of the recomputable
/// ops before it, in op order. Infinity when none fits. Exponential: for
/// problems of at most 6 ops.
double programOptimum(const Problem &p, int64_t budget) {
  const int n = p.numOps();
  double best = std::numeric_limits<double>::infinity();
  Schedule s;
  std::function<void(int)> stage = [&](int t) {
    if (t == n) {
      Evaluation e = evaluate(p, s);
      if (e.valid && e.peak <= budget)
        best = std::min(best, e.cost);
      return;
    }
    for (uint32_t mask = 0; mask < (1u << t); ++mask) {
      size_t mark = s.size();
      bool ok = true;
      for (int i = 0; i < t && ok; ++i)
        if (mask & (1u << i)) {
          ok = p.ops[i].recomputable;
          s.push_back(i);
        }
      if (ok) {
        s.push_back(t);
        stage(t + 1);
      }
      s.resize(mark);
    }
  };
  stage(0);
  return best;
}

TEST(LowerBound, FirstRunsInOrder) {
  EXPECT_TRUE(firstRunsInOrder({0, 1, 0, 2, 1, 3}));
  EXPECT_TRUE(firstRunsInOrder({}));
  EXPECT_FALSE(firstRunsInOrder({1, 0}));
  EXPECT_FALSE(firstRunsInOrder({0, 2, 1}));
}

/// A random DAG of 6 ops: each reads the input or earlier values (each with
/// probability 2/5), has one result of 1-4 x 4 KiB and costs 1-9; values
/// nobody reads are returned. Independent branches are common, so the
/// order matters.
Problem randomSixOps(unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](uint32_t k) { return static_cast<int>(rng() % k); };
  Problem p;
  int x = p.addInput();
  std::vector<int> values;
  for (int i = 0; i < 6; ++i) {
    Op op;
    op.name = "op" + std::to_string(i);
    op.cost = 1 + pick(9);
    op.backward = i >= 3;
    for (int v : values)
      if (pick(5) < 2)
        op.reads.push_back(v);
    if (op.reads.empty() || pick(3) == 0)
      op.reads.push_back(x);
    values.push_back(p.addResult(p.addOp(op), 4096 * (1 + pick(4))));
  }
  std::vector<char> read(p.numValues(), 0);
  for (const Op &op : p.ops)
    for (int r : op.reads)
      read[r] = 1;
  for (int v : values)
    p.values[v].returned = !read[v];
  return p;
}

TEST(LowerBound, InOrderKeptBytesIsTheStoreAllLiveBytes) {
  // On problems of fresh buffers alone, what must be available when op j
  // first runs in order, plus j's results, is what the simulator finds live
  // while j runs in the schedule as written.
  for (unsigned seed = 1; seed <= 20; ++seed) {
    Problem p = randomLayered(10 + seed, seed);
    EvalOptions live;
    live.live = true;
    Evaluation all = evaluate(p, identitySchedule(p), live);
    ASSERT_TRUE(all.valid) << all.error;
    std::vector<double> kept = inOrderKeptBytes(p);
    ASSERT_EQ(kept.size(), static_cast<size_t>(p.numOps()));
    for (int j = 0; j < p.numOps(); ++j) {
      double fresh = 0;
      for (int v : p.ops[j].results) {
        ASSERT_EQ(p.values[v].rule, BufferRule::Fresh);
        fresh += static_cast<double>(p.values[v].bytes);
      }
      EXPECT_EQ(kept[j] + fresh, static_cast<double>(all.live[j]))
          << seed << " at " << j;
    }
  }
}

TEST(LowerBound, InOrderNeverAboveTheProgramOptimum) {
  // Random 6-op graphs (randomSixOps), every budget from the store-all peak
  // down to where nothing fits: the in-order bound (both price searches) never
  // exceeds the least cost of the ILP program's schedules (which run the
  // ops a first time in order), found by enumeration; it says infeasible
  // only where none fits. It is never below the bound over every schedule
  // by more than rounding, and above it somewhere.
  int binding = 0, above = 0, infeasible = 0;
  for (unsigned seed = 1; seed <= 48; ++seed) {
    Problem p = randomSixOps(seed);
    ASSERT_EQ(p.validate(), "") << seed;
    Evaluation all = evaluate(p, identitySchedule(p));
    bool done = false;
    for (int64_t budget = all.peak; budget > 0 && !done; budget -= 4096) {
      const double exhaustive = programOptimum(p, budget);
      done = exhaustive == std::numeric_limits<double>::infinity();
      std::string at = std::to_string(seed) + "@" + std::to_string(budget);
      RecomputeBound any = recomputeLowerBound(p, budget);
      for (bool bisect : {true, false}) {
        RecomputeBound ordered = recomputeLowerBound(
            p, budget, {BoundScope::InOrder, /*keepSet=*/true, bisect});
        if (ordered.infeasible) {
          EXPECT_TRUE(done) << at;
          infeasible += bisect;
          continue;
        }
        if (done)
          continue;
        EXPECT_LE(all.cost + ordered.recompute, exhaustive * (1 + 1e-12)) << at;
        if (!any.infeasible) {
          EXPECT_GE(ordered.recompute, any.recompute * (1 - 1e-6) - 1e-9) << at;
          above += bisect && ordered.recompute > any.recompute * 1.01;
        }
        binding += bisect && ordered.recompute > 0;
      }
    }
  }
  EXPECT_GT(binding, 20);
  EXPECT_GT(above, 20); // measured: 29 binding, 29 above, 14 infeasible
  EXPECT_GT(infeasible, 8);
}

TEST(Planner, IlpClaimsHoldOnRandomProblems) {
  if (!ilpAvailable())
    GTEST_SKIP() << "built without CBC";
  // Random 6-op training graphs (3 forward ops of random sizes and costs,
  // their gradients), every budget from the store-all peak down to where
  // nothing fits, with and without a warm start: the ILP's lower bound never
  // exceeds its program's optimum (found here by enumeration), a claimed
  // optimum is that optimum, and it claims one only with the bound equal to
  // its cost. No time limit: the answers do not depend on the machine.
  int optimal = 0, infeasible = 0, recomputing = 0;
  for (unsigned seed = 1; seed <= 48; ++seed) {
    Problem p = randomLayered(3, seed);
    ASSERT_EQ(p.numOps(), 6);
    Evaluation all = evaluate(p, identitySchedule(p));
    // Sizes are multiples of 4 KiB: every distinct budget.
    bool done = false;
    for (int64_t budget = all.peak; budget > 0 && !done; budget -= 4096) {
      double exhaustive = programOptimum(p, budget);
      done = exhaustive == std::numeric_limits<double>::infinity();
      recomputing += !done && exhaustive > all.cost;
      int pct = static_cast<int>(100 * budget / all.peak);
      for (bool warm : {false, true}) {
        PlanOptions plan;
        plan.budget = budget;
        plan.slots = 0;
        PlanResult ours = planSchedule(p, plan);
        IlpOptions options;
        options.timeLimit = 0;
        if (warm && ours.feasible)
          options.warmStart = &ours.schedule;
        IlpResult ilp = solveIlp(p, budget, options);
        ASSERT_EQ(ilp.error, "");
        std::string where = "seed " + std::to_string(seed) + " at " +
                            std::to_string(pct) + "%" + (warm ? " warm" : "");
        if (exhaustive == std::numeric_limits<double>::infinity()) {
          EXPECT_TRUE(ilp.schedule.empty() || warm) << where;
          if (!warm) {
            EXPECT_EQ(ilp.status, IlpResult::Status::Infeasible) << where;
          }
          infeasible += !warm;
          continue;
        }
        ASSERT_FALSE(ilp.schedule.empty()) << where;
        Evaluation e = evaluate(p, ilp.schedule);
        ASSERT_TRUE(e.valid) << e.error;
        EXPECT_LE(e.peak, budget) << where;
        EXPECT_DOUBLE_EQ(e.cost, ilp.cost) << where;
        EXPECT_LE(ilp.lowerBound, exhaustive * (1 + 1e-9)) << where;
        EXPECT_LE(ilp.lowerBound, ilp.cost * (1 + 1e-9)) << where;
        bool claims = ilp.status == IlpResult::Status::Optimal;
        EXPECT_EQ(claims, ilp.lowerBound >= ilp.cost * (1 - 1e-9)) << where;
        if (claims) {
          EXPECT_DOUBLE_EQ(ilp.cost, exhaustive) << where;
        }
        // Without limits CBC proves its program's optimum; a warm start
        // outside the program's form may be cheaper still.
        if (!warm) {
          EXPECT_TRUE(claims) << where;
          optimal += claims;
        }
      }
    }
  }
  EXPECT_GE(optimal, 50);
  EXPECT_GT(recomputing, 10); // budgets where the optimum recomputes
  EXPECT_EQ(infeasible, 48);  // each problem down to where nothing fits
}

TEST(ProblemChain, ExpandsAChainSequence) {
  // Three forward ops, one per stage; the loss closes stage 4.
  Problem p = trainingChain({10, 20, 30}, {1, 1, 1});
  ProblemChain chain = buildProblemChain(p);
  ASSERT_EQ(chain.chain.numStages(), 4);
  // b3 reads f3 and f2 (= a^2, the input of stage 3): B3; b2 reads f2 and
  // f1: B2; b1 reads only f1 (= a^1, B2's input) and b2's gradient: B2 too.
  EXPECT_EQ(chain.stageOf, (std::vector<int>{1, 2, 3, 4, 3, 2, 2}));
  // Fck1 Fn2 Fall3 Fall4 B4 B3 Fall1 Fall2 B2 B1: the forward as written,
  // b3 (B3), f1 and f2 again, then b2 and b1 (B2), which read them.
  using solver::Op;
  using solver::OpKind;
  std::vector<Op> seq = {{OpKind::FCk, 1},      {OpKind::FNone, 2},
                         {OpKind::FAll, 3},     {OpKind::FAll, 4},
                         {OpKind::Backward, 4}, {OpKind::Backward, 3},
                         {OpKind::FAll, 1},     {OpKind::FAll, 2},
                         {OpKind::Backward, 2}, {OpKind::Backward, 1}};
  Schedule s = expandSequence(p, chain, seq);
  // Positions: 0 f1, 1 f2, 2 f3, 3 loss, 4 b3, 5 b2, 6 b1.
  EXPECT_EQ(s, (Schedule{0, 1, 2, 3, 4, 0, 1, 5, 6}));
  // No recomputation at all: the identity, as written.
  std::vector<Op> all = {{OpKind::FAll, 1},     {OpKind::FAll, 2},
                         {OpKind::FAll, 3},     {OpKind::FAll, 4},
                         {OpKind::Backward, 4}, {OpKind::Backward, 3},
                         {OpKind::Backward, 2}, {OpKind::Backward, 1}};
  EXPECT_EQ(expandSequence(p, chain, all), identitySchedule(p));
}

} // namespace

TEST(PlanStrategy, EverySpellingParsesAndPrintsBack) {
  // The one list: every spelling parses to its kind and prints back (K
  // given for periodic:K); anything else is refused with the list.
  int listed = 0;
  for (const StrategyInfo &info : planStrategies()) {
    std::string text = info.spelling;
    if (info.kind == StrategyKind::Periodic)
      text = "periodic:7";
    std::string error;
    std::optional<PlanStrategy> parsed = PlanStrategy::parse(text, error);
    ASSERT_TRUE(parsed) << text << ": " << error;
    EXPECT_EQ(parsed->kind, info.kind);
    EXPECT_EQ(parsed->str(), text);
    EXPECT_EQ(&parsed->info(), &info);
    EXPECT_EQ(parsed->chainStrategy().has_value(),
              info.chain && !info.needsStep)
        << text;
    ++listed;
  }
  EXPECT_EQ(listed, 11);
  for (const char *bad : {"", "Optimal", "periodic", "periodic:", "periodic:0",
                          "periodic:-2", "periodic:2x", "periodic:K"}) {
    std::string error;
    EXPECT_FALSE(PlanStrategy::parse(bad, error)) << bad;
    EXPECT_NE(error.find("strategy '" + std::string(bad) + "'"),
              std::string::npos)
        << error;
  }
  EXPECT_EQ(strategySpellings(false), "optimal, ilp, store-all, periodic:K, "
                                      "sqrt, revolve, memory-poor or "
                                      "articulation");
}
