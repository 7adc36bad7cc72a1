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
#include "ckpt/Solver/Support/Json.h"
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
struct ReportPass
    : public ckpt::ListValidOptions<ckpt::impl::ReportPassBase<ReportPass>> {
  using ListValidOptions::ListValidOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    ReportPassBase::getDependentDialects(registry);
    registerCostModelExternalModels(registry);
  }

  void runOnOperation() override;

private:
  /// Appends `step`'s report to `report` (nothing for a step without a
  /// plan); fails with an error at the step.
  LogicalResult reportStep(StepOp step, json::Value &report);
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
  /// or moves to host memory.
  json::Value planEntry() const {
    json::Value chosen = json::Value::object();
    chosen.set("feasible", fits());
    chosen.set("peak_bytes", eval.peak);
    chosen.set("time_s", eval.cost);
    chosen.set("overhead_percent", overhead(eval.cost, storeAll.cost));
    double lowerBound = plan.getLowerBound().convertToDouble();
    if (lowerBound > 0) {
      // The ILP's bound holds for its program's schedules only.
      chosen.set("lower_bound_s", lowerBound);
      chosen.set("lower_bound_scope",
                 "the ilp program's schedules (each stage's recomputations "
                 "in op order), not every schedule");
    }
    chosen.set("executions", static_cast<int64_t>(schedule.size()));
    std::vector<int> runs = sched::runCounts(problem(), schedule);
    json::Value recomputed = json::Value::array();
    for (auto [id, count] : llvm::enumerate(runs)) {
      if (count < 2)
        continue;
      json::Value op = json::Value::object();
      op.set("position", static_cast<int64_t>(id));
      op.set("op", problem().ops[id].name);
      op.set("loc", location(built.opOf[id]));
      op.set("runs", count);
      recomputed.push(std::move(op));
    }
    chosen.set("recomputed", std::move(recomputed));
    if (transfers.empty())
      return chosen;
    json::Value copies = json::Value::array();
    for (size_t i = 0; i < plan.getNumTransfers(); ++i) {
      PlanAttr::Transfer t = plan.getTransfer(i);
      json::Value copy = json::Value::object();
      copy.set("position", t.op);
      copy.set("result", t.result);
      int producer = problem().values[transfers[i].value].producer;
      copy.set("op", problem().ops[producer].name);
      copy.set("loc", location(built.opOf[producer]));
      copy.set("offload_after", t.offloadAfter);
      copy.set("offload_done", t.offloadDone);
      copy.set("reload_after", t.reloadAfter);
      copies.push(std::move(copy));
    }
    chosen.set("transfers", std::move(copies));
    chosen.set("host_peak_bytes", moved.hostPeak);
    chosen.set("stall_s", moved.stallTime);
    chosen.set("offloaded_bytes", moved.offloadedBytes);
    return chosen;
  }

  /// The least feasible budgets, of recomputation alone and with
  /// offloading: what ckpt-plan names when a budget is refused.
  json::Value leastBudget() const {
    sched::PlanOptions lowest;
    lowest.budget = 1;
    lowest.slots = slots;
    sched::PlanResult refused = sched::planSchedule(problem(), lowest);
    json::Value least = json::Value::object();
    if (refused.feasible) { // a step that needs no memory at all
      least.set("recomputation_bytes", refused.peak);
      least.set("with_offloading_bytes", refused.peak);
    } else if (refused.leastPeak) {
      least.set("recomputation_bytes", *refused.leastPeak);
      sched::OffloadPlanOptions offload;
      offload.link = link;
      offload.slots = slots;
      if (std::optional<int64_t> withOffload =
              sched::leastBudgetWithOffload(problem(), offload, refused))
        least.set("with_offloading_bytes", *withOffload);
    }
    least.set("link", "the device's (the plan's)");
    return least;
  }

  /// The identical blocks the planner's greedies use (Repeats.h).
  json::Value repeatedBlocks() const {
    json::Value blocks = json::Value::array();
    for (const sched::RepeatRun &run : sched::findRepeats(problem()).runs) {
      json::Value block = json::Value::object();
      block.set("first_position", run.start);
      block.set("first_op", problem().ops[run.start].name);
      block.set("first_loc", location(built.opOf[run.start]));
      block.set("ops_per_block", run.period);
      block.set("blocks", run.count);
      blocks.push(std::move(block));
    }
    return blocks;
  }

  /// A lower bound on the time of every schedule of recomputation alone
  /// within the budget (of those that run the ops a first time in the
  /// step's order, with BoundScope::InOrder; LowerBound.h), and how far the
  /// plan is above it.
  json::Value lowerBound(sched::BoundScope scope, const char *text) const {
    const bool inOrder = sched::firstRunsInOrder(schedule);
    sched::RecomputeBound bound = sched::recomputeLowerBound(
        problem(), static_cast<int64_t>(budget), {scope});
    json::Value lb = json::Value::object();
    lb.set("scope", text);
    lb.set("cuts", bound.cutsTried);
    lb.set("cuts_binding", bound.cutsBinding);
    if (scope == sched::BoundScope::InOrder)
      lb.set("plan_in_order", inOrder);
    if (bound.infeasible) {
      lb.set("infeasible", true);
      return lb;
    }
    double time = storeAll.cost + bound.recompute;
    lb.set("recompute_s", bound.recompute);
    lb.set("time_s", time);
    if (bound.cutOp >= 0) {
      lb.set("cut_position", bound.cutOp);
      lb.set("cut_op", problem().ops[bound.cutOp].name);
      lb.set("cut_loc", location(built.opOf[bound.cutOp]));
    }
    if (transfers.empty() && fits() &&
        (scope == sched::BoundScope::Any || inOrder))
      lb.set("plan_above_percent", overhead(eval.cost, time));
    return lb;
  }

  /// save_on_cpu's transfers on `on` over the device's link (its peak may
  /// not fit the budget).
  json::Value savedOnCpu(const sched::Schedule &on) const {
    sched::TransferEvaluator evaluator(problem(), on);
    sched::TransferEvaluation saved =
        evaluator.evaluate(evaluator.saveOnCpu(), link);
    json::Value out = json::Value::object();
    if (!saved.valid) {
      out.set("error", saved.error);
      return out;
    }
    out.set("feasible", saved.devicePeak <= static_cast<int64_t>(budget));
    out.set("peak_bytes", saved.devicePeak);
    out.set("time_s", saved.time);
    out.set("overhead_percent", overhead(saved.time, storeAll.cost));
    out.set("host_peak_bytes", saved.hostPeak);
    return out;
  }

  /// The baselines at the same budget: the chain strategies, and offloading
  /// as PyTorch users do it.
  json::Value baselines() const {
    json::Value baselines = json::Value::object();
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
      json::Value out = json::Value::object();
      if (!r.error.empty()) {
        out.set("error", r.error);
      } else {
        out.set("feasible", r.feasible);
        if (r.feasible) {
          out.set("peak_bytes", r.peak);
          out.set("time_s", r.time);
          out.set("overhead_percent", overhead(r.time, storeAll.cost));
        }
        if (r.leastPeak)
          out.set("min_feasible_bytes", *r.leastPeak);
      }
      baselines.set(strategy.str(), std::move(out));
    }
    // PyTorch's save_on_cpu: the step as written, every saved activation on
    // the host between its forward and backward uses.
    baselines.set("save_on_cpu",
                  savedOnCpu(sched::identitySchedule(problem())));
    // Checkpointing every block with its inputs offloaded: the keep set of
    // the values ckpt.checkpoint marks (the importer's --keep blocks marks
    // the blocks' inputs; strategy keep), with save_on_cpu's transfers on
    // that schedule, which move what the backward reads: the kept inputs.
    std::vector<char> kept = keptValues(built);
    if (llvm::is_contained(kept, 1))
      baselines.set("checkpoint_offload",
                    savedOnCpu(sched::keepSetSchedule(problem(), kept)));
    return baselines;
  }

  /// The chain model (ckpt-chain's input format, bytes and seconds), so that
  /// other strategies and budgets can be evaluated on it offline.
  void addChain(json::Value &entry) const {
    sched::ProblemChain chain = sched::buildProblemChain(problem());
    entry.set("stages", static_cast<int64_t>(chain.chain.numStages()));
    json::Value separators = json::Value::array();
    for (const graph::Separator &separator : chain.separators.separators)
      separators.push(static_cast<int64_t>(separator.bytes));
    entry.set("separator_bytes", std::move(separators));
    json::Value stageOps = json::Value::array();
    for (const std::vector<int> &ops : chain.stageOps)
      stageOps.push(static_cast<int64_t>(ops.size()));
    entry.set("stage_ops", std::move(stageOps));
    entry.set("chain", chainToJson(chain.chain, static_cast<int64_t>(budget)));
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

LogicalResult ReportPass::reportStep(StepOp step, json::Value &report) {
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

  json::Value entry = json::Value::object();
  entry.set("step", step.getSymName().str());
  entry.set("strategy", plan.getStrategy().str());
  entry.set("budget_bytes", static_cast<int64_t>(r.budget));
  entry.set("plan", r.planEntry());
  entry.set("simulated_peak_bytes", r.eval.peak);
  if (leastOption)
    entry.set("least_budget", r.leastBudget());
  entry.set("repeated_blocks", r.repeatedBlocks());
  if (lowerBoundOption) {
    entry.set("lower_bound",
              r.lowerBound(sched::BoundScope::Any,
                           "every schedule of recomputation alone within the "
                           "budget (cuts at single ops, Lagrangian "
                           "relaxation)"));
    entry.set("lower_bound_in_order",
              r.lowerBound(sched::BoundScope::InOrder,
                           "every schedule of recomputation alone within the "
                           "budget that runs each op a first time in the "
                           "step's order, as the ilp program does (cuts at "
                           "single ops, Lagrangian relaxation)"));
  }
  json::Value all = json::Value::object();
  all.set("peak_bytes", r.storeAll.peak);
  all.set("time_s", r.storeAll.cost);
  entry.set("store_all", std::move(all));
  entry.set("baselines", r.baselines());
  json::Value live = json::Value::array();
  for (int64_t bytes : r.eval.live)
    live.push(bytes);
  entry.set("timeline_bytes", std::move(live));
  r.addChain(entry);
  report.push(std::move(entry));
  mlir::emitRemark(step.getLoc(), r.summary());
  return success();
}

void ReportPass::runOnOperation() {
  ModuleOp module = getOperation();
  json::Value report = json::Value::array();
  for (StepOp step : module.getOps<StepOp>())
    if (failed(reportStep(step, report)))
      return signalPassFailure();

  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
  if (!file) {
    emitError(module.getLoc(), "cannot write the report: ") << error;
    return signalPassFailure();
  }
  file->os() << json::write(report, 2) << "\n";
  file->keep();
  markAllAnalysesPreserved();
}
