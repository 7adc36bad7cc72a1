//===- RepeatsTest.cpp - identical blocks and the greedy that uses them ---===//
//
// findRepeats on models built block by block (runs derived by hand), and
// strategy=optimal with and without repeated blocks on deep random models:
// both fit the same budgets, the moves in other blocks are used, and the
// plans cost about the same.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/Repeats.h"
#include "ckpt/Solver/Schedule/Planner.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include <gtest/gtest.h>

#include <random>

using namespace ckpt;
using namespace ckpt::sched;

namespace {

/// One op of a block template: what it reads in the block (-1: the block's
/// input; else an earlier op of the block), its bytes and cost.
struct TemplateOp {
  std::vector<int> reads;
  int64_t bytes;
  double cost;
};

/// Adds a stem op reading a new step input; returns its value (`bytes`).
int addStem(Problem &p, int64_t bytes) {
  Op stem;
  stem.name = "stem";
  stem.cost = 1;
  stem.reads = {p.addInput()};
  return p.addResult(p.addOp(stem), bytes);
}

/// A model of `blocks` copies of `block` (each op also reads a weight of its
/// own, a step input), after a stem op that reads the step's input. The
/// block's output is its last op. Then a loss, and per forward op, from the
/// last, a backward op reading the gradient, the op's result and what it
/// read, giving the next gradient; the last gradient and the loss are
/// returned. `costOf(block, op)` may change one op's cost.
Problem blockModel(int blocks, const std::vector<TemplateOp> &block,
                   const std::function<double(int, int)> &costOf = {}) {
  Problem p;
  int out = addStem(p, 256);
  struct Forward {
    int result;
    std::vector<int> reads;
  };
  std::vector<Forward> forward;
  const int m = static_cast<int>(block.size());
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> results(m);
    for (int j = 0; j < m; ++j) {
      Op op;
      op.name = "op" + std::to_string(j);
      op.cost = costOf ? costOf(b, j) : block[j].cost;
      for (int r : block[j].reads)
        op.reads.push_back(r < 0 ? out : results[r]);
      std::vector<int> activations = op.reads;
      op.reads.push_back(p.addInput()); // its weight
      results[j] = p.addResult(p.addOp(op), block[j].bytes);
      forward.push_back({results[j], activations});
    }
    out = results[m - 1];
  }
  Op loss;
  loss.name = "loss";
  loss.cost = 1;
  loss.reads = {out};
  int lossOp = p.addOp(loss);
  int grad = p.addResult(lossOp, 16);
  for (auto it = forward.rbegin(); it != forward.rend(); ++it) {
    Op op;
    op.name = "grad";
    op.cost = 2;
    op.backward = true;
    op.reads = {grad, it->result};
    for (int r : it->reads)
      if (std::find(op.reads.begin(), op.reads.end(), r) == op.reads.end())
        op.reads.push_back(r);
    int id = p.addOp(op);
    grad = p.addResult(id, p.values[it->reads.front()].bytes);
  }
  p.values[grad].returned = true;
  p.values[p.ops[lossOp].results[0]].returned = true;
  return p;
}

/// A block of three ops: a = f(in), b = g(a), out = h(a, b).
std::vector<TemplateOp> threeOps() {
  return {{{-1}, 512, 1.0}, {{0}, 256, 2.0}, {{0, 1}, 256, 1.5}};
}

TEST(Repeats, FindsTheBlocksOfADeepModel) {
  // Ops: 0 the stem, then block b's ops at 1 + 3b, 2 + 3b, 3 + 3b; the loss
  // at 25 and the backward after it. Block 0 reads the stem, block b the
  // output of block b - 1 (three ops earlier): one run of 8 blocks from op 1.
  Problem p = blockModel(8, threeOps());
  ASSERT_EQ(p.validate(), "");
  Repeats r = findRepeats(p);
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].start, 1);
  EXPECT_EQ(r.runs[0].period, 3);
  EXPECT_EQ(r.runs[0].count, 8);
  EXPECT_EQ(r.runOf[0], -1);
  EXPECT_EQ(r.runOf[1], 0);
  EXPECT_EQ(r.runOf[24], 0);
  EXPECT_EQ(r.runOf[25], -1);
  // The images of block 2's middle op's value: blocks 3, 1, 4, 0, 5, 6, 7.
  auto valueOf = [&](int op) { return p.ops[op].results[0]; };
  std::vector<int> want;
  for (int b : {3, 1, 4, 0, 5, 6, 7})
    want.push_back(valueOf(2 + 3 * b));
  EXPECT_EQ(r.images(p, valueOf(2 + 3 * 2)), want);
  EXPECT_TRUE(r.images(p, valueOf(0)).empty()); // the stem
  // Two blocks are not a run by default; with minCount 2 they are.
  Problem two = blockModel(2, threeOps());
  EXPECT_TRUE(findRepeats(two).empty());
  Repeats r2 = findRepeats(two, 2);
  ASSERT_EQ(r2.runs.size(), 1u);
  EXPECT_EQ(r2.runs[0].count, 2);
}

