//===- OffloadTest.cpp - schedules with copies to host memory -------------===//
//
// evaluateTransfers on a schedule worked by hand, against evaluate when
// nothing moves (random training chains with recomputations), its errors,
// and the save_on_cpu baseline.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/Ilp.h"
#include "ckpt/Solver/Schedule/OffloadPlanner.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include <gtest/gtest.h>

#include <random>

using namespace ckpt::sched;

namespace {

/// A: x -> a (100 B); B: a -> b (10); C: b -> c (10); E: c -> e (100);
/// F: e -> f (10); D: f, a -> d (10, returned). Every op costs 1 s; a waits
/// on the device from B to D.
/// Adds an op of 1 s reading `reads`, with one result of `bytes`.
int addUnitOp(Problem &p, const char *name, std::vector<int> reads,
              int64_t bytes) {
  Op op;
  op.name = name;
  op.cost = 1;
  op.reads = std::move(reads);
  return p.addResult(p.addOp(op), bytes);
}

Problem sixOps() {
  Problem p;
  int x = p.addInput();
  auto add = [&](const char *name, std::vector<int> reads, int64_t bytes) {
    return addUnitOp(p, name, std::move(reads), bytes);
  };
  int a = add("A", {x}, 100);
  int b = add("B", {a}, 10);
  int c = add("C", {b}, 10);
  int e = add("E", {c}, 100);
  int f = add("F", {e}, 10);
  int d = add("D", {f, a}, 10);
  p.values[d].returned = true;
  return p;
}

/// A training chain of n layers of random sizes and costs (some zero): f_i
/// reads f_(i-1); the loss reads f_n; b_i reads the gradient, f_i and
/// f_(i-1). The last gradient is returned. With `someFixed`, about a third
/// of the forward ops cannot be recomputed (like a random draw).
Problem randomChain(int n, std::mt19937 &rng, bool someFixed = false) {
  Problem p;
  int prev = p.addInput();
  std::vector<int> f;
  auto cost = [&] { return static_cast<double>(rng() % 4); };
  for (int i = 0; i < n; ++i) {
    Op op;
    op.name = "f" + std::to_string(i);
    op.cost = cost();
    op.recomputable = !(someFixed && rng() % 3 == 0);
    op.reads = {prev};
    prev = p.addResult(p.addOp(op), 8 * (1 + rng() % 16));
    f.push_back(prev);
  }
  Op loss;
  loss.name = "loss";
  loss.cost = 1;
  loss.reads = {prev};
  int grad = p.addResult(p.addOp(loss), 4);
  for (int i = n - 1; i >= 0; --i) {
    Op op;
    op.name = "b" + std::to_string(i);
    op.cost = cost();
    op.backward = true;
    op.reads = {grad, f[i]};
    if (i > 0)
      op.reads.push_back(f[i - 1]);
    grad = p.addResult(p.addOp(op), 8 * (1 + rng() % 16));
  }
  p.values[grad].returned = true;
  return p;
}

} // namespace

