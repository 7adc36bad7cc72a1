//===- ChainSolverTest.cpp - Tests of the chain model, DP and strategies --===//

#include "HandChains.h"
#include "ckpt/Testing/NaiveChainDP.h"

#include "ckpt/Solver/Chain/ChainDP.h"
#include "ckpt/Solver/Chain/ChainJson.h"
#include "ckpt/Solver/Chain/ChainModel.h"
#include "ckpt/Solver/Chain/ChainStrategies.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace ckpt;
using namespace ckpt::solver;

namespace {

Strategy S(const char *name) {
  Strategy s;
  std::string err;
  EXPECT_TRUE(parseStrategy(name, s, err)) << err;
  return s;
}

/// Runs a strategy with exact sizes, checking the result's internal
/// consistency against the simulator.
StrategyResult runChecked(const Chain &c, const Strategy &s, int64_t memory,
                          int64_t slots = 0) {
  StrategyResult r = runStrategy(c, s, MemoryModel{memory, slots});
  EXPECT_EQ(r.error, "");
  if (r.feasible) {
    Chain u = toUnits(c, MemoryModel{memory, slots});
    Simulation sim = simulate(u, r.sequence);
    EXPECT_TRUE(sim.valid) << sim.error << " in " << toString(r.sequence);
    EXPECT_LE(sim.peak, slots ? slots : memory) << toString(r.sequence);
    EXPECT_EQ(sim.peak, r.peakUnits);
    EXPECT_DOUBLE_EQ(sim.makespan, r.makespan);
    Simulation exact = simulate(c, r.sequence);
    EXPECT_EQ(exact.peak, r.peak);
    EXPECT_LE(exact.peak, memory);
  }
  return r;
}

/// A random chain; wabar >= wa (abar includes a), as the model assumes.
Chain randomChain(std::mt19937 &rng, int L, int64_t maxSize, int maxTime,
                  bool fractionalTimes = false) {
  std::uniform_int_distribution<int64_t> size(0, maxSize),
      small(0, std::max<int64_t>(maxSize / 3, 1));
  std::uniform_int_distribution<int> time(0, maxTime);
  std::uniform_real_distribution<double> ftime(0, maxTime);
  Chain c;
  for (int i = 0; i <= L + 1; ++i) {
    c.wa.push_back(size(rng));
    c.wdelta.push_back(rng() % 2 ? c.wa.back() : size(rng));
  }
  for (int l = 1; l <= L + 1; ++l) {
    c.uf.push_back(fractionalTimes ? ftime(rng) : time(rng));
    c.ub.push_back(fractionalTimes ? ftime(rng) : time(rng));
    c.wabar.push_back(c.wa[l] + size(rng));
    c.of.push_back(small(rng));
    c.ob.push_back(small(rng));
  }
  EXPECT_EQ(c.validate(), "");
  return c;
}

} // namespace

//===----------------------------------------------------------------------===//
// Model and simulator
//===----------------------------------------------------------------------===//

TEST(ChainModel, ValidateNamesTheField) {
  Chain c = chain2();
  EXPECT_EQ(c.validate(), "");
  c.wa.pop_back();
  EXPECT_NE(c.validate().find("'wa'"), std::string::npos) << c.validate();
  c = chain2();
  c.ob[1] = -1;
  EXPECT_NE(c.validate().find("'ob'[1]"), std::string::npos);
  c = chain2();
  c.uf[0] = NAN;
  EXPECT_NE(c.validate().find("'uf'[0]"), std::string::npos);
  c = Chain();
  EXPECT_NE(c.validate(), "");
}

TEST(ChainModel, OpNames) {
  EXPECT_EQ(toString(Op{OpKind::FAll, 3}), "Fall3");
  EXPECT_EQ(toString(Op{OpKind::FCk, 1}), "Fck1");
  EXPECT_EQ(toString(Op{OpKind::FNone, 12}), "Fn12");
  EXPECT_EQ(toString(Op{OpKind::Backward, 2}), "B2");
  Op op;
  ASSERT_TRUE(parseOp("Fn12", op));
  EXPECT_EQ(op, (Op{OpKind::FNone, 12}));
  EXPECT_FALSE(parseOp("Fx1", op));
  EXPECT_FALSE(parseOp("B0", op));
  EXPECT_FALSE(parseOp("B", op));
  EXPECT_FALSE(parseOp("B1x", op));
}

