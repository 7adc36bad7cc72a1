//===- Rematerialize.cpp - apply a step's schedule ------------------------===//
//
// One rewrite for every planner: the step's block is put in the order of the
// plan's schedule; the first execution of each op is the op itself, moved;
// every later execution is a clone, and each run of consecutive clones is a
// ckpt.recompute region. Ops read the version of each value computed last
// before them. A region ends where a buffer from outside it is read for the
// last time, so that once frees are inserted every buffer dies right after
// its last reader, as the schedule's simulation assumes.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Rematerialize.h"
#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/PlanStep.h"
#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Analysis/StepProblem.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/Schedule.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"
#include <map>

namespace ckpt {
#define GEN_PASS_DEF_REMATERIALIZEPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

/// A version of a problem value: the execution that defined it (-1: the
/// value as written, for inputs) and the value id.
using Version = std::pair<int, int>;

struct ScheduleRewriter {
  StepOp step;
  Block &block;
  const OrderProblem &built;
  const sched::Schedule &schedule;

  /// Per execution, the version of each value it reads (problem value id ->
  /// defining execution).
  std::vector<llvm::SmallVector<std::pair<int, int>, 4>> reads;
  /// Per (execution, value id) defined: the last execution that reads it
  /// (the schedule's size when the terminator does).
  std::map<Version, int> lastRead;
  /// The IR value of each version once emitted.
  std::map<Version, Value> emitted;
  /// The version the terminator reads, per value id.
  std::vector<int> finalVersion;
  /// The problem value of every IR value standing for one: the step's values
  /// and the results of the regions emitted so far.
  DenseMap<Value, int> idOf;

  /// The plan's transfers, and what the rewrite needs of each: the version
  /// moved, the execution that first reads it after its reload (the
  /// schedule's size when none does), and its ops once emitted.
  const std::vector<sched::Transfer> &transfers;
  struct Placed {
    Version version;
    size_t firstReader = 0;
    Value host, offloaded, reloadedEvent;
  };
  std::vector<Placed> placed;
  /// Per boundary (after execution e): the transfers whose offload, issued
  /// at an earlier boundary, is waited for, offloaded, reloaded, and whose
  /// reload is waited for (before e + 1).
  std::vector<SmallVector<int, 2>> waitOffloadAt, offloadAt, reloadAt,
      waitReloadAt;

  ScheduleRewriter(StepOp step, const OrderProblem &built,
                   const sched::Schedule &schedule,
                   const std::vector<sched::Transfer> &transfers)
      : step(step), block(step.getBody().front()), built(built),
        schedule(schedule), idOf(built.idOf), transfers(transfers) {}

  bool hasTransferOpsAfter(size_t e) const {
    return !waitOffloadAt[e].empty() || !offloadAt[e].empty() ||
           !reloadAt[e].empty() || !waitReloadAt[e].empty();
  }

  /// Resolves each transfer to its version and readers (the transfers are
  /// valid: evaluateTransfers accepted them).
  void placeTransfers() {
    const size_t size = schedule.size();
    waitOffloadAt.resize(size);
    offloadAt.resize(size);
    reloadAt.resize(size);
    waitReloadAt.resize(size);
    for (auto [i, t] : llvm::enumerate(transfers)) {
      Placed p;
      int def = -1;
      for (size_t e = 0; e <= t.after; ++e)
        if (llvm::is_contained(built.problem.ops[schedule[e]].results, t.value))
          def = static_cast<int>(e);
      p.version = {def, t.value};
      p.firstReader = size;
      if (t.reloadAfter != sched::kNoReload)
        for (size_t e = t.reloadAfter + 1; e < size && p.firstReader == size;
             ++e)
          if (llvm::is_contained(reads[e], std::make_pair(t.value, def)))
            p.firstReader = e;
      placed.push_back(p);
      int index = static_cast<int>(i);
      offloadAt[t.after].push_back(index);
      // A wait at once (waitAfter == after) follows its own offload:
      // emitTransferOps places it with the offloads.
      if (t.waitAfter != t.after)
        waitOffloadAt[t.waitAfter].push_back(index);
      if (t.reloadAfter != sched::kNoReload) {
        reloadAt[t.reloadAfter].push_back(index);
        waitReloadAt[p.firstReader - 1].push_back(index);
      }
    }
  }

