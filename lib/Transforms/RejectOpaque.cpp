//===- RejectOpaque.cpp - the ckpt-reject-opaque pass ---------------------===//
//
// Every ckpt.opaque op is an error: the first pass of the lowerings.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

namespace ckpt {
#define GEN_PASS_DEF_REJECTOPAQUEPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {
struct RejectOpaquePass
    : public ckpt::ListValidOptions<
          ckpt::impl::RejectOpaquePassBase<RejectOpaquePass>> {
  void runOnOperation() override {
    bool found = false;
    getOperation()->walk([&](OpaqueOp op) {
      op.emitOpError() << "\"" << op.getName()
                       << "\" has no lowering: it stands for an op the "
                          "importer could not translate; the step can be "
                          "planned but not executed";
      found = true;
    });
    if (found)
      signalPassFailure();
  }
};
} // namespace
