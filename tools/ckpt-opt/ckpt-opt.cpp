//===- ckpt-opt.cpp - mlir-opt with the ckpt dialect and passes -----------===//
//
// Like mlir-opt: every upstream dialect and pass, plus the ckpt dialect and
// the ckpt passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  ckpt::registerPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  ckpt::registerTrainingStepDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "ckpt optimizer driver: activation checkpointing for MLIR\n",
      registry));
}