TEST(ChainModel, SlotsRoundUp) {
  MemoryModel mm{24, 6}; // slots of 4
  EXPECT_EQ(mm.limit(), 6);
  EXPECT_EQ(mm.toUnits(0), 0);
  EXPECT_EQ(mm.toUnits(1), 1);
  EXPECT_EQ(mm.toUnits(4), 1);
  EXPECT_EQ(mm.toUnits(5), 2);
  MemoryModel odd{10, 3}; // slots of 10/3
  EXPECT_EQ(odd.toUnits(3), 1);
  EXPECT_EQ(odd.toUnits(4), 2); // 4 * 3 / 10 = 1.2 -> 2
  EXPECT_EQ(odd.toUnits(10), 3);
  MemoryModel exact{100, 0};
  EXPECT_EQ(exact.toUnits(37), 37);
  EXPECT_EQ(exact.limit(), 100);
}

TEST(Simulator, StoreAllByHand) {
  Chain c = chain2();
  Simulation s = simulate(c, storeAllSequence(2));
  ASSERT_TRUE(s.valid) << s.error;
  EXPECT_EQ(s.peak, 12); // a0 + d3 + abar1 + abar2 + abar3
  EXPECT_EQ(s.makespan, 11);
}

TEST(Simulator, RejectsMissingInputs) {
  Chain c = chain2();
  // B2 before B3: delta^2 missing.
  std::vector<Op> seq = {{OpKind::FAll, 1},
                         {OpKind::FAll, 2},
                         {OpKind::FAll, 3},
                         {OpKind::Backward, 2}};
  Simulation s = simulate(c, seq);
  EXPECT_FALSE(s.valid);
  EXPECT_EQ(s.errorIndex, 3u);
  EXPECT_NE(s.error.find("delta^2"), std::string::npos) << s.error;
  // F_none^1 frees a^0; F_all^1 later needs it.
  seq = {{OpKind::FNone, 1},
         {OpKind::FAll, 2},
         {OpKind::FAll, 3},
         {OpKind::Backward, 3},
         {OpKind::FAll, 1}};
  s = simulate(c, seq);
  EXPECT_FALSE(s.valid);
  EXPECT_EQ(s.errorIndex, 4u);
  // B needs abar, not a plain a.
  seq = {{OpKind::FCk, 1},
         {OpKind::FCk, 2},
         {OpKind::FCk, 3},
         {OpKind::Backward, 3}};
  EXPECT_FALSE(simulate(c, seq).valid);
  // Incomplete sequence.
  seq = {{OpKind::FAll, 1},
         {OpKind::FAll, 2},
         {OpKind::FAll, 3},
         {OpKind::Backward, 3}};
  s = simulate(c, seq);
  EXPECT_FALSE(s.valid);
  EXPECT_NE(s.error.find("delta^0"), std::string::npos);
  // Recomputing a value already held.
  seq = {{OpKind::FCk, 1}, {OpKind::FCk, 1}};
  EXPECT_FALSE(simulate(c, seq).valid);
}

TEST(Simulator, OverheadsCount) {
  Chain c = chain2();
  c.of = {0, 5, 0};
  c.ob = {0, 0, 7};
  Simulation s = simulate(c, storeAllSequence(2));
  ASSERT_TRUE(s.valid);
  // Fall2: a0 2 + d3 1 + abar1 4 + abar2 4 + of2 5 = 16;
  // B3: 2 + 1 + 4 + 4 + 1 + ob3 7 = 19.
  EXPECT_EQ(s.peak, 19);
}

//===----------------------------------------------------------------------===//
// Hand-computed chains
//===----------------------------------------------------------------------===//

