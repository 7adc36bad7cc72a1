//===- Report.cpp - the ckpt-report pass ----------------------------------===//
//
// Describes the plan a step carries (its schedule, evaluated by the
// simulator; nothing is planned again), compares it with the baselines at
// the same budget, and writes the step's chain model for offline studies.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/PlanStep.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Analysis/StepProblem.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Solver/Chain/ChainJson.h"
#include "ckpt/Solver/Schedule/LowerBound.h"
#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/OffloadPlanner.h"
#include "ckpt/Solver/Schedule/ProblemChain.h"
#include "ckpt/Solver/Schedule/Repeats.h"
#include "ckpt/Solver/Support/JsonWriter.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace ckpt {
#define GEN_PASS_DEF_REPORTPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct StepReport;

struct ReportPass
    : public ckpt::ListValidOptions<ckpt::impl::ReportPassBase<ReportPass>> {
  using ListValidOptions::ListValidOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    ReportPassBase::getDependentDialects(registry);
    registerCostModelExternalModels(registry);
  }

  void runOnOperation() override;

private:
  /// Writes `step`'s report to `json`, an entry of the report's array
  /// (nothing for a step without a plan); fails with an error at the step
  /// before writing anything.
  LogicalResult reportStep(StepOp step, JsonWriter &json);
  /// The members of `step`'s entry.
  void writeEntry(JsonWriter &json, StepOp step, const StepReport &r) const;
};

double overhead(double time, double storeAllTime) {
  return storeAllTime > 0 ? 100.0 * (time - storeAllTime) / storeAllTime : 0.0;
}

