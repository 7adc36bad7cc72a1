//===- AsyncHostCopies.cpp - copies to and from host copies, async --------===//
//
// ckpt-async-host-copies (Passes.td): the copies `ckpt-lower-offloads` makes
// into and out of host copies become calls that issue them on a copy thread
// or stream, each waited for right before the first later op that must not
// run beside it.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/HostCopies.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace ckpt {
#define GEN_PASS_DEF_ASYNCHOSTCOPIESPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

/// Whether `value` is a host copy (HostCopies.h).
bool isHostCopy(Value value) {
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  return alloc && isHostCopyAllocation(alloc);
}

/// The size in bytes of a buffer the copy functions can take whole: static
/// shape, identity layout (so offset 0 and dense), whole bytes per element.
std::optional<int64_t> denseBytes(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (bits % 8 != 0)
    return std::nullopt;
  return type.getNumElements() * static_cast<int64_t>(bits / 8);
}

/// `root` and every value that is a view of it (view-like ops, taken
/// transitively).
llvm::SmallPtrSet<Value, 8> aliasesOf(Value root) {
  llvm::SmallPtrSet<Value, 8> aliases;
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!aliases.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == value)
        llvm::append_range(worklist, user->getResults());
    }
  }
  return aliases;
}

/// Whether `op`, or an op nested in it, must wait for a copy that writes
/// (`copyWrites`) or reads one of `aliases`: any use of a buffer it writes;
/// a write or free of one it reads, or a use whose effects are unknown.
bool mustWait(Operation *op, const llvm::SmallPtrSet<Value, 8> &aliases,
              bool copyWrites) {
  WalkResult found = op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      if (!aliases.contains(operand))
        continue;
      // A view of the buffer touches nothing; its users are checked.
      auto view = dyn_cast<ViewLikeOpInterface>(nested);
      if (view && view.getViewSource() == operand)
        continue;
      if (copyWrites)
        return WalkResult::interrupt();
      auto memory = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!memory)
        return WalkResult::interrupt();
      SmallVector<MemoryEffects::EffectInstance> effects;
      memory.getEffects(effects);
      for (const MemoryEffects::EffectInstance &effect : effects) {
        if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
          continue;
        Value on = effect.getValue();
        if (!on || aliases.contains(on))
          return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The op before which the copy `copy` must have ended: the first later op
/// of its block that must wait for it (mustWait), else the terminator.
Operation *waitPoint(memref::CopyOp copy) {
  llvm::SmallPtrSet<Value, 8> written = aliasesOf(copy.getTarget());
  llvm::SmallPtrSet<Value, 8> read = aliasesOf(copy.getSource());
  for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      return op;
    if (mustWait(op, written, /*copyWrites=*/true) ||
        mustWait(op, read, /*copyWrites=*/false))
      return op;
  }
  return nullptr; // A block without a terminator: not in a verified func.
}

struct AsyncHostCopiesPass
    : public ckpt::ListValidOptions<
          ckpt::impl::AsyncHostCopiesPassBase<AsyncHostCopiesPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::CopyOp> copies;
    module.walk([&](memref::CopyOp copy) {
      if ((isHostCopy(copy.getSource()) || isHostCopy(copy.getTarget())) &&
          denseBytes(copy.getSource()) && denseBytes(copy.getTarget()))
        copies.push_back(copy);
    });
    if (copies.empty())
      return;
    bool cuda = runtime == CopyRuntime::Cuda;
    StringRef issueName = cuda ? "ckptCudaCopyAsync" : "ckptRuntimeCopyAsync";
    StringRef waitName = cuda ? "ckptCudaWaitCopy" : "ckptRuntimeWaitCopy";
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    Type i64 = top.getI64Type();
    declareRuntimeFunction(top, module, issueName,
                           top.getFunctionType({i64, i64, i64}, {i64}));
    declareRuntimeFunction(top, module, waitName,
                           top.getFunctionType({i64}, {}));

    for (memref::CopyOp copy : copies) {
      // Where to wait, found before the copy is replaced (its operands
      // define the buffers).
      Operation *waitBefore = waitPoint(copy);
      if (!waitBefore) {
        copy.emitOpError("is not in a block with a terminator");
        return signalPassFailure();
      }
      OpBuilder builder(copy);
      Location loc = copy.getLoc();
      auto address = [&](Value buffer) -> Value {
        Value index = memref::ExtractAlignedPointerAsIndexOp::create(
            builder, loc, buffer);
        return arith::IndexCastOp::create(builder, loc, i64, index);
      };
      Value dst = address(copy.getTarget());
      Value src = address(copy.getSource());
      Value bytes = arith::ConstantIntOp::create(
          builder, loc, *denseBytes(copy.getSource()), 64);
      auto issue = func::CallOp::create(builder, loc, issueName, TypeRange{i64},
                                        ValueRange{dst, src, bytes});
      OpBuilder waitBuilder(waitBefore);
      func::CallOp::create(waitBuilder, loc, waitName, TypeRange(),
                           ValueRange{issue.getResult(0)});
      copy.erase();
    }
  }
};

} // namespace