TEST(Offload, SixOpsByHand) {
  Problem p = sixOps();
  ASSERT_EQ(p.validate(), "");
  Schedule s = identitySchedule(p);
  // Without transfers: A 100 | B a+b 110 | C a+b+c 120 | E a+c+e 210 |
  // F a+e+f 210 | D a+f+d 120.
  EXPECT_EQ(evaluate(p, s).peak, 210);
  const int a = 1;
  LinkSpec link{200, 200, 0}; // 100 B take 0.5 s each way

  // a offloaded when B (e1) ends, reloaded when F (e4) ends, just in time:
  // A [0,1] B [1,2]; offload [2,2.5]; C [2,3] E [3,4] F [4,5]; reload
  // [5,5.5]; D waits for it: [5.5,6.5], a 0.5 s stall. Device: [2,2.5)
  // a+b+c 120, then b+c 20; [3,4) c+e 110; [4,5) e+f 110; from 5 f+a' 110;
  // D f+a'+d 120. Peak 120 (210 without). Host: a from 2 to 5.5.
  TransferEvaluation late = evaluateTransfers(p, s, {{a, 1, 4}}, link);
  ASSERT_TRUE(late.valid) << late.error;
  EXPECT_DOUBLE_EQ(late.time, 6.5);
  EXPECT_DOUBLE_EQ(late.computeTime, 6);
  EXPECT_DOUBLE_EQ(late.stallTime, 0.5);
  EXPECT_EQ(late.devicePeak, 120);
  EXPECT_EQ(late.hostPeak, 100);
  EXPECT_EQ(late.offloadedBytes, 100);
  EXPECT_DOUBLE_EQ(late.start[5], 5.5);
  // The program waits for the offload (and frees a) after C, the first
  // execution that ends once the copy has ended.
  EXPECT_EQ(late.offloadDone, std::vector<size_t>{2});
  // Waiting for it only after E keeps a on the device while E runs.
  Transfer waitLater{a, 1, 4};
  waitLater.waitAfter = 3;
  TransferEvaluation lateWait = evaluateTransfers(p, s, {waitLater}, link);
  ASSERT_TRUE(lateWait.valid) << lateWait.error;
  EXPECT_EQ(lateWait.offloadDone, std::vector<size_t>{3});
  EXPECT_EQ(lateWait.devicePeak, 210);
  EXPECT_DOUBLE_EQ(lateWait.time, 6.5);

  // Waited for at once, when B ends: the compute stalls for the copy
  // ([2,2.5]), a is freed before C allocates, and C runs with b+c 20 where
  // it ran with a+b+c 120. C [2.5,3.5] E [3.5,4.5] F [4.5,5.5]; reload
  // [5.5,6]; D [6,7]: two 0.5 s stalls. The peak, 120, is now D's (f+a'+d)
  // alone: it first occurs at 6, not at 2.
  Transfer waitAtOnce{a, 1, 4};
  waitAtOnce.waitAfter = 1;
  TransferEvaluation atOnce = evaluateTransfers(p, s, {waitAtOnce}, link);
  ASSERT_TRUE(atOnce.valid) << atOnce.error;
  EXPECT_EQ(atOnce.offloadDone, std::vector<size_t>{1});
  EXPECT_DOUBLE_EQ(atOnce.start[2], 2.5);
  EXPECT_DOUBLE_EQ(atOnce.start[5], 6);
  EXPECT_DOUBLE_EQ(atOnce.time, 7);
  EXPECT_DOUBLE_EQ(atOnce.stallTime, 1);
  EXPECT_EQ(atOnce.devicePeak, 120);
  EXPECT_DOUBLE_EQ(atOnce.devicePeakTime, 6);
  EXPECT_DOUBLE_EQ(late.devicePeakTime, 2);

  // Reloaded when E ends (prefetched, [4,4.5]): no stall, but a' is back
  // while F runs: e+f+a' 210, no saving.
  TransferEvaluation early = evaluateTransfers(p, s, {{a, 1, 3}}, link);
  ASSERT_TRUE(early.valid) << early.error;
  EXPECT_DOUBLE_EQ(early.time, 6);
  EXPECT_DOUBLE_EQ(early.stallTime, 0);
  EXPECT_EQ(early.devicePeak, 210);

  // A slow link: the offload takes 2 s ([2,4]), so a is on the device while
  // E runs (a+c+e 210); the reload [5,7]: D [7,8].
  TransferEvaluation slow = evaluateTransfers(p, s, {{a, 1, 4}}, {50, 50, 0});
  ASSERT_TRUE(slow.valid) << slow.error;
  EXPECT_DOUBLE_EQ(slow.time, 8);
  EXPECT_DOUBLE_EQ(slow.stallTime, 2);
  EXPECT_EQ(slow.devicePeak, 210);
  EXPECT_EQ(slow.hostPeak, 100);

  // A reload issued before its offload has ended: the program waits for the
  // offload there (a is freed before a' is allocated). Offload [2,4]; C
  // [2,3]; the wait stalls until 4; reload [4,6]; E [4,5] F [5,6] D [6,7].
  // Device: C a+b+c 120; then c+a' 110; E c+a'+e 210.
  TransferEvaluation waits = evaluateTransfers(p, s, {{a, 1, 2}}, {50, 50, 0});
  ASSERT_TRUE(waits.valid) << waits.error;
  EXPECT_EQ(waits.offloadDone, std::vector<size_t>{2});
  EXPECT_DOUBLE_EQ(waits.stallTime, 1);
  EXPECT_DOUBLE_EQ(waits.start[3], 4);
  EXPECT_DOUBLE_EQ(waits.time, 7);
  EXPECT_EQ(waits.devicePeak, 210);
  EXPECT_EQ(slow.offloadDone, std::vector<size_t>{3}); // E ends at 4

  // Latency adds to each copy (0.25 + 0.5 s): offload [2,2.75], reload
  // [5,5.75], D [5.75,6.75].
  TransferEvaluation lat =
      evaluateTransfers(p, s, {{a, 1, 4}}, {200, 200, 0.25});
  ASSERT_TRUE(lat.valid) << lat.error;
  EXPECT_DOUBLE_EQ(lat.time, 6.75);
  EXPECT_DOUBLE_EQ(lat.stallTime, 0.75);
  EXPECT_EQ(lat.devicePeak, 120);

  // An asymmetric link times each way with its own bandwidth. Fast to the
  // host (200 B/s), slow back (50 B/s): offload [2,2.5], freed after C;
  // reload [5,7]: D [7,8], a 2 s stall; the peak as with the fast link.
  TransferEvaluation slowBack =
      evaluateTransfers(p, s, {{a, 1, 4}}, {200, 50, 0});
  ASSERT_TRUE(slowBack.valid) << slowBack.error;
  EXPECT_EQ(slowBack.offloadDone, std::vector<size_t>{2});
  EXPECT_DOUBLE_EQ(slowBack.stallTime, 2);
  EXPECT_DOUBLE_EQ(slowBack.time, 8);
  EXPECT_EQ(slowBack.devicePeak, 120);
  // Slow to the host (50 B/s), fast back: offload [2,4], so a is on the
  // device while E runs (210) and freed after E; reload [5,5.5]: D
  // [5.5,6.5], a 0.5 s stall.
  TransferEvaluation slowOut =
      evaluateTransfers(p, s, {{a, 1, 4}}, {50, 200, 0});
  ASSERT_TRUE(slowOut.valid) << slowOut.error;
  EXPECT_EQ(slowOut.offloadDone, std::vector<size_t>{3});
  EXPECT_DOUBLE_EQ(slowOut.stallTime, 0.5);
  EXPECT_DOUBLE_EQ(slowOut.time, 6.5);
  EXPECT_EQ(slowOut.devicePeak, 210);
}

