//===- Rematerialize.cpp - apply a step's plan ----------------------------===//

#include "ckpt/Analysis/StepAnalysis.h"
#include "ckpt/Analysis/StepChain.h"
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Solver/ChainModel.h"
#include "ckpt/Transforms/Passes.h"
#include "ckpt/Transforms/Rematerialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace ckpt {
#define GEN_PASS_DEF_REMATERIALIZEPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

struct Rewriter {
  Rewriter(StepOp step, const StepAnalysis &analysis, Block &block)
      : step(step), analysis(analysis), block(block) {}

  StepOp step;
  const StepAnalysis &analysis;
  Block &block;
  /// Stage of each staged forward op and of each backward op.
  DenseMap<Operation *, int> forwardStage, backwardStage;
  /// Forward ops of each stage, in block order (index l-1).
  std::vector<SmallVector<Operation *>> stageOps;
  /// The latest computed version of each original forward value.
  DenseMap<Value, Value> latest;

  Value current(Value v) {
    auto it = latest.find(v);
    return it == latest.end() ? v : it->second;
  }
  RecomputeOp emitRecompute(OpBuilder &builder, int stage, int instance);
};

RecomputeOp Rewriter::emitRecompute(OpBuilder &builder, int stage,
                                    int instance) {
  ArrayRef<Operation *> ops = stageOps[stage - 1];
  llvm::SmallPtrSet<Operation *, 16> inStage(ops.begin(), ops.end());

  // Inputs: values from outside the stage (latest versions), except
  // constant-like ones, which are cloned inside.
  llvm::SetVector<Value> inputs;
  SmallVector<Operation *> constants; // in dependency order
  llvm::SmallPtrSet<Operation *, 16> constantSeen;
  std::function<void(Operation *)> addConstant = [&](Operation *op) {
    if (!constantSeen.insert(op).second)
      return;
    llvm::SetVector<Value> values;
    StepAnalysis::getReadValues(op, values);
    for (Value value : values)
      addConstant(value.getDefiningOp());
    constants.push_back(op);
  };
  for (Operation *op : ops) {
    llvm::SetVector<Value> values;
    StepAnalysis::getReadValues(op, values);
    for (Value value : values) {
      Operation *def = value.getDefiningOp();
      if (def && inStage.contains(def))
        continue;
      if (def && def->getBlock() == &block && analysis.isConstantLike(def))
        addConstant(def);
      else
        inputs.insert(value);
    }
  }

  // Results: the stage's values read outside the stage.
  SmallVector<Value> yielded;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *top = block.findAncestorOpInBlock(*user);
            return top && !inStage.contains(top);
          }))
        yielded.push_back(result);

  SmallVector<Value> operands;
  for (Value input : inputs)
    operands.push_back(current(input));
  auto recompute = RecomputeOp::create(
      builder, step.getLoc(), ValueRange(yielded).getTypes(), operands,
      builder.getI64IntegerAttr(stage), builder.getI64IntegerAttr(instance));
  Block *body = builder.createBlock(&recompute.getBody());
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  for (Operation *op : constants)
    inner.clone(*op, mapping);
  for (Operation *op : ops) {
    Operation *clone = inner.clone(*op, mapping);
    clone->removeAttr(kStageAttrName);
  }
  SmallVector<Value> results;
  for (Value value : yielded)
    results.push_back(mapping.lookup(value));
  YieldOp::create(inner, step.getLoc(), results);
  builder.setInsertionPointAfter(recompute);

  for (auto [original, version] : llvm::zip(yielded, recompute.getResults()))
    latest[original] = version;
  return recompute;
}

/// Drops what a recompute region computes for nobody: results without uses,
/// the ops only they needed, and inputs the region no longer reads (keeping
/// an input alive would cost memory). Erases the region if nothing is left.
void pruneRecompute(RecomputeOp op) {
  Block &body = op.getBody().front();
  YieldOp yield = op.getYieldOp();
  SmallVector<Value> keptResults, keptYields;
  for (auto [result, yielded] :
       llvm::zip(op.getResults(), yield.getOperands())) {
    if (!result.use_empty()) {
      keptResults.push_back(result);
      keptYields.push_back(yielded);
    }
  }
  if (keptResults.empty()) {
    op.erase();
    return;
  }
  yield->setOperands(keptYields);
  // Erase dead ops, users before the ops they read.
  SmallVector<Operation *> ops;
  for (Operation &inner : body.without_terminator())
    ops.push_back(&inner);
  for (Operation *inner : llvm::reverse(ops))
    if (isOpTriviallyDead(inner))
      inner->erase();
  SmallVector<Value> inputs;
  llvm::BitVector deadArgs(body.getNumArguments());
  for (BlockArgument arg : body.getArguments()) {
    if (arg.use_empty())
      deadArgs.set(arg.getArgNumber());
    else
      inputs.push_back(op.getInputs()[arg.getArgNumber()]);
  }
  body.eraseArguments(deadArgs);
  if (keptResults.size() == op.getNumResults() &&
      inputs.size() == op.getInputs().size())
    return;
  OpBuilder builder(op);
  auto pruned = RecomputeOp::create(
      builder, op.getLoc(), ValueRange(keptResults).getTypes(), inputs,
      op.getStageAttr(), op.getInstanceAttr());
  pruned.getBody().takeBody(op.getBody());
  for (auto [from, to] : llvm::zip(keptResults, pruned.getResults()))
    from.replaceAllUsesWith(to);
  op.erase();
}

} // namespace