TEST(ChainDP, OneStage) {
  Chain c;
  c.wa = {1, 1};
  c.wdelta = {1, 1};
  c.uf = {3};
  c.ub = {5};
  c.wabar = {2};
  c.of = {1};
  c.ob = {2};
  // m_all^{1,1} = max(1+2+1, 1+2+2) = 5, plus a^0: 6.
  EXPECT_EQ(minFeasibleLimit(c), 6);
  StrategyResult r = runChecked(c, S("optimal"), 5);
  EXPECT_FALSE(r.feasible);
  ASSERT_TRUE(r.minFeasibleMemory);
  EXPECT_EQ(*r.minFeasibleMemory, 6);
  r = runChecked(c, S("optimal"), 6);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.makespan, 8);
  EXPECT_EQ(r.peak, 6);
  EXPECT_EQ(toString(r.sequence), "Fall1 B1");
}

TEST(ChainDP, TwoStages) {
  Chain c;
  c.wa = {1, 1, 1};
  c.wdelta = {1, 1, 1};
  c.uf = {2, 1};
  c.ub = {3, 1};
  c.wabar = {4, 3};
  c.of = {0, 0};
  c.ob = {0, 0};
  // lo(1,2) = 5 (via F_ck^1), store-all needs 8; plus a^0.
  EXPECT_EQ(minFeasibleLimit(c), 6);
  for (int64_t M = 6; M <= 8; ++M) {
    StrategyResult r = runChecked(c, S("optimal"), M);
    ASSERT_TRUE(r.feasible);
    EXPECT_EQ(r.makespan, 9) << M; // uf1 recomputed
    EXPECT_EQ(toString(r.sequence), "Fck1 Fall2 B2 Fall1 B1");
  }
  StrategyResult r = runChecked(c, S("optimal"), 9);
  EXPECT_EQ(r.makespan, 7);
  EXPECT_EQ(toString(r.sequence), "Fall1 Fall2 B2 B1");
  EXPECT_EQ(r.peak, 9);
  EXPECT_FALSE(runChecked(c, S("optimal"), 5).feasible);
}

TEST(ChainDP, ThreeStages) {
  Chain c = chain2();
  EXPECT_EQ(minFeasibleLimit(c), 10);
  EXPECT_FALSE(runChecked(c, S("optimal"), 9).feasible);
  StrategyResult r = runChecked(c, S("optimal"), 10);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.makespan, 12);
  EXPECT_EQ(r.peak, 10);
  EXPECT_EQ(toString(r.sequence), "Fck1 Fall2 Fall3 B3 B2 Fall1 B1");
  EXPECT_EQ(runChecked(c, S("optimal"), 11).makespan, 12);
  r = runChecked(c, S("optimal"), 12);
  EXPECT_EQ(r.makespan, 11);
  EXPECT_EQ(toString(r.sequence), "Fall1 Fall2 Fall3 B3 B2 B1");

  r = runChecked(c, S("revolve"), 10);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.makespan, 14);
  EXPECT_EQ(toString(r.sequence), "Fck1 Fck2 Fall3 B3 Fall2 B2 Fall1 B1");
  r = runChecked(c, S("memory-poor"), 10);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.makespan, 15);
  EXPECT_EQ(r.peak, 10);
  r = runChecked(c, S("periodic:2"), 10);
  EXPECT_EQ(r.makespan, 12);
  EXPECT_EQ(toString(r.sequence), "Fck1 Fall2 Fall3 B3 B2 Fall1 B1");
}

TEST(ChainDP, ThreeStagesSlots) {
  Chain c = chain2();
  // 6 slots: M = 11 is infeasible, M = 12 (slots of 2 bytes) is feasible.
  StrategyResult r = runChecked(c, S("optimal"), 11, 6);
  EXPECT_FALSE(r.feasible);
  ASSERT_TRUE(r.minFeasibleMemory);
  EXPECT_EQ(*r.minFeasibleMemory, 12);
  r = runChecked(c, S("optimal"), 12, 6);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.makespan, 12);
  EXPECT_EQ(r.peakUnits, 6);
  EXPECT_EQ(r.peak, 10);
  // With too few slots, no memory is enough.
  r = runChecked(c, S("optimal"), 100, 2);
  EXPECT_FALSE(r.feasible);
  EXPECT_FALSE(r.minFeasibleMemory);
}