/// The runs of an 8-block threeOps() model whose op 13 (block 4's first)
/// differs: blocks 0-3 from op 1, and three blocks from op 14.
void expectSplitAtOp13(const Problem &p) {
  Repeats r = findRepeats(p);
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_EQ(r.runs[0].start, 1);
  EXPECT_EQ(r.runs[0].period, 3);
  EXPECT_EQ(r.runs[0].count, 4);
  EXPECT_EQ(r.runs[1].start, 14);
  EXPECT_EQ(r.runs[1].period, 3);
  EXPECT_EQ(r.runs[1].count, 3);
  EXPECT_EQ(r.runOf[13], -1);
}

TEST(Repeats, ABlockThatDiffersSplitsTheRun) {
  // Block 4's first op (op 13) costs more. Ops 1..9 equal the op three
  // later, op 10 (block 3's first) does not equal op 13: blocks 0-3 are a
  // run. Op 13 is unique; from op 14 on, each op equals the op three later
  // (op 14 reads op 13 as op 17 reads op 16: one block later) up to op 21;
  // op 22 (block 7's first) would be compared with the loss. So the second
  // run starts mid-block, at op 14: ops 14..22, three blocks of three.
  expectSplitAtOp13(blockModel(8, threeOps(), [](int b, int j) {
    return b == 4 && j == 0 ? 5.0 : threeOps()[j].cost;
  }));
}

TEST(Repeats, AResultOfAnotherSizeSplitsTheRun) {
  // As ABlockThatDiffersSplitsTheRun, with block 4's first op (op 13)
  // writing 1024 B instead of 512: the same two runs.
  Problem p = blockModel(8, threeOps());
  p.values[p.ops[13].results[0]].bytes = 1024;
  expectSplitAtOp13(p);
}

TEST(Repeats, ReadsOfAnotherResultSplitTheRun) {
  // Six blocks of two ops after a stem (op 0): X (op 1 + 2b) reads the
  // block's input and defines two values; Y (op 2 + 2b) reads X's first,
  // except in block 3, where Y (op 8) reads X's second. Blocks 0-2 are a
  // run (ops 1..6); op 6 does not equal op 8, so no run reaches block 3;
  // blocks 4 and 5 are two, not a run.
  Problem p;
  int in = addStem(p, 64);
  for (int b = 0; b < 6; ++b) {
    Op x;
    x.name = "x";
    x.cost = 1;
    x.reads = {in};
    int xOp = p.addOp(x);
    int first = p.addResult(xOp, 64);
    int second = p.addResult(xOp, 64);
    Op y;
    y.name = "y";
    y.cost = 1;
    y.reads = {b == 3 ? second : first};
    in = p.addResult(p.addOp(y), 64);
  }
  p.values[in].returned = true;
  ASSERT_EQ(p.validate(), "");
  Repeats r = findRepeats(p);
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].start, 1);
  EXPECT_EQ(r.runs[0].period, 2);
  EXPECT_EQ(r.runs[0].count, 3);
  EXPECT_EQ(r.runOf[8], -1);
}

TEST(Repeats, ReadsMustCorrespond) {
  // The same ops, but block 5's last op reads the block's input instead of
  // its first op: ops 16 (block 5's last) and 13 (block 4's last) read
  // values that are not one block apart, so no run spans blocks 4 and 5.
  Problem p = blockModel(8, threeOps());
  // Block 5's last op is op 18; it reads a (op 16) and b (op 17); make it
  // read the block's input (op 15's value) in place of a.
  p.ops[18].reads[0] = p.ops[15].results[0];
  ASSERT_EQ(p.validate(), "");
  Repeats r = findRepeats(p);
  for (const RepeatRun &run : r.runs)
    EXPECT_FALSE(run.start <= 15 && 18 < run.start + run.count * run.period)
        << "a run from " << run.start << " of " << run.count;
  ASSERT_FALSE(r.runs.empty());
  EXPECT_EQ(r.runs[0].start, 1);
  EXPECT_EQ(r.runs[0].count, 5); // blocks 0..4: ops 1..15
}

