//===- StepProblem.cpp - a step as a schedule problem ---------------------===//

#include "ckpt/Analysis/StepProblem.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ckpt;

namespace {

/// Ops whose tensor result is a view of their first operand once bufferized
/// (one-shot bufferization: memref.subview, memref.expand_shape, casts).
/// tensor.collapse_shape is one too when its source's buffer can be
/// collapsed without a copy (`collapseNeedsCopy`).
bool isViewLike(Operation *op) {
  return isa<CheckpointOp, tensor::CastOp, tensor::CollapseShapeOp,
             tensor::ExpandShapeOp, tensor::BitcastOp, tensor::ExtractSliceOp>(
      op);
}

class ProblemBuilder {
public:
  ProblemBuilder(OrderProblem &out, unsigned alignment)
      : out(out), alignment(std::max(alignment, 1u)) {}

  /// The problem value of `value`, or -1 (an input of the order).
  int lookup(Value value) const {
    auto it = out.idOf.find(value);
    return it == out.idOf.end() ? -1 : it->second;
  }

  /// Records that `node` reads `value` (once; values the problem does not
  /// know are skipped).
  void addRead(sched::Op &node, Value value) {
    int id = lookup(value);
    if (id >= 0 &&
        std::find(node.reads.begin(), node.reads.end(), id) == node.reads.end())
      node.reads.push_back(id);
  }

  /// Adds `op` (at `position` in the order) as one problem op.
  int addOp(Operation *op, unsigned position) {
    sched::Op node;
    node.name = op->getName().getStringRef().str();
    llvm::SetVector<Value> read;
    StepAnalysis::getReadValues(op, read);
    for (Value value : read)
      addRead(node, value);
    // The device buffer of an offloaded tensor stays until the step has
    // waited for its copy: the wait reads it.
    if (auto wait = dyn_cast<WaitOp>(op))
      for (Value event : wait.getEvents())
        if (auto offload = event.getDefiningOp<OffloadOp>())
          addRead(node, offload.getValue());
    int id = out.problem.addOp(std::move(node));
    out.opOf.push_back(op);
    out.positionOf.push_back(position);
    addResults(op, id);
    return id;
  }

  /// The memref type one-shot bufferization gives `value`'s buffer: the
  /// layout of a view (a strided subview of an extract_slice, and the views
  /// of it), identity for every other buffer. Null for non-tensors.
  MemRefType bufferType(Value value) const {
    auto it = layoutOf.find(value);
    if (it != layoutOf.end())
      return it->second;
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor)
      return nullptr;
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  }