//===----------------------------------------------------------------------===//
// Strategies
//===----------------------------------------------------------------------===//

TEST(Strategies, Parse) {
  Strategy s;
  std::string err;
  EXPECT_TRUE(parseStrategy("periodic:4", s, err));
  EXPECT_EQ(s.kind, Strategy::Kind::Periodic);
  EXPECT_EQ(s.segments, 4);
  EXPECT_EQ(s.name(), "periodic:4");
  for (const char *bad : {"periodic:", "periodic:0", "periodic:-1",
                          "periodic:2x", "periodic", "best", ""}) {
    EXPECT_FALSE(parseStrategy(bad, s, err)) << bad;
    EXPECT_NE(err, "");
  }
  for (const char *good :
       {"optimal", "store-all", "sqrt", "revolve", "memory-poor"}) {
    ASSERT_TRUE(parseStrategy(good, s, err)) << good;
    EXPECT_EQ(s.name(), good);
  }
}

TEST(Strategies, PeriodicSequence) {
  // L = 7, K = 3: segments [1,2], [3,4] checkpointed, [5..7] + loss.
  EXPECT_EQ(toString(periodicSequence(7, 3)),
            "Fck1 Fn2 Fck3 Fn4 Fall5 Fall6 Fall7 Fall8 B8 B7 B6 B5 "
            "Fall3 Fall4 B4 B3 Fall1 Fall2 B2 B1");
  EXPECT_EQ(periodicSequence(7, 1), storeAllSequence(7));
  EXPECT_EQ(toString(memoryPoorSequence(2)),
            "Fck1 Fn2 Fall3 B3 Fck1 Fall2 B2 Fall1 B1");
  Chain c = chain2();
  StrategyResult r = runStrategy(c, S("periodic:3"), MemoryModel{100, 0});
  EXPECT_NE(r.error.find("1 <= K <= L"), std::string::npos) << r.error;
}

TEST(Strategies, SqrtUsesRoundedRoot) {
  std::mt19937 rng(7);
  Chain c = randomChain(rng, 10, 5, 5);
  StrategyResult a = runStrategy(c, S("sqrt"), MemoryModel{1000, 0});
  StrategyResult b = runStrategy(c, S("periodic:3"), MemoryModel{1000, 0});
  EXPECT_EQ(a.sequence, b.sequence); // round(sqrt(10)) = 3
}

//===----------------------------------------------------------------------===//
// Properties on random chains
//===----------------------------------------------------------------------===//

TEST(ChainProperties, RandomChainsExact) {
  std::mt19937 rng(12345);
  const char *baselines[] = {"store-all",   "sqrt",       "revolve",
                             "memory-poor", "periodic:1", "periodic:2",
                             "periodic:3"};
  for (int iter = 0; iter < 60; ++iter) {
    const int L = 1 + iter % 6;
    Chain c = randomChain(rng, L, 6, 6);
    std::optional<int64_t> minOpt, storeAll;
    std::string err;
    ASSERT_TRUE(minFeasibleMemory(c, S("optimal"), 0, minOpt, err)) << err;
    ASSERT_TRUE(minFeasibleMemory(c, S("store-all"), 0, storeAll, err));
    ASSERT_TRUE(minOpt && storeAll);
    EXPECT_LE(*minOpt, *storeAll);
    // Below the least feasible memory: infeasible.
    if (*minOpt > 1) {
      EXPECT_FALSE(runChecked(c, S("optimal"), *minOpt - 1).feasible);
    }
    double prev = INFINITY;
    for (int64_t M = *minOpt; M <= *storeAll + 2; ++M) {
      StrategyResult r = runChecked(c, S("optimal"), M);
      ASSERT_TRUE(r.feasible) << "M=" << M;
      // Makespan never increases with memory.
      EXPECT_LE(r.makespan, prev) << "M=" << M;
      prev = r.makespan;
      // Never worse than any baseline at the same memory.
      for (const char *b : baselines) {
        Strategy bs = S(b);
        if (bs.kind == Strategy::Kind::Periodic && bs.segments > L)
          continue;
        StrategyResult rb = runChecked(c, bs, M);
        if (rb.feasible) {
          EXPECT_LE(r.makespan, rb.makespan + 1e-9) << b << " M=" << M;
        }
      }
    }
    // With the store-all peak the optimum is the store-all makespan.
    EXPECT_DOUBLE_EQ(runChecked(c, S("optimal"), *storeAll).makespan,
                     c.storeAllMakespan());
  }
}

