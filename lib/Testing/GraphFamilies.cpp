//===- GraphFamilies.cpp - Generated network graph families ---------------===//

#include "ckpt/Testing/GraphFamilies.h"

#include <string>

namespace ckpt {
namespace graph {

namespace {

struct Builder {
  Graph g;
  int input() { return g.addNode("x", false, 0.0, 1, /*input=*/true); }
  int op(const std::string &name, std::initializer_list<int> reads,
         double cost = 1.0, uint64_t bytes = 1) {
    int v = g.addNode(name, false, cost, bytes);
    for (int u : reads)
      g.addEdge(u, v);
    return v;
  }
  Graph done(bool joint, const std::vector<char> *noGrad = nullptr) {
    g.finalize();
    if (!joint)
      return std::move(g);
    return withBackward(g, noGrad);
  }
};

} // namespace

const char *familyName(Family f) {
  switch (f) {
  case Family::FeedForward:
    return "feed-forward";
  case Family::ResNet:
    return "resnet";
  case Family::Towers:
    return "towers";
  case Family::GlobalStats:
    return "global-stats";
  case Family::Skip:
    return "skip";
  }
  return "?";
}

Graph feedForwardGraph(int depth, bool joint) {
  Builder b;
  b.g.name = "feed-forward-" + std::to_string(depth);
  int prev = b.input();
  for (int i = 1; i <= depth; ++i)
    prev = b.op("f" + std::to_string(i), {prev});
  b.op("loss", {prev});
  return b.done(joint);
}

Graph resNetGraph(int blocks, bool joint) {
  Builder b;
  b.g.name = "resnet-" + std::to_string(blocks);
  int x = b.input();
  int r = b.op("stem", {x});
  for (int i = 1; i <= blocks; ++i) {
    std::string s = std::to_string(i);
    int c1 = b.op("b" + s + "_conv1", {r}, 2.0, 1);
    int c2 = b.op("b" + s + "_conv2", {c1}, 2.0, 1);
    r = b.op("b" + s + "_add", {r, c2}, 0.5, 1);
  }
  b.op("loss", {r});
  return b.done(joint);
}

Graph towersGraph(int k, int depth, bool joint) {
  Builder b;
  b.g.name = "towers-k" + std::to_string(k) + "-" + std::to_string(depth);
  int x = b.input();
  int stem = b.op("stem", {x});
  std::vector<int> ends;
  for (int t = 0; t < k; ++t) {
    int prev = stem;
    for (int i = 1; i <= depth; ++i)
      prev = b.op("t" + std::to_string(t) + "_" + std::to_string(i), {prev});
    ends.push_back(prev);
  }
  int merge = b.g.addNode("merge", false, 1.0, 1);
  for (int e : ends)
    b.g.addEdge(e, merge);
  b.op("loss", {merge});
  return b.done(joint);
}

Graph globalStatsGraph(int k, int depth, bool joint, bool statsGradient) {
  Builder b;
  b.g.name = "global-stats-k" + std::to_string(k) + "-" + std::to_string(depth);
  int x = b.input();
  int prev = b.op("stem", {x});
  std::vector<int> stats;
  for (int j = 0; j < k; ++j)
    stats.push_back(b.op("g" + std::to_string(j), {prev}));
  for (int i = 1; i <= depth; ++i) {
    int v = b.op("f" + std::to_string(i), {prev});
    for (int s : stats)
      b.g.addEdge(s, v);
    prev = v;
  }
  b.op("loss", {prev});
  std::vector<char> noGrad;
  if (!statsGradient) {
    noGrad.assign(b.g.numNodes(), 0);
    for (int s : stats)
      noGrad[s] = 1;
  }
  return b.done(joint, statsGradient ? nullptr : &noGrad);
}

Graph skipGraph(int k, int depth, bool joint) {
  Builder b;
  b.g.name = "skip-k" + std::to_string(k) + "-" + std::to_string(depth);
  int x = b.input();
  std::vector<int> f;
  f.push_back(b.op("f0", {x}));
  for (int i = 1; i <= depth; ++i) {
    int v = b.op("f" + std::to_string(i), {f[i - 1]});
    if (k >= 2 && i - k >= 0)
      b.g.addEdge(f[i - k], v);
    f.push_back(v);
  }
  b.op("loss", {f.back()});
  return b.done(joint);
}

Graph familyGraph(Family f, int k, int depth, bool joint) {
  switch (f) {
  case Family::FeedForward:
    return feedForwardGraph(depth, joint);
  case Family::ResNet:
    return resNetGraph(depth, joint);
  case Family::Towers:
    return towersGraph(k, depth, joint);
  case Family::GlobalStats:
    return globalStatsGraph(k, depth, joint);
  case Family::Skip:
    return skipGraph(k, depth, joint);
  }
  return Graph();
}

} // namespace graph
} // namespace ckpt