  /// Emits the transfer ops of the boundary after execution `e` before the
  /// terminator: waits for offloads issued earlier (their device buffers
  /// may be freed after them), offloads, waits for the offloads waited for
  /// at once (waitAfter == after), reloads, and waits for the reloads
  /// execution e + 1 reads. Later executions read the reloaded tensors.
  void emitTransferOps(size_t e) {
    if (transfers.empty())
      return;
    OpBuilder builder(block.getTerminator());
    for (int i : waitOffloadAt[e])
      WaitOp::create(builder, step.getLoc(), placed[i].offloaded);
    for (int i : offloadAt[e]) {
      Placed &p = placed[i];
      Value value = valueOf(p.version.second, p.version.first);
      auto offload = OffloadOp::create(builder, value.getLoc(), value);
      p.host = offload.getHost();
      p.offloaded = offload.getDone();
    }
    for (int i : offloadAt[e])
      if (transfers[i].waitAfter == e)
        WaitOp::create(builder, step.getLoc(), placed[i].offloaded);
    for (int i : reloadAt[e]) {
      Placed &p = placed[i];
      Value original = valueOf(p.version.second, p.version.first);
      auto reload =
          ReloadOp::create(builder, original.getLoc(), original.getType(),
                           p.offloaded.getType(), p.host, p.offloaded);
      p.reloadedEvent = reload.getDone();
      emitted[p.version] = reload.getValue();
      idOf[reload.getValue()] = p.version.second;
    }
    SmallVector<Value> events;
    for (int i : waitReloadAt[e])
      events.push_back(placed[i].reloadedEvent);
    if (!events.empty())
      WaitOp::create(builder, step.getLoc(), events);
  }

  void analyze() {
    const sched::Problem &problem = built.problem;
    std::vector<int> latest(problem.numValues(), -1);
    reads.resize(schedule.size());
    for (size_t e = 0; e < schedule.size(); ++e) {
      const sched::Op &op = problem.ops[schedule[e]];
      for (int r : op.reads) {
        int def = latest[r];
        reads[e].push_back({r, def});
        if (def >= 0)
          lastRead[{def, r}] = static_cast<int>(e);
      }
      for (int r : op.results) {
        latest[r] = static_cast<int>(e);
        lastRead[{static_cast<int>(e), r}] = -1;
      }
    }
    finalVersion = latest;
    for (int v = 0; v < problem.numValues(); ++v)
      if (problem.values[v].returned && latest[v] >= 0)
        lastRead[{latest[v], v}] = static_cast<int>(schedule.size());
  }

  /// The IR value an execution reads for problem value `r` defined by `def`.
  Value valueOf(int r, int def) const {
    if (def < 0)
      return built.valueOf[r];
    auto it = emitted.find({def, r});
    return it == emitted.end() ? built.valueOf[r] : it->second;
  }

  /// Rewires the uses in `op` (nested uses included) of the block's values
  /// to the versions execution `e` reads.
  void rewire(Operation *op, int e) {
    DenseMap<Value, Value> replace;
    for (auto [r, def] : reads[e]) {
      Value from = built.valueOf[r];
      Value to = valueOf(r, def);
      if (from != to)
        replace[from] = to;
    }
    if (replace.empty())
      return;
    op->walk([&](Operation *nested) {
      for (OpOperand &operand : nested->getOpOperands()) {
        auto it = replace.find(operand.get());
        if (it != replace.end())
          operand.set(it->second);
      }
    });
  }