TEST(ChainProperties, MinFeasibleMemoryIsTight) {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 40; ++iter) {
    Chain c = randomChain(rng, 1 + iter % 5, 200, 5);
    const int64_t slots = 4 + iter % 9;
    for (const char *name :
         {"optimal", "revolve", "store-all", "memory-poor", "sqrt"}) {
      std::optional<int64_t> m;
      std::string err;
      ASSERT_TRUE(minFeasibleMemory(c, S(name), slots, m, err)) << err;
      if (!m) {
        EXPECT_FALSE(runChecked(c, S(name), 1 << 30, slots).feasible);
        continue;
      }
      EXPECT_TRUE(runChecked(c, S(name), *m, slots).feasible) << name;
      if (*m > 1) {
        EXPECT_FALSE(runChecked(c, S(name), *m - 1, slots).feasible) << name;
      }
    }
  }
}

// The same with large sizes and many slots, where the search bisects over
// the budgets at which a size's slot count drops rather than over every
// integer.
TEST(ChainProperties, MinFeasibleMemoryIsTightWithLargeSizes) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 30; ++iter) {
    Chain c = randomChain(rng, 2 + iter % 12, 10000000, 5);
    const int64_t slots = 50 + 37 * (iter % 13);
    for (const char *name : {"optimal", "revolve", "store-all"}) {
      std::optional<int64_t> m;
      std::string err;
      ASSERT_TRUE(minFeasibleMemory(c, S(name), slots, m, err)) << err;
      ASSERT_TRUE(m) << name;
      EXPECT_TRUE(runChecked(c, S(name), *m, slots).feasible) << name;
      EXPECT_FALSE(runChecked(c, S(name), *m - 1, slots).feasible)
          << name << " iter " << iter;
    }
  }
}

// The capped feasibility bound that the search runs on (16-, 32- and 64-bit
// integers by the cap, and on every kernel path through the ctest filters)
// is the exact bound, capped: below the cap, at it and above it, on chains
// long enough for rows of many vectors and a masked tail.
TEST(ChainProperties, CappedFeasibilityBoundIsTheBoundCapped) {
  std::mt19937 rng(57);
  int below = 0, above = 0;
  for (int iter = 0; iter < 60; ++iter) {
    const int L = 1 + static_cast<int>(rng() % 90);
    const int64_t maxSize = iter % 3 == 0 ? 40 : iter % 3 == 1 ? 5000 : 1 << 28;
    Chain c = randomChain(rng, L, maxSize, 5);
    const bool allowAll = iter % 4 != 1;
    const int64_t exact = minFeasibleLimit(c, allowAll);
    for (int64_t cap : {exact - 1, exact, exact + 1, exact / 2, 2 * exact,
                        int64_t(0), int64_t(1)}) {
      if (cap < 0)
        continue;
      EXPECT_EQ(minFeasibleLimit(c, allowAll, cap), std::min(exact, cap + 1))
          << "iter " << iter << " cap " << cap;
      (exact <= cap ? below : above) += 1;
    }
    EXPECT_EQ(
        minFeasibleLimit(c, allowAll, std::numeric_limits<int64_t>::max()),
        exact);
  }
  EXPECT_GT(below, 100);
  EXPECT_GT(above, 100);
}

