//===- LowerFrees.cpp - ckpt.free of memrefs -> memref.dealloc ------------===//

#include "Allocations.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace ckpt {
#define GEN_PASS_DEF_LOWERFREESPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

memref::AllocOp ckpt::findAllocation(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return alloc;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      value = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      value = cast.getSource();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

namespace {

struct LowerFreesPass : public ckpt::ListValidOptions<
                            ckpt::impl::LowerFreesPassBase<LowerFreesPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (eraseOnly) {
      SmallVector<FreeOp> frees;
      func.walk([&](FreeOp free) { frees.push_back(free); });
      for (FreeOp free : frees)
        free.erase();
      return;
    }
    BufferViewFlowAnalysis aliases(func);

    // The allocations to free, each with the earliest point it may be freed.
    llvm::MapVector<memref::AllocOp, Operation *> toFree;
    SmallVector<FreeOp> frees;
    func.walk([&](FreeOp free) { frees.push_back(free); });
    for (FreeOp free : frees) {
      if (!isa<BaseMemRefType>(free.getValue().getType())) {
        free.emitOpError("is left on a tensor after bufferization");
        return signalPassFailure();
      }
      if (memref::AllocOp alloc = findAllocation(free.getValue()))
        if (alloc->getBlock() == free->getBlock())
          toFree.insert({alloc, free});
    }
    if (freeLeftovers)
      func.walk([&](memref::AllocOp alloc) {
        if (!toFree.count(alloc))
          toFree.insert({alloc, alloc});
      });

    for (auto [alloc, from] : toFree) {
      Block *block = alloc->getBlock();
      Operation *last = from;
      bool escapes = false;
      bool deallocated = false;
      for (Value alias : aliases.resolve(alloc.getResult())) {
        for (Operation *user : alias.getUsers()) {
          if (isa<FreeOp>(user))
            continue;
          // Freed already (a bufferization.dealloc_tensor of the input, or an
          // earlier dealloc): a second dealloc would free it twice.
          if (isa<memref::DeallocOp>(user)) {
            deallocated = true;
            continue;
          }
          if (user->hasTrait<OpTrait::IsTerminator>() &&
              user->getBlock() == block) {
            escapes = true;
            continue;
          }
          Operation *top = block->findAncestorOpInBlock(*user);
          if (!top) {
            escapes = true; // used somewhere we cannot order against
            continue;
          }
          if (last->isBeforeInBlock(top))
            last = top;
        }
      }
      if (escapes || deallocated)
        continue;
      OpBuilder builder(last->getContext());
      builder.setInsertionPointAfter(last);
      memref::DeallocOp::create(builder, alloc.getLoc(), alloc.getResult());
    }
    for (FreeOp free : frees)
      free.erase();
  }
};
} // namespace