  /// Emits the recomputations of executions [from, to) as one region before
  /// the terminator.
  void emitRegion(int from, int to) {
    const sched::Problem &problem = built.problem;
    Operation *terminator = block.getTerminator();
    // What each execution reads: a version defined in the run, or a value
    // from outside it (an input of the region).
    // (The op may have been moved and rewired already: its operands are then
    // versions, which idOf maps back to their problem values.)
    std::vector<DenseMap<Value, Version>> defined(to - from);
    llvm::SetVector<Value> inputs;
    for (int e = from; e < to; ++e) {
      DenseMap<int, int> versionOf;
      for (auto [r, def] : reads[e])
        versionOf[r] = def;
      llvm::SetVector<Value> read;
      StepAnalysis::getReadValues(built.opOf[schedule[e]], read);
      for (Value value : read) {
        auto id = idOf.find(value);
        auto it =
            id == idOf.end() ? versionOf.end() : versionOf.find(id->second);
        if (it == versionOf.end()) {
          inputs.insert(value); // a block argument or a value from outside
          continue;
        }
        if (it->second >= from)
          defined[e - from][value] = {it->second, id->second};
        else
          inputs.insert(valueOf(id->second, it->second));
      }
    }
    // Results: versions defined in the run and read after it.
    SmallVector<Version> yielded;
    SmallVector<Type> types;
    for (int e = from; e < to; ++e)
      for (int r : problem.ops[schedule[e]].results) {
        if (lastRead.at({e, r}) >= to) {
          yielded.push_back({e, r});
          types.push_back(built.valueOf[r].getType());
        }
      }
    OpBuilder builder(terminator);
    Operation *first = built.opOf[schedule[from]];
    auto recompute = RecomputeOp::create(builder, first->getLoc(), types,
                                         inputs.getArrayRef());
    Block *body = builder.createBlock(&recompute.getBody());
    DenseMap<Value, Value> argument; // outer value -> block argument
    for (Value input : inputs)
      argument[input] = body->addArgument(input.getType(), input.getLoc());
    OpBuilder innerBuilder = OpBuilder::atBlockEnd(body);
    std::map<Version, Value> local;
    for (int e = from; e < to; ++e) {
      Operation *op = built.opOf[schedule[e]];
      DenseMap<int, int> versionOf;
      for (auto [r, def] : reads[e])
        versionOf[r] = def;
      IRMapping mapping;
      llvm::SetVector<Value> read;
      StepAnalysis::getReadValues(op, read);
      for (Value value : read) {
        auto localIt = defined[e - from].find(value);
        if (localIt != defined[e - from].end()) {
          mapping.map(value, local.at(localIt->second));
          continue;
        }
        auto id = idOf.find(value);
        auto it =
            id == idOf.end() ? versionOf.end() : versionOf.find(id->second);
        Value outer =
            it != versionOf.end() ? valueOf(id->second, it->second) : value;
        mapping.map(value, argument.lookup(outer));
      }
      Operation *clone = innerBuilder.clone(*op, mapping);
      for (int r : problem.ops[schedule[e]].results) {
        Value result = built.valueOf[r];
        local[{e, r}] =
            clone->getResult(cast<OpResult>(result).getResultNumber());
      }
    }
    SmallVector<Value> results;
    for (const Version &v : yielded)
      results.push_back(local.at(v));
    YieldOp::create(innerBuilder, recompute.getLoc(), results);
    for (auto [v, result] : llvm::zip(yielded, recompute.getResults())) {
      emitted[v] = result;
      idOf[result] = v.second;
    }
  }

  LogicalResult run() {
    analyze();
    placeTransfers();
    const sched::Problem &problem = built.problem;
    Operation *terminator = block.getTerminator();
    // Where runs of recomputations must end: after the last read of a
    // buffer defined before the run.
    sched::EvalOptions options;
    options.buffers = true;
    sched::Evaluation eval = sched::evaluate(problem, schedule, options);
    std::vector<char> bufferDiesAt(schedule.size() + 1, 0);
    for (const sched::EvaluatedBuffer &buffer : eval.buffers)
      if (buffer.lastUse < schedule.size())
        bufferDiesAt[buffer.lastUse] = 1;

    std::vector<char> seen(problem.numOps(), 0);
    size_t e = 0;
    while (e < schedule.size()) {
      int id = schedule[e];
      if (!seen[id]) {
        seen[id] = 1;
        Operation *op = built.opOf[id];
        op->moveBefore(terminator);
        rewire(op, static_cast<int>(e));
        emitTransferOps(e);
        ++e;
        continue;
      }
      // A run of recomputations, cut after a buffer from before the run dies.
      size_t start = e, end = e;
      while (end < schedule.size() && seen[schedule[end]]) {
        ++end;
        bool cut = false;
        if (bufferDiesAt[end - 1])
          for (const sched::EvaluatedBuffer &buffer : eval.buffers)
            if (buffer.lastUse == end - 1 && buffer.def < start)
              cut = true;
        // Copies are placed between executions: a run ends where one is.
        if (cut || (!transfers.empty() && hasTransferOpsAfter(end - 1)))
          break;
      }
      emitRegion(static_cast<int>(start), static_cast<int>(end));
      emitTransferOps(end - 1);
      e = end;
    }
    // The terminator returns the final versions.
    for (OpOperand &operand : terminator->getOpOperands()) {
      auto it = idOf.find(operand.get());
      if (it == built.idOf.end())
        continue;
      int def = finalVersion[it->second];
      if (def >= 0)
        operand.set(valueOf(it->second, def));
    }
    return success();
  }
};

} // namespace