// runStrategy starts the search for the least feasible memory from what the
// strategy needs at its own budget: from below the answer, above it, far
// above it and beyond the budget where every size is one slot, the answer
// is the one the search finds from scratch, itself checked tight above.
TEST(ChainProperties, MinFeasibleMemoryFromAnyBudgetIsTheSame) {
  std::mt19937 rng(31);
  for (int iter = 0; iter < 24; ++iter) {
    Chain c = randomChain(rng, 2 + iter % 12, 10000000, 5);
    const int64_t slots = 50 + 37 * (iter % 13);
    for (const char *name : {"optimal", "revolve", "store-all", "sqrt"}) {
      std::optional<int64_t> least;
      std::string err;
      ASSERT_TRUE(minFeasibleMemory(c, S(name), slots, least, err)) << err;
      ASSERT_TRUE(least) << name;
      const int64_t m = *least;
      SolveOptions opts;
      opts.withSequence = false;
      for (int64_t budget : {m / 8, m / 2, m * 7 / 8, m - 1, m, m + 1,
                             m * 9 / 8, 2 * m, 64 * m, int64_t(1) << 40}) {
        StrategyResult r =
            runStrategy(c, S(name), MemoryModel{budget, slots}, opts);
        ASSERT_EQ(r.error, "");
        EXPECT_EQ(r.feasible, budget >= m) << name << " at " << budget;
        ASSERT_TRUE(r.minFeasibleMemory) << name << " at " << budget;
        EXPECT_EQ(*r.minFeasibleMemory, m)
            << name << " at " << budget << " iter " << iter;
      }
    }
  }
}

// The fast solver against the naive [m][s][t] reference of Theorem 1.
TEST(ChainProperties, FastEqualsNaive) {
  std::mt19937 rng(2024);
  int compared = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    const int L = iter % 15;
    const bool slots = iter % 3 == 0;
    const bool frac = iter % 5 == 0;
    Chain c = randomChain(rng, L, slots ? 1000 : 7, 9, frac);
    const bool allowAll = iter % 4 != 1;
    MemoryModel mm;
    if (slots) {
      mm.slots = 10 + iter % 40;
      mm.memory = 300 + static_cast<int64_t>(rng() % 4000);
    } else {
      int64_t lo = minFeasibleLimit(c, allowAll);
      mm.memory = std::max<int64_t>(1, lo - 2 + rng() % 12);
    }
    Chain u = toUnits(c, mm);
    DPOptions opts;
    opts.allowAllChains = allowAll;
    // Small cache tiles, so that short chains exercise the tiled fill too.
    opts.tileColumns = 1 + iter % 4;
    opts.tileRows = 1 + (iter / 4) % 3;
    DPSolution fast = solveChainDP(u, mm.limit(), opts);
    ASSERT_EQ(fast.error, "");
    double ref = naive::solve<double>(u, mm.limit(), allowAll);
    ASSERT_EQ(fast.feasible, std::isfinite(ref))
        << "iter " << iter << " limit " << mm.limit();
    EXPECT_EQ(fast.minFeasibleLimit <= mm.limit(), fast.feasible);
    if (!fast.feasible)
      continue;
    ++compared;
    if (frac) {
      EXPECT_NEAR(fast.makespan, ref, 1e-4 * std::max(1.0, ref)) << iter;
    } else {
      EXPECT_EQ(fast.makespan, ref) << "iter " << iter;
    }
    Simulation sim = simulate(u, fast.sequence);
    ASSERT_TRUE(sim.valid) << sim.error;
    EXPECT_LE(sim.peak, mm.limit());
    EXPECT_DOUBLE_EQ(sim.makespan, fast.makespan);
  }
  EXPECT_GT(compared, 900);
}