TEST(Offload, TransfersThatCannotBe) {
  Problem p = sixOps();
  Schedule s = identitySchedule(p);
  LinkSpec link{200, 200, 0};
  auto error = [&](std::vector<Transfer> t) {
    TransferEvaluation r = evaluateTransfers(p, s, t, link);
    EXPECT_FALSE(r.valid);
    return r.error;
  };
  // Values: x 0, a 1, b 2, c 3, e 4, f 5, d 6; executions 0..5.
  EXPECT_EQ(error({{9, 0, 2}}), "transfer 0: value 9 does not exist");
  EXPECT_EQ(error({{1, 7, 2}}),
            "transfer 0 (value 1): execution 7 does not exist");
  EXPECT_EQ(error({{1, 2, 1}}),
            "transfer 0 (value 1): reloadAfter 1 is not an execution after 2 "
            "(an offload and its reload have an execution between)");
  EXPECT_EQ(error({{1, 2, 2}}),
            "transfer 0 (value 1): reloadAfter 2 is not an execution after 2 "
            "(an offload and its reload have an execution between)");
  EXPECT_EQ(error({{1, 1, 4, 0}}),
            "transfer 0 (value 1): waitAfter 0 is not 1 or an execution "
            "after it at or before its reload");
  EXPECT_EQ(error({{1, 1, 4, 5}}),
            "transfer 0 (value 1): waitAfter 5 is not 1 or an execution "
            "after it at or before its reload");
  EXPECT_EQ(error({{2, 0, 2}}), "transfer 0 (value 2): no version exists when "
                                "execution 0 ends");
  EXPECT_EQ(error({{1, 0, 4}}),
            "transfer 0 (value 1): execution 1 reads it while it is on the "
            "host (reloaded after 4)");
  EXPECT_EQ(error({{1, 1, kNoReload}}),
            "transfer 0 (value 1): execution 5 reads it, but it is never "
            "reloaded");
  EXPECT_EQ(error({{6, 5, kNoReload}}),
            "transfer 0 (value 6): it is returned, but never reloaded");
  EXPECT_EQ(error({{2, 2, 3}}),
            "transfer 0 (value 2): nothing reads it after its reload");
  EXPECT_EQ(error({{1, 1, 4}, {1, 1, 4}}),
            "transfer 1 (value 1): its version already moves (transfer 0)");
  EXPECT_EQ(evaluateTransfers(p, s, {{1, 1, 4}}, {0, 200, 0}).error,
            "the link needs positive bandwidths and a latency >= 0");
  // A view shares its source's buffer: neither moves (a is not the last
  // version of its buffer, b is a view).
  Problem v = sixOps();
  v.values[2].rule = BufferRule::View;
  v.values[2].source = 1;
  ASSERT_EQ(v.validate(), "");
  const char *whole = "it is not the last version of its buffer, a view, or "
                      "without bytes, or an earlier version of its buffer is "
                      "read after the offload: only a whole buffer that "
                      "nothing else reads moves";
  EXPECT_EQ(evaluateTransfers(v, s, {{1, 1, 4}}, link).error,
            std::string("transfer 0 (value 1): ") + whole);
  EXPECT_EQ(evaluateTransfers(v, s, {{2, 1, 4}}, link).error,
            std::string("transfer 0 (value 2): ") + whole);
}

