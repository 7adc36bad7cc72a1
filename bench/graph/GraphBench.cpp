//===- GraphBench.cpp - Separator analysis benchmarks ---------------------===//
//
// Decomposition + separator chain on the Checkmate graphs (directory from
// $CKPT_CHECKMATE_DIR, else the compile-time default beside the repository)
// and on synthetic joint training graphs (ResNet family) of ~1k, 10k, 100k
// nodes. The Checkmate benchmarks report an error when the file is absent.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Graph/GraphJson.h"
#include "ckpt/Solver/Graph/Separators.h"
#include "ckpt/Solver/Graph/TreeDecomposition.h"
#include "ckpt/Testing/GraphFamilies.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <string>

using namespace ckpt::graph;

namespace {

const Graph *checkmate(const std::string &file) {
  static std::map<std::string, GraphReadResult> cache;
  auto it = cache.find(file);
  if (it == cache.end()) {
    const char *env = std::getenv("CKPT_CHECKMATE_DIR");
    std::string dir = env ? env : CKPT_CHECKMATE_DIR;
    it = cache.emplace(file, readGraphFile(dir + "/" + file)).first;
  }
  return it->second.ok ? &it->second.graph : nullptr;
}

void BM_CheckmateChain(benchmark::State &st, const char *file, Heuristic h) {
  const Graph *g = checkmate(file);
  if (!g) {
    st.SkipWithError("graph file not found (set CKPT_CHECKMATE_DIR)");
    return;
  }
  SeparatorOptions o;
  o.heuristic = h;
  size_t seps = 0;
  for (auto _ : st) {
    SeparatorChain c = separatorChain(*g, o);
    seps = c.separators.size();
    benchmark::DoNotOptimize(c);
  }
  st.counters["nodes"] = g->numNodes();
  st.counters["separators"] = static_cast<double>(seps);
}

void BM_CheckmateJointDecomposition(benchmark::State &st, const char *file,
                                    Heuristic h) {
  const Graph *g = checkmate(file);
  if (!g) {
    st.SkipWithError("graph file not found (set CKPT_CHECKMATE_DIR)");
    return;
  }
  UGraph u = undirectedView(*g, jointMask(*g));
  int w = 0;
  for (auto _ : st) {
    TreeDecomposition td = decompose(u, h);
    w = td.width();
    benchmark::DoNotOptimize(td);
  }
  st.counters["width"] = w;
}

/// Synthetic joint training graph: ResNet blocks, 6 nodes per block (3
/// forward, 3 backward), so range(0) nodes in total.
void BM_SyntheticChain(benchmark::State &st, Heuristic h) {
  Graph g = resNetGraph(static_cast<int>(st.range(0)) / 6);
  SeparatorOptions o;
  o.heuristic = h;
  size_t seps = 0;
  for (auto _ : st) {
    SeparatorChain c = separatorChain(g, o);
    seps = c.separators.size();
    benchmark::DoNotOptimize(c);
  }
  st.counters["nodes"] = g.numNodes();
  st.counters["separators"] = static_cast<double>(seps);
  st.SetComplexityN(g.numNodes());
}

void BM_SyntheticJointDecomposition(benchmark::State &st, Heuristic h) {
  Graph g = resNetGraph(static_cast<int>(st.range(0)) / 6);
  UGraph u = undirectedView(g, jointMask(g));
  for (auto _ : st) {
    TreeDecomposition td = decompose(u, h);
    benchmark::DoNotOptimize(td);
  }
  st.counters["nodes"] = g.numNodes();
  st.SetComplexityN(g.numNodes());
}

void BM_SyntheticArticulation(benchmark::State &st) {
  Graph g = resNetGraph(static_cast<int>(st.range(0)) / 6);
  for (auto _ : st) {
    SeparatorChain c = articulationChain(g);
    benchmark::DoNotOptimize(c);
  }
  st.SetComplexityN(g.numNodes());
}

const char *kRandom1000 =
    "random_layered_n1000_w0.31_nlv0.75_ed0.2_scd0.14.json";
const char *kResNet50 = "ResNet50_256_224_224_3_train_nx.json";

} // namespace

BENCHMARK_CAPTURE(BM_CheckmateChain, random_layered_n1000_minfill, kRandom1000,
                  Heuristic::MinFill)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CheckmateChain, random_layered_n1000_mindegree,
                  kRandom1000, Heuristic::MinDegree)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CheckmateChain, resnet50_minfill, kResNet50,
                  Heuristic::MinFill)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CheckmateJointDecomposition, resnet50_minfill, kResNet50,
                  Heuristic::MinFill)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SyntheticChain, minfill, Heuristic::MinFill)
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();
BENCHMARK_CAPTURE(BM_SyntheticChain, mindegree, Heuristic::MinDegree)
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();
BENCHMARK_CAPTURE(BM_SyntheticJointDecomposition, minfill, Heuristic::MinFill)
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();
BENCHMARK(BM_SyntheticArticulation)
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();

BENCHMARK_MAIN();