// Larger chains: the threaded wavefront gives the single-threaded result and
// matches the reference.
TEST(ChainProperties, ThreadsAgreeOnLargerChains) {
  std::mt19937 rng(31337);
  for (int iter = 0; iter < 3; ++iter) {
    Chain c = randomChain(rng, 60 + 10 * iter, 1000, 20, iter == 2);
    MemoryModel mm{20000 + 5000 * iter, 60};
    Chain u = toUnits(c, mm);
    DPOptions one, two;
    one.threads = 1;
    two.threads = 2;
    two.tileColumns = 3 + iter; // any tiling gives the same table
    two.tileRows = 5 - iter;
    DPSolution a = solveChainDP(u, mm.limit(), one);
    DPSolution b = solveChainDP(u, mm.limit(), two);
    ASSERT_TRUE(a.feasible) << "pick a feasible budget for this test";
    ASSERT_EQ(a.feasible, b.feasible);
    EXPECT_EQ(a.sequence, b.sequence);
    EXPECT_EQ(a.makespan, b.makespan);
    double ref = naive::solve<double>(u, mm.limit());
    EXPECT_EQ(a.feasible, std::isfinite(ref));
    if (a.feasible && iter < 2) {
      EXPECT_EQ(a.makespan, ref); // integer durations: exact in float
    } else if (a.feasible) {
      EXPECT_NEAR(a.makespan, ref, 1e-4 * ref);
    }
  }
}

// One table for every limit (ChainDPTable: the top pair's whole row, so
// every row from its least feasible m) against a solve per limit (the top
// pair at one m, so rows only from where that one query reads them): the
// same sequences, the same makespans, and the naive reference's optimum.
// Fails when the rows are cut above a read (checked: without clamping a row
// read only on its constant extension to its hi, or with the reads of C2
// left out).
TEST(ChainProperties, OneTableForAllLimitsEqualsOneSolvePerLimit) {
  std::mt19937 rng(4242);
  int compared = 0;
  for (int iter = 0; iter < 60; ++iter) {
    const int L = 3 + iter % 20;
    const bool allowAll = iter % 5 != 2;
    Chain c = randomChain(rng, L, 1000, 9, iter % 7 == 3);
    const MemoryModel mm{3000 + static_cast<int64_t>(rng() % 6000), 40};
    const Chain u = toUnits(c, mm);
    DPOptions opts;
    opts.allowAllChains = allowAll;
    opts.threads = 1;
    std::string error;
    auto table = ChainDPTable::build(u, mm.slots, opts, error);
    ASSERT_TRUE(table) << error;
    for (int64_t limit = table->minFeasibleLimit() - 1; limit <= mm.slots;
         ++limit) {
      std::vector<Op> seq;
      double makespan = 0;
      const bool fromTable = table->solve(limit, seq, makespan);
      DPSolution one = solveChainDP(u, limit, opts);
      ASSERT_EQ(one.error, "");
      ASSERT_EQ(fromTable, one.feasible) << iter << " limit " << limit;
      const double ref = naive::solve<double>(u, limit, allowAll);
      ASSERT_EQ(one.feasible, std::isfinite(ref)) << iter << " " << limit;
      if (!fromTable)
        continue;
      ++compared;
      EXPECT_EQ(toString(seq), toString(one.sequence))
          << iter << " limit " << limit;
      EXPECT_EQ(makespan, one.makespan);
      EXPECT_NEAR(one.makespan, ref, 1e-4 * std::max(1.0, ref));
    }
  }
  EXPECT_GT(compared, 500);
}

TEST(ChainDP, ExactModeTooLargeIsAnError) {
  Chain c = chain2();
  for (auto *v : {&c.wa, &c.wdelta, &c.wabar})
    for (auto &x : *v)
      x = x * 1000000007LL + 1; // no common divisor to simplify
  DPOptions opts;
  opts.maxTableBytes = 1 << 20;
  // Every limit up to 2^40: the top row alone spans billions of values.
  std::string error;
  EXPECT_FALSE(ChainDPTable::build(c, int64_t(1) << 40, opts, error));
  EXPECT_NE(error.find("slots"), std::string::npos) << error;
  // One limit above the store-all peak reads each row only where it is
  // constant: a table of a few values, and the store-all schedule.
  DPSolution s = solveChainDP(c, int64_t(1) << 40, opts);
  EXPECT_EQ(s.error, "");
  ASSERT_TRUE(s.feasible);
  EXPECT_LE(s.tableBytes, 6 * sizeof(float));
  EXPECT_EQ(s.makespan, c.storeAllMakespan());
}

