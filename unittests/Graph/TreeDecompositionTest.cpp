//===- TreeDecompositionTest.cpp - Elimination, validation, exact tw ------===//

#include "ckpt/Solver/Graph/TreeDecomposition.h"
#include "ckpt/Testing/GraphFamilies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace ckpt::graph;

namespace {

UGraph cycle(int n) {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i)
    e.emplace_back(i, (i + 1) % n);
  return UGraph(n, e);
}
UGraph clique(int n) {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      e.emplace_back(i, j);
  return UGraph(n, e);
}
UGraph grid(int r, int c) {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) {
      if (i + 1 < r)
        e.emplace_back(i * c + j, (i + 1) * c + j);
      if (j + 1 < c)
        e.emplace_back(i * c + j, i * c + j + 1);
    }
  return UGraph(r * c, e);
}
UGraph petersen() {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < 5; ++i) {
    e.emplace_back(i, (i + 1) % 5);
    e.emplace_back(i, i + 5);
    e.emplace_back(5 + i, 5 + (i + 2) % 5);
  }
  return UGraph(10, e);
}
UGraph randomGraph(int n, int m, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < m; ++i)
    e.emplace_back(static_cast<int>(rng() % n), static_cast<int>(rng() % n));
  return UGraph(n, e);
}

void expectValid(const UGraph &g, const TreeDecomposition &td) {
  std::string why;
  EXPECT_TRUE(validate(g, td, &why)) << why;
}

} // namespace

TEST(TreeDecomposition, KnownWidths) {
  struct Case {
    UGraph g;
    int tw;
  } cases[] = {{cycle(8), 2},   {clique(6), 5},
               {grid(3, 3), 3}, {grid(4, 5), 4},
               {petersen(), 4}, {UGraph(3, {{0, 1}, {1, 2}}), 1}};
  for (auto &c : cases) {
    EXPECT_EQ(exactTreewidth(c.g), c.tw);
    for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
      TreeDecomposition td = decompose(c.g, h);
      expectValid(c.g, td);
      EXPECT_GE(td.width(), c.tw);
    }
  }
  EXPECT_EQ(exactTreewidth(grid(6, 6)), -1); // too large
}

TEST(TreeDecomposition, ValidatorRejectsBrokenDecompositions) {
  UGraph g = cycle(5);
  TreeDecomposition td = decompose(g, Heuristic::MinFill);
  ASSERT_TRUE(validate(g, td));
  TreeDecomposition missingEdge = td;
  for (auto &b : missingEdge.bags)
    b.erase(std::remove(b.begin(), b.end(), 0), b.end());
  EXPECT_FALSE(validate(g, missingEdge));
  TreeDecomposition twoRoots = td;
  twoRoots.parent[0] = -1;
  std::string why;
  if (td.parent[0] != -1) {
    EXPECT_FALSE(validate(g, twoRoots, &why));
  }
  // Disconnected occurrences: a chain of three bags {0,1} {1,2} {0,2}... with
  // vertex 0 in the two ends only.
  UGraph path(3, {{0, 1}, {1, 2}, {0, 2}});
  TreeDecomposition bad;
  bad.bags = {{0, 1}, {1, 2}, {0, 2}};
  bad.parent = {-1, 0, 1};
  EXPECT_FALSE(validate(path, bad, &why));
  EXPECT_NE(why.find("not connected"), std::string::npos);
}

TEST(TreeDecomposition, RandomGraphsValidAndBothEnginesAgree) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    int n = 10 + static_cast<int>(seed) * 7;
    UGraph g = randomGraph(n, 2 * n, seed);
    for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
      auto a = eliminationOrderForTesting(g, h, true);
      auto b = eliminationOrderForTesting(g, h, false);
      EXPECT_EQ(a, b) << "seed " << seed;
      TreeDecomposition td = decompose(g, h);
      expectValid(g, td);
      EXPECT_EQ(td.width(), orderWidth(g, a));
      expectValid(g, decomposeWithOrder(g, a));
    }
    if (n <= 22) {
      int ex = exactTreewidth(g);
      EXPECT_LE(ex, decompose(g, Heuristic::MinFill).width());
    }
  }
}

TEST(TreeDecomposition, ListEngineOnLargeSparseGraph) {
  // Above the bitset threshold: adjacency-list engine, still valid.
  Graph g = resNetGraph(2000);
  UGraph u = undirectedView(g, jointMask(g));
  ASSERT_GT(u.numVertices(), 4096);
  TreeDecomposition td = decompose(u, Heuristic::MinFill);
  expectValid(u, td);
  EXPECT_EQ(td.width(), 4);
}

namespace {
struct FamCase {
  Family f;
  int k;
  int smallDepth;
  int jointExact;   // measured, see docs/SEPARATORS.md
  int forwardExact; // measured
};
const FamCase kFamilies[] = {
    {Family::FeedForward, 0, 10, 2, 1}, {Family::ResNet, 0, 3, 4, 2},
    {Family::Towers, 2, 2, 4, 2},       {Family::Towers, 3, 2, 4, 2},
    {Family::Towers, 4, 1, 4, 2},       {Family::GlobalStats, 1, 6, 3, 2},
    {Family::GlobalStats, 2, 5, 4, 3},  {Family::GlobalStats, 3, 4, 5, 4},
    {Family::Skip, 2, 9, 4, 2},         {Family::Skip, 3, 8, 6, 3},
};
} // namespace

TEST(Families, MinFillEqualsExactAtSmallSizes) {
  for (const FamCase &c : kFamilies)
    for (bool joint : {true, false}) {
      Graph g = familyGraph(c.f, c.k, c.smallDepth, joint);
      UGraph u = undirectedView(g, joint ? jointMask(g) : forwardMask(g));
      ASSERT_LE(u.numVertices(), 25);
      int ex = exactTreewidth(u);
      TreeDecomposition td = decompose(u, Heuristic::MinFill);
      expectValid(u, td);
      expectValid(u, decompose(u, Heuristic::MinDegree));
      SCOPED_TRACE(std::string(familyName(c.f)) + " k=" + std::to_string(c.k) +
                   (joint ? " joint" : " forward"));
      EXPECT_EQ(td.width(), ex);
      EXPECT_EQ(ex, joint ? c.jointExact : c.forwardExact);
    }
}

TEST(Families, WidthDoesNotGrowWithDepth) {
  for (const FamCase &c : kFamilies)
    for (bool joint : {true, false}) {
      int w0 = -1;
      for (int depth : {30, 300, 3000}) {
        Graph g = familyGraph(c.f, c.k,
                              c.f == Family::ResNet ? depth / 3 : depth, joint);
        UGraph u = undirectedView(g, joint ? jointMask(g) : forwardMask(g));
        TreeDecomposition td = decompose(u, Heuristic::MinFill);
        expectValid(u, td);
        if (w0 < 0)
          w0 = td.width();
        SCOPED_TRACE(std::string(familyName(c.f)) + " k=" +
                     std::to_string(c.k) + " depth " + std::to_string(depth));
        EXPECT_EQ(td.width(), w0);
        EXPECT_EQ(td.width(), joint ? c.jointExact : c.forwardExact);
      }
    }
}
