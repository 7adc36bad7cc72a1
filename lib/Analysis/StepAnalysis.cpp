//===- StepAnalysis.cpp - phases, activations, memory of a step -----------===//

#include "ckpt/Analysis/StepAnalysis.h"

#include "ckpt/Analysis/CostModel.h"

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
  return isMemoryEffectFree(op);
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
  // tensor.empty has no contents.
  for (Operation *fwd : forward) {
    if (isa<tensor::EmptyOp>(fwd))
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

/// Ops whose tensor result is a view of their first operand.
static bool isViewLike(Operation *op) {
  return isa<CheckpointOp, tensor::CastOp, tensor::CollapseShapeOp,
             tensor::ExpandShapeOp, tensor::BitcastOp>(op);
}

MemoryTimeline ckpt::simulateMemory(ArrayRef<Operation *> order,
                                    unsigned alignment) {
  MemoryTimeline timeline;
  if (order.empty())
    return timeline;
  Block *block = order.front()->getBlock();

  DenseMap<Operation *, unsigned> position;
  for (auto [index, op] : llvm::enumerate(order))
    position[op] = index;
  unsigned end = order.size(); // the terminator's position

  // Last position at which each value is read.
  auto lastUseOf = [&](Value value, unsigned def) {
    unsigned last = def;
    for (Operation *user : value.getUsers()) {
      Operation *top = block->findAncestorOpInBlock(*user);
      if (!top)
        continue;
      if (top->hasTrait<OpTrait::IsTerminator>()) {
        last = std::max(last, end);
        continue;
      }
      auto it = position.find(top);
      if (it != position.end())
        last = std::max(last, it->second);
    }
    return last;
  };

  auto newBuffer = [&](Value value, unsigned def) {
    Buffer buffer;
    buffer.bytes = getTypeBytes(value.getType()).value_or(0);
    if (alignment > 1)
      buffer.bytes = llvm::alignTo(buffer.bytes, alignment);
    buffer.def = def;
    buffer.lastUse = lastUseOf(value, def);
    buffer.values.push_back(value);
    timeline.bufferOf[value] = timeline.buffers.size();
    timeline.buffers.push_back(std::move(buffer));
  };
  auto alias = [&](Value value, unsigned bufferIndex, unsigned def) {
    Buffer &buffer = timeline.buffers[bufferIndex];
    buffer.lastUse = std::max(buffer.lastUse, lastUseOf(value, def));
    buffer.values.push_back(value);
    timeline.bufferOf[value] = bufferIndex;
  };

  for (auto [index, op] : llvm::enumerate(order)) {
    unsigned pos = index;
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    for (OpResult result : op->getResults()) {
      if (!isa<ShapedType>(result.getType()))
        continue;
      std::optional<unsigned> source;
      if (isViewLike(op)) {
        auto it = timeline.bufferOf.find(op->getOperand(0));
        if (it != timeline.bufferOf.end())
          source = it->second;
        else {
          // A view of a step argument is the argument: no buffer.
          continue;
        }
        alias(result, *source, pos);
        continue;
      }
      // The buffer the op may write in place: a destination-style op's init,
      // or, for an elementwise op on tensors, the first operand of the
      // result's type (the init convert-elementwise-to-linalg picks).
      Value init;
      if (dps && dps.hasPureTensorSemantics()) {
        init = dps.getTiedOpOperand(result)->get();
      } else if (op->hasTrait<OpTrait::Elementwise>()) {
        for (Value operand : op->getOperands())
          if (operand.getType() == result.getType()) {
            init = operand;
            break;
          }
      }
      if (init) {
        auto it = timeline.bufferOf.find(init);
        // In place when nothing after this op reads the init's buffer.
        if (it != timeline.bufferOf.end() &&
            timeline.buffers[it->second].lastUse <= pos) {
          alias(result, it->second, pos);
          continue;
        }
      }
      newBuffer(result, pos);
    }
  }

  // Live bytes while each op runs: buffers with def <= pos <= lastUse.
  std::vector<int64_t> delta(order.size() + 2, 0);
  for (const Buffer &buffer : timeline.buffers) {
    delta[buffer.def] += buffer.bytes;
    delta[std::min<unsigned>(buffer.lastUse, end) + 1] -= buffer.bytes;
  }
  int64_t live = 0;
  timeline.liveDuring.resize(order.size());
  for (unsigned pos = 0; pos < order.size(); ++pos) {
    live += delta[pos];
    timeline.liveDuring[pos] = static_cast<uint64_t>(live);
    // A recompute region's temporaries exist while it runs: its own peak
    // beyond the results it yields (already counted as its buffers).
    if (auto recompute = dyn_cast<RecomputeOp>(order[pos])) {
      uint64_t peak = simulateBlock(recompute.getBody().front(), alignment).peak;
      uint64_t yielded = 0;
      for (Value result : recompute.getResults())
        yielded += llvm::alignTo(getTypeBytes(result.getType()).value_or(0),
                                 std::max(alignment, 1u));
      if (peak > yielded)
        timeline.liveDuring[pos] += peak - yielded;
    }
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