TEST(Offload, NothingMovedIsEvaluate) {
  // With no transfer, the timeline is the schedule's (time = the sum of the
  // costs, zero costs included) and the device peak evaluate's, on random
  // training chains with random recomputations.
  std::mt19937 rng(7);
  int schedules = 0;
  for (int round = 0; round < 300; ++round) {
    Problem p = randomChain(2 + static_cast<int>(rng() % 7), rng);
    ASSERT_EQ(p.validate(), "");
    Schedule s = identitySchedule(p);
    for (int k = static_cast<int>(rng() % 6); k > 0; --k) {
      Schedule trial = s;
      int op = static_cast<int>(rng() % p.numOps());
      trial.insert(trial.begin() + rng() % (trial.size() + 1), op);
      if (evaluate(p, trial).valid)
        s = trial;
    }
    Evaluation e = evaluate(p, s);
    TransferEvaluation t = evaluateTransfers(p, s, {}, LinkSpec{});
    ASSERT_TRUE(t.valid) << t.error;
    EXPECT_EQ(t.devicePeak, e.peak) << round;
    EXPECT_DOUBLE_EQ(t.time, e.cost) << round;
    EXPECT_DOUBLE_EQ(t.stallTime, 0);
    EXPECT_EQ(t.hostPeak, 0);
    // Every saved activation on the host (save_on_cpu): never more device
    // memory, the difference on the host, and stalls only from the link.
    std::vector<Transfer> saved = saveOnCpuTransfers(p, s);
    TransferEvaluation off = evaluateTransfers(p, s, saved, {64, 64, 0.5});
    ASSERT_TRUE(off.valid) << off.error;
    EXPECT_LE(off.devicePeak, e.peak) << round;
    EXPECT_GE(off.time, e.cost) << round;
    EXPECT_DOUBLE_EQ(off.time, off.computeTime + off.stallTime) << round;
    EXPECT_EQ(off.hostPeak > 0, !saved.empty()) << round;
    ++schedules;
  }
  EXPECT_EQ(schedules, 300);
}

TEST(Offload, SaveOnCpuByHand) {
  // f0 f1 (reads f0), loss (reads f1), b1 (g, f1, f0), b0 (g1, f0): every
  // forward value a backward op reads moves after its last forward reader
  // and comes back when the execution before its first backward reader
  // ends, unless that is the same execution (nothing between the copies).
  // Schedule: e0 f0, e1 f1, e2 loss, e3 b1, e4 b0.
  Problem p;
  int x = p.addInput();
  auto add = [&](const char *name, std::vector<int> reads, int64_t bytes,
                 bool backward) {
    Op op;
    op.name = name;
    op.cost = 1;
    op.backward = backward;
    op.reads = std::move(reads);
    return p.addResult(p.addOp(op), bytes);
  };
  int f0 = add("f0", {x}, 64, false);
  int f1 = add("f1", {f0}, 64, false);
  int loss = add("loss", {f1}, 4, false);
  int g1 = add("b1", {loss, f1, f0}, 64, true);
  int g0 = add("b0", {g1, f0}, 64, true);
  p.values[g0].returned = true;
  ASSERT_EQ(p.validate(), "");
  std::vector<Transfer> t = saveOnCpuTransfers(p, identitySchedule(p));
  // f1 (read by e2, then e3) and loss (defined by e2, read by e3) stay.
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].value, f0); // last forward read e1, first backward e3
  EXPECT_EQ(t[0].after, 1u);
  EXPECT_EQ(t[0].reloadAfter, 2u);
}

