//===- PlanStep.cpp - plan a step under a memory budget -------------------===//

#include "ckpt/Analysis/PlanStep.h"
#include "ckpt/Analysis/Progress.h"
#include "ckpt/Solver/Schedule/OffloadPlanner.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace mlir;
using namespace ckpt;

mlir::FailureOr<sched::LinkSpec> ckpt::costLink(mlir::Location loc,
                                                const CostSetup &costs) {
  sched::LinkSpec link = costs.device.link;
  if (const MeasuredProfile *profile = costs.profile()) {
    for (auto [key, field] :
         {std::pair<StringRef, double *>{"link.to_host", &link.toHost},
          {"link.to_device", &link.toDevice},
          {"link.latency", &link.latency}}) {
      if (std::optional<double> measured = profile->get(key)) {
        if (*measured <= 0 && key != "link.latency")
          return mlir::emitError(loc, "the profile's '")
                 << key << "' must be a positive number of bytes per second";
        *field = *measured;
      }
    }
  }
  return link;
}

mlir::FailureOr<std::vector<sched::Transfer>>
ckpt::planTransfers(StepOp step, PlanAttr plan, const OrderProblem &built) {
  SmallVector<Operation *> order;
  for (Operation &op : step.getBody().front().without_terminator())
    order.push_back(&op);
  std::vector<sched::Transfer> transfers;
  for (size_t i = 0; i < plan.getNumTransfers(); ++i) {
    PlanAttr::Transfer t = plan.getTransfer(i);
    auto it = built.idOf.end();
    if (t.op < static_cast<int64_t>(order.size()) &&
        t.result < order[t.op]->getNumResults())
      it = built.idOf.find(order[t.op]->getResult(t.result));
    if (it == built.idOf.end())
      return emitError(step.getLoc(), "the plan's transfer ")
             << i << " moves result #" << t.result << " of op #" << t.op
             << ", which the step does not have: the step changed after it "
                "was planned";
    // The verifier made sure that offload_after < offload_done <=
    // reload_after, all executions of the schedule.
    sched::Transfer transfer{it->second, static_cast<size_t>(t.offloadAfter),
                             static_cast<size_t>(t.reloadAfter)};
    transfer.waitAfter = static_cast<size_t>(t.offloadDone);
    transfers.push_back(transfer);
  }
  return transfers;
}

