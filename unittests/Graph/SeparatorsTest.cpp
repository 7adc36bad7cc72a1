//===- SeparatorsTest.cpp - Separator chains and stages -------------------===//

#include "ckpt/Solver/GraphFamilies.h"
#include "ckpt/Solver/GraphJson.h"
#include "ckpt/Solver/Separators.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

using namespace ckpt::graph;

namespace {

/// Everything the issue asks of a chain, checked independently of
/// validateChain as well.
void checkChain(const Graph &g, const SeparatorChain &c) {
  std::string why;
  ASSERT_TRUE(validateChain(g, c, &why)) << why;
  // Every separator really separates the inputs from the loss.
  for (size_t j = 0; j < c.separators.size(); ++j)
    EXPECT_TRUE(separates(g, c.separators[j].members)) << "separator " << j;
  // Stages partition the forward ops.
  std::vector<int> seen(g.numNodes(), 0);
  for (const Stage &st : c.stages)
    for (int v : st.nodes)
      ++seen[v];
  for (int v = 0; v < g.numNodes(); ++v)
    EXPECT_EQ(seen[v], g.isForwardOp(v) ? 1 : 0) << g.node(v).name;
  // Ordered: every member of S_{j+1} is in S_j or after it (not reachable
  // from the entries without passing S_j).
  for (size_t j = 0; j + 1 < c.separators.size(); ++j)
    for (int v : c.separators[j + 1].members) {
      const auto &prev = c.separators[j].members;
      bool kept = std::binary_search(prev.begin(), prev.end(), v);
      EXPECT_TRUE(kept || c.stageOf[v] == static_cast<int>(j) + 1)
          << g.node(v).name << " in separator " << j + 1;
    }
  // Bytes and stage bookkeeping.
  for (size_t j = 0; j < c.stages.size(); ++j) {
    const Stage &st = c.stages[j];
    EXPECT_EQ(st.inputSeparator, static_cast<int>(j) - 1);
    uint64_t br = 0;
    for (int v : st.backwardReads) {
      br += g.node(v).bytes;
      bool readByBwd = false;
      for (int w : g.succ(v))
        readByBwd |= g.node(w).backward;
      EXPECT_TRUE(readByBwd);
    }
    EXPECT_EQ(br, st.backwardReadBytes);
  }
}

std::vector<size_t> sizes(const SeparatorChain &c) {
  std::vector<size_t> s;
  for (auto &sep : c.separators)
    s.push_back(sep.members.size());
  return s;
}

Graph diamond() {
  // x -> a -> {b, c} -> d -> loss
  Graph g;
  int x = g.addNode("x", false, 0, 1, true);
  int a = g.addNode("a", false, 1, 10);
  int b = g.addNode("b", false, 1, 20);
  int c = g.addNode("c", false, 1, 30);
  int d = g.addNode("d", false, 1, 40);
  int l = g.addNode("loss", false, 1, 1);
  g.addEdge(x, a);
  g.addEdge(a, b);
  g.addEdge(a, c);
  g.addEdge(b, d);
  g.addEdge(c, d);
  g.addEdge(d, l);
  g.finalize();
  return g;
}

} // namespace

TEST(Separators, DiamondForward) {
  Graph g = diamond();
  for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
    SeparatorOptions o;
    o.heuristic = h;
    SeparatorChain c = separatorChain(g, o);
    checkChain(g, c);
    // a | {b, c} | d   (the loss closes the last stage).
    ASSERT_EQ(c.separators.size(), 3u);
    EXPECT_EQ(c.separators[0].members, std::vector<int>{1});
    EXPECT_EQ(c.separators[1].members, (std::vector<int>{2, 3}));
    EXPECT_EQ(c.separators[1].bytes, 50u);
    EXPECT_EQ(c.separators[2].members, std::vector<int>{4});
    ASSERT_EQ(c.stages.size(), 4u);
    EXPECT_EQ(c.stages[1].nodes, (std::vector<int>{2, 3}));
    EXPECT_EQ(c.stages[3].nodes, std::vector<int>{5});
    EXPECT_EQ(c.stages[1].inputBytes, 10u);
    EXPECT_EQ(c.stages[1].outputBytes, 50u);
  }
  SeparatorChain a = articulationChain(g);
  checkChain(g, a);
  EXPECT_EQ(sizes(a), (std::vector<size_t>{1, 1}));
}