TEST(Repeats, TwoIdenticalHalvesAreNoRunAndTheSearchStaysLinear) {
  // Two identical towers of 3000 ops (op i of each costs i + 1 and reads
  // the op before it; both start from the stem), then six identical blocks.
  // Each op of the first tower equals the op 3000 later: two blocks, not a
  // run. Trying from each op would compare about 3000 * 3000 / 2 ops; past
  // 16 comparisons per op, a failed try skips what it compared. The six
  // blocks after the towers are still found.
  Problem p;
  int stemValue = addStem(p, 64);
  const int m = 3000;
  int last = -1;
  for (int tower = 0; tower < 2; ++tower) {
    int prev = stemValue;
    for (int i = 0; i < m; ++i) {
      Op op;
      op.name = "t";
      op.cost = i + 1;
      op.reads = {prev};
      prev = p.addResult(p.addOp(op), 64);
    }
    last = prev;
  }
  const int blocksStart = p.numOps();
  for (int b = 0; b < 6; ++b)
    for (const char *name : {"u", "v"}) {
      Op op;
      op.name = name;
      op.cost = 0.5;
      op.reads = {last};
      last = p.addResult(p.addOp(op), 32);
    }
  ASSERT_EQ(p.validate(), "");
  Repeats r = findRepeats(p);
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].start, blocksStart);
  EXPECT_EQ(r.runs[0].period, 2);
  EXPECT_EQ(r.runs[0].count, 6);
}

/// A random block template of `m` ops: each reads one or two of the block's
/// input and earlier ops.
std::vector<TemplateOp> randomBlock(int m, std::mt19937 &rng) {
  std::vector<TemplateOp> block;
  for (int j = 0; j < m; ++j) {
    TemplateOp op;
    int reads = j == 0 ? 1 : 1 + static_cast<int>(rng() % 2);
    for (int i = 0; i < reads; ++i) {
      int r = static_cast<int>(rng() % (j + 1)) - 1; // -1 .. j-1
      if (std::find(op.reads.begin(), op.reads.end(), r) == op.reads.end())
        op.reads.push_back(r);
    }
    if (j == m - 1 &&
        std::find(op.reads.begin(), op.reads.end(), j - 1) == op.reads.end() &&
        j > 0)
      op.reads.push_back(j - 1);
    op.bytes = 16 * (1 + static_cast<int64_t>(rng() % 64));
    op.cost = 1 + static_cast<double>(rng() % 8);
    block.push_back(op);
  }
  return block;
}

TEST(Planner, RepeatedBlocksPlanAsWellAsOneMoveAtATime) {
  // Deep random models (24 blocks of 4 to 7 ops) at budgets from 80% of the
  // store-all peak down: with repeated blocks the greedy applies moves in
  // other blocks at once. Both plans fit wherever either does (the least
  // feasible budget does not depend on the blocks), and over all budgets
  // the plans with blocks cost within 0.5% of those without on average.
  // On one thread the plans are the same as on two.
  std::mt19937 rng(7);
  int plans = 0, batched = 0;
  double sumWith = 0, sumWithout = 0;
  for (int model = 0; model < 6; ++model) {
    Problem p = blockModel(24, randomBlock(4 + model % 4, rng));
    ASSERT_EQ(p.validate(), "");
    ASSERT_EQ(findRepeats(p).runs.size(), 1u) << model;
    const int64_t top = evaluate(p, identitySchedule(p)).peak;
    for (double fraction : {0.8, 0.6, 0.45, 0.35}) {
      PlanOptions with, without;
      with.budget = without.budget = static_cast<int64_t>(fraction * top);
      without.repeatedBlocks = false;
      PlanResult a = planSchedule(p, with), b = planSchedule(p, without);
      std::string at = std::to_string(model) + "@" + std::to_string(fraction);
      ASSERT_EQ(a.error, "") << at;
      // One thread or two: the same plan, with blocks too.
      PlanOptions oneThread = with;
      oneThread.parallel = false;
      PlanResult c = planSchedule(p, oneThread);
      EXPECT_EQ(c.schedule, a.schedule) << at;
      EXPECT_EQ(c.repeatedMoves, a.repeatedMoves) << at;
      EXPECT_EQ(b.repeatedMoves, 0) << at;
      EXPECT_EQ(a.feasible, b.feasible) << at;
      if (!a.feasible)
        continue;
      Evaluation e = evaluate(p, a.schedule);
      EXPECT_TRUE(e.valid) << at;
      EXPECT_LE(e.peak, with.budget) << at;
      EXPECT_EQ(e.cost, a.time) << at;
      ++plans;
      batched += a.repeatedMoves > 0;
      sumWith += a.time;
      sumWithout += b.time;
    }
  }
  EXPECT_GT(plans, 12);
  EXPECT_GT(batched, plans / 2);
  EXPECT_LE(sumWith, sumWithout * 1.005);
}

} // namespace
