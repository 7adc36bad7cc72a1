//===- StepAnalysis.cpp - phases, activations, memory of a step -----------===//

#include "ckpt/Analysis/StepAnalysis.h"

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Analysis/StepProblem.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace ckpt;

void StepAnalysis::getReadValues(Operation *op,
                                 llvm::SetVector<Value> &values) {
  values.insert(op->getOperands().begin(), op->getOperands().end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, values);
}

void StepAnalysis::getDependencies(Operation *op,
                                   SmallVectorImpl<Operation *> &deps) {
  Block *block = op->getBlock();
  llvm::SetVector<Value> values;
  getReadValues(op, values);
  llvm::SmallPtrSet<Operation *, 8> seen;
  for (Value value : values) {
    Operation *def = value.getDefiningOp();
    Operation *top = def ? block->findAncestorOpInBlock(*def) : nullptr;
    if (top && top != op && seen.insert(top).second)
      deps.push_back(top);
  }
}

bool StepAnalysis::isConstantLike(Operation *op) const {
  auto it = constantLike.find(op);
  if (it != constantLike.end())
    return it->second;
  bool result =
      op->getBlock() == &getStep().getBody().front() && isRecomputable(op);
  if (result) {
    llvm::SetVector<Value> values;
    getReadValues(op, values);
    result = llvm::all_of(values, [&](Value value) {
      Operation *def = value.getDefiningOp();
      return def && def->getBlock() == op->getBlock() && isConstantLike(def);
    });
  }
  constantLike[op] = result;
  return result;
}

bool StepAnalysis::isRecomputable(Operation *op) {
  if (!op->isRegistered())
    return false;
  if (isa<CheckpointOp, FreeOp, ReturnOp>(op))
    return false;
  return isMemoryEffectFree(op) || isFreshAllocation(op);
}

/// Whether the owner of `use` reads the operand's contents: a destination
/// operand whose payload never reads it is only written.
static bool readsContents(OpOperand &use) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner()))
    if (linalgOp.isDpsInit(&use) && !linalgOp.payloadUsesValueFromOperand(&use))
      return false;
  return true;
}

StepAnalysis::StepAnalysis(Operation *op) : step(cast<StepOp>(op)) {
  Block &block = step.getBody().front();
  ReturnOp ret = step.getReturnOp();

  // Forward: everything the loss depends on.
  SmallVector<Operation *> worklist;
  auto closeForward = [&] {
    while (!worklist.empty()) {
      Operation *current = worklist.pop_back_val();
      if (!current || !forwardSet.insert(current).second)
        continue;
      getDependencies(current, worklist);
    }
  };
  Operation *lossTop = nullptr;
  if (Operation *lossDef = step.getLoss().getDefiningOp())
    lossTop = block.findAncestorOpInBlock(*lossDef);
  worklist.push_back(lossTop);
  closeForward();
  // Ops with memory effects must keep their order. One written before the
  // loss is forward too (with what it reads): the forward sweep keeps the
  // block order, so it runs once, where it was written, before every backward
  // op. (Left in the backward, the schedule would move it after forward ops
  // it came before, e.g. a store after a read of the same memory.)
  if (lossTop) {
    for (Operation &nested : block) {
      if (&nested == lossTop)
        break;
      if (!forwardSet.contains(&nested) && !isMemoryEffectFree(&nested))
        worklist.push_back(&nested);
    }
    closeForward();
  }

  for (Operation &nested : block) {
    if (&nested == ret.getOperation())
      continue;
    (forwardSet.contains(&nested) ? forward : backward).push_back(&nested);
  }

  // Activations: forward buffers whose contents backward ops read. A
  // tensor.empty (or the alloc_tensor ckpt-rematerialize pins it as) has no
  // contents.
  for (Operation *fwd : forward) {
    if (isa<tensor::EmptyOp>(fwd) || isFreshAllocation(fwd))
      continue;
    for (Value result : fwd->getResults()) {
      if (!isa<ShapedType>(result.getType()))
        continue;
      bool readByBackward = llvm::any_of(result.getUses(), [&](OpOperand &u) {
        Operation *top = block.findAncestorOpInBlock(*u.getOwner());
        return top && top != ret.getOperation() && !forwardSet.contains(top) &&
               readsContents(u);
      });
      if (readByBackward && activationSet.insert(result).second)
        activations.push_back(result);
    }
  }
}

MemoryTimeline ckpt::simulateMemory(ArrayRef<Operation *> order,
                                    unsigned alignment) {
  MemoryTimeline timeline;
  if (order.empty())
    return timeline;
  // The one memory model (sched::evaluate) on the problem of the order,
  // recompute regions flattened (what runs once they are inlined).
  OrderProblem built = buildOrderProblem(order, alignment, /*flatten=*/true);
  sched::EvalOptions options;
  options.live = true;
  options.buffers = true;
  options.partial = true;
  sched::Evaluation eval = sched::evaluate(
      built.problem, sched::identitySchedule(built.problem), options);
  const unsigned end = order.size();
  auto positionOf = [&](size_t exec) {
    return exec >= built.positionOf.size() ? end : built.positionOf[exec];
  };
  for (const sched::EvaluatedBuffer &buffer : eval.buffers) {
    Buffer out;
    out.bytes = static_cast<uint64_t>(buffer.bytes);
    out.def = positionOf(buffer.def);
    out.lastUse = positionOf(buffer.lastUse);
    for (auto [exec, value] : buffer.versions) {
      out.values.push_back(built.valueOf[value]);
      timeline.bufferOf[built.valueOf[value]] = timeline.buffers.size();
    }
    timeline.buffers.push_back(std::move(out));
  }
  timeline.liveDuring.assign(order.size(), 0);
  for (size_t exec = 0; exec < eval.live.size(); ++exec) {
    unsigned pos = built.positionOf[exec];
    uint64_t live = static_cast<uint64_t>(eval.live[exec]);
    timeline.liveDuring[pos] = std::max(timeline.liveDuring[pos], live);
  }
  // Ops the simulation leaves out (frees) hold what was live before them.
  std::vector<char> simulated(order.size(), 0);
  for (unsigned pos : built.positionOf)
    simulated[pos] = 1;
  for (unsigned pos = 1; pos < order.size(); ++pos)
    if (!simulated[pos])
      timeline.liveDuring[pos] = timeline.liveDuring[pos - 1];
  for (unsigned pos = 0; pos < order.size(); ++pos) {
    if (timeline.liveDuring[pos] > timeline.peak) {
      timeline.peak = timeline.liveDuring[pos];
      timeline.peakPosition = pos;
    }
  }
  return timeline;
}

MemoryTimeline ckpt::simulateBlock(Block &block, unsigned alignment) {
  SmallVector<Operation *> order;
  for (Operation &op : block.without_terminator())
    order.push_back(&op);
  return simulateMemory(order, alignment);
}