  /// Records the buffer type of `result`, a view made by `op` (as the
  /// bufferization of tensor.extract_slice / expand_shape / collapse_shape /
  /// cast computes it).
  void recordViewType(Operation *op, Value result) {
    MemRefType source = bufferType(op->getOperand(0));
    auto tensor = dyn_cast<RankedTensorType>(result.getType());
    if (!source || !tensor)
      return;
    MemRefType type;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      type = memref::SubViewOp::inferRankReducedResultType(
          tensor.getShape(), source, slice.getMixedOffsets(),
          slice.getMixedSizes(), slice.getMixedStrides());
    } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      if (tensor.getRank() > 0)
        type = memref::CollapseShapeOp::computeCollapsedType(
            source, collapse.getReassociationIndices());
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      FailureOr<MemRefType> expanded =
          memref::ExpandShapeOp::computeExpandedType(
              source, tensor.getShape(), expand.getReassociationIndices());
      if (succeeded(expanded))
        type = *expanded;
    } else if (!source.getLayout().isIdentity()) {
      type = MemRefType::get(tensor.getShape(), tensor.getElementType(),
                             source.getLayout());
    }
    if (type && !type.getLayout().isIdentity())
      layoutOf[result] = type;
  }

  /// Whether bufferizing `collapse` copies its source into a new buffer: one
  /// whose layout cannot be collapsed (a non-contiguous slice), as
  /// one-shot bufferization decides it.
  bool collapseNeedsCopy(tensor::CollapseShapeOp collapse) const {
    if (collapse.getResultType().getRank() == 0)
      return false;
    MemRefType source = bufferType(collapse.getSrc());
    return source && !memref::CollapseShapeOp::isGuaranteedCollapsible(
                         source, collapse.getReassociationIndices());
  }

  /// Adds the results of `op` (problem op `id`) with their buffer rules.
  void addResults(Operation *op, int id) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    for (OpResult result : op->getResults()) {
      if (!isa<ShapedType>(result.getType())) {
        // A scalar: no buffer, but a value the planners must order by.
        out.valueOf.push_back(result);
        out.idOf[result] = out.problem.addResult(id, 0);
        continue;
      }
      uint64_t bytes = getTypeBytes(result.getType()).value_or(0);
      bytes = llvm::alignTo(bytes, alignment);
      // A tensor constant bufferizes to a read-only global
      // (memref.get_global), not a heap buffer: no bytes. An op that would
      // write into it in place gets a new buffer instead (bufferization
      // copies it), as an in-place result over no buffer does.
      if (op->hasTrait<OpTrait::ConstantLike>())
        bytes = 0;
      sched::BufferRule rule = sched::BufferRule::Fresh;
      int source = -1;
      auto collapse = dyn_cast<tensor::CollapseShapeOp>(op);
      if (isViewLike(op) && !(collapse && collapseNeedsCopy(collapse))) {
        rule = sched::BufferRule::View;
        source = lookup(op->getOperand(0));
        recordViewType(op, result);
      } else if (collapse) {
        // A copy of the source into a new buffer (identity layout), which
        // the collapse then views.
      } else {
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
          source = lookup(init);
          if (source >= 0)
            rule = sched::BufferRule::InPlace;
          // In place, the result is the init's buffer (a subview's layout).
          if (MemRefType type = bufferType(init);
              type && !type.getLayout().isIdentity() &&
              type.getShape() == cast<ShapedType>(result.getType()).getShape())
            layoutOf[result] = type;
        }
      }
      int value =
          out.problem.addResult(id, static_cast<int64_t>(bytes), rule, source);
      out.valueOf.push_back(result);
      out.idOf[result] = value;
    }
  }

  /// Adds a recompute region flattened: its ops, then an op standing for its
  /// end whose results are views of the yielded values.
  void addRegion(RecomputeOp recompute, unsigned position) {
    Block &body = recompute.getBody().front();
    for (auto [arg, input] :
         llvm::zip(body.getArguments(), recompute.getInputs())) {
      int id = lookup(input);
      if (id >= 0)
        out.idOf[arg] = id;
      if (MemRefType type = bufferType(input);
          type && !type.getLayout().isIdentity())
        layoutOf[arg] = type;
    }
    for (Operation &inner : body.without_terminator())
      if (!isa<FreeOp>(inner))
        addOp(&inner, position);
    sched::Op end;
    end.name = "ckpt.yield";
    YieldOp yield = recompute.getYieldOp();
    for (Value value : yield.getOperands())
      addRead(end, value);
    int id = out.problem.addOp(std::move(end));
    out.opOf.push_back(nullptr);
    out.positionOf.push_back(position);
    for (auto [result, yielded] :
         llvm::zip(recompute.getResults(), yield.getOperands())) {
      uint64_t bytes =
          llvm::alignTo(getTypeBytes(result.getType()).value_or(0), alignment);
      int source = lookup(yielded);
      int value = out.problem.addResult(id, static_cast<int64_t>(bytes),
                                        sched::BufferRule::View, source);
      if (MemRefType type = bufferType(yielded);
          type && !type.getLayout().isIdentity())
        layoutOf[result] = type;
      out.valueOf.push_back(result);
      out.idOf[result] = value;
    }
  }

  void markReturned(Block *block) {
    if (!block || block->empty())
      return;
    Operation *terminator = &block->back();
    if (!terminator->hasTrait<OpTrait::IsTerminator>())
      return;
    for (Value value : terminator->getOperands()) {
      int id = lookup(value);
      if (id >= 0)
        out.problem.values[id].returned = true;
    }
  }

private:
  OrderProblem &out;
  unsigned alignment;
  /// Buffer types with a layout other than the identity (views).
  llvm::DenseMap<Value, MemRefType> layoutOf;
};

} // namespace

OrderProblem ckpt::buildOrderProblem(ArrayRef<Operation *> order,
                                     unsigned alignment, bool flatten) {
  OrderProblem out;
  ProblemBuilder builder(out, alignment);
  for (auto [position, op] : llvm::enumerate(order)) {
    // A free ends its buffer where insertFrees put it: right after the last
    // reader (or after the region holding it, which the rewrite ends there).
    // It is not a reader: counting it as one would keep the op before it
    // from writing in place into the buffer, which bufferization allows.
    if (isa<FreeOp>(op))
      continue;
    if (auto recompute = dyn_cast<RecomputeOp>(op); recompute && flatten)
      builder.addRegion(recompute, position);
    else
      builder.addOp(op, position);
  }
  if (!order.empty())
    builder.markReturned(order.front()->getBlock());
  return out;
}

FailureOr<OrderProblem> ckpt::buildStepProblem(StepOp step,
                                               const StepAnalysis &analysis,
                                               const DeviceProfile &device,
                                               const MeasuredProfile *profile) {
  SmallVector<Operation *> order;
  for (Operation &op : step.getBody().front().without_terminator())
    order.push_back(&op);
  OrderProblem out = buildOrderProblem(order, kBufferAlignment,
                                       /*flatten=*/false);
  for (auto [id, op] : llvm::enumerate(out.opOf)) {
    FailureOr<OpCost> cost = getOpCost(op, device, profile);
    if (failed(cost))
      return failure();
    sched::Op &node = out.problem.ops[id];
    node.cost = cost->time;
    node.backward = !analysis.isForward(op);
    node.constant = analysis.isConstantLike(op);
    node.recomputable = StepAnalysis::isRecomputable(op);
  }
  return out;
}
