//===- ckpt_module.cpp - pybind11 bindings to the ckpt solver layer -------===//
//
// The `ckpt._ckpt` extension: the chain model, the optimal DP and the
// baselines (ChainModel.h, ChainDP.h, ChainStrategies.h, ChainJson.h), and the
// graph side (Graph.h, GraphJson.h, TreeDecomposition.h, Separators.h). Links
// CkptSolver only: no MLIR. Results are plain Python dicts and lists; the
// pure-Python package (python/ckpt/__init__.py) wraps them for convenience.
//
// Errors in the input (bad arrays, bad JSON, unknown strategy or heuristic)
// raise ValueError with the solver's message, which names the field.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Chain/ChainDP.h"
#include "ckpt/Solver/Chain/ChainJson.h"
#include "ckpt/Solver/Chain/ChainModel.h"
#include "ckpt/Solver/Chain/ChainStrategies.h"
#include "ckpt/Solver/Graph/Graph.h"
#include "ckpt/Solver/Graph/GraphJson.h"
#include "ckpt/Solver/Graph/Separators.h"
#include "ckpt/Solver/Graph/TreeDecomposition.h"
#include "ckpt/Solver/Schedule/PlanStrategy.h"
#include "ckpt/Solver/Support/Devices.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace ckpt;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

[[noreturn]] void valueError(const std::string &msg) {
  throw py::value_error(msg);
}

/// A str or an os.PathLike as a std::string.
std::string fspath(const py::object &obj) {
  if (py::isinstance<py::str>(obj))
    return obj.cast<std::string>();
  return py::module_::import("os").attr("fspath")(obj).cast<std::string>();
}

/// JSON text (first non-blank character '{' or '[') or a path.
bool looksLikeJsonText(const std::string &s) {
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)))
      continue;
    return c == '{' || c == '[';
  }
  return false;
}

/// A chain with the optional budget of the file it came from.
struct PyChain {
  solver::Chain chain;
  std::optional<int64_t> memory;
  std::optional<int64_t> slots;
};

solver::Strategy parseStrategyOrThrow(const std::string &text) {
  solver::Strategy s;
  std::string error;
  if (!solver::parseStrategy(text, s, error))
    valueError(error);
  return s;
}

graph::Heuristic parseHeuristicOrThrow(const std::string &text) {
  if (text == "min-fill")
    return graph::Heuristic::MinFill;
  if (text == "min-degree")
    return graph::Heuristic::MinDegree;
  valueError("unknown heuristic '" + text +
             "' (expected 'min-fill' or 'min-degree')");
}

py::list sequenceToList(const std::vector<solver::Op> &seq) {
  py::list out;
  for (const solver::Op &op : seq)
    out.append(solver::toString(op));
  return out;
}

/// A list of operation names, or one space-separated string.
std::vector<solver::Op> sequenceFromObject(const py::handle &obj) {
  std::vector<std::string> names;
  if (py::isinstance<py::str>(obj)) {
    std::istringstream in(obj.cast<std::string>());
    std::string tok;
    while (in >> tok)
      names.push_back(tok);
  } else {
    for (const py::handle &item : obj) {
      if (!py::isinstance<py::str>(item))
        valueError("sequence: operation " + std::to_string(names.size()) +
                   " is not a string");
      names.push_back(item.cast<std::string>());
    }
  }
  std::vector<solver::Op> seq;
  seq.reserve(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    solver::Op op;
    if (!solver::parseOp(names[i], op))
      valueError("sequence: bad operation '" + names[i] + "' at index " +
                 std::to_string(i) +
                 " (expected Fall<l>, Fck<l>, Fn<l> or B<l>)");
    seq.push_back(op);
  }
  return seq;
}

