//===- ckpt-sched.cpp - op-level schedules of a graph ---------------------===//
//
// Reads a training graph (Checkmate / MOCCASIN node-link JSON, as ckpt-graph
// does), plans an op-level rematerialization schedule under a memory budget
// with any strategy of the planner (the one ckpt-plan runs on MLIR steps),
// and prints the outcome as JSON. Exit code 1 on bad input or usage, 2 when
// the budget is infeasible.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Graph/GraphJson.h"
#include "ckpt/Solver/Schedule/OffloadPlanner.h"
#include "ckpt/Solver/Schedule/Planner.h"
#include "ckpt/Solver/Schedule/Schedule.h"
#include "ckpt/Solver/Support/Budget.h"
#include "ckpt/Solver/Support/JsonReader.h"
#include "ckpt/Solver/Support/JsonWriter.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace ckpt;

namespace {

const char *kUsage =
    "usage: ckpt-sched GRAPH.json [options]\n"
    "\n"
    "Plans which values to keep and which to recompute so that one step of\n"
    "the graph (forward + backward nodes, in the file's topological order)\n"
    "fits a memory budget at the least extra cost, in the standard memory\n"
    "model (each node allocates its output, freed after its last reader).\n"
    "\n"
    "options:\n"
    "  --budget=B         bytes (units B, KB, MB, GB, KiB, MiB, GiB, TiB) or\n"
    "                     a percentage of the store-all peak ('80%');\n"
    "                     default 100%\n"
    "  --strategy=NAME    a strategy below (default optimal)\n"
    "  --slots=S          memory slots of the chain DP (default 500, 0: "
    "exact)\n"
    "  --time-limit=SEC   ilp: wall-clock seconds of the whole plan, warm\n"
    "                     start and program included (default 60, 0: none);\n"
    "                     with --offload-link the ILP with paging runs after\n"
    "                     it, with as many seconds of its own\n"
    "  --node-limit=N     ilp: CBC's branch-and-bound nodes (default 0: "
    "none);\n"
    "                     the same answer on any machine, under any load\n"
    "  --ilp-memory=M     ilp: memory CBC may use, bytes with a unit or a\n"
    "                     percentage of the machine's (default 50%)\n"
    "  --threads=N        ilp: CBC threads (default 1)\n"
    "  --ilp-log          ilp: CBC's log on standard output\n"
    "  --offload-link=BW[:LAT]  also plan recomputation and offloading\n"
    "                     together over a link of BW bytes per cost unit each\n"
    "                     way and LAT cost units per copy (object 'offload')\n"
    "  --schedule         also print the schedule (node names, in order);\n"
    "                     with --offload-link also the joint plan's\n"
    "                     (offload.schedule) and its copies (offload.copies:\n"
    "                     value, after, wait_after, reload_after)\n"
    "  --as-imported      plan the step python -m ckpt.import_graph makes of\n"
    "                     the graph, as ckpt-plan does: every buffer rounded\n"
    "                     up to 16 B, and the loss value (16 B) returned\n"
    "  --replay=FILE      evaluate the schedule in FILE (JSON: 'schedule',\n"
    "                     node names in execution order, each op once or\n"
    "                     more) instead of planning: object 'replay' with\n"
    "                     executions, cost, peak, within_budget\n"
    "  --compact          one-line JSON\n"
    "  --help             this text\n"
    "\n"
    "Output: JSON with the store-all cost and peak, the budget, and the plan:\n"
    "feasible, cost, peak, overhead_percent, recomputations, producer,\n"
    "plan_ms (with --offload-link, of both plans); least_feasible_bytes\n"
    "when the budget is infeasible; for ilp (whose plan is optimal's where\n"
    "that is cheaper) also status, cost,\n"
    "lower_bound, gap_percent (the program's schedule's cost, its bound and\n"
    "the cost over the bound: the program's own, for schedules that\n"
    "recompute in op order within a stage), stopped_by_nodes,\n"
    "warm_started, variables, constraints,\n"
    "nonzeros, estimated_bytes, peak_bytes, seconds. With --offload-link,\n"
    "'offload': feasible, cost (stalls included), overhead_percent,\n"
    "device_peak, host_peak, stall, transfers, offloaded_bytes,\n"
    "recomputations, producer; least_feasible_bytes (with offloading)\n"
    "when neither plan fits; with strategy ilp (whose joint plan is the\n"
    "joint planner's where that is faster) also 'offload.ilp', the ILP\n"
    "with paging: as 'ilp', plus program_time (its plan's time in the\n"
    "program, which lower_bound and gap_percent are about; 'cost' is the\n"
    "same plan's time with copies overlapping), device_peak, transfers.\n"
    "Exit code 2 when nothing fits.\n";

int fail(const std::string &message) {
  std::fprintf(stderr, "ckpt-sched: error: %s\n", message.c_str());
  return 1;
}

/// The schedule of a replay file: its "schedule" array of node names, as
/// op ids of the graph's problem (`opNode`: each op's node).
std::optional<sched::Schedule> readSchedule(const std::string &path,
                                            const graph::Graph &graph,
                                            const std::vector<int> &opNode,
                                            std::string &error) {
  std::string text;
  if (!readFile(path, text)) {
    error = path + ": cannot open file";
    return std::nullopt;
  }
  std::optional<llvm::json::Value> doc = parseJson(text, error);
  if (!doc) {
    error = withSource(path, error);
    return std::nullopt;
  }
  const llvm::json::Object *object = doc->getAsObject();
  const llvm::json::Array *names =
      object ? object->getArray("schedule") : nullptr;
  if (!names) {
    error = path + ": expected an object with a 'schedule' array of node names";
    return std::nullopt;
  }
  // Node name -> op; a name two nodes share cannot be replayed.
  std::map<std::string, int> opOf;
  for (size_t op = 0; op < opNode.size(); ++op) {
    auto [it, fresh] =
        opOf.emplace(graph.node(opNode[op]).name, static_cast<int>(op));
    if (!fresh)
      it->second = -1;
  }
  JsonError where;
  llvm::json::Path at = where.root().field("schedule");
  sched::Schedule schedule;
  for (size_t i = 0; i < names->size(); ++i) {
    std::optional<llvm::StringRef> name = (*names)[i].getAsString();
    auto it = name ? opOf.find(name->str()) : opOf.end();
    if (it == opOf.end() || it->second < 0) {
      where.fail(at.index(i),
                 !name ? std::string("expected a node name")
                 : it == opOf.end()
                     ? "no computed node is named '" + name->str() + "'"
                     : "several nodes are named '" + name->str() + "'");
      error = withSource(path, where.text());
      return std::nullopt;
    }
    schedule.push_back(it->second);
  }
  return schedule;
}

/// The ILP's own outcome (object 'ilp'); with paging also the program's
/// time of its plan and its copies, the gap measured on that time.
void writeIlp(JsonWriter &json, const sched::IlpResult &ilp,
              bool paging = false) {
  json.attributeObject("ilp", [&] {
    json.attribute("status", sched::statusName(ilp.status));
    // The program's own schedule's cost: the plan is `optimal`'s where that
    // is cheaper.
    if (!ilp.schedule.empty()) {
      json.attribute("cost", ilp.cost);
      double programTime = paging ? ilp.programTime : ilp.cost;
      if (paging) {
        json.attribute("program_time", ilp.programTime);
        json.attribute("device_peak", ilp.evaluation.devicePeak);
        json.attribute("transfers", static_cast<int64_t>(ilp.transfers.size()));
      }
      json.attribute("lower_bound", ilp.lowerBound);
      if (ilp.lowerBound > 0)
        json.attribute("gap_percent",
                       100 * (programTime - ilp.lowerBound) / ilp.lowerBound);
    }
    json.attribute("bound_scope", "program");
    if (!ilp.warning.empty())
      json.attribute("warning", ilp.warning);
    json.attribute("stopped_by_nodes", ilp.stoppedByNodes);
    json.attribute("warm_started", ilp.warmStarted);
    json.attribute("variables", ilp.variables);
    json.attribute("constraints", ilp.constraints);
    json.attribute("nonzeros", ilp.nonzeros);
    json.attribute("estimated_bytes", ilp.estimatedBytes);
    json.attribute("peak_bytes", ilp.peakBytes);
    json.attribute("seconds", ilp.seconds);
  });
}

/// A node's name by op.
using NodeNames = std::function<const std::string &(int op)>;

std::vector<std::string> scheduleNames(const sched::Schedule &schedule,
                                       const NodeNames &nodeName) {
  std::vector<std::string> names;
  for (int op : schedule)
    names.push_back(nodeName(op));
  return names;
}

/// The joint plan of recomputation and offloading (object 'offload').
void writeOffload(JsonWriter &json, const sched::OffloadPlanResult &joint,
                  const sched::Problem &problem, const sched::Evaluation &base,
                  bool printSchedule, const NodeNames &nodeName) {
  json.attributeObject("offload", [&] {
    json.attribute("feasible", joint.feasible);
    if (joint.leastBudget)
      json.attribute("least_feasible_bytes", *joint.leastBudget);
    if (!joint.feasible) {
      if (joint.ilp)
        writeIlp(json, *joint.ilp, /*paging=*/true);
      return;
    }
    const sched::TransferEvaluation &e = joint.evaluation;
    json.attribute("cost", e.time);
    json.attribute("overhead_percent",
                   base.cost > 0 ? 100 * (e.time - base.cost) / base.cost
                                 : 0.0);
    json.attribute("device_peak", e.devicePeak);
    json.attribute("host_peak", e.hostPeak);
    json.attribute("stall", e.stallTime);
    json.attribute("transfers", static_cast<int64_t>(joint.transfers.size()));
    json.attribute("offloaded_bytes", e.offloadedBytes);
    json.attribute("recomputations",
                   static_cast<int64_t>(joint.schedule.size()) -
                       problem.numOps());
    json.attribute("producer", joint.producer);
    if (joint.ilp)
      writeIlp(json, *joint.ilp, /*paging=*/true);
    if (!printSchedule)
      return;
    // The joint schedule and its copies: each moves the version of a node's
    // value live when execution `after` ends (0-based, in `schedule`) to
    // the host, waits for it after `wait_after`, and brings it back after
    // `reload_after` (null: never read again).
    json.attributeScalarArray("schedule",
                              scheduleNames(joint.schedule, nodeName));
    json.attributeArray("copies", [&] {
      for (size_t t = 0; t < joint.transfers.size(); ++t) {
        const sched::Transfer &transfer = joint.transfers[t];
        json.object([&] {
          json.attribute("value",
                         nodeName(problem.values[transfer.value].producer));
          json.attribute("after", static_cast<int64_t>(transfer.after));
          size_t wait =
              t < e.offloadDone.size() ? e.offloadDone[t] : transfer.waitAfter;
          json.attribute("wait_after", static_cast<int64_t>(wait));
          if (transfer.reloadAfter == sched::kNoReload)
            json.attribute("reload_after", nullptr);
          else
            json.attribute("reload_after",
                           static_cast<int64_t>(transfer.reloadAfter));
        });
      }
    });
  });
}

} // namespace

