//===- Report.cpp - the ckpt-report pass ----------------------------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/Plan.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Analysis/StepChain.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Solver/ChainJson.h"
#include "ckpt/Solver/Json.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

namespace ckpt {
#define GEN_PASS_DEF_REPORTPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct ReportPass : public ckpt::impl::ReportPassBase<ReportPass> {
  using ReportPassBase::ReportPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    ReportPassBase::getDependentDialects(registry);
    registerCostModelExternalModels(registry);
  }

  void runOnOperation() override;
};

json::Value planJson(const PlanResult &plan, double storeAllTime) {
  json::Value out = json::Value::object();
  if (!plan.error.empty()) {
    out.set("error", plan.error);
    return out;
  }
  out.set("feasible", plan.feasible);
  if (plan.feasible) {
    out.set("peak_bytes", static_cast<int64_t>(plan.peak));
    out.set("time_s", plan.time);
    out.set("overhead_percent",
            storeAllTime > 0 ? 100.0 * (plan.time - storeAllTime) / storeAllTime
                             : 0.0);
    out.set("sequence", solver::toString(plan.sequence));
  }
  if (plan.minFeasibleBudget)
    out.set("min_feasible_bytes", static_cast<int64_t>(*plan.minFeasibleBudget));
  return out;
}
} // namespace

void ReportPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkSlots(module.getLoc(), slots)))
    return signalPassFailure();
  FailureOr<CostSetup> costs = setUpCosts(module.getLoc(), device, profile);
  if (failed(costs))
    return signalPassFailure();

  json::Value report = json::Value::array();
  for (StepOp step : module.getOps<StepOp>()) {
    auto plan = step->getAttrOfType<PlanAttr>(kPlanAttrName);
    if (!plan) {
      step.emitWarning("no ckpt.plan on this step: run ckpt-plan first; the "
                       "step is left out of the report");
      continue;
    }
    const StepAnalysis &analysis = getChildAnalysis<StepAnalysis>(step);
    SeparatorKind kind = separatorKindFor(plan.getStrategy());
    FailureOr<StepChain> chain = buildStepChain(
        step, analysis, costs->device, costs->profile(), kind);
    if (failed(chain))
      return signalPassFailure();

    auto run = [&](llvm::StringRef name, uint64_t budget, int64_t slots) {
      return planStrategy(*chain, name, budget, slots);
    };
    PlanResult storeAll =
        run("store-all", std::numeric_limits<int64_t>::max() / 4, 0);
    PlanResult chosen = run(plan.getStrategy(), plan.getBudget(), slots);

    json::Value entry = json::Value::object();
    entry.set("step", step.getSymName().str());
    entry.set("strategy", plan.getStrategy().str());
    entry.set("budget_bytes", static_cast<int64_t>(plan.getBudget()));
    entry.set("stages", static_cast<int64_t>(chain->chain.numStages()));
    json::Value separators = json::Value::array();
    for (const graph::Separator &separator : chain->separators.separators)
      separators.push(static_cast<int64_t>(separator.bytes));
    entry.set("separator_bytes", std::move(separators));
    entry.set("plan", planJson(chosen, storeAll.time));
    entry.set("store_all", planJson(storeAll, storeAll.time));
    json::Value baselines = json::Value::object();
    for (llvm::StringRef name : {"store-all", "periodic:2", "periodic:3",
                                 "periodic:4", "sqrt", "revolve",
                                 "memory-poor"})
      baselines.set(name.str(), planJson(run(name, plan.getBudget(), slots),
                                         storeAll.time));
    entry.set("baselines", std::move(baselines));

    MemoryTimeline timeline =
        simulateBlock(step.getBody().front(), kBufferAlignment);
    json::Value live = json::Value::array();
    for (uint64_t bytes : timeline.liveDuring)
      live.push(static_cast<int64_t>(bytes));
    entry.set("timeline_bytes", std::move(live));
    entry.set("timeline_peak_bytes", static_cast<int64_t>(timeline.peak));
    if (plan.getSimulatedPeak())
      entry.set("simulated_peak_bytes",
                static_cast<int64_t>(plan.getSimulatedPeak()));
    // The chain model itself (ckpt-chain's input format, bytes and seconds),
    // so that other strategies and budgets can be evaluated on it offline.
    entry.set("chain", chainToJson(chain->chain, static_cast<int64_t>(
                                                     plan.getBudget())));
    report.push(std::move(entry));

    if (chosen.feasible && storeAll.feasible && storeAll.peak > 0) {
      std::string summary;
      llvm::raw_string_ostream os(summary);
      double overhead = storeAll.time > 0 ? 100.0 *
                                                (chosen.time - storeAll.time) /
                                                storeAll.time
                                          : 0.0;
      os << "ckpt: '" << step.getSymName() << "' with " << plan.getStrategy()
         << " under " << formatBytes(plan.getBudget()) << ": ";
      if (uint64_t simulated = plan.getSimulatedPeak())
        os << "predicted peak " << formatBytes(simulated) << " ("
           << llvm::format("%.1f", 100.0 * simulated / timeline.peak)
           << "% of the step as written), chain-model peak ";
      else
        os << "peak ";
      os << formatBytes(chosen.peak) << " ("
         << llvm::format("%.1f", 100.0 * chosen.peak / storeAll.peak)
         << "% of store-all), time +" << llvm::format("%.1f", overhead)
         << "%, " << chain->chain.numStages() << " stages";
      mlir::emitRemark(step.getLoc(), summary);
    }
  }

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