TEST(OffloadPlanner, BelowTheLeastBudgetOfRecomputation) {
  // sixOps with A not recomputable (a random mask, say): a must stay on the
  // device from A to D, so recomputation cannot go below 210 (E: a+c+e).
  // Offloading a between B and D reaches 120 (SixOpsByHand), with a 0.5 s
  // stall.
  Problem p = sixOps();
  p.ops[0].recomputable = false;
  OffloadPlanOptions options;
  options.budget = 120;
  options.link = {200, 200, 0};
  OffloadPlanResult r = planWithOffload(p, options);
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.recomputeFeasible);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.evaluation.devicePeak, 120);
  EXPECT_DOUBLE_EQ(r.evaluation.time, 6.5);
  ASSERT_EQ(r.transfers.size(), 1u);
  EXPECT_EQ(r.transfers[0].value, 1);
  EXPECT_EQ(r.transfers[0].after, 1u);
  EXPECT_EQ(r.transfers[0].reloadAfter, 4u);
  // Below 120 nothing fits: D needs f, a and d at once (120 B).
  options.budget = 119;
  EXPECT_FALSE(planWithOffload(p, options).feasible);
}

TEST(OffloadPlanner, WaitsAtOnceWhereTheNextExecutionFillsTheDevice) {
  // A: x -> a (100 B, cannot be recomputed); B: a -> b (100); C: b -> c
  // (100); D: a, c -> d (10, returned); 1 s each. C alone holds b+c, 200;
  // with a beside them 300, recomputation's least. Offloaded after B, a
  // must be gone before C starts: an offload that overlaps C frees nothing
  // there. Waited for at once over 100 B/s: A [0,1] B [1,2], offload
  // [2,3] (stall), C [3,4], reload [4,5] (stall), D [5,6]; peaks B a+b
  // 200, C b+c 200, D a'+c+d 210.
  Problem p;
  int x = p.addInput();
  auto add = [&](const char *name, std::vector<int> reads, int64_t bytes) {
    return addUnitOp(p, name, std::move(reads), bytes);
  };
  int a = add("A", {x}, 100);
  p.ops[0].recomputable = false;
  int b = add("B", {a}, 100);
  int c = add("C", {b}, 100);
  int d = add("D", {a, c}, 10);
  p.values[d].returned = true;
  ASSERT_EQ(p.validate(), "");
  OffloadPlanOptions options;
  options.budget = 210;
  options.link = {100, 100, 0};
  OffloadPlanResult r = planWithOffload(p, options);
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.recomputeFeasible);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.evaluation.devicePeak, 210);
  EXPECT_DOUBLE_EQ(r.evaluation.time, 6);
  EXPECT_DOUBLE_EQ(r.evaluation.stallTime, 2);
  ASSERT_EQ(r.transfers.size(), 1u);
  EXPECT_EQ(r.transfers[0].value, a);
  EXPECT_EQ(r.transfers[0].after, 1u);
  EXPECT_EQ(r.transfers[0].waitAfter, 1u);
  EXPECT_EQ(r.transfers[0].reloadAfter, 2u);
  // The least budget with offloading is D's 210; recomputation's 300.
  options.budget = 209;
  OffloadPlanResult under = planWithOffload(p, options);
  EXPECT_FALSE(under.feasible);
  ASSERT_TRUE(under.leastBudget.has_value());
  EXPECT_EQ(*under.leastBudget, 210);
}

