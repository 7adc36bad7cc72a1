//===- BufferizationModels.cpp - bufferization of ckpt ops ----------------===//

#include "ckpt/Transforms/BufferizationModels.h"

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace ckpt;

namespace {

/// ckpt.free neither reads nor writes its operand and creates no alias; it
/// becomes a ckpt.free of the operand's buffer.
struct FreeOpModel
    : public BufferizableOpInterface::ExternalModel<FreeOpModel, FreeOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return false;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto free = cast<FreeOp>(op);
    if (!isa<TensorType>(free.getValue().getType()))
      return success();
    FailureOr<Value> buffer =
        getBuffer(rewriter, free.getValue(), options, state);
    if (failed(buffer))
      return failure();
    rewriter.setInsertionPoint(op);
    FreeOp::create(rewriter, op->getLoc(), *buffer);
    rewriter.eraseOp(op);
    return success();
  }
};

/// ckpt.checkpoint is an identity: its result is its operand's buffer.
struct CheckpointOpModel
    : public BufferizableOpInterface::ExternalModel<CheckpointOpModel,
                                                    CheckpointOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return false;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &,
                                      const AnalysisState &) const {
    return {{op->getResult(0), BufferRelation::Equivalent}};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto checkpoint = cast<CheckpointOp>(op);
    if (!isa<TensorType>(checkpoint.getInput().getType()))
      return success();
    FailureOr<Value> buffer =
        getBuffer(rewriter, checkpoint.getInput(), options, state);
    if (failed(buffer))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, *buffer);
    return success();
  }
};

} // namespace

void ckpt::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, CkptDialect *) {
    FreeOp::attachInterface<FreeOpModel>(*context);
    CheckpointOp::attachInterface<CheckpointOpModel>(*context);
  });
}
