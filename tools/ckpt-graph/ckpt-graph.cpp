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
#include "ckpt/Solver/Support/JsonWriter.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

std::vector<std::string> names(const Graph &g, const std::vector<int> &ids) {
  std::vector<std::string> out;
  for (int v : ids)
    out.push_back(g.node(v).name);
  return out;
}

/// Writes the members of a chain's object (the caller opens and closes it).
void writeChain(JsonWriter &json, const Graph &g, const SeparatorChain &c,
                bool stageNodes) {
  json.attribute("separators_count", c.separators.size());
  json.attribute("stages_count", c.stages.size());
  json.attributeArray("separators", [&] {
    for (const Separator &s : c.separators)
      json.object([&] {
        json.attributeScalarArray("members", names(g, s.members));
        json.attribute("bytes", s.bytes);
      });
  });
  json.attributeArray("stages", [&] {
    for (const Stage &st : c.stages)
      json.object([&] {
        json.attribute("size", st.nodes.size());
        if (stageNodes)
          json.attributeScalarArray("nodes", names(g, st.nodes));
        json.attribute("input_separator", st.inputSeparator);
        json.attribute("output_separator", st.outputSeparator);
        json.attribute("cost", st.cost);
        json.attribute("input_bytes", st.inputBytes);
        json.attribute("output_bytes", st.outputBytes);
        if (stageNodes)
          json.attributeScalarArray("backward_reads",
                                    names(g, st.backwardReads));
        json.attribute("backward_read_bytes", st.backwardReadBytes);
      });
  });
}

/// What ckpt-graph prints, computed before any of it is written.
struct Analysis {
  const Graph &g;
  /// The widths of a view (joint, forward) of the graph.
  struct View {
    const char *name;
    int vertices = 0;
    size_t edges = 0;
    std::vector<std::pair<const char *, int>> widths; ///< By heuristic.
    std::optional<int> exact;                         ///< -1: unknown.
  };
  std::vector<View> views;
  SeparatorChain chain, art;
  /// Milliseconds by phase, in the order they ran.
  std::vector<std::pair<std::string, double>> times;
};

/// Decomposes both views of the graph with both heuristics (and exactly);
/// false after printing an error when a decomposition is invalid.
bool decomposeViews(Analysis &a, bool exact) {
  struct {
    const char *name;
    std::vector<char> mask;
  } views[] = {{"joint", jointMask(a.g)}, {"forward", forwardMask(a.g)}};
  for (auto &vw : views) {
    UGraph u = undirectedView(a.g, vw.mask);
    Analysis::View view{vw.name, u.numVertices(), u.numEdges(), {}, {}};
    for (Heuristic h : {Heuristic::MinFill, Heuristic::MinDegree}) {
      auto t1 = std::chrono::steady_clock::now();
      TreeDecomposition td = decompose(u, h);
      a.times.emplace_back(std::string(vw.name) + "_" + heuristicName(h),
                           msSince(t1));
      std::string why;
      if (!validate(u, td, &why)) {
        std::fprintf(stderr,
                     "ckpt-graph: internal error: invalid %s "
                     "decomposition: %s\n",
                     heuristicName(h), why.c_str());
        return false;
      }
      view.widths.emplace_back(heuristicName(h), td.width());
    }
    if (exact)
      view.exact = exactTreewidth(u);
    a.views.push_back(std::move(view));
  }
  return true;
}

void writeAnalysis(JsonWriter &json, const Analysis &a, Heuristic heur,
                   bool stageNodes) {
  const Graph &g = a.g;
  json.object([&] {
    json.attribute("graph", g.name);
    json.attribute("nodes", g.numNodes());
    json.attribute("edges", g.numEdges());
    int fwdOps = 0, bwd = 0, inputs = 0;
    for (const Node &n : g.nodes()) {
      inputs += n.input;
      bwd += !n.input && n.backward;
      fwdOps += !n.input && !n.backward;
    }
    json.attribute("forward_ops", fwdOps);
    json.attribute("backward_nodes", bwd);
    json.attribute("inputs", inputs);
    json.attributeScalarArray("entries", names(g, g.entryNodes()));
    json.attributeScalarArray("losses", names(g, g.lossNodes()));
    json.attributeObject("width", [&] {
      for (const Analysis::View &view : a.views)
        json.attributeObject(view.name, [&] {
          json.attribute("vertices", view.vertices);
          json.attribute("edges", view.edges);
          for (const auto &[heuristic, width] : view.widths)
            json.attribute(heuristic, width);
          if (view.exact)
            json.attribute("exact", *view.exact >= 0 ? view.exact
                                                     : std::optional<int>());
        });
    });
    json.attributeObject("separator_chain", [&] {
      writeChain(json, g, a.chain, stageNodes);
      json.attribute("heuristic", heuristicName(heur));
      json.attribute("decomposition_width", a.chain.width);
      json.attribute("candidates", a.chain.candidates);
    });
    json.attributeObject("articulation_chain",
                         [&] { writeChain(json, g, a.art, stageNodes); });
    json.attributeObject("time_ms", [&] {
      for (const auto &[phase, ms] : a.times)
        json.attribute(phase, ms);
    });
  });
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

  auto t0 = std::chrono::steady_clock::now();
  GraphReadResult rr = readGraphFile(path);
  double readMs = msSince(t0);
  if (!rr.ok) {
    std::fprintf(stderr, "ckpt-graph: error: %s\n", rr.error.c_str());
    return 1;
  }
  Analysis a{rr.graph, {}, {}, {}, {{"read", readMs}}};
  if (!decomposeViews(a, exact))
    return 2;

  SeparatorOptions opts;
  opts.heuristic = heur;
  auto t2 = std::chrono::steady_clock::now();
  a.chain = separatorChain(a.g, opts);
  a.times.emplace_back("separator_chain", msSince(t2));
  auto t3 = std::chrono::steady_clock::now();
  a.art = articulationChain(a.g);
  a.times.emplace_back("articulation_chain", msSince(t3));
  for (const SeparatorChain *c : {&a.chain, &a.art}) {
    std::string why;
    if (!validateChain(a.g, *c, &why)) {
      std::fprintf(stderr, "ckpt-graph: internal error: invalid chain: %s\n",
                   why.c_str());
      return 2;
    }
  }
  a.times.emplace_back("total", msSince(t0));
  std::string text = writeJson(compact ? 0 : 2, [&](JsonWriter &json) {
    writeAnalysis(json, a, heur, stageNodes);
  });
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
  return 0;
}
