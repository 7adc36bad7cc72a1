//===- ckpt-graph.cpp - Separator analysis of a JSON graph ----------------===//
//
// Reads a Checkmate-style JSON graph and prints, as JSON: node and edge
// counts, tree-decomposition widths of the joint and forward graphs for each
// heuristic, the separator chain with its stages, the articulation-point
// chain, and timings. Exit code 1 on bad input or usage.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Graph/Graph.h"
#include "ckpt/Solver/Graph/GraphJson.h"
#include "ckpt/Solver/Graph/Separators.h"
#include "ckpt/Solver/Graph/TreeDecomposition.h"
#include "ckpt/Solver/Support/Json.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

using namespace ckpt;
using namespace ckpt::graph;

namespace {

const char *kUsage =
    "usage: ckpt-graph [options] GRAPH.json\n"
    "\n"
    "Separator analysis of a training graph in networkx node-link JSON\n"
    "(Checkmate: nodes[] {id, name, backward, cost_cpu, cost_ram}, links[]\n"
    "{source, target}; or MOCCASIN random layered graphs).\n"
    "\n"
    "options:\n"
    "  --heuristic=min-fill|min-degree  decomposition used for the separator\n"
    "                                   chain (default min-fill)\n"
    "  --exact            also compute the exact treewidth (<= 25 vertices)\n"
    "  --stage-nodes      list every stage's nodes and backward reads\n"
    "  --compact          one-line JSON\n"
    "  --help             this text\n";

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

json::Value names(const Graph &g, const std::vector<int> &ids) {
  json::Value a = json::Value::array();
  for (int v : ids)
    a.push(g.node(v).name);
  return a;
}

json::Value chainJson(const Graph &g, const SeparatorChain &c,
                      bool stageNodes) {
  json::Value o = json::Value::object();
  o.set("separators_count", static_cast<int64_t>(c.separators.size()));
  o.set("stages_count", static_cast<int64_t>(c.stages.size()));
  json::Value seps = json::Value::array();
  for (const Separator &s : c.separators) {
    json::Value so = json::Value::object();
    so.set("members", names(g, s.members));
    so.set("bytes", static_cast<int64_t>(s.bytes));
    seps.push(std::move(so));
  }
  o.set("separators", std::move(seps));
  json::Value stages = json::Value::array();
  for (const Stage &st : c.stages) {
    json::Value so = json::Value::object();
    so.set("size", static_cast<int64_t>(st.nodes.size()));
    if (stageNodes)
      so.set("nodes", names(g, st.nodes));
    so.set("input_separator", st.inputSeparator);
    so.set("output_separator", st.outputSeparator);
    so.set("cost", st.cost);
    so.set("input_bytes", static_cast<int64_t>(st.inputBytes));
    so.set("output_bytes", static_cast<int64_t>(st.outputBytes));
    if (stageNodes)
      so.set("backward_reads", names(g, st.backwardReads));
    so.set("backward_read_bytes", static_cast<int64_t>(st.backwardReadBytes));
    stages.push(std::move(so));
  }
  o.set("stages", std::move(stages));
  return o;
}

} // namespace

int main(int argc, char **argv) {
  std::string path;
  Heuristic heur = Heuristic::MinFill;
  bool exact = false, stageNodes = false, compact = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--heuristic=min-fill") {
      heur = Heuristic::MinFill;
    } else if (a == "--heuristic=min-degree") {
      heur = Heuristic::MinDegree;
    } else if (a.rfind("--heuristic=", 0) == 0) {
      std::fprintf(stderr,
                   "ckpt-graph: error: unknown heuristic '%s' "
                   "(expected min-fill or min-degree)\n",
                   a.c_str() + 12);
      return 1;
    } else if (a == "--exact") {
      exact = true;
    } else if (a == "--stage-nodes") {
      stageNodes = true;
    } else if (a == "--compact") {
      compact = true;
    } else if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "ckpt-graph: error: unknown option '%s'\n%s",
                   a.c_str(), kUsage);
      return 1;
    } else if (path.empty()) {
      path = a;
    } else {
      std::fprintf(stderr, "ckpt-graph: error: more than one input file\n");
      return 1;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "ckpt-graph: error: no input file\n%s", kUsage);
    return 1;
  }

  json::Value times = json::Value::object();
  auto t0 = std::chrono::steady_clock::now();
  GraphReadResult rr = readGraphFile(path);
  times.set("read", msSince(t0));
  if (!rr.ok) {
    std::fprintf(stderr, "ckpt-graph: error: %s\n", rr.error.c_str());
    return 1;
  }
  const Graph &g = rr.graph;

  json::Value out = json::Value::object();
  out.set("graph", g.name);
  out.set("nodes", g.numNodes());
  out.set("edges", static_cast<int64_t>(g.numEdges()));
  int fwdOps = 0, bwd = 0, inputs = 0;
  for (const Node &n : g.nodes()) {
    inputs += n.input;
    bwd += !n.input && n.backward;
    fwdOps += !n.input && !n.backward;
  }
  out.set("forward_ops", fwdOps);
  out.set("backward_nodes", bwd);
  out.set("inputs", inputs);
  out.set("entries", names(g, g.entryNodes()));
  out.set("losses", names(g, g.lossNodes()));

  json::Value widths = json::Value::object();
  struct View {
    const char *name;
    std::vector<char> mask;
  } views[] = {{"joint", jointMask(g)}, {"forward", forwardMask(g)}};
  for (View &vw : views) {
    UGraph u = undirectedView(g, vw.mask);
    json::Value w = json::Value::object();
    w.set("vertices", u.numVertices());
    w.set("edges", static_cast<int64_t>(u.numEdges()));
    for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
      auto t1 = std::chrono::steady_clock::now();
      TreeDecomposition td = decompose(u, h);
      times.set(std::string(vw.name) + "_" + heuristicName(h), msSince(t1));
      std::string why;
      if (!validate(u, td, &why)) {
        std::fprintf(stderr,
                     "ckpt-graph: internal error: invalid %s "
                     "decomposition: %s\n",
                     heuristicName(h), why.c_str());
        return 2;
      }
      w.set(heuristicName(h), td.width());
    }
    if (exact) {
      int e = exactTreewidth(u);
      w.set("exact", e >= 0 ? json::Value(e) : json::Value());
    }
    widths.set(vw.name, std::move(w));
  }
  out.set("width", std::move(widths));

  SeparatorOptions opts;
  opts.heuristic = heur;
  auto t2 = std::chrono::steady_clock::now();
  SeparatorChain chain = separatorChain(g, opts);
  times.set("separator_chain", msSince(t2));
  auto t3 = std::chrono::steady_clock::now();
  SeparatorChain art = articulationChain(g);
  times.set("articulation_chain", msSince(t3));
  for (const SeparatorChain *c : {&chain, &art}) {
    std::string why;
    if (!validateChain(g, *c, &why)) {
      std::fprintf(stderr, "ckpt-graph: internal error: invalid chain: %s\n",
                   why.c_str());
      return 2;
    }
  }
  json::Value sc = chainJson(g, chain, stageNodes);
  sc.set("heuristic", heuristicName(heur));
  sc.set("decomposition_width", chain.width);
  sc.set("candidates", chain.candidates);
  out.set("separator_chain", std::move(sc));
  out.set("articulation_chain", chainJson(g, art, stageNodes));
  times.set("total", msSince(t0));
  out.set("time_ms", std::move(times));
  std::string text = json::write(out, compact ? -1 : 2);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
  return 0;
}