TEST(OffloadPlanner, OffloadInsteadOfAnExpensiveRecomputation) {
  // sixOps with A costing 10 s (15 s in all): recomputation fits 120 by
  // running A again before D (A B C E F A D: 25 s); offloading a fits it in
  // 15 + 0.5 s (the stall of SixOpsByHand).
  Problem p = sixOps();
  p.ops[0].cost = 10;
  OffloadPlanOptions options;
  options.budget = 120;
  options.link = {200, 200, 0};
  OffloadPlanResult r = planWithOffload(p, options);
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.recomputeFeasible);
  EXPECT_DOUBLE_EQ(r.recomputeTime, 25);
  ASSERT_TRUE(r.feasible);
  EXPECT_DOUBLE_EQ(r.evaluation.time, 15.5);
  EXPECT_LE(r.evaluation.devicePeak, 120);
  EXPECT_EQ(r.producer, "recompute@210+offload");
  // With a link 100 times slower the copies cost more than A: recompute.
  options.link = {2, 2, 0};
  OffloadPlanResult slow = planWithOffload(p, options);
  ASSERT_TRUE(slow.feasible);
  EXPECT_EQ(slow.producer, "recompute");
  EXPECT_DOUBLE_EQ(slow.evaluation.time, 25);
}

TEST(OffloadPlanner, NeverSlowerThanRecomputationAlone) {
  // Random training chains at budgets from the store-all peak down: where
  // recomputation fits, the joint plan fits and is at least as fast; where
  // save_on_cpu (on the step as written) fits, the joint plan is at least
  // as fast as it too; its device peak is within the budget; it fits
  // where recomputation does not when some forward ops cannot be
  // recomputed (their results can only stay or move to the host).
  std::mt19937 rng(11);
  int compared = 0, below = 0, saved = 0;
  for (int round = 0; round < 40; ++round) {
    Problem p =
        randomChain(3 + static_cast<int>(rng() % 6), rng, round % 2 == 1);
    int64_t peak = evaluate(p, identitySchedule(p)).peak;
    for (int percent : {90, 70, 50, 35}) {
      OffloadPlanOptions options;
      options.budget = peak * percent / 100;
      options.link = {64, 64, 0.25};
      OffloadPlanResult r = planWithOffload(p, options);
      ASSERT_EQ(r.error, "");
      if (r.recomputeFeasible) {
        ASSERT_TRUE(r.feasible) << round << " " << percent;
        EXPECT_LE(r.evaluation.time, r.recomputeTime)
            << round << " " << percent;
        ++compared;
      } else if (r.feasible) {
        ++below;
      }
      if (r.feasible) {
        EXPECT_LE(r.evaluation.devicePeak, options.budget);
      }
      Schedule asWritten = identitySchedule(p);
      TransferEvaluation cpu = evaluateTransfers(
          p, asWritten, saveOnCpuTransfers(p, asWritten), options.link);
      ASSERT_TRUE(cpu.valid) << cpu.error;
      if (cpu.devicePeak <= options.budget) {
        ASSERT_TRUE(r.feasible) << round << " " << percent;
        EXPECT_LE(r.evaluation.time, cpu.time) << round << " " << percent;
        ++saved;
      }
    }
  }
  EXPECT_GT(compared, 40);
  EXPECT_GT(below, 0);
  EXPECT_GT(saved, 10);
}

TEST(OffloadPlanner, RefiningIsNeverSlowerAndOftenFaster) {
  // OffloadPlanOptions::refine (transfers polished, starts between the
  // best one and its neighbours) against the planner without it (as it
  // was before): on random chains at budgets from 90% of the store-all
  // peak down, over a link where copies cost about as much as ops, the
  // refined plan fits wherever the other does, is never slower, and is
  // faster on some (measured: 10 of the 72 budgets where both fit).
  std::mt19937 rng(5);
  int faster = 0, both = 0;
  for (int round = 0; round < 40; ++round) {
    Problem p =
        randomChain(4 + static_cast<int>(rng() % 6), rng, round % 2 == 1);
    int64_t peak = evaluate(p, identitySchedule(p)).peak;
    for (int percent : {90, 70, 50, 35}) {
      OffloadPlanOptions options;
      options.budget = peak * percent / 100;
      options.link = {16, 16, 0.25};
      options.searchLeast = false;
      OffloadPlanResult refined = planWithOffload(p, options);
      options.refine = false;
      OffloadPlanResult plain = planWithOffload(p, options);
      ASSERT_EQ(refined.error, "");
      std::string where =
          std::to_string(round) + " at " + std::to_string(percent) + "%";
      if (!plain.feasible)
        continue;
      ASSERT_TRUE(refined.feasible) << where;
      EXPECT_LE(refined.evaluation.devicePeak, options.budget) << where;
      EXPECT_LE(refined.evaluation.time, plain.evaluation.time) << where;
      ++both;
      faster += refined.evaluation.time < plain.evaluation.time;
    }
  }
  EXPECT_GT(both, 60);
  EXPECT_GT(faster, 5);
}