TEST(Separators, JointDiamondBackwardReads) {
  Graph g = withBackward(diamond());
  SeparatorChain c = separatorChain(g);
  checkChain(g, c);
  ASSERT_EQ(c.stages.size(), 4u);
  // d_b reads b and a; d_c reads c and a; d_d reads d, b, c.
  EXPECT_EQ(c.stages[1].backwardReads, (std::vector<int>{2, 3}));
  EXPECT_EQ(c.stages[1].backwardReadBytes, 50u);
  EXPECT_EQ(c.stages[0].cost, 1.0);
}

TEST(Separators, CandidatesThatDoNotSeparateAreDropped) {
  Graph g = diamond();
  // {b} alone does not separate; {c, a}: a is before c -> trimmed to {a};
  // {b, c} separates; {a} after {b, c} is out of order.
  SeparatorChain c =
      chainFromCandidates(g, {{2}, {1, 3}, {2, 3}, {1}, {4}});
  checkChain(g, c);
  ASSERT_EQ(c.separators.size(), 3u);
  EXPECT_EQ(c.separators[0].members, std::vector<int>{1});
  EXPECT_EQ(c.separators[1].members, (std::vector<int>{2, 3}));
  EXPECT_EQ(c.separators[2].members, std::vector<int>{4});
}

TEST(Separators, MemberFedFromLaterStageIsRejected) {
  // x -> a -> b -> c -> loss, a -> c: {a, c} separates (every path meets a)
  // but c reads b, which lies after a: it is not a valid stage boundary.
  Graph g;
  int x = g.addNode("x", false, 0, 1, true);
  int a = g.addNode("a", false, 1, 1);
  int b = g.addNode("b", false, 1, 1);
  int c = g.addNode("c", false, 1, 1);
  int l = g.addNode("loss", false, 1, 1);
  g.addEdge(x, a);
  g.addEdge(a, b);
  g.addEdge(b, c);
  g.addEdge(a, c);
  g.addEdge(c, l);
  g.finalize();
  SeparatorChain ch = chainFromCandidates(g, {{a, c}, {c}}, false);
  checkChain(g, ch);
  for (auto &s : ch.separators)
    EXPECT_NE(s.members, (std::vector<int>{a, c}));
}

TEST(Separators, Families) {
  struct Case {
    Family f;
    int k;
    int depth;
    size_t expectSepMax;
  } cases[] = {{Family::FeedForward, 0, 50, 1}, {Family::ResNet, 0, 20, 1},
               {Family::Towers, 2, 20, 2},      {Family::GlobalStats, 2, 30, 3},
               {Family::Skip, 3, 40, 3},        {Family::Towers, 3, 5, 3}};
  for (auto &cs : cases)
    for (bool joint : {true, false}) {
      SCOPED_TRACE(std::string(familyName(cs.f)) + (joint ? " joint" : " fwd"));
      Graph g = familyGraph(cs.f, cs.k, cs.depth, joint);
      for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
        SeparatorOptions o;
        o.heuristic = h;
        SeparatorChain c = separatorChain(g, o);
        checkChain(g, c);
        EXPECT_GE(c.stages.size(), 2u);
        for (auto &s : c.separators)
          EXPECT_LE(s.members.size(), cs.expectSepMax);
      }
      SeparatorChain a = articulationChain(g);
      checkChain(g, a);
      for (auto &s : a.separators)
        EXPECT_EQ(s.members.size(), 1u);
    }
  // Shapes: the chain of a feed-forward net is every layer; a ResNet's are
  // the block outputs (and the stem); two towers give pairs.
  Graph ff = feedForwardGraph(10);
  EXPECT_EQ(separatorChain(ff).separators.size(), 10u); // f1..f10
  EXPECT_EQ(articulationChain(ff).separators.size(), 10u);
  Graph rn = resNetGraph(5);
  SeparatorChain rc = separatorChain(rn);
  EXPECT_GE(rc.separators.size(), 6u);
  Graph tw = towersGraph(2, 10);
  SeparatorChain tc = separatorChain(tw);
  size_t pairs = 0;
  for (auto &s : tc.separators)
    pairs += s.members.size() == 2;
  EXPECT_EQ(pairs, 10u);
  EXPECT_EQ(articulationChain(tw).separators.size(), 2u); // stem, merge
}

