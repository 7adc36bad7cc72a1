//===- CheckPeak.cpp - a bufferized step's peak against its budget --------===//
//
// The check a host compiler runs last: after bufferization and deallocation,
// the allocations of a function are counted in program order as the
// allocator ckpt-run counts them, and the function fails if they ever hold
// more than the budget its step was planned for.
//
//===----------------------------------------------------------------------===//

#include "Allocations.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

namespace ckpt {
#define GEN_PASS_DEF_CHECKPEAKPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

/// The least alignment of an aligned allocation
/// (finalize-memref-to-llvm{use-aligned-alloc}).
constexpr uint64_t kMinAlignment = 16;

/// The bytes the allocator is asked for by `alloc`, as
/// finalize-memref-to-llvm{use-aligned-alloc} computes them: the buffer
/// rounded up to its alignment (its `alignment`, else its element size, at
/// least 16 bytes).
std::optional<uint64_t> allocatedBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape())
    return std::nullopt;
  uint64_t elementBytes =
      llvm::divideCeil(type.getElementTypeBitWidth(), uint64_t{8});
  uint64_t alignment =
      std::max(kMinAlignment, llvm::PowerOf2Ceil(elementBytes));
  if (std::optional<uint64_t> own = alloc.getAlignment())
    alignment = std::max(kMinAlignment, *own);
  uint64_t bytes = elementBytes * static_cast<uint64_t>(type.getNumElements());
  return llvm::alignTo(bytes, alignment);
}

struct CheckPeakPass : public ckpt::ListValidOptions<
                           ckpt::impl::CheckPeakPassBase<CheckPeakPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    std::optional<StepBudget> attr = getStepBudget(func);
    uint64_t limit = budget ? uint64_t(budget) : attr ? attr->bytes : 0;
    if (!limit)
      return;
    if (failed(check(func, limit, attr)))
      signalPassFailure();
  }

  /// Counts the allocations of `func` in program order against `limit`.
  LogicalResult check(func::FuncOp func, uint64_t limit,
                      std::optional<StepBudget> attr) {
    llvm::MapVector<Operation *, uint64_t> live;
    uint64_t bytes = 0, peak = 0;
    auto release = [&](Value value) {
      memref::AllocOp alloc = findAllocation(value);
      if (!alloc)
        return;
      auto it = live.find(alloc);
      if (it == live.end())
        return;
      bytes -= it->second;
      live.erase(it);
    };
    WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        release(dealloc.getMemref());
      } else if (auto dealloc = dyn_cast<bufferization::DeallocOp>(op)) {
        for (auto [memref, condition] :
             llvm::zip(dealloc.getMemrefs(), dealloc.getConditions()))
          if (matchPattern(condition, m_One()))
            release(memref);
      }
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc || isHostSpace(alloc.getType()))
        return WalkResult::advance();
      std::optional<uint64_t> size = allocatedBytes(alloc);
      if (!size || alloc->getParentOfType<LoopLikeOpInterface>()) {
        alloc.emitWarning("ckpt-check-peak: cannot count this allocation (")
            << (size ? "it is inside a loop" : "its size is dynamic")
            << "): the function's peak is not checked";
        return WalkResult::interrupt();
      }
      live[alloc] = *size;
      bytes += *size;
      peak = std::max(peak, bytes);
      if (bytes <= limit)
        return WalkResult::advance();
      reportOver(alloc, bytes, limit, attr, live);
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return success(peak <= limit);
    if (remark)
      func.emitRemark("ckpt-check-peak: peak ")
          << peak << " B within the budget of " << limit << " B";
    return success();
  }

  /// The error at `alloc`, the first allocation over `limit`, with notes at
  /// the largest buffers live then.
  static void reportOver(memref::AllocOp alloc, uint64_t bytes, uint64_t limit,
                         std::optional<StepBudget> attr,
                         const llvm::MapVector<Operation *, uint64_t> &live) {
    InFlightDiagnostic diag =
        alloc.emitError("this allocation brings the step's live buffers to ")
        << bytes << " B, over the budget of " << limit << " B";
    if (attr)
      diag << " (its rematerialized step was simulated at " << attr->peak
           << " B: bufferization or a pass after ckpt-rematerialize made "
              "buffers live longer, or copied them)";
    SmallVector<std::pair<Operation *, uint64_t>> largest(live.begin(),
                                                          live.end());
    llvm::stable_sort(largest,
                      [](auto &a, auto &b) { return a.second > b.second; });
    diag.attachNote() << live.size() << " buffers are live";
    for (auto [op, size] : ArrayRef(largest).take_front(3))
      diag.attachNote(op->getLoc()) << "a live buffer of " << size << " B";
  }
};
} // namespace