py::dict resultToDict(const solver::StrategyResult &r) {
  py::dict d;
  d["strategy"] = r.strategy.name();
  d["feasible"] = r.feasible;
  d["memory"] = r.budget.memory;
  d["slots"] = r.budget.slots;
  // As ckpt-chain prints them: null makespan/peak when infeasible.
  if (r.feasible) {
    d["makespan"] = r.makespan;
    d["peak"] = r.peak;
    d["peak_units"] = r.peakUnits;
  } else {
    d["makespan"] = py::none();
    d["peak"] = py::none();
    d["peak_units"] = py::none();
  }
  d["sequence"] = sequenceToList(r.sequence);
  if (r.minFeasibleMemory)
    d["min_feasible_memory"] = *r.minFeasibleMemory;
  else
    d["min_feasible_memory"] = py::none();
  return d;
}

//===----------------------------------------------------------------------===//
// Chain functions
//===----------------------------------------------------------------------===//

PyChain makeChain(std::vector<double> uf, std::vector<double> ub,
                  std::vector<int64_t> wa, std::vector<int64_t> wdelta,
                  std::vector<int64_t> of, std::vector<int64_t> ob,
                  std::vector<int64_t> wabar) {
  PyChain c;
  c.chain.uf = std::move(uf);
  c.chain.ub = std::move(ub);
  c.chain.wa = std::move(wa);
  c.chain.wdelta = std::move(wdelta);
  c.chain.of = std::move(of);
  c.chain.ob = std::move(ob);
  c.chain.wabar = std::move(wabar);
  std::string error = c.chain.validate();
  if (!error.empty())
    valueError(error);
  return c;
}

PyChain chainFromJson(const py::object &pathOrText) {
  std::string s = fspath(pathOrText);
  solver::ChainInput in;
  std::string error;
  bool ok = looksLikeJsonText(s) ? solver::parseChain(s, in, error)
                                 : solver::readChainFile(s, in, error);
  if (!ok)
    valueError(error);
  // chainFromJson validates already; keep the check for the message format.
  std::string v = in.chain.validate();
  if (!v.empty())
    valueError(v);
  return PyChain{std::move(in.chain), in.memory, in.slots};
}

int64_t resolveMemory(const PyChain &c, const std::optional<int64_t> &memory) {
  std::optional<int64_t> m = memory ? memory : c.memory;
  if (!m)
    valueError("missing memory budget (pass memory=M; the chain has none)");
  if (*m <= 0)
    valueError("memory must be positive, got " + std::to_string(*m));
  return *m;
}

void checkSlots(int64_t slots) {
  if (slots < 0)
    valueError("slots must be >= 0 (0 = exact sizes), got " +
               std::to_string(slots));
}

py::dict solve(const PyChain &c, std::optional<int64_t> memory, int64_t slots,
               const std::string &strategyText, unsigned threads,
               bool withSequence) {
  checkSlots(slots);
  int64_t m = resolveMemory(c, memory);
  solver::Strategy strategy = parseStrategyOrThrow(strategyText);
  solver::SolveOptions opts;
  opts.threads = threads;
  opts.withSequence = withSequence;
  solver::StrategyResult r;
  {
    py::gil_scoped_release release;
    r = solver::runStrategy(c.chain, strategy, solver::MemoryModel{m, slots},
                            opts);
  }
  if (!r.error.empty())
    valueError(r.error);
  return resultToDict(r);
}

py::dict simulate(const PyChain &c, const py::object &sequence,
                  std::optional<int64_t> memory, int64_t slots) {
  checkSlots(slots);
  std::vector<solver::Op> seq = sequenceFromObject(sequence);
  int L = c.chain.length();
  for (size_t i = 0; i < seq.size(); ++i)
    if (seq[i].stage < 1 || seq[i].stage > L + 1)
      valueError("sequence: operation '" + solver::toString(seq[i]) +
                 "' at index " + std::to_string(i) +
                 " names a stage outside 1.." + std::to_string(L + 1));
  solver::Simulation s;
  if (slots > 0) {
    int64_t m = resolveMemory(c, memory);
    s = solver::simulate(
        solver::toUnits(c.chain, solver::MemoryModel{m, slots}), seq);
  } else {
    s = solver::simulate(c.chain, seq);
  }
  py::dict d;
  d["valid"] = s.valid;
  d["error"] = s.error;
  d["makespan"] = s.makespan;
  d["peak"] = s.peak;
  if (s.valid)
    d["error_index"] = py::none();
  else
    d["error_index"] = s.errorIndex;
  if (memory) {
    int64_t limit = slots > 0 ? slots : *memory;
    d["fits"] = s.valid && s.peak <= limit;
  }
  return d;
}