TEST(Separators, MultipleLossesUseVirtualSink) {
  // x -> a -> b -> l1, a -> l2: both l1 and l2 are losses.
  Graph g;
  int x = g.addNode("x", false, 0, 1, true);
  int a = g.addNode("a", false, 1, 1);
  int b = g.addNode("b", false, 1, 1);
  int l1 = g.addNode("l1", false, 1, 1);
  int l2 = g.addNode("l2", false, 1, 1);
  g.addEdge(x, a);
  g.addEdge(a, b);
  g.addEdge(b, l1);
  g.addEdge(a, l2);
  g.finalize();
  EXPECT_EQ(g.lossNodes(), (std::vector<int>{l1, l2}));
  SeparatorChain c = separatorChain(g);
  checkChain(g, c);
  ASSERT_GE(c.separators.size(), 1u);
  EXPECT_EQ(c.separators[0].members, std::vector<int>{a});
  SeparatorChain ac = articulationChain(g);
  checkChain(g, ac);
  EXPECT_EQ(sizes(ac), std::vector<size_t>{1});
}

TEST(Separators, EmptyAndTrivialGraphs) {
  Graph e;
  e.finalize();
  SeparatorChain c = separatorChain(e);
  EXPECT_TRUE(c.stages.empty());
  EXPECT_TRUE(validateChain(e, c));
  Graph one;
  one.addNode("loss", false, 1, 1);
  one.finalize();
  SeparatorChain c1 = separatorChain(one);
  checkChain(one, c1);
  EXPECT_EQ(c1.stages.size(), 1u);
}

TEST(Separators, CheckmateGraphs) {
  const char *files[] = {
      "VGG16_256_224_224_3_train_nx.json",
      "VGG19_256_224_224_3_train_nx.json",
      "fcn_8_vgg_32_416_608_3_train_nx.json",
      "vgg_unet_32_416_608_3_train_nx.json",
      "segnet_32_416_608_3_train_nx.json",
      "MobileNet_512_224_224_3_train_nx.json",
      "ResNet50_256_224_224_3_train_nx.json",
      "random_layered_n100_w0.27_nlv0.75_ed0.2_scd0.14.json",
      "random_layered_n500_w0.36_nlv0.75_ed0.2_scd0.14.json",
      "random_layered_n1000_w0.31_nlv0.75_ed0.2_scd0.14.json"};
  int found = 0;
  for (const char *f : files) {
    std::string path = std::string(CKPT_CHECKMATE_DIR) + "/" + f;
    if (!std::ifstream(path).good())
      continue;
    ++found;
    SCOPED_TRACE(f);
    GraphReadResult r = readGraphFile(path);
    ASSERT_TRUE(r.ok) << r.error;
    for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
      for (bool joint : {true, false}) {
        UGraph u = undirectedView(r.graph, joint ? jointMask(r.graph)
                                                 : forwardMask(r.graph));
        TreeDecomposition td = decompose(u, h);
        std::string why;
        EXPECT_TRUE(validate(u, td, &why)) << why;
      }
      SeparatorOptions o;
      o.heuristic = h;
      checkChain(r.graph, separatorChain(r.graph, o));
    }
    checkChain(r.graph, articulationChain(r.graph));
  }
  if (found == 0)
    GTEST_SKIP() << "Checkmate graphs not found in " << CKPT_CHECKMATE_DIR;
}
