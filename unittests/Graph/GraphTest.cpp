//===- GraphTest.cpp - Graph and GraphJson tests --------------------------===//

#include "ckpt/Solver/Graph/Graph.h"
#include "ckpt/Solver/Graph/GraphJson.h"

#include <gtest/gtest.h>

using namespace ckpt::graph;

TEST(Graph, FinalizeDedupesAndBuildsCsr) {
  Graph g;
  int a = g.addNode("a", false, 1, 1);
  int b = g.addNode("b", false, 1, 1);
  int c = g.addNode("c", true, 1, 1);
  g.addEdge(a, b);
  g.addEdge(a, b);
  g.addEdge(b, c);
  g.addEdge(a, c);
  g.finalize();
  EXPECT_EQ(g.numEdges(), 3u);
  EXPECT_EQ(g.succ(a).size(), 2u);
  EXPECT_EQ(g.pred(c).size(), 2u);
  std::vector<int> order;
  EXPECT_TRUE(g.topologicalOrder(order));
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(g.lossNodes(), std::vector<int>{b});
  EXPECT_EQ(g.entryNodes(), std::vector<int>{a});
}

TEST(Graph, CycleDetected) {
  Graph g;
  for (int i = 0; i < 4; ++i)
    g.addNode("n" + std::to_string(i), false, 1, 1);
  g.addEdge(0, 1);
  g.addEdge(1, 2);
  g.addEdge(2, 3);
  g.addEdge(3, 1);
  g.finalize();
  std::vector<int> order;
  int cyc = -1;
  EXPECT_FALSE(g.topologicalOrder(order, &cyc));
  EXPECT_TRUE(cyc >= 1 && cyc <= 3);
}

TEST(Graph, WithBackwardMirrorsForward) {
  Graph f;
  int x = f.addNode("x", false, 0, 1, /*input=*/true);
  int a = f.addNode("a", false, 1, 4);
  int b = f.addNode("b", false, 1, 4);
  f.addEdge(x, a);
  f.addEdge(a, b);
  f.finalize();
  Graph j = withBackward(f);
  ASSERT_EQ(j.numNodes(), 5); // x, a, b, d_b, d_a
  int db = 3, da = 4;
  EXPECT_EQ(j.node(db).name, "d_b");
  EXPECT_TRUE(j.node(da).backward);
  auto hasEdge = [&](int u, int v) {
    for (int w : j.succ(u))
      if (w == v)
        return true;
    return false;
  };
  EXPECT_TRUE(hasEdge(db, da)); // gradient flows back
  EXPECT_TRUE(hasEdge(b, db));  // d_b reads b
  EXPECT_TRUE(hasEdge(a, db));  // and b's input
  EXPECT_TRUE(hasEdge(x, da));  // d_a reads its input x
  EXPECT_EQ(j.lossNodes(), std::vector<int>{b});
}

TEST(GraphJson, ReadsCheckmateFormat) {
  const char *text = R"({"directed": true, "graph": {"name": "g"},
    "nodes": [{"id": 10, "name": "a", "backward": false, "cost_cpu": 2, "cost_ram": 8},
              {"id": 11, "name": "b", "backward": false, "cost_cpu": 3, "cost_ram": 16},
              {"id": 12, "name": "gb", "backward": true, "cost_cpu": 1, "cost_ram": 16}],
    "links": [{"source": 10, "target": 11}, {"source": 11, "target": 12}]})";
  GraphReadResult r = parseGraphJson(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.graph.name, "g");
  EXPECT_EQ(r.graph.numNodes(), 3);
  EXPECT_EQ(r.graph.numEdges(), 2u);
  EXPECT_EQ(r.graph.node(1).bytes, 16u);
  EXPECT_EQ(r.graph.node(1).origId, 11);
  EXPECT_TRUE(r.graph.node(2).backward);
  // Round trip.
  GraphReadResult r2 = parseGraphJson(graphToJson(r.graph));
  ASSERT_TRUE(r2.ok) << r2.error;
  EXPECT_EQ(r2.graph.numEdges(), 2u);
  EXPECT_EQ(r2.graph.node(0).name, "a");
}

TEST(GraphJson, ReadsRandomLayeredFormat) {
  const char *text = R"({"graph": {"name": "rl", "source_node": 0},
    "nodes": [{"out_cost": 5, "param_cost": 0, "duration": 0, "name": 0},
              {"out_cost": 7, "param_cost": 0, "duration": 3, "name": 2},
              {"out_cost": 9, "param_cost": 0, "duration": 4, "name": 1}],
    "links": [{"0": 0, "1": 2}, {"0": 2, "1": 1}]})";
  GraphReadResult r = parseGraphJson(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.graph.node(0).input);
  EXPECT_EQ(r.graph.node(1).cost, 3.0);
  EXPECT_EQ(r.graph.node(2).bytes, 9u);
  EXPECT_EQ(r.graph.entryNodes(), std::vector<int>{1});
}

static std::string errorOf(const char *text) {
  GraphReadResult r = parseGraphJson(text);
  EXPECT_FALSE(r.ok);
  return r.error;
}

TEST(GraphJson, Errors) {
  EXPECT_NE(errorOf(R"({"nodes": [{"id": 0, "backward": false, "cost_cpu": 1}],
                       "links": []})")
                .find("nodes[0]: node 0: missing field 'cost_ram'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nodes": [{"id": 0, "name": "a", "backward": false,
                        "cost_cpu": 1, "cost_ram": 1}],
                        "links": [{"source": 0, "target": 7}]})")
                .find("links[0].target: link #0: dangling edge: target 7"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nodes": [
      {"id": 0, "name": "a", "backward": false, "cost_cpu": 1, "cost_ram": 1},
      {"id": 1, "name": "b", "backward": false, "cost_cpu": 1, "cost_ram": 1}],
      "links": [{"source": 0, "target": 1}, {"source": 1, "target": 0}]})")
                .find("cycle through node"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nodes": [], "links": [},)").find(":"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nodes": []})").find("missing field 'links'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nodes": [
      {"id": 0, "backward": false, "cost_cpu": 1, "cost_ram": 1},
      {"id": 0, "backward": false, "cost_cpu": 1, "cost_ram": 1}], "links": []})")
                .find("duplicate node id 0"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"nodes": [{"id": 0, "backward": false, "cost_cpu": -1,
                        "cost_ram": 1}], "links": []})")
                .find("'cost_cpu' must be a non-negative number"),
            std::string::npos);
  // Errors name the field by its path.
  EXPECT_EQ(errorOf("{\"nodes\": [\n  {\"id\": 0, \"backward\": 1, "
                    "\"cost_cpu\": 1, \"cost_ram\": 1}], \"links\": []}"),
            "nodes[0].backward: node 0: field 'backward' must be true or "
            "false");
  // Syntax errors their line and column.
  EXPECT_EQ(errorOf("{\"nodes\": [],\n \"links\": [}"),
            "2:12: invalid JSON value");
}

TEST(GraphJson, BigIdsAndSizesAreExact) {
  GraphReadResult r = parseGraphJson(
      R"({"nodes": [{"id": 9007199254740993, "backward": false,
                     "cost_cpu": 1, "cost_ram": 18014398509481985}],
          "links": []})");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.graph.node(0).origId, 9007199254740993LL);
  EXPECT_EQ(r.graph.node(0).bytes, 18014398509481985ULL);
}
