//===- ChainDPBench.cpp - Google Benchmark of the chain DP ----------------===//
//
// Times the optimal persistent DP (Theorem 1 + Algorithm 2) on synthetic
// ResNet-like heterogeneous chains, L in {50, 100, 200, 339, 500} (339 is
// ResNet-1001's chain), S = 500 slots, budget = a fraction of the store-all
// peak. Counters: makespan / store-all makespan, DP table size, the
// process's peak RSS so far.
//
//   ckpt-bench-chain                 # the fast solver
//   ckpt-bench-chain --naive         # + the naive [m][s][t] reference of
//                                    #   the unit tests, once, for L = 339
//   CKPT_ISA=avx2 ckpt-bench-chain   # the AVX2 kernels (generic: the x86-64
//                                    #   baseline), on a CPU that has more;
//                                    #   the context line chain_kernel_isa
//                                    #   says which ran
//   ckpt-bench-chain --write-chain=L:S:PCT:FILE
//                                    # writes that chain and budget as a
//                                    # ckpt-chain input file, and exits
//
// The naive run is last, so the RSS counters of the fast runs do not
// include it.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Testing/NaiveChainDP.h"

#include "ckpt/Solver/Chain/ChainDP.h"
#include "ckpt/Solver/Chain/ChainJson.h"
#include "ckpt/Solver/Chain/ChainModel.h"
#include "ckpt/Solver/Chain/ChainStrategies.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sys/resource.h>

using namespace ckpt::solver;

namespace {

/// A deterministic ResNet-like chain of L stages plus the loss: four
/// resolution groups whose activations halve from one group to the next,
/// abar 3-5x the block output, per-stage jitter on sizes and durations.
/// Sizes in bytes (an 8-GiB-class network), durations in ms.
Chain resnetLikeChain(int L, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(0.8, 1.2), abarRatio(3, 5);
  Chain c;
  auto groupSize = [&](int i) {
    int g = std::min(3, i * 4 / std::max(L, 1));
    return 64.0 * (1 << 20) / (1 << g); // 64 MiB, 32, 16, 8
  };
  for (int i = 0; i <= L + 1; ++i) {
    double s = i == L + 1 ? 4.0 : groupSize(i) * jitter(rng);
    c.wa.push_back(static_cast<int64_t>(s));
    c.wdelta.push_back(static_cast<int64_t>(s));
  }
  for (int l = 1; l <= L + 1; ++l) {
    const bool loss = l == L + 1;
    double f = loss ? 0.1 : 2.0 * jitter(rng);
    c.uf.push_back(f);
    c.ub.push_back(loss ? 0.1 : 2.0 * f * jitter(rng));
    c.wabar.push_back(loss ? c.wa[l]
                           : static_cast<int64_t>(c.wa[l] * abarRatio(rng)));
    c.of.push_back(static_cast<int64_t>(c.wa[l] * 0.5 * jitter(rng)));
    c.ob.push_back(static_cast<int64_t>(c.wa[l] * 1.0 * jitter(rng)));
  }
  return c;
}

double peakRssMB() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0; // KiB on Linux
}

struct Setup {
  Chain chain, units;
  MemoryModel budget;
};

Setup makeSetup(int L, int S, int percent) {
  Setup s;
  s.chain = resnetLikeChain(L);
  int64_t storeAll = simulate(s.chain, storeAllSequence(L)).peak;
  s.budget = MemoryModel{storeAll * percent / 100, S};
  s.units = toUnits(s.chain, s.budget);
  return s;
}

/// Args: L, S, budget in % of the store-all peak.
void BM_ChainDP(benchmark::State &state) {
  Setup s = makeSetup(static_cast<int>(state.range(0)),
                      static_cast<int>(state.range(1)),
                      static_cast<int>(state.range(2)));
  DPSolution sol;
  for (auto _ : state) {
    sol = solveChainDP(s.units, s.budget.limit());
    // (Not DoNotOptimize(double): benchmark 1.7's "+m,r" constraint can
    // corrupt a double with GCC.)
    benchmark::DoNotOptimize(sol.sequence.data());
  }
  state.counters["feasible"] = sol.feasible;
  state.counters["overhead"] = sol.makespan / s.chain.storeAllMakespan();
  state.counters["table_MB"] = sol.tableBytes / 1048576.0;
  state.counters["peak_rss_MB"] = peakRssMB();
}

void BM_NaiveChainDP(benchmark::State &state) {
  Setup s = makeSetup(static_cast<int>(state.range(0)),
                      static_cast<int>(state.range(1)),
                      static_cast<int>(state.range(2)));
  double c = 0;
  for (auto _ : state) {
    c = naive::solve<double>(s.units, s.budget.limit());
    benchmark::ClobberMemory();
  }
  DPSolution fast = solveChainDP(s.units, s.budget.limit());
  state.counters["overhead"] = c / s.chain.storeAllMakespan();
  state.counters["matches_fast"] =
      std::fabs(c - fast.makespan) <= 1e-5 * std::max(1.0, std::fabs(c));
  state.counters["peak_rss_MB"] = peakRssMB();
}

} // namespace

BENCHMARK(BM_ChainDP)
    ->ArgNames({"L", "S", "pct"})
    ->ArgsProduct({{50, 100, 200, 339, 500}, {500}, {50}})
    ->Args({339, 500, 25})
    ->Args({339, 500, 75})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

int main(int argc, char **argv) {
  bool naive = false;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--naive") == 0) {
      naive = true;
    } else if (std::strncmp(argv[i], "--write-chain=", 14) == 0) {
      int L = 0, S = 0, pct = 0, used = 0;
      if (std::sscanf(argv[i] + 14, "%d:%d:%d:%n", &L, &S, &pct, &used) != 3 ||
          used == 0 || L < 1 || S < 0 || pct < 1) {
        std::fprintf(stderr, "usage: --write-chain=L:S:PCT:FILE\n");
        return 1;
      }
      Setup s = makeSetup(L, S, pct);
      std::ofstream file(argv[i] + 14 + used);
      file << chainToJson(s.chain, s.budget.memory,
                          S ? std::optional<int64_t>(S) : std::nullopt, 1)
           << "\n";
      return file ? 0 : 1;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::AddCustomContext("chain_kernel_isa",
                              ckpt::solver::chainKernelIsa());
  if (naive)
    benchmark::RegisterBenchmark("BM_NaiveChainDP", BM_NaiveChainDP)
        ->ArgNames({"L", "S", "pct"})
        ->Args({339, 500, 50})
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