TEST(OffloadPlanner, MonotoneOnRandomChains) {
  // Random training chains (issue 42, item 2): at a fixed budget a faster
  // link (twice the bandwidth) gives no slower plan, and over a fixed link
  // a larger budget (15 points of the store-all peak more) gives no slower
  // plan.
  std::mt19937 rng(3);
  int linkPairs = 0, budgetPairs = 0, linkBad = 0, budgetBad = 0;
  for (int round = 0; round < 30; ++round) {
    Problem p =
        randomChain(4 + static_cast<int>(rng() % 6), rng, round % 2 == 1);
    int64_t peak = evaluate(p, identitySchedule(p)).peak;
    std::vector<double> bandwidths = {4, 8, 16, 32, 64};
    std::vector<int> percents = {35, 50, 65, 80, 95};
    std::vector<std::vector<double>> time(
        percents.size(), std::vector<double>(bandwidths.size(), -1));
    for (size_t b = 0; b < percents.size(); ++b)
      for (size_t l = 0; l < bandwidths.size(); ++l) {
        OffloadPlanOptions options;
        options.budget = peak * percents[b] / 100;
        options.link = {bandwidths[l], bandwidths[l], 0.25};
        options.searchLeast = false;
        OffloadPlanResult r = planWithOffload(p, options);
        if (r.feasible)
          time[b][l] = r.evaluation.time;
      }
    for (size_t b = 0; b < percents.size(); ++b)
      for (size_t l = 0; l < bandwidths.size(); ++l) {
        if (time[b][l] < 0)
          continue;
        if (l + 1 < bandwidths.size()) {
          ++linkPairs;
          linkBad +=
              time[b][l + 1] < 0 || time[b][l + 1] > time[b][l] * (1 + 1e-12);
        }
        if (b + 1 < percents.size()) {
          ++budgetPairs;
          budgetBad +=
              time[b + 1][l] < 0 || time[b + 1][l] > time[b][l] * (1 + 1e-12);
        }
      }
  }
  // Measured: 248 link pairs and 171 budget pairs (226 and 149 before the
  // greedy waited for offloads at once: more budgets plan); without refine
  // 4 link pairs failed, and 2 with waits at once tried only where nothing
  // else lowers the peak (the second greedy, waits weighed at every step,
  // mends them). An observation on these chains,
  // not a guarantee: the planner is a heuristic.
  EXPECT_GT(linkPairs, 200);
  EXPECT_GT(budgetPairs, 120);
  EXPECT_EQ(linkBad, 0);
  EXPECT_EQ(budgetBad, 0);
}

//===----------------------------------------------------------------------===//
// The ILP with paging (Ilp.h)
//===----------------------------------------------------------------------===//

TEST(PagingIlp, SixOpsByHand) {
  if (!ilpAvailable())
    GTEST_SKIP() << "built without CBC";
  // sixOps with A not recomputable, at 120 B over 200 B/s: the program's
  // stages are A B C E F D. a (100 B) goes to the host in stage C (issued
  // when B ends, 0.5 s, within C's 1 s; C holds a, b, c: 120 B) and comes
  // back in stage D, which reads it there (issued when F ends; D holds f,
  // a, d: 120 B) and waits 0.5 s for it. Reloading it in stage F instead,
  // for D to read without a wait, would hold e, f and a: 210 B. So 6.5 s,
  // the joint planner's plan (BelowTheLeastBudgetOfRecomputation), and
  // recomputation has none.
  Problem p = sixOps();
  p.ops[0].recomputable = false;
  IlpOptions options;
  options.timeLimit = 0;
  options.paging = LinkSpec{200, 200, 0};
  IlpResult r = solveIlp(p, 120, options);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.status, IlpResult::Status::Optimal);
  EXPECT_EQ(r.schedule, (Schedule{0, 1, 2, 3, 4, 5}));
  ASSERT_EQ(r.transfers.size(), 1u);
  EXPECT_EQ(r.transfers[0].value, 1);
  EXPECT_EQ(r.transfers[0].after, 1u);
  EXPECT_EQ(r.transfers[0].waitAfter, 2u);
  EXPECT_EQ(r.transfers[0].reloadAfter, 4u);
  EXPECT_DOUBLE_EQ(r.programTime, 6.5);
  EXPECT_DOUBLE_EQ(r.cost, 6.5);
  EXPECT_DOUBLE_EQ(r.lowerBound, 6.5);
  EXPECT_EQ(r.evaluation.devicePeak, 120);
  // Without paging the program has nothing at 120 B; below 120 neither.
  options.paging.reset();
  EXPECT_EQ(solveIlp(p, 120, options).status, IlpResult::Status::Infeasible);
  options.paging = LinkSpec{200, 200, 0};
  EXPECT_EQ(solveIlp(p, 119, options).status, IlpResult::Status::Infeasible);
  // With A at 10 s and recomputable, the offload (15.5 s) beats running A
  // again before D (25 s).
  p.ops[0].recomputable = true;
  p.ops[0].cost = 10;
  IlpResult fast = solveIlp(p, 120, options);
  EXPECT_EQ(fast.status, IlpResult::Status::Optimal);
  EXPECT_DOUBLE_EQ(fast.cost, 15.5);
  EXPECT_EQ(fast.transfers.size(), 1u);
  // Over a link 100 times slower the copy costs 50 s: recompute (25 s).
  options.paging = LinkSpec{2, 2, 0};
  IlpResult slow = solveIlp(p, 120, options);
  EXPECT_EQ(slow.status, IlpResult::Status::Optimal);
  EXPECT_DOUBLE_EQ(slow.cost, 25);
  EXPECT_TRUE(slow.transfers.empty());
}

