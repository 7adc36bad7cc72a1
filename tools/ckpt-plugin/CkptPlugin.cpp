//===- CkptPlugin.cpp - ckpt as a plugin for mlir-opt ---------------------===//
//
//   mlir-opt --load-dialect-plugin=CkptPlugin.so \
//            --load-pass-plugin=CkptPlugin.so \
//            -p 'builtin.module(ckpt-wrap-step)' in.mlir
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT ::mlir::DialectPluginLibraryInfo
    mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CkptDialect", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            ckpt::registerCkptDialect(*registry);
            // Our passes are registered here too, so that loading only the
            // dialect plugin already makes them available.
            ckpt::registerPasses();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT ::mlir::PassPluginLibraryInfo
    mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CkptPasses", LLVM_VERSION_STRING,
          []() { ckpt::registerPasses(); }};
}