py::list sweep(const PyChain &c, const std::string &strategyText, int64_t slots,
               int count, unsigned threads) {
  checkSlots(slots);
  if (count < 1 || count > 100000)
    valueError("count must be between 1 and 100000, got " +
               std::to_string(count));
  solver::Strategy strategy = parseStrategyOrThrow(strategyText);
  std::vector<solver::SweepPoint> points;
  std::string error;
  bool ok;
  {
    py::gil_scoped_release release;
    ok = solver::sweep(c.chain, strategy, slots, count, points, error, threads);
  }
  if (!ok)
    valueError(error);
  py::list out;
  for (const solver::SweepPoint &p : points) {
    py::dict d = resultToDict(p.result);
    d["memory"] = p.memory;
    out.append(d);
  }
  return out;
}

py::list strategies() {
  // The first word of every line of the C++ help text, so that the list
  // follows the solver.
  py::list out;
  std::istringstream in(solver::strategyHelp());
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name;
    if (words >> name)
      out.append(name);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Graph functions
//===----------------------------------------------------------------------===//

graph::Graph graphFromJson(const py::object &pathOrText) {
  std::string s = fspath(pathOrText);
  graph::GraphReadResult r =
      looksLikeJsonText(s) ? graph::parseGraphJson(s) : graph::readGraphFile(s);
  if (!r.ok)
    valueError(r.error);
  return std::move(r.graph);
}

std::vector<char> viewMask(const graph::Graph &g, const std::string &view) {
  if (view == "joint")
    return graph::jointMask(g);
  if (view == "forward")
    return graph::forwardMask(g);
  valueError("unknown view '" + view + "' (expected 'joint' or 'forward')");
}

py::dict nodeToDict(const graph::Graph &g, int v) {
  const graph::Node &n = g.node(v);
  py::dict d;
  d["index"] = v;
  d["name"] = n.name;
  d["id"] = n.origId;
  d["backward"] = n.backward;
  d["input"] = n.input;
  d["cost"] = n.cost;
  d["bytes"] = n.bytes;
  return d;
}

py::list names(const graph::Graph &g, const std::vector<int> &ids) {
  py::list out;
  for (int v : ids)
    out.append(g.node(v).name);
  return out;
}

py::object treewidth(const graph::Graph &g, const std::string &heuristic,
                     const std::string &view) {
  graph::UGraph u = graph::undirectedView(g, viewMask(g, view));
  if (heuristic == "exact") {
    int w = graph::exactTreewidth(u);
    if (w < 0)
      return py::none();
    return py::int_(w);
  }
  graph::Heuristic h = parseHeuristicOrThrow(heuristic);
  return py::int_(graph::orderWidth(u, graph::eliminationOrder(u, h)));
}

py::dict treeDecomposition(const graph::Graph &g, const std::string &heuristic,
                           const std::string &view) {
  std::vector<int> toGraph;
  graph::UGraph u = graph::undirectedView(g, viewMask(g, view), &toGraph);
  graph::TreeDecomposition td =
      graph::decompose(u, parseHeuristicOrThrow(heuristic));
  py::list bags, bagNames;
  for (const std::vector<int> &bag : td.bags) {
    std::vector<int> ids;
    for (int x : bag)
      ids.push_back(toGraph[x]);
    bags.append(py::cast(ids));
    bagNames.append(names(g, ids));
  }
  py::dict d;
  d["width"] = td.width();
  d["bags"] = bags;
  d["bag_names"] = bagNames;
  d["parent"] = td.parent;
  return d;
}

py::dict chainToDict(const graph::Graph &g, const graph::SeparatorChain &c) {
  py::list seps;
  for (const graph::Separator &s : c.separators) {
    py::dict d;
    d["members"] = names(g, s.members);
    d["member_ids"] = s.members;
    d["bytes"] = s.bytes;
    seps.append(d);
  }
  py::list stages;
  for (const graph::Stage &s : c.stages) {
    py::dict d;
    d["nodes"] = names(g, s.nodes);
    d["node_ids"] = s.nodes;
    d["input_separator"] = s.inputSeparator;
    d["output_separator"] = s.outputSeparator;
    d["cost"] = s.cost;
    d["bytes"] = s.bytes;
    d["input_bytes"] = s.inputBytes;
    d["output_bytes"] = s.outputBytes;
    d["backward_reads"] = names(g, s.backwardReads);
    d["backward_read_ids"] = s.backwardReads;
    d["backward_read_bytes"] = s.backwardReadBytes;
    stages.append(d);
  }
  py::dict d;
  d["separators"] = seps;
  d["stages"] = stages;
  d["entries"] = names(g, c.entries);
  d["losses"] = names(g, c.losses);
  d["width"] = c.width;
  d["candidates"] = c.candidates;
  std::string why;
  d["valid"] = graph::validateChain(g, c, &why);
  if (!why.empty())
    d["error"] = why;
  return d;
}

py::dict separatorChain(const graph::Graph &g, const std::string &heuristic,
                        bool minimizeSinkSide) {
  graph::SeparatorOptions opts;
  opts.heuristic = parseHeuristicOrThrow(heuristic);
  opts.minimizeSinkSide = minimizeSinkSide;
  graph::SeparatorChain c;
  {
    py::gil_scoped_release release;
    c = graph::separatorChain(g, opts);
  }
  return chainToDict(g, c);
}

py::dict articulationChain(const graph::Graph &g) {
  graph::SeparatorChain c;
  {
    py::gil_scoped_release release;
    c = graph::articulationChain(g);
  }
  return chainToDict(g, c);
}

} // namespace