/// "file:line:col" of the first file location in `op`'s location, else the
/// location as MLIR prints it.
std::string location(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  FileLineColLoc file;
  op->getLoc()->walk([&](Location loc) {
    if (auto found = dyn_cast<FileLineColLoc>(loc)) {
      file = found;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (file)
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    op->getLoc().print(os);
  return text;
}
/// One step's report: the plan's schedule (and copies) evaluated on the step,
/// and a method per section of its JSON entry.
struct StepReport {
  StepOp step;
  PlanAttr plan;
  OrderProblem built;
  sched::Schedule schedule;
  /// The plan as the simulator sees it: with copies, their device peak and
  /// time (`moved`).
  sched::Evaluation eval;
  sched::LinkSpec link;
  std::vector<sched::Transfer> transfers;
  sched::TransferEvaluation moved;
  sched::Evaluation storeAll;
  uint64_t budget = 0;
  int64_t slots = 0;

  const sched::Problem &problem() const { return built.problem; }
  bool fits() const { return eval.peak <= static_cast<int64_t>(budget); }

  /// The plan: its schedule as the simulator sees it, and what it runs again
  /// or moves to host memory (the members of its object).
  void writePlan(JsonWriter &json) const {
    json.attribute("feasible", fits());
    json.attribute("peak_bytes", eval.peak);
    json.attribute("time_s", eval.cost);
    json.attribute("overhead_percent", overhead(eval.cost, storeAll.cost));
    double lowerBound = plan.getLowerBound().convertToDouble();
    if (lowerBound > 0) {
      // The ILP's bound holds for its program's schedules only.
      json.attribute("lower_bound_s", lowerBound);
      json.attribute("lower_bound_scope",
                     "the ilp program's schedules (each stage's "
                     "recomputations in op order), not every schedule");
    }
    json.attribute("executions", static_cast<int64_t>(schedule.size()));
    std::vector<int> runs = sched::runCounts(problem(), schedule);
    json.attributeArray("recomputed", [&] {
      for (auto [id, count] : llvm::enumerate(runs)) {
        if (count < 2)
          continue;
        json.object([&, id = id, count = count] {
          json.attribute("position", static_cast<int64_t>(id));
          json.attribute("op", problem().ops[id].name);
          json.attribute("loc", location(built.opOf[id]));
          json.attribute("runs", count);
        });
      }
    });
    if (transfers.empty())
      return;
    json.attributeArray("transfers", [&] {
      for (size_t i = 0; i < plan.getNumTransfers(); ++i) {
        PlanAttr::Transfer t = plan.getTransfer(i);
        int producer = problem().values[transfers[i].value].producer;
        json.object([&] {
          json.attribute("position", t.op);
          json.attribute("result", t.result);
          json.attribute("op", problem().ops[producer].name);
          json.attribute("loc", location(built.opOf[producer]));
          json.attribute("offload_after", t.offloadAfter);
          json.attribute("offload_done", t.offloadDone);
          json.attribute("reload_after", t.reloadAfter);
        });
      }
    });
    json.attribute("host_peak_bytes", moved.hostPeak);
    json.attribute("stall_s", moved.stallTime);
    json.attribute("offloaded_bytes", moved.offloadedBytes);
  }

  /// The least feasible budgets, of recomputation alone and with
  /// offloading: what ckpt-plan names when a budget is refused.
  void writeLeastBudget(JsonWriter &json) const {
    sched::PlanOptions lowest;
    lowest.budget = 1;
    lowest.slots = slots;
    sched::PlanResult refused = sched::planSchedule(problem(), lowest);
    json.attributeObject("least_budget", [&] {
      if (refused.feasible) { // a step that needs no memory at all
        json.attribute("recomputation_bytes", refused.peak);
        json.attribute("with_offloading_bytes", refused.peak);
      } else if (refused.leastPeak) {
        json.attribute("recomputation_bytes", *refused.leastPeak);
        sched::OffloadPlanOptions offload;
        offload.link = link;
        offload.slots = slots;
        if (std::optional<int64_t> withOffload =
                sched::leastBudgetWithOffload(problem(), offload, refused))
          json.attribute("with_offloading_bytes", *withOffload);
      }
      json.attribute("link", "the device's (the plan's)");
    });
  }

  /// The identical blocks the planner's greedies use (Repeats.h).
  void writeRepeatedBlocks(JsonWriter &json) const {
    json.attributeArray("repeated_blocks", [&] {
      for (const sched::RepeatRun &run : sched::findRepeats(problem()).runs)
        json.object([&] {
          json.attribute("first_position", run.start);
          json.attribute("first_op", problem().ops[run.start].name);
          json.attribute("first_loc", location(built.opOf[run.start]));
          json.attribute("ops_per_block", run.period);
          json.attribute("blocks", run.count);
        });
    });
  }

  /// A lower bound on the time of every schedule of recomputation alone
  /// within the budget (of those that run the ops a first time in the
  /// step's order, with BoundScope::InOrder; LowerBound.h), and how far the
  /// plan is above it.
  void writeLowerBound(JsonWriter &json, const char *key,
                       sched::BoundScope scope, const char *text) const {
    const bool inOrder = sched::firstRunsInOrder(schedule);
    sched::RecomputeBound bound = sched::recomputeLowerBound(
        problem(), static_cast<int64_t>(budget), {scope});
    json.attributeObject(key, [&] {
      json.attribute("scope", text);
      json.attribute("cuts", bound.cutsTried);
      json.attribute("cuts_binding", bound.cutsBinding);
      if (scope == sched::BoundScope::InOrder)
        json.attribute("plan_in_order", inOrder);
      if (bound.infeasible) {
        json.attribute("infeasible", true);
        return;
      }
      double time = storeAll.cost + bound.recompute;
      json.attribute("recompute_s", bound.recompute);
      json.attribute("time_s", time);
      if (bound.cutOp >= 0) {
        json.attribute("cut_position", bound.cutOp);
        json.attribute("cut_op", problem().ops[bound.cutOp].name);
        json.attribute("cut_loc", location(built.opOf[bound.cutOp]));
      }
      if (transfers.empty() && fits() &&
          (scope == sched::BoundScope::Any || inOrder))
        json.attribute("plan_above_percent", overhead(eval.cost, time));
    });
  }

  /// save_on_cpu's transfers on `on` over the device's link (its peak may
  /// not fit the budget).
  void writeSavedOnCpu(JsonWriter &json, const char *key,
                       const sched::Schedule &on) const {
    sched::TransferEvaluator evaluator(problem(), on);
    sched::TransferEvaluation saved =
        evaluator.evaluate(evaluator.saveOnCpu(), link);
    json.attributeObject(key, [&] {
      if (!saved.valid) {
        json.attribute("error", saved.error);
        return;
      }
      json.attribute("feasible",
                     saved.devicePeak <= static_cast<int64_t>(budget));
      json.attribute("peak_bytes", saved.devicePeak);
      json.attribute("time_s", saved.time);
      json.attribute("overhead_percent", overhead(saved.time, storeAll.cost));
      json.attribute("host_peak_bytes", saved.hostPeak);
    });
  }

  /// The baselines at the same budget: the chain strategies, and offloading
  /// as PyTorch users do it.
  void writeBaselines(JsonWriter &json) const {
    json.attributeObject("baselines", [&] { writeBaselineMembers(json); });
  }

  void writeBaselineMembers(JsonWriter &json) const {
    using sched::StrategyKind;
    for (sched::PlanStrategy strategy :
         {sched::PlanStrategy{StrategyKind::StoreAll},
          sched::PlanStrategy{StrategyKind::Periodic, 2},
          sched::PlanStrategy{StrategyKind::Periodic, 3},
          sched::PlanStrategy{StrategyKind::Periodic, 4},
          sched::PlanStrategy{StrategyKind::Sqrt},
          sched::PlanStrategy{StrategyKind::Revolve},
          sched::PlanStrategy{StrategyKind::MemoryPoor}}) {
      sched::PlanOptions baseline;
      baseline.strategy = strategy;
      baseline.budget = static_cast<int64_t>(budget);
      baseline.slots = slots;
      sched::PlanResult r = sched::planSchedule(problem(), baseline);
      json.attributeObject(strategy.str(), [&] {
        if (!r.error.empty()) {
          json.attribute("error", r.error);
          return;
        }
        json.attribute("feasible", r.feasible);
        if (r.feasible) {
          json.attribute("peak_bytes", r.peak);
          json.attribute("time_s", r.time);
          json.attribute("overhead_percent", overhead(r.time, storeAll.cost));
        }
        if (r.leastPeak)
          json.attribute("min_feasible_bytes", *r.leastPeak);
      });
    }
    // PyTorch's save_on_cpu: the step as written, every saved activation on
    // the host between its forward and backward uses.
    writeSavedOnCpu(json, "save_on_cpu", sched::identitySchedule(problem()));
    // Checkpointing every block with its inputs offloaded: the keep set of
    // the values ckpt.checkpoint marks (the importer's --keep blocks marks
    // the blocks' inputs; strategy keep), with save_on_cpu's transfers on
    // that schedule, which move what the backward reads: the kept inputs.
    std::vector<char> kept = keptValues(built);
    if (llvm::is_contained(kept, 1))
      writeSavedOnCpu(json, "checkpoint_offload",
                      sched::keepSetSchedule(problem(), kept));
  }

  /// The chain model (ckpt-chain's input format, bytes and seconds), so that
  /// other strategies and budgets can be evaluated on it offline.
  void writeChain(JsonWriter &json) const {
    sched::ProblemChain chain = sched::buildProblemChain(problem());
    json.attribute("stages", static_cast<int64_t>(chain.chain.numStages()));
    std::vector<int64_t> separators, stageOps;
    for (const graph::Separator &separator : chain.separators.separators)
      separators.push_back(static_cast<int64_t>(separator.bytes));
    json.attributeScalarArray("separator_bytes", separators);
    for (const std::vector<int> &ops : chain.stageOps)
      stageOps.push_back(static_cast<int64_t>(ops.size()));
    json.attributeScalarArray("stage_ops", stageOps);
    json.attributeBegin("chain");
    solver::writeChainJson(json, chain.chain, static_cast<int64_t>(budget));
    json.attributeEnd();
  }

  /// The remark ckpt-report leaves at the step.
  std::string summary() const {
    std::string summary;
    llvm::raw_string_ostream os(summary);
    StepOp op = step; // getSymName is not const
    os << "ckpt: '" << op.getSymName() << "' with " << plan.getStrategy()
       << " under " << formatBytes(budget) << ": peak "
       << formatBytes(static_cast<uint64_t>(eval.peak));
    if (storeAll.peak > 0)
      os << " (" << llvm::format("%.1f", 100.0 * eval.peak / storeAll.peak)
         << "% of the store-all peak)";
    os << ", time " << llvm::format("%.4g", eval.cost) << " s (+"
       << llvm::format("%.1f", overhead(eval.cost, storeAll.cost)) << "%), ";
    size_t recomputations = schedule.size() - problem().ops.size();
    os << recomputations
       << (recomputations == 1 ? " recomputation" : " recomputations");
    if (!transfers.empty())
      os << ", " << transfers.size()
         << (transfers.size() == 1 ? " value" : " values")
         << " moved to host memory (host peak "
         << formatBytes(static_cast<uint64_t>(moved.hostPeak)) << ")";
    return summary;
  }
};
} // namespace

LogicalResult ReportPass::reportStep(StepOp step, JsonWriter &json) {
  auto plan = step->getAttrOfType<PlanAttr>(kPlanAttrName);
  if (!plan) {
    step.emitWarning("no ckpt.plan on this step: run ckpt-plan first; the "
                     "step is left out of the report");
    return success();
  }
  // The plan's own costs: the device and profile it was made with.
  Device planDevice = plan.getDevice();
  if (device.hasValue() && device != planDevice)
    return step.emitError("the plan was made for device '")
           << stringifyDevice(planDevice)
           << "' and is reported in its times: leave out "
           << "device=" << stringifyDevice(device) << " or plan with it";
  if (profile.hasValue() && StringRef(profile) != plan.getProfile())
    return step.emitError("the plan was made with ")
           << (plan.getProfile().empty()
                   ? std::string("no profile")
                   : "profile '" + plan.getProfile().str() + "'")
           << " and is reported in its times: leave out profile= or plan with "
              "it";
  FailureOr<CostSetup> costs =
      setUpCosts(step.getLoc(), planDevice, plan.getProfile());
  if (failed(costs))
    return failure();
  const StepAnalysis &analysis = getChildAnalysis<StepAnalysis>(step);
  FailureOr<OrderProblem> built =
      buildStepProblem(step, analysis, costs->device, costs->profile());
  if (failed(built))
    return failure();
  StepReport r{step, plan, std::move(*built)};
  r.schedule.assign(plan.getSchedule().begin(), plan.getSchedule().end());
  sched::EvalOptions options;
  options.live = true;
  r.eval = sched::evaluate(r.problem(), r.schedule, options);
  if (!r.eval.valid)
    return step.emitError("the plan's schedule is not valid for this step: ")
           << r.eval.error;
  // The plan's copies to host memory, over the device's link: the peak
  // and time are then those of the schedule with them.
  FailureOr<sched::LinkSpec> measuredLink = costLink(step.getLoc(), *costs);
  if (failed(measuredLink))
    return failure();
  r.link = *measuredLink;
  FailureOr<std::vector<sched::Transfer>> planned =
      planTransfers(step, plan, r.built);
  if (failed(planned))
    return failure();
  r.transfers = std::move(*planned);
  if (!r.transfers.empty()) {
    r.moved =
        sched::evaluateTransfers(r.problem(), r.schedule, r.transfers, r.link);
    if (!r.moved.valid)
      return step.emitError("the plan's transfers are not valid for this "
                            "step: ")
             << r.moved.error;
    r.eval.peak = r.moved.devicePeak;
    r.eval.cost = r.moved.time;
  }
  r.storeAll =
      sched::evaluate(r.problem(), sched::identitySchedule(r.problem()));
  r.budget = plan.getBudget();
  r.slots = slots;

  json.object([&] { writeEntry(json, step, r); });
  mlir::emitRemark(step.getLoc(), r.summary());
  return success();
}

void ReportPass::writeEntry(JsonWriter &json, StepOp step,
                            const StepReport &r) const {
  json.attribute("step", step.getSymName());
  json.attribute("strategy", r.plan.getStrategy());
  json.attribute("budget_bytes", static_cast<int64_t>(r.budget));
  json.attributeObject("plan", [&] { r.writePlan(json); });
  json.attribute("simulated_peak_bytes", r.eval.peak);
  if (leastOption)
    r.writeLeastBudget(json);
  r.writeRepeatedBlocks(json);
  if (lowerBoundOption) {
    r.writeLowerBound(json, "lower_bound", sched::BoundScope::Any,
                      "every schedule of recomputation alone within the "
                      "budget (cuts at single ops, Lagrangian relaxation)");
    r.writeLowerBound(json, "lower_bound_in_order", sched::BoundScope::InOrder,
                      "every schedule of recomputation alone within the "
                      "budget that runs each op a first time in the step's "
                      "order, as the ilp program does (cuts at single ops, "
                      "Lagrangian relaxation)");
  }
  json.attributeObject("store_all", [&] {
    json.attribute("peak_bytes", r.storeAll.peak);
    json.attribute("time_s", r.storeAll.cost);
  });
  r.writeBaselines(json);
  json.attributeScalarArray("timeline_bytes", r.eval.live);
  r.writeChain(json);
}

void ReportPass::runOnOperation() {
  ModuleOp module = getOperation();
  std::string report;
  llvm::raw_string_ostream os(report);
  bool ok = true;
  {
    JsonWriter json(os, 2);
    json.array([&] {
      for (StepOp step : module.getOps<StepOp>())
        if (failed(reportStep(step, json))) {
          ok = false;
          return;
        }
    });
  }
  if (!ok)
    return signalPassFailure();

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
  if (!file) {
    emitError(module.getLoc(), "cannot write the report: ") << error;
    return signalPassFailure();
  }
  file->os() << report << "\n";
  file->keep();
  markAllAnalysesPreserved();
}
