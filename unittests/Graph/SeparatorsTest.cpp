//===- SeparatorsTest.cpp - Separator chains and stages -------------------===//

#include "ckpt/Solver/Graph/Separators.h"
#include "ckpt/Solver/Graph/GraphJson.h"
#include "ckpt/Testing/GraphFamilies.h"

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
  // Every separator really separates the inputs (the anchors, when some ops
  // float) from the loss.
  std::vector<char> floating(g.numNodes(), 0);
  for (int v : c.floating)
    floating[v] = 1;
  for (size_t j = 0; j < c.separators.size(); ++j)
    EXPECT_TRUE(separates(g, c.separators[j].members, &floating))
        << "separator " << j;
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

/// A 4-layer chain with a bias broadcast feeding the last layer (the
/// importer pattern): inputs x, b; a1 (reads x) -> a2 -> a3 -> a4 -> m ->
/// loss; bc reads b only, m reads a4 and bc. With `alsoRead` = i (2 or 3),
/// a_i reads bc as well.
struct BiasGraph {
  Graph g;
  int x, b, a1, a2, a3, a4, bc, m, loss;
};
BiasGraph biasGraph(int alsoRead = 0) {
  BiasGraph r;
  Graph &g = r.g;
  r.x = g.addNode("x", false, 0, 1, true);
  r.b = g.addNode("b", false, 0, 1, true);
  r.a1 = g.addNode("a1", false, 1, 10);
  r.a2 = g.addNode("a2", false, 1, 10);
  r.a3 = g.addNode("a3", false, 1, 10);
  r.a4 = g.addNode("a4", false, 1, 10);
  r.bc = g.addNode("bc", false, 1, 5);
  r.m = g.addNode("m", false, 1, 20);
  r.loss = g.addNode("loss", false, 1, 1);
  g.addEdge(r.x, r.a1);
  g.addEdge(r.a1, r.a2);
  g.addEdge(r.a2, r.a3);
  g.addEdge(r.a3, r.a4);
  g.addEdge(r.a4, r.m);
  g.addEdge(r.b, r.bc);
  g.addEdge(r.bc, r.m);
  if (alsoRead == 2)
    g.addEdge(r.bc, r.a2);
  if (alsoRead == 3)
    g.addEdge(r.bc, r.a3);
  g.addEdge(r.m, r.loss);
  g.finalize();
  return r;
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
  SeparatorChain c = chainFromCandidates(g, {{2}, {1, 3}, {2, 3}, {1}, {4}});
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

TEST(Separators, AnchorsAndFloatingOps) {
  BiasGraph r = biasGraph();
  // Longest forward paths to the loss: a1 6 ops (a1 a2 a3 a4 m loss), bc 3.
  EXPECT_EQ(r.g.entryNodes(), (std::vector<int>{r.a1, r.bc}));
  EXPECT_EQ(anchorNodes(r.g), std::vector<int>{r.a1});
  std::vector<char> f = floatingOps(r.g);
  for (int v = 0; v < r.g.numNodes(); ++v)
    EXPECT_EQ(f[v], v == r.bc ? 1 : 0) << r.g.node(v).name;
  // bc -> m -> loss bypasses {a2}, unless bc floats.
  EXPECT_FALSE(separates(r.g, {r.a2}));
  EXPECT_TRUE(separates(r.g, {r.a2}, &f));

  // Two inputs of the same depth (p reads x, q reads y, r reads both): both
  // are anchors, nothing floats.
  Graph g;
  int x = g.addNode("x", false, 0, 1, true);
  int y = g.addNode("y", false, 0, 1, true);
  int p = g.addNode("p", false, 1, 1);
  int q = g.addNode("q", false, 1, 1);
  int rr = g.addNode("r", false, 1, 1);
  int l = g.addNode("loss", false, 1, 1);
  g.addEdge(x, p);
  g.addEdge(y, q);
  g.addEdge(p, rr);
  g.addEdge(q, rr);
  g.addEdge(rr, l);
  g.finalize();
  EXPECT_EQ(anchorNodes(g), (std::vector<int>{p, q}));
  std::vector<char> none = floatingOps(g);
  EXPECT_EQ(std::count(none.begin(), none.end(), 1), 0);

  // A bias read by the second layer is as far from the loss as the first
  // layer (bc a2 a3 a4 m loss: 6 ops): an anchor too, in stage 0.
  BiasGraph early = biasGraph(2);
  EXPECT_EQ(anchorNodes(early.g), (std::vector<int>{early.a1, early.bc}));
  SeparatorOptions o;
  o.floatSources = true;
  SeparatorChain c = separatorChain(early.g, o);
  checkChain(early.g, c);
  EXPECT_TRUE(c.floating.empty());
  EXPECT_EQ(c.stageOf[early.bc], 0);
}

TEST(Separators, BiasBroadcastFloatsIntoItsReadersStage) {
  BiasGraph r = biasGraph();
  std::vector<std::vector<int>> layers = {
      {r.a1}, {r.a2}, {r.a3}, {r.a4}, {r.m}};
  // Without floating, only {m} separates: every {a_i} is bypassed through
  // bc -> m.
  SeparatorChain old = chainFromCandidates(r.g, layers);
  checkChain(r.g, old);
  ASSERT_EQ(old.separators.size(), 1u);
  EXPECT_EQ(old.separators[0].members, std::vector<int>{r.m});
  EXPECT_EQ(sizes(articulationChain(r.g)), std::vector<size_t>{1});

  SeparatorOptions o;
  o.floatSources = true;
  auto expectLayers = [&](const SeparatorChain &c) {
    checkChain(r.g, c);
    EXPECT_EQ(c.floating, std::vector<int>{r.bc});
    // {a1} {a2} {a3} {a4} {m}: six stages, bc computed with its reader m.
    ASSERT_EQ(c.separators.size(), 5u);
    for (size_t j = 0; j < 5; ++j)
      EXPECT_EQ(c.separators[j].members, layers[j]) << j;
    EXPECT_EQ(c.separators[4].bytes, 20u);
    ASSERT_EQ(c.stages.size(), 6u);
    EXPECT_EQ(c.stageOf[r.bc], 4);
    EXPECT_EQ(c.stages[4].nodes, (std::vector<int>{r.bc, r.m}));
    EXPECT_EQ(c.stages[4].cost, 2.0);
    EXPECT_EQ(c.stages[4].bytes, 25u);
    EXPECT_EQ(c.stages[0].nodes, std::vector<int>{r.a1});
  };
  expectLayers(chainFromCandidates(r.g, layers, o));
  for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
    o.heuristic = h;
    expectLayers(separatorChain(r.g, o));
  }
  expectLayers(articulationChain(r.g, o));
  // A floating member of a candidate is dropped from it.
  SeparatorChain withBc = chainFromCandidates(r.g, {{r.a2, r.bc}}, o);
  checkChain(r.g, withBc);
  ASSERT_EQ(withBc.separators.size(), 1u);
  EXPECT_EQ(withBc.separators[0].members, std::vector<int>{r.a2});
}