TEST(PagingIlp, ClaimsHoldOnRandomChains) {
  if (!ilpAvailable())
    GTEST_SKIP() << "built without CBC";
  // Random training chains (4 layers, a third of the forward ops fixed on
  // some), budgets from the store-all peak down to where the paging program
  // has nothing, two links. Without a time limit: CBC proves the paging
  // program's optimum, which needs its own last schedule to fit in
  // evaluateTransfers (the program's memory is the evaluator's); the plan's
  // evaluated time is at most its program time; the program's optimum is
  // at most recomputation's (its schedules are among the program's).
  std::mt19937 rng(7);
  int paged = 0, belowRecompute = 0, runs = 0;
  for (int round = 0; round < 24; ++round) {
    Problem p = randomChain(4, rng, round % 2 == 1);
    Evaluation all = evaluate(p, identitySchedule(p));
    LinkSpec link{round % 4 < 2 ? 16.0 : 64.0, round % 4 < 2 ? 16.0 : 64.0,
                  round % 3 == 0 ? 0.5 : 0.0};
    bool done = false;
    for (int64_t budget = all.peak; budget > 0 && !done; budget -= 8) {
      IlpOptions options;
      options.timeLimit = 0;
      IlpResult recompute = solveIlp(p, budget, options);
      options.paging = link;
      IlpResult r = solveIlp(p, budget, options);
      ASSERT_EQ(r.error, "");
      std::string where =
          "round " + std::to_string(round) + " at " + std::to_string(budget);
      if (r.schedule.empty()) {
        EXPECT_EQ(r.status, IlpResult::Status::Infeasible) << where;
        EXPECT_TRUE(recompute.schedule.empty()) << where;
        done = true;
        continue;
      }
      ++runs;
      EXPECT_EQ(r.status, IlpResult::Status::Optimal) << where;
      TransferEvaluation e =
          evaluateTransfers(p, r.schedule, r.transfers, link);
      ASSERT_TRUE(e.valid) << where << ": " << e.error;
      EXPECT_LE(e.devicePeak, budget) << where;
      EXPECT_DOUBLE_EQ(e.time, r.cost) << where;
      EXPECT_LE(r.cost, r.programTime * (1 + 1e-9)) << where;
      EXPECT_NEAR(r.lowerBound, r.programTime, 1e-6 * r.programTime) << where;
      if (!recompute.schedule.empty()) {
        EXPECT_LE(r.programTime, recompute.cost * (1 + 1e-9)) << where;
      }
      paged += !r.transfers.empty();
      belowRecompute += recompute.schedule.empty();
    }
  }
  // Measured: 235 plans, 101 copying, 48 under recomputation's least.
  EXPECT_GT(runs, 150);
  EXPECT_GT(paged, 50);          // plans that copy
  EXPECT_GT(belowRecompute, 20); // budgets only copies reach
}