PYBIND11_MODULE(_ckpt, m) {
  m.doc() = "ckpt solver layer: heterogeneous-chain checkpointing (Beaumont "
            "et al. 2019) and separator chains of training graphs. Use the "
            "`ckpt` package, which wraps this module.";

  py::class_<PyChain>(m, "Chain", R"doc(
A heterogeneous chain (Beaumont et al. 2019, Section 3.1) of L+1 stages, the
last being the loss.

Chain(uf, ub, wa, wdelta, of, ob, wabar)

  uf, ub      forward / backward durations per stage (L+1 numbers each)
  of, ob      forward / backward memory overheads per stage (L+1 integers)
  wabar       size of abar^l, everything stage l's backward reads (L+1 ints)
  wa, wdelta  sizes of the activations a^0..a^{L+1} and gradients
              delta^0..delta^{L+1} (L+2 integers each)

Raises ValueError (naming the field) on wrong lengths, negative or
non-finite values.
)doc")
      .def(py::init(&makeChain), py::arg("uf"), py::arg("ub"), py::arg("wa"),
           py::arg("wdelta"), py::arg("of"), py::arg("ob"), py::arg("wabar"))
      .def_static("from_json", &chainFromJson, py::arg("path_or_text"),
                  "A chain from a ckpt-chain JSON file (a path) or JSON "
                  "text; its optional 'memory' and 'slots' are kept in "
                  "chain.memory / chain.slots. ValueError on bad input.")
      .def_property_readonly("uf", [](const PyChain &c) { return c.chain.uf; })
      .def_property_readonly("ub", [](const PyChain &c) { return c.chain.ub; })
      .def_property_readonly("wa", [](const PyChain &c) { return c.chain.wa; })
      .def_property_readonly("wdelta",
                             [](const PyChain &c) { return c.chain.wdelta; })
      .def_property_readonly("of", [](const PyChain &c) { return c.chain.of; })
      .def_property_readonly("ob", [](const PyChain &c) { return c.chain.ob; })
      .def_property_readonly("wabar",
                             [](const PyChain &c) { return c.chain.wabar; })
      .def_property_readonly(
          "memory", [](const PyChain &c) { return c.memory; },
          "The budget from the JSON file, or None.")
      .def_property_readonly(
          "slots", [](const PyChain &c) { return c.slots; },
          "The slot count from the JSON file, or None.")
      .def_property_readonly(
          "length", [](const PyChain &c) { return c.chain.length(); },
          "L, the number of stages before the loss.")
      .def_property_readonly(
          "num_stages", [](const PyChain &c) { return c.chain.numStages(); },
          "L+1, the number of stages including the loss.")
      .def(
          "store_all_makespan",
          [](const PyChain &c) { return c.chain.storeAllMakespan(); },
          "Sum of all forward and backward durations.")
      .def(
          "to_json",
          [](const PyChain &c, int indent) {
            return solver::chainToJson(c.chain, c.memory, c.slots, indent);
          },
          py::arg("indent") = -1,
          "The chain in the ckpt-chain JSON format; indent > 0: "
          "pretty-printed.")
      .def("__len__", [](const PyChain &c) { return c.chain.numStages(); })
      .def("__repr__", [](const PyChain &c) {
        return "<ckpt.Chain with " + std::to_string(c.chain.numStages()) +
               " stages>";
      });

  m.def("solve", &solve, py::arg("chain"), py::arg("memory") = py::none(),
        py::arg("slots") = 500, py::arg("strategy") = "optimal",
        py::arg("threads") = 0, py::arg("with_sequence") = true,
        "Runs a strategy on a chain within a budget; returns a dict (see "
        "ckpt.solve).");
  m.def("simulate", &simulate, py::arg("chain"), py::arg("sequence"),
        py::arg("memory") = py::none(), py::arg("slots") = 0,
        "Simulates a sequence of operations; returns a dict (see "
        "ckpt.simulate).");
  m.def("sweep", &sweep, py::arg("chain"), py::arg("strategy") = "optimal",
        py::arg("slots") = 500, py::arg("count") = 10, py::arg("threads") = 0,
        "Time/memory trade-off curve; returns a list of dicts (see "
        "ckpt.sweep).");
  m.def("strategies", &strategies, "Names of the strategies.");
  m.def(
      "plan_strategies",
      [] {
        py::list out;
        for (const ckpt::sched::StrategyInfo &info :
             ckpt::sched::planStrategies()) {
          py::dict d;
          d["name"] = info.spelling;
          d["chain"] = info.chain;
          d["needs_step"] = info.needsStep;
          d["summary"] = info.summary;
          out.append(d);
        }
        return out;
      },
      "The strategies of ckpt-plan and ckpt-sched (the C++ list).");
  m.def(
      "device_profiles",
      [] {
        py::dict out;
        for (const solver::DeviceSpec &spec : solver::kDeviceSpecs)
          out[py::str(spec.name)] =
              py::make_tuple(spec.peakFlops, spec.bandwidth);
        return out;
      },
      "The cost model's devices: {name: (peak flop/s, bytes/s)}, the "
      "roofline time of an op being max(flops / peak, bytes / bandwidth) "
      "(ckpt-opt's device= option).");
  m.def("strategy_help", &solver::strategyHelp,
        "One line per strategy, as in ckpt-chain --help.");
  m.def(
      "min_feasible_memory",
      [](const PyChain &c, const std::string &strategyText, int64_t slots) {
        checkSlots(slots);
        solver::Strategy s = parseStrategyOrThrow(strategyText);
        std::optional<int64_t> out;
        std::string error;
        if (!solver::minFeasibleMemory(c.chain, s, slots, out, error))
          valueError(error);
        return out;
      },
      py::arg("chain"), py::arg("strategy") = "optimal", py::arg("slots") = 500,
      "The least memory for which the strategy is feasible, or None.");

  py::class_<graph::Graph>(m, "Graph", R"doc(
A training step as a directed graph of values (ckpt/Solver/Graph/Graph.h): one node
per value, an edge u -> v when v reads u. Build with Graph.from_json.
)doc")
      .def_static("from_json", &graphFromJson, py::arg("path_or_text"),
                  "A graph from a Checkmate / MOCCASIN node-link JSON file "
                  "(a path) or JSON text. ValueError on bad input (the "
                  "message names the node or field and its path, "
                  "nodes[3].cost_cpu, or the line:column of a syntax error).")
      .def_property_readonly("name",
                             [](const graph::Graph &g) { return g.name; })
      .def_property_readonly("num_nodes", &graph::Graph::numNodes)
      .def_property_readonly("num_edges", &graph::Graph::numEdges)
      .def_property_readonly(
          "nodes",
          [](const graph::Graph &g) {
            py::list out;
            for (int v = 0; v < g.numNodes(); ++v)
              out.append(nodeToDict(g, v));
            return out;
          },
          "The nodes as dicts: index, name, id, backward, input, cost, "
          "bytes.")
      .def_property_readonly(
          "edges",
          [](const graph::Graph &g) {
            std::vector<std::pair<int, int>> out;
            for (int u = 0; u < g.numNodes(); ++u)
              for (int v : g.succ(u))
                out.emplace_back(u, v);
            return out;
          },
          "The distinct edges as (u, v) node-index pairs.")
      .def(
          "entries",
          [](const graph::Graph &g) { return names(g, g.entryNodes()); },
          "Names of the forward ops with no forward-op predecessor.")
      .def(
          "losses",
          [](const graph::Graph &g) { return names(g, g.lossNodes()); },
          "Names of the forward ops with no forward-op successor.")
      .def("treewidth", &treewidth, py::arg("heuristic") = "min-fill",
           py::arg("view") = "joint",
           "Width of a tree decomposition of the undirected graph: "
           "heuristic 'min-fill', 'min-degree' or 'exact' (None above 25 "
           "vertices); view 'joint' (every non-input node) or 'forward'.")
      .def("tree_decomposition", &treeDecomposition,
           py::arg("heuristic") = "min-fill", py::arg("view") = "joint",
           "The tree decomposition as a dict: width, bags (node indices), "
           "bag_names, parent (-1 for the root).")
      .def(
          "with_backward",
          [](const graph::Graph &g) { return graph::withBackward(g); },
          "The graph with the backward mirror of its forward ops added.")
      .def(
          "to_json",
          [](const graph::Graph &g, int indent) {
            return graph::graphToJson(g, indent);
          },
          py::arg("indent") = -1,
          "The graph in the Checkmate training-graph JSON format; indent > "
          "0: pretty-printed.")
      .def("__repr__", [](const graph::Graph &g) {
        return "<ckpt.Graph '" + g.name + "' with " +
               std::to_string(g.numNodes()) + " nodes, " +
               std::to_string(g.numEdges()) + " edges>";
      });

  m.def("separator_chain", &separatorChain, py::arg("graph"),
        py::arg("heuristic") = "min-fill", py::arg("minimize_sink_side") = true,
        "The separator chain of a graph from a tree decomposition of its "
        "forward graph (see ckpt.separator_chain).");
  m.def("articulation_chain", &articulationChain, py::arg("graph"),
        "The chain of single-value separators (articulation points) "
        "(see ckpt.articulation_chain).");
}