void ckpt::pinAllocations(StepOp step) {
  SmallVector<tensor::EmptyOp> empties;
  step.walk([&](tensor::EmptyOp empty) { empties.push_back(empty); });
  for (tensor::EmptyOp empty : empties) {
    OpBuilder builder(empty);
    auto alloc = bufferization::AllocTensorOp::create(
        builder, empty.getLoc(), empty.getType(), empty.getDynamicSizes());
    alloc->setDiscardableAttrs(empty->getDiscardableAttrDictionary());
    empty.replaceAllUsesWith(alloc.getResult());
    empty.erase();
  }
}

LogicalResult ckpt::applyPlan(StepOp step) {
  auto plan = step->getAttrOfType<PlanAttr>(kPlanAttrName);
  if (!plan)
    return success();
  Block &block = step.getBody().front();
  SmallVector<Operation *> order;
  for (Operation &op : block.without_terminator())
    order.push_back(&op);
  ArrayRef<int64_t> positions = plan.getSchedule();
  for (int64_t position : positions)
    if (position >= static_cast<int64_t>(order.size()))
      return emitError(step.getLoc(), "the plan's schedule names op #")
             << position << " but the step has " << order.size()
             << " ops: the step changed after it was planned";
  OrderProblem built =
      buildOrderProblem(order, kBufferAlignment, /*flatten=*/false);
  for (auto [id, op] : llvm::enumerate(built.opOf))
    built.problem.ops[id].recomputable = StepAnalysis::isRecomputable(op);
  sched::Schedule schedule(positions.begin(), positions.end());
  sched::Evaluation check = sched::evaluate(built.problem, schedule);
  if (!check.valid)
    return emitError(step.getLoc(), "the plan's schedule is not valid for "
                                    "this step: ")
           << check.error;
  FailureOr<std::vector<sched::Transfer>> planned =
      planTransfers(step, plan, built);
  if (failed(planned))
    return failure();
  const std::vector<sched::Transfer> &transfers = *planned;
  int64_t expectedPeak = check.peak;
  if (!transfers.empty()) {
    // The device peak does not depend on the link (each copy's wait is
    // placed by the plan); evaluated over the plan's device's.
    sched::TransferEvaluation moved =
        sched::evaluateTransfers(built.problem, schedule, transfers,
                                 DeviceProfile::get(plan.getDevice()).link);
    if (!moved.valid)
      return emitError(step.getLoc(), "the plan's transfers are not valid "
                                      "for this step: ")
             << moved.error;
    expectedPeak = moved.devicePeak;
  }
  if (static_cast<uint64_t>(expectedPeak) > plan.getBudget())
    return emitError(step.getLoc(), "the plan's schedule peaks at ")
           << expectedPeak << " B, over the plan's budget of "
           << plan.getBudget()
           << " B: the plan was not made for this step (run ckpt-plan again)";
  // A schedule that runs every op once in order with no transfers leaves the
  // block as written; any other is rewritten.
  if (schedule != sched::identitySchedule(built.problem) ||
      !transfers.empty()) {
    // Frees already in the step were placed for the order as written; the
    // rewrite moves and repeats the ops around them.
    for (Operation *op : order)
      if (isa<FreeOp>(op))
        return op->emitError(
            "cannot rematerialize a step that already holds ckpt.free: its "
            "frees were placed for the step as written (run ckpt-insert-frees "
            "after ckpt-rematerialize)");
    ScheduleRewriter rewriter(step, built, schedule, transfers);
    if (failed(rewriter.run()))
      return failure();
    // The rewritten step must run exactly the schedule: its simulated peak
    // is the schedule's with its transfers (what the plan promised).
    uint64_t peak = simulateBlock(block, kBufferAlignment).peak;
    if (peak != static_cast<uint64_t>(expectedPeak))
      return emitError(step.getLoc(), "internal error: the rewritten step "
                                      "peaks at ")
             << peak << " B where its schedule peaks at " << expectedPeak
             << " B";
  }
  pinAllocations(step);
  setStepBudget(step, {plan.getBudget(), static_cast<uint64_t>(expectedPeak)});
  return success();
}

namespace {
struct RematerializePass
    : public ckpt::ListValidOptions<
          ckpt::impl::RematerializePassBase<RematerializePass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    bool failed = false;
    for (StepOp step : getOperation().getOps<StepOp>()) {
      if (!step->hasAttr(kPlanAttrName))
        continue;
      if (mlir::failed(applyPlan(step))) {
        failed = true;
        continue;
      }
      if (!keepPlan)
        step->removeAttr(kPlanAttrName);
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