TEST(Separators, FloatingOpReadByLaterStagesJoinsTheirSeparators) {
  // bc is read by a3 (stage 2) and by m (stage 4); its longest path (bc a3
  // a4 m loss, 5 ops) is shorter than a1's (6), so it floats: it is
  // computed in stage 2 and kept in S_2 and S_3 (5 bytes on top of the
  // layer's 10).
  BiasGraph r = biasGraph(3);
  SeparatorOptions o;
  o.floatSources = true;
  SeparatorChain c = separatorChain(r.g, o);
  checkChain(r.g, c);
  ASSERT_EQ(c.separators.size(), 5u);
  EXPECT_EQ(c.separators[0].members, std::vector<int>{r.a1});
  EXPECT_EQ(c.floating, std::vector<int>{r.bc});
  EXPECT_EQ(c.separators[1].members, std::vector<int>{r.a2});
  EXPECT_EQ(c.separators[2].members, (std::vector<int>{r.a3, r.bc}));
  EXPECT_EQ(c.separators[3].members, (std::vector<int>{r.a4, r.bc}));
  EXPECT_EQ(c.separators[4].members, std::vector<int>{r.m});
  EXPECT_EQ(c.separators[1].bytes, 10u);
  EXPECT_EQ(c.separators[2].bytes, 15u);
  EXPECT_EQ(c.stageOf[r.bc], 2);
  EXPECT_EQ(c.stages[2].nodes, (std::vector<int>{r.a3, r.bc}));
  EXPECT_EQ(c.stages[3].inputBytes, 15u);
  EXPECT_EQ(c.stages[4].nodes, std::vector<int>{r.m});
  // validateChain rejects the chain when bc is missing from S_3.
  SeparatorChain broken = c;
  broken.separators[3].members = {r.a4};
  EXPECT_FALSE(validateChain(r.g, broken));
  // ... and when a non-floating op is listed as floating.
  SeparatorChain lying = c;
  lying.floating.push_back(r.a3);
  std::sort(lying.floating.begin(), lying.floating.end());
  EXPECT_FALSE(validateChain(r.g, lying));
}

TEST(Separators, FloatingChainsAndLosses) {
  // bc2 reads bc (reads b) and feeds m; a regulariser reg1 (reads b) ->
  // reg2 is a second loss. All four float: bc, bc2 into m's stage 4, reg1
  // and reg2 into the last stage 5 (reg2 is read by nothing but the sink).
  Graph g;
  int x = g.addNode("x", false, 0, 1, true);
  int b = g.addNode("b", false, 0, 1, true);
  std::vector<int> a;
  for (int i = 1; i <= 4; ++i)
    a.push_back(g.addNode("a" + std::to_string(i), false, 1, 10));
  int bc = g.addNode("bc", false, 1, 5);
  int bc2 = g.addNode("bc2", false, 1, 5);
  int m = g.addNode("m", false, 1, 20);
  int loss = g.addNode("loss", false, 1, 1);
  int reg1 = g.addNode("reg1", false, 1, 1);
  int reg2 = g.addNode("reg2", false, 1, 1);
  g.addEdge(x, a[0]);
  for (int i = 0; i < 3; ++i)
    g.addEdge(a[i], a[i + 1]);
  g.addEdge(a[3], m);
  g.addEdge(b, bc);
  g.addEdge(bc, bc2);
  g.addEdge(bc2, m);
  g.addEdge(m, loss);
  g.addEdge(b, reg1);
  g.addEdge(reg1, reg2);
  g.finalize();
  SeparatorOptions o;
  o.floatSources = true;
  SeparatorChain c = separatorChain(g, o);
  checkChain(g, c);
  EXPECT_EQ(c.floating, (std::vector<int>{bc, bc2, reg1, reg2}));
  ASSERT_EQ(c.separators.size(), 5u);
  EXPECT_EQ(c.stages[4].nodes, (std::vector<int>{bc, bc2, m}));
  EXPECT_EQ(c.stages[5].nodes, (std::vector<int>{loss, reg1, reg2}));
  for (const Separator &s : c.separators)
    EXPECT_EQ(s.members.size(), 1u);
  // Without floating the regulariser alone makes every separator hold reg1
  // or reg2: the chain starts from three entries.
  SeparatorChain old = chainFromCandidates(g, {{a[0]}, {a[1]}, {m}});
  checkChain(g, old);
  EXPECT_EQ(old.separators.size(), 0u);
}