sched::ChainOptions
ckpt::separatorCandidates(const OrderProblem &problem,
                          const sched::PlanStrategy &strategy) {
  sched::ChainOptions options;
  using sched::StrategyKind;
  if (strategy.kind != StrategyKind::Speed &&
      strategy.kind != StrategyKind::Manual)
    return options;
  options.kind = sched::SeparatorKind::Candidates;
  for (auto [id, op] : llvm::enumerate(problem.opOf)) {
    if (!op)
      continue;
    if (strategy.kind == StrategyKind::Speed) {
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

std::vector<char> ckpt::keptValues(const OrderProblem &problem) {
  std::vector<char> keep(problem.problem.values.size(), 0);
  for (mlir::Operation *op : problem.opOf) {
    auto checkpoint = dyn_cast_or_null<CheckpointOp>(op);
    if (!checkpoint)
      continue;
    // What it marks, and the marker itself (a view of it, which later ops
    // read instead).
    for (mlir::Value value : {checkpoint.getInput(), checkpoint.getResult()}) {
      auto it = problem.idOf.find(value);
      if (it != problem.idOf.end())
        keep[it->second] = 1;
    }
  }
  return keep;
}

namespace {
/// Refuses what ckpt-plan cannot plan: offload=auto with another strategy
/// or fit=model, and a step that already moves values to host memory.
LogicalResult checkPlannable(StepOp step, const StepPlanRequest &request) {
  if (request.plan.offload &&
      ((request.plan.strategy.kind != sched::StrategyKind::Optimal &&
        request.plan.strategy.kind != sched::StrategyKind::Ilp) ||
       request.plan.fitModel))
    return emitError(step.getLoc(), "offload=auto plans with strategy "
                                    "'optimal' or 'ilp' and fit=simulation "
                                    "(recomputation and offloading "
                                    "together), not with strategy '")
           << request.plan.strategy.str() << "'"
           << (request.plan.fitModel ? " and fit=model" : "");
  // Copies already placed would be planned around as fixed ops; the plan
  // places its own (offload=auto).
  WalkResult moved = step.walk([](Operation *op) {
    if (isa<OffloadOp, ReloadOp, WaitOp>(op)) {
      op->emitError("ckpt-plan cannot plan a step that already moves values "
                    "to host memory: plan the step as written, with "
                    "offload=auto to move values");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(moved.wasInterrupted());
}

/// The planner's options for `request` on `plan`'s problem and budget.
sched::PlanOptions planOptions(const StepPlan &plan,
                               const StepPlanRequest &request) {
  sched::PlanOptions options = request.plan;
  options.budget = static_cast<int64_t>(plan.budget);
  options.candidates = separatorCandidates(plan.problem, options.strategy);
  if (options.strategy.kind == sched::StrategyKind::Keep)
    options.keep = keptValues(plan.problem);
  return options;
}

/// The error of a budget nothing fits: why (CBC's status with strategy
/// ilp) and the least feasible budget, or what to try.
InFlightDiagnostic refuseBudget(StepOp step, const StepPlan &plan,
                                const StepPlanRequest &request,
                                std::optional<int64_t> offloadLeast) {
  const std::string strategy = request.plan.strategy.str();
  InFlightDiagnostic diag = emitError(step.getLoc(), "budget of ")
                            << formatBytes(plan.budget)
                            << " is infeasible for strategy '" << strategy
                            << "'";
  if (request.plan.offload)
    diag << " with offloading (no copies bring a recomputation plan under "
            "it)";
  if (plan.result.ilp) {
    if (plan.result.ilp->status == sched::IlpResult::Status::Infeasible)
      diag << " (CBC proved that no schedule fits)";
    else if (plan.result.ilp->stoppedByNodes)
      diag << " (CBC found no schedule within " << request.plan.ilpNodeLimit
           << " nodes)";
    else {
      // %g: "60 s", not the stream's "6.000000e+01 s". A std::string: the
      // diagnostic keeps a `const char *` argument by reference, and this
      // buffer is gone by the time it prints.
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g", request.plan.ilpTimeLimit);
      diag << " (CBC found no schedule within " << std::string(seconds)
           << " s)";
    }
  }
  if (plan.result.leastPeak && request.plan.offload) {
    if (offloadLeast)
      diag << ": the least feasible budget with offloading is "
           << formatBytes(static_cast<uint64_t>(*offloadLeast),
                          /*roundUp=*/true)
           << "; of recomputation alone "
           << formatBytes(static_cast<uint64_t>(*plan.result.leastPeak),
                          /*roundUp=*/true);
  } else if (plan.result.leastPeak)
    diag << ": the least feasible budget is "
         << formatBytes(static_cast<uint64_t>(*plan.result.leastPeak),
                        /*roundUp=*/true);
  else if (request.plan.slots > 0)
    diag << " with " << request.plan.slots
         << " slots at any budget; try more slots";
  return diag;
}
} // namespace

FailureOr<StepPlan> ckpt::planStep(StepOp step, const StepAnalysis &analysis,
                                   const CostSetup &costs,
                                   const StepPlanRequest &request) {
  if (failed(checkPlannable(step, request)))
    return failure();
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
  if (request.plan.fitModel)
    reference = static_cast<uint64_t>(sched::chainStoreAllPeak(problem));
  plan.budget = static_cast<uint64_t>(budgetBytes(request.budget, reference));

  const std::string strategy = request.plan.strategy.str();
  sched::PlanOptions options = planOptions(plan, request);
  sched::PlanThenOffload planned;
  {
    // Erased before any diagnostic below.
    ProgressLine line("ckpt-plan: @" + step.getSymName().str());
    line.phase("planning with '" + strategy + "'");
    options.progress = [&line](const std::string &phase, double limit) {
      line.phase(phase, limit);
    };
    planned = sched::planThenOffload(problem, options);
  }
  plan.result = std::move(planned.recompute);
  // With offload=auto and nothing fitting: the least budget with offloading.
  std::optional<int64_t> offloadLeast;
  if (planned.joint) {
    sched::OffloadPlanResult &joint = *planned.joint;
    const bool copies = planned.offloads();
    offloadLeast = joint.leastBudget;
    if (!joint.error.empty())
      plan.result.error = "offload=auto: " + joint.error;
    else if (copies) {
      plan.result.feasible = true;
      plan.result.schedule = std::move(joint.schedule);
      plan.result.peak = joint.evaluation.devicePeak;
      plan.result.time = joint.evaluation.time;
      plan.transfers = std::move(joint.transfers);
      plan.offloadDone = std::move(joint.evaluation.offloadDone);
      plan.hostPeak = static_cast<uint64_t>(joint.evaluation.hostPeak);
    }
    // strategy=ilp: the ILP with paging speaks for a plan that copies, and
    // for a budget nothing fits.
    if (joint.ilp && (copies || !plan.result.feasible))
      plan.result.ilp = std::move(joint.ilp);
  }
  if (!plan.result.error.empty())
    return emitError(step.getLoc(), "strategy '")
           << strategy << "' failed: " << plan.result.error;
  if (plan.result.ilp && !plan.result.ilp->warning.empty())
    emitWarning(step.getLoc(), "strategy 'ilp': ") << plan.result.ilp->warning;
  if (!plan.result.feasible)
    return refuseBudget(step, plan, request, offloadLeast);
  return plan;
}
