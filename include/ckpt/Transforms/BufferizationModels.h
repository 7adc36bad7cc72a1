//===- BufferizationModels.h - bufferization of ckpt ops --------*- C++ -*-===//

#ifndef CKPT_TRANSFORMS_BUFFERIZATIONMODELS_H
#define CKPT_TRANSFORMS_BUFFERIZATIONMODELS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ckpt {
/// Attaches BufferizableOpInterface to ckpt.free (it becomes a ckpt.free of
/// the buffer, lowered by ckpt-lower-frees) and ckpt.checkpoint (an alias of
/// its operand's buffer).
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);
} // namespace ckpt

#endif // CKPT_TRANSFORMS_BUFFERIZATIONMODELS_H
