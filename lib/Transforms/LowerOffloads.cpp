//===- LowerOffloads.cpp - ckpt.offload/reload/wait on the CPU ------------===//
//
// The CPU lowering of the copies to host memory, on tensors, before
// bufferization. The CPU runs them synchronously, in program order:
//
//   %h, %off = ckpt.offload %t : T
//     -> %hc = bufferization.alloc_tensor() copy(%t) {memory_space = 1}
//   %r, %on = ckpt.reload %h after %off : T
//     -> %r = bufferization.alloc_tensor() copy(%hc) {memory_space = 0}
//   ckpt.wait %on      -> bufferization.dealloc_tensor %hc (the host copy is
//                         no longer needed once its reload has ended)
//   ckpt.wait %off     -> nothing (the ckpt.free of %t after it stays)
//
// Memory space 1 is host memory: ckpt-lower-host-copies counts its buffers
// apart from the step's after bufferization.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"

namespace ckpt {
#define GEN_PASS_DEF_LOWEROFFLOADSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct LowerOffloadsPass
    : public ckpt::ListValidOptions<
          ckpt::impl::LowerOffloadsPassBase<LowerOffloadsPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    SmallVector<OffloadOp> offloads;
    SmallVector<ReloadOp> reloads;
    SmallVector<WaitOp> waits;
    getOperation()->walk([&](Operation *op) {
      if (auto offload = dyn_cast<OffloadOp>(op))
        offloads.push_back(offload);
      else if (auto reload = dyn_cast<ReloadOp>(op))
        reloads.push_back(reload);
      else if (auto wait = dyn_cast<WaitOp>(op))
        waits.push_back(wait);
    });
    MLIRContext *context = &getContext();
    auto space = [&](int64_t value) {
      return IntegerAttr::get(IntegerType::get(context, 64), value);
    };
    // The host copy (a tensor in memory space 1) of each offload, and the
    // host copy each reload's event releases.
    DenseMap<Value, Value> hostCopy;
    DenseMap<Value, Value> releasedBy;
    for (OffloadOp offload : offloads) {
      OpBuilder builder(offload);
      auto type = cast<RankedTensorType>(offload.getValue().getType());
      auto copy = bufferization::AllocTensorOp::create(
          builder, offload.getLoc(), type, ValueRange(), offload.getValue(),
          /*sizeHint=*/Value(), space(1));
      hostCopy[offload.getHost()] = copy.getResult();
    }
    for (ReloadOp reload : reloads) {
      // The verifier made sure an offload made it.
      Value host = hostCopy.lookup(reload.getHost());
      OpBuilder builder(reload);
      auto copy = bufferization::AllocTensorOp::create(
          builder, reload.getLoc(), reload.getValue().getType(), ValueRange(),
          host, /*sizeHint=*/Value(), space(0));
      reload.getValue().replaceAllUsesWith(copy.getResult());
      releasedBy[reload.getDone()] = host;
    }
    for (WaitOp wait : waits) {
      OpBuilder builder(wait);
      for (Value event : wait.getEvents())
        if (Value host = releasedBy.lookup(event))
          bufferization::DeallocTensorOp::create(builder, wait.getLoc(), host);
      wait.erase();
    }
    for (ReloadOp reload : reloads) {
      if (!reload.getDone().use_empty()) {
        reload.emitOpError("event is used by an op other than ckpt.wait");
        return signalPassFailure();
      }
      reload.erase();
    }
    for (OffloadOp offload : offloads) {
      if (!offload.getDone().use_empty() || !offload.getHost().use_empty()) {
        offload.emitOpError("host copy or event is used by an op other than "
                            "ckpt.reload and ckpt.wait");
        return signalPassFailure();
      }
      offload.erase();
    }
  }
};
} // namespace