int main(int argc, char **argv) {
  std::string path, budgetText = "100%";
  sched::PlanOptions options;
  BudgetSpec ilpMemory;
  ilpMemory.percent = true;
  ilpMemory.value = 50;
  bool printSchedule = false, compact = false;
  std::string replayPath;
  bool asImported = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *prefix) -> const char * {
      size_t n = std::char_traits<char>::length(prefix);
      return a.compare(0, n, prefix) == 0 ? a.c_str() + n : nullptr;
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::fputs("\nstrategies (those of ckpt-plan that need no MLIR step):\n",
                 stdout);
      for (const sched::StrategyInfo &info : sched::planStrategies())
        if (!info.needsStep)
          std::printf("  %-13s %s\n", info.spelling, info.summary);
      return 0;
    } else if (const char *v = value("--budget=")) {
      budgetText = v;
    } else if (const char *v = value("--strategy=")) {
      std::string error;
      std::optional<sched::PlanStrategy> strategy =
          sched::PlanStrategy::parse(v, error);
      if (strategy && strategy->info().needsStep)
        error = "strategy '" + strategy->str() +
                "' needs an MLIR step (ckpt.checkpoint marks or op kinds); " +
                "a graph file plans with " + sched::strategySpellings(false);
      if (!strategy || strategy->info().needsStep)
        return fail(error);
      options.strategy = *strategy;
    } else if (const char *v = value("--slots=")) {
      char *end = nullptr;
      long long slots = std::strtoll(v, &end, 10);
      if (*v == 0 || *end != 0 || slots < 0)
        return fail("invalid --slots '" + std::string(v) +
                    "': expected 0 or a positive integer");
      options.slots = slots;
    } else if (const char *v = value("--time-limit=")) {
      char *end = nullptr;
      options.ilpTimeLimit = std::strtod(v, &end);
      if (*v == 0 || *end != 0 || !(options.ilpTimeLimit >= 0))
        return fail("invalid --time-limit '" + std::string(v) +
                    "': expected a number of seconds (0: none)");
    } else if (const char *v = value("--node-limit=")) {
      char *end = nullptr;
      long long nodes = std::strtoll(v, &end, 10);
      if (*v == 0 || *end != 0 || nodes < 0)
        return fail("invalid --node-limit '" + std::string(v) +
                    "': expected 0 (none) or a positive integer");
      options.ilpNodeLimit = nodes;
    } else if (const char *v = value("--ilp-memory=")) {
      std::string error;
      std::optional<BudgetSpec> spec = parseBudget(v, error);
      if (!spec)
        return fail("invalid --ilp-memory: " + error);
      ilpMemory = *spec;
    } else if (const char *v = value("--threads=")) {
      char *end = nullptr;
      long threads = std::strtol(v, &end, 10);
      if (*v == 0 || *end != 0 || threads < 1)
        return fail("invalid --threads '" + std::string(v) +
                    "': expected a positive integer");
      options.ilpThreads = static_cast<int>(threads);
    } else if (const char *v = value("--offload-link=")) {
      // BW[:LATENCY]: bytes per cost unit each way, latency in cost units.
      char *end = nullptr;
      double bandwidth = std::strtod(v, &end);
      double latency = 0;
      bool ok = end != v && bandwidth > 0;
      if (ok && *end == ':') {
        const char *l = end + 1;
        latency = std::strtod(l, &end);
        ok = end != l && latency >= 0;
      }
      if (!ok || *end != 0)
        return fail("invalid --offload-link '" + std::string(v) +
                    "': expected BANDWIDTH[:LATENCY], bytes per cost unit "
                    "(> 0) and cost units (>= 0)");
      options.offload = sched::LinkSpec{bandwidth, bandwidth, latency};
    } else if (a == "--ilp-log") {
      options.ilpLog = true;
    } else if (a == "--schedule") {
      printSchedule = true;
    } else if (a == "--as-imported") {
      asImported = true;
    } else if (const char *v = value("--replay=")) {
      replayPath = v;
    } else if (a == "--compact") {
      compact = true;
    } else if (a.size() > 1 && a[0] == '-') {
      return fail("unknown option '" + a + "' (try --help)");
    } else if (path.empty()) {
      path = a;
    } else {
      return fail("more than one input file");
    }
  }
  if (path.empty())
    return fail("no input file (try --help)");
  if (options.offload &&
      options.strategy.kind != sched::StrategyKind::Optimal &&
      options.strategy.kind != sched::StrategyKind::Ilp)
    return fail("--offload-link plans with strategy optimal or ilp "
                "(recomputation and offloading together), not '" +
                options.strategy.str() + "'");
  options.ilpMemoryLimit = sched::ilpMemoryLimitBytes(ilpMemory);

  graph::GraphReadResult read = graph::readGraphFile(path);
  if (!read.ok)
    return fail(read.error);
  std::vector<int> opNode;
  sched::Problem problem = sched::problemFromGraph(
      read.graph, &opNode, asImported ? 16 : 1, asImported);
  std::string why = problem.validate();
  if (!why.empty())
    return fail(path + ": " + why);

  sched::Evaluation base =
      sched::evaluate(problem, sched::identitySchedule(problem));
  std::string error;
  std::optional<BudgetSpec> budget = parseBudget(budgetText, error);
  if (!budget)
    return fail(error);
  options.budget = budgetBytes(*budget, static_cast<uint64_t>(base.peak));

  NodeNames nodeName = [&](int op) -> const std::string & {
    return read.graph.node(opNode[op]).name;
  };
  // The output's first members: the graph, its ops, the store-all plan.
  auto header = [&](JsonWriter &json) {
    json.attribute("graph", read.graph.name.empty() ? path : read.graph.name);
    json.attribute("ops", problem.numOps());
    json.attributeObject("store_all", [&] {
      json.attribute("cost", base.cost);
      json.attribute("peak", base.peak);
    });
  };
  auto print = [&](const std::function<void(JsonWriter &)> &members) {
    std::string text = writeJson(compact ? 0 : 2, [&](JsonWriter &json) {
      json.object([&] {
        header(json);
        members(json);
      });
    });
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
  };
  if (!replayPath.empty()) {
    std::string why;
    std::optional<sched::Schedule> replayed =
        readSchedule(replayPath, read.graph, opNode, why);
    if (!replayed)
      return fail(why);
    sched::Evaluation e = sched::evaluate(problem, *replayed);
    if (!e.valid)
      return fail(replayPath + ": not a schedule of the graph: " + e.error);
    print([&](JsonWriter &json) {
      json.attribute("budget", options.budget);
      json.attributeObject("replay", [&] {
        json.attribute("executions", static_cast<int64_t>(replayed->size()));
        json.attribute("cost", e.cost);
        json.attribute("peak", e.peak);
        json.attribute("within_budget", e.peak <= options.budget);
      });
    });
    return e.peak <= options.budget ? 0 : 2;
  }

  auto t0 = std::chrono::steady_clock::now();
  sched::PlanThenOffload planned = sched::planThenOffload(problem, options);
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
  const sched::PlanResult &plan = planned.recompute;
  if (!plan.error.empty())
    return fail(plan.error);
  if (planned.joint && !planned.joint->error.empty())
    return fail(planned.joint->error);
  bool offloadFeasible = planned.joint && planned.joint->feasible;

  print([&](JsonWriter &json) {
    json.attribute("strategy", options.strategy.str());
    json.attribute("budget", options.budget);
    json.attribute("feasible", plan.feasible);
    if (plan.feasible) {
      json.attribute("cost", plan.time);
      json.attribute("peak", plan.peak);
      json.attribute("overhead_percent",
                     base.cost > 0 ? 100 * (plan.time - base.cost) / base.cost
                                   : 0.0);
      json.attribute("recomputations",
                     static_cast<int64_t>(plan.schedule.size()) -
                         problem.numOps());
      json.attribute("producer", plan.producer);
    }
    if (!plan.feasible && plan.leastPeak)
      json.attribute("least_feasible_bytes", *plan.leastPeak);
    if (plan.ilp)
      writeIlp(json, *plan.ilp);
    if (planned.joint)
      writeOffload(json, *planned.joint, problem, base, printSchedule,
                   nodeName);
    json.attribute("plan_ms", ms);
    if (printSchedule && plan.feasible)
      json.attributeScalarArray("schedule",
                                scheduleNames(plan.schedule, nodeName));
  });
  return plan.feasible || offloadFeasible ? 0 : 2;
}
