//===- Plan.cpp - plan a step under a memory budget -----------------------===//

#include "ckpt/Analysis/Plan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace ckpt;

std::optional<BudgetSpec> ckpt::parseBudget(llvm::StringRef text,
                                            std::string &error) {
  llvm::StringRef trimmed = text.trim();
  auto fail = [&]() -> std::optional<BudgetSpec> {
    error = "invalid budget '" + text.str() +
            "': expected a number of bytes with an optional unit (B, KB, MB, "
            "GB, KiB, MiB, GiB, TiB) or a percentage of the store-all peak "
            "such as '70%'";
    return std::nullopt;
  };
  // Split the number from the unit.
  size_t numberEnd = 0;
  while (numberEnd < trimmed.size() &&
         (llvm::isDigit(trimmed[numberEnd]) || trimmed[numberEnd] == '.'))
    ++numberEnd;
  llvm::StringRef number = trimmed.take_front(numberEnd);
  llvm::StringRef unit = trimmed.drop_front(numberEnd).trim();
  double value;
  if (number.empty() || number.getAsDouble(value) || !std::isfinite(value))
    return fail();
  BudgetSpec spec;
  if (unit == "%") {
    if (value <= 0)
      return fail();
    spec.percent = true;
    spec.value = value;
    return spec;
  }
  double scale = llvm::StringSwitch<double>(unit)
                     .Case("", 1.0)
                     .Case("B", 1.0)
                     .Case("KB", 1e3)
                     .Case("MB", 1e6)
                     .Case("GB", 1e9)
                     .Case("KiB", 1024.0)
                     .Case("MiB", 1024.0 * 1024)
                     .Case("GiB", 1024.0 * 1024 * 1024)
                     .Case("TiB", 1024.0 * 1024 * 1024 * 1024)
                     .Default(-1);
  if (scale < 0 || value * scale < 1)
    return fail();
  // Budgets are kept in signed 64-bit byte counts (the report, the solver):
  // a larger one would wrap around, and converting a double past 2^64 to an
  // integer is undefined.
  if (value * scale >= kMaxBudgetBytes) {
    error = "budget '" + text.str() + "' is too large: it must be below 2^63 bytes";
    return std::nullopt;
  }
  spec.value = std::floor(value * scale);
  return spec;
}

mlir::LogicalResult ckpt::checkSlots(mlir::Location loc, int64_t slots) {
  if (slots >= 0)
    return mlir::success();
  return mlir::emitError(loc, "slots must be 0 (exact sizes) or positive, got ")
         << slots;
}

std::string ckpt::formatBytes(uint64_t bytes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0)
    os << bytes << " B";
  else
    os << llvm::format("%.2f", value) << " " << units[unit] << " (" << bytes
       << " B)";
  return out;
}

sched::ChainOptions ckpt::separatorCandidates(const OrderProblem &problem,
                                              llvm::StringRef strategy) {
  sched::ChainOptions options;
  if (strategy != "speed" && strategy != "manual")
    return options;
  options.kind = sched::SeparatorKind::Candidates;
  for (auto [id, op] : llvm::enumerate(problem.opOf)) {
    if (!op)
      continue;
    if (strategy == "speed") {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if ((linalgOp && (linalg::isaContractionOpInterface(linalgOp) ||
                        linalg::isaConvolutionOpInterface(linalgOp))) ||
          isa<tosa::MatMulOp, tosa::Conv2DOp, tosa::Conv3DOp,
              tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(op))
        options.candidates.push_back(static_cast<int>(id));
      continue;
    }
    auto checkpoint = dyn_cast<CheckpointOp>(op);
    if (!checkpoint)
      continue;
    // The checkpoint is a marker (a view without bytes of its own that
    // belongs to no stage); what it marks is a candidate.
    options.markers.push_back(static_cast<int>(id));
    auto it = problem.idOf.find(checkpoint.getInput());
    if (it != problem.idOf.end()) {
      int producer = problem.problem.values[it->second].producer;
      if (producer >= 0)
        options.candidates.push_back(producer);
    }
  }
  return options;
}

FailureOr<StepPlan> ckpt::planStep(StepOp step, const StepAnalysis &analysis,
                                   const CostSetup &costs,
                                   const StepPlanRequest &request) {
  if (!sched::isStrategy(request.strategy))
    return emitError(step.getLoc(), "unknown strategy '")
           << request.strategy << "': expected " << sched::strategyNames();
  FailureOr<OrderProblem> built =
      buildStepProblem(step, analysis, costs.device, costs.profile());
  if (failed(built))
    return failure();
  StepPlan plan;
  plan.problem = std::move(*built);
  const sched::Problem &problem = plan.problem.problem;
  sched::Evaluation storeAll =
      sched::evaluate(problem, sched::identitySchedule(problem));
  if (!storeAll.valid)
    return emitError(step.getLoc(), "internal error: the step as written is "
                                    "not a valid schedule: ")
           << storeAll.error;
  plan.storeAllPeak = static_cast<uint64_t>(storeAll.peak);
  plan.storeAllTime = storeAll.cost;

  // The reference of percentages: the step as written (every buffer freed
  // after its last use: what ckpt-run measures unplanned), or with
  // fit=model the chain model's store-all peak.
  uint64_t reference = plan.storeAllPeak;
  if (request.fitModel)
    reference = static_cast<uint64_t>(sched::chainStoreAllPeak(problem));
  // A percentage of a step that holds no buffer is still a budget: 1 B; a
  // huge percentage saturates below 2^63 (see kMaxBudgetBytes).
  double value = request.budget.percent
                     ? static_cast<double>(reference) * request.budget.value / 100.0
                     : request.budget.value;
  plan.budget = value >= kMaxBudgetBytes
                    ? static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                    : std::max<uint64_t>(1, static_cast<uint64_t>(value));

  sched::PlanOptions options;
  options.strategy = request.strategy;
  options.budget = static_cast<int64_t>(plan.budget);
  options.slots = request.slots;
  options.fitModel = request.fitModel;
  options.candidates = separatorCandidates(plan.problem, request.strategy);
  options.ilpTimeLimit = request.ilpTimeLimit;
  options.ilpThreads = request.ilpThreads;
  plan.result = sched::planSchedule(problem, options);
  if (!plan.result.error.empty())
    return emitError(step.getLoc(), "strategy '")
           << request.strategy << "' failed: " << plan.result.error;
  if (!plan.result.feasible) {
    InFlightDiagnostic diag = emitError(step.getLoc(), "budget of ")
                              << formatBytes(plan.budget)
                              << " is infeasible for strategy '"
                              << request.strategy << "'";
    if (plan.result.ilp) {
      if (plan.result.ilp->status == sched::IlpResult::Status::Infeasible)
        diag << " (CBC proved that no schedule fits)";
      else
        diag << " (CBC found no schedule within " << request.ilpTimeLimit
             << " s)";
    }
    if (plan.result.leastPeak)
      diag << ": the least feasible budget is "
           << formatBytes(static_cast<uint64_t>(*plan.result.leastPeak));
    else if (request.slots > 0)
      diag << " with " << request.slots
           << " slots at any budget; try more slots";
    return diag;
  }
  return plan;
}