//===----------------------------------------------------------------------===//
// Sweep and JSON I/O
//===----------------------------------------------------------------------===//

TEST(Sweep, FromLeastFeasibleToStoreAll) {
  Chain c = chain2();
  std::vector<SweepPoint> pts;
  std::string err;
  ASSERT_TRUE(sweep(c, S("optimal"), 0, 3, pts, err)) << err;
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[0].memory, 10);
  EXPECT_EQ(pts[1].memory, 11);
  EXPECT_EQ(pts[2].memory, 12);
  EXPECT_EQ(pts[0].result.makespan, 12);
  EXPECT_EQ(pts[2].result.makespan, 11);
  ASSERT_TRUE(sweep(c, S("optimal"), 0, 10, pts, err));
  EXPECT_EQ(pts.size(), 3u); // duplicates removed
}

TEST(ChainJson, ParsesAndReportsFields) {
  ChainInput in;
  std::string err;
  const char *good = R"({"memory": 10, "wa": [2,2,2,1], "wdelta": [2,2,2,1],
      "uf": [1,2,1], "ub": [2,4,1], "of": [0,0,0], "ob": [0,0,0],
      "wabar": [4,4,1]})";
  ASSERT_TRUE(parseChain(good, in, err)) << err;
  EXPECT_EQ(in.chain.length(), 2);
  EXPECT_EQ(*in.memory, 10);
  EXPECT_FALSE(in.slots);
  // Round trip.
  ChainInput again;
  ASSERT_TRUE(parseChain(chainToJson(in.chain, 10), again, err)) << err;
  EXPECT_EQ(again.chain.wabar, in.chain.wabar);
  EXPECT_EQ(again.chain.uf, in.chain.uf);

  struct Case {
    const char *text;
    const char *expect;
  } cases[] = {
      {R"({"wa": [1,1], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [0]})",
       "missing field 'wabar'"},
      {R"({"wa": [1,1], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [-3], "wabar": [1]})",
       "ob[0]: must be non-negative, got -3"},
      {R"({"wa": [1,1,1], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [0], "wabar": [1]})",
       "wa: must have 2 entries (L+2, with L = 0 from 'uf'), got 3"},
      {R"({"wa": [1,1.5], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [0], "wabar": [1]})",
       "wa[1]: must be an integer, got 1.5"},
      {R"({"wa": [1,1], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [0], "wabar": [1], "memory": 0})",
       "memory: must be a positive integer"},
      {R"({"wa": [1,1], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [0], "wabar": [1], "slot": 5})",
       "unknown field 'slot'"},
      {R"({"wa": [1,1], "wdelta": [1,1], "uf": "x", "ub": [1]})",
       "uf: must be an array, got string"},
      {R"({"wa": [1,8796093022208], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [0], "wabar": [1]})",
       "wa[1]: too large (above 2^42)"},
      {R"({"wa": [1,1], "wdelta": [1,1], "uf": [1], "ub": [1], "of": [0],
          "ob": [0], "wabar": [1], "memory": 10, "memory": 11})",
       "2:50: duplicate key \"memory\""},
      {R"([1, 2])", "expected a JSON object"},
      {R"({"wa": [1,1],})", "trailing comma"},
  };
  for (const Case &c : cases) {
    EXPECT_FALSE(parseChain(c.text, in, err)) << c.text;
    EXPECT_NE(err.find(c.expect), std::string::npos)
        << "got: " << err << "\nwant: " << c.expect;
  }
}

TEST(ChainJson, ResultJson) {
  StrategyResult r = runStrategy(chain2(), S("optimal"), MemoryModel{10, 0});
  std::string out = resultToJson(r);
  EXPECT_EQ(out, R"({"strategy":"optimal","feasible":true,"memory":10,)"
                 R"("makespan":12,"peak":10,"min_feasible_memory":10,)"
                 R"("sequence":["Fck1","Fall2","Fall3","B3","B2","Fall1",)"
                 R"("B1"]})");
}