LogicalResult ckpt::applyPlan(StepOp step) {
  auto plan = step->getAttrOfType<PlanAttr>(kPlanAttrName);
  int numStages = static_cast<int>(plan.getStages().size());
  if (numStages == 0)
    return emitError(step.getLoc(), "the plan has no stages");

  // The sequence, and its first forward sweep F1 .. F<numStages>.
  std::vector<solver::Op> sequence;
  for (StringRef word : llvm::split(plan.getSequence(), ' ')) {
    if (word.empty())
      continue;
    solver::Op op;
    if (!solver::parseOp(std::string_view(word.data(), word.size()), op) ||
        op.stage > numStages)
      return emitError(step.getLoc(), "malformed plan sequence: '") << word << "'";
    sequence.push_back(op);
  }
  size_t sweep = 0;
  for (; sweep < sequence.size() &&
         sequence[sweep].kind != solver::OpKind::Backward;
       ++sweep) {
    if (sequence[sweep].stage != static_cast<int>(sweep) + 1)
      return emitError(step.getLoc(), "the plan sequence must start with a forward "
                            "sweep over stages 1 to ")
             << numStages;
  }
  if (sweep != static_cast<size_t>(numStages))
    return emitError(step.getLoc(), "the plan sequence must start with a forward "
                          "sweep over stages 1 to ")
           << numStages;

  StepAnalysis analysis(step);
  Block &block = step.getBody().front();
  Rewriter rw(step, analysis, block);
  rw.stageOps.resize(numStages);
  for (Operation *op : analysis.getForwardOps()) {
    auto index = op->getAttrOfType<IntegerAttr>(kStageAttrName);
    if (!index)
      continue;
    if (index.getInt() < 1 || index.getInt() > numStages)
      return op->emitError("stage index ")
             << index.getInt() << " is out of range: the plan has "
             << numStages << " stages";
    if (!StepAnalysis::isRecomputable(op))
      return op->emitError("op is in stage ")
             << index.getInt() << " but cannot be recomputed";
    rw.forwardStage[op] = index.getInt();
    rw.stageOps[index.getInt() - 1].push_back(op);
  }
  // Nothing to recompute: every value is computed once, in the order the
  // step already has; keep it (the backward as written is as good a
  // schedule as any, and usually better for memory).
  if (sweep == sequence.size() ||
      llvm::all_of(llvm::ArrayRef(sequence).drop_front(sweep),
                   [](const solver::Op &op) {
                     return op.kind == solver::OpKind::Backward;
                   }))
    return success();

  rw.backwardStage =
      assignBackwardStages(analysis, rw.forwardStage, numStages);

  // Build the new order. The first sweep is the forward part of the block as
  // it is; then each later operation of the sequence.
  Operation *terminator = block.getTerminator();
  SmallVector<Operation *> backwardOps(analysis.getBackwardOps().begin(),
                                       analysis.getBackwardOps().end());
  OpBuilder builder(terminator);
  // Move all backward ops out of the way: after the forward sweep, they are
  // re-inserted in schedule order.
  std::vector<int> instances(numStages, 0);
  for (size_t i = sweep; i < sequence.size(); ++i) {
    const solver::Op &op = sequence[i];
    if (op.kind != solver::OpKind::Backward) {
      rw.emitRecompute(builder, op.stage, ++instances[op.stage - 1]);
      continue;
    }
    for (Operation *bwd : backwardOps) {
      if (rw.backwardStage.lookup(bwd) != op.stage)
        continue;
      bwd->moveBefore(terminator);
      // Read the latest version of every forward value.
      bwd->walk([&](Operation *nested) {
        for (OpOperand &operand : nested->getOpOperands()) {
          Operation *def = operand.get().getDefiningOp();
          if (def && def->getBlock() == &block && analysis.isForward(def))
            operand.set(rw.current(operand.get()));
        }
      });
    }
  }

  // Recomputed values nobody reads (the chain model keeps whole abar's):
  // drop them, last region first, as pruning one can free another's results.
  SmallVector<RecomputeOp> recomputes(block.getOps<RecomputeOp>());
  for (RecomputeOp op : llvm::reverse(recomputes))
    pruneRecompute(op);
  return success();
}

namespace {
struct RematerializePass
    : public ckpt::impl::RematerializePassBase<RematerializePass> {
  using RematerializePassBase::RematerializePassBase;

  void runOnOperation() override {
    bool failed = false;
    for (StepOp step : getOperation().getOps<StepOp>()) {
      if (!step->hasAttr(kPlanAttrName))
        continue;
      if (mlir::failed(applyPlan(step))) {
        failed = true;
        continue;
      }
      if (!keepPlan) {
        step->removeAttr(kPlanAttrName);
        step.walk([](Operation *op) { op->removeAttr(kStageAttrName); });
      }
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
