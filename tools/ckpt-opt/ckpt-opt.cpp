//===- ckpt-opt.cpp - mlir-opt with the ckpt dialect and passes -----------===//
//
// Like mlir-opt: every upstream dialect and pass, plus the ckpt dialect and
// the ckpt passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/Progress.h"
#include "ckpt/InitCkpt.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <vector>

/// Whether the command line sets --mlir-print-op-on-diagnostic itself.
static bool setsPrintOpOnDiagnostic(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (arg.ltrim('-').starts_with("mlir-print-op-on-diagnostic"))
      return true;
  }
  return false;
}

/// --quiet: no progress line on stderr (one is drawn, when stderr is a
/// terminal, for planning that runs over a second).
static llvm::cl::opt<bool>
    quiet("quiet",
          llvm::cl::desc("No progress line on stderr (drawn only when stderr "
                         "is a terminal, for planning that takes over a "
                         "second)"),
          llvm::cl::callback([](const bool &value) {
            ckpt::setProgressQuiet(value);
          }));

int main(int argc, char **argv) {
  // An error located at an op prints the message and the source line, not
  // the op: upstream's default appends the op in generic form, which for a
  // func.func is the whole function (thousands of lines on an imported
  // model). --mlir-print-op-on-diagnostic=true brings it back.
  std::vector<char *> args(argv, argv + argc);
  static char noOpOnDiagnostic[] = "--mlir-print-op-on-diagnostic=false";
  if (!setsPrintOpOnDiagnostic(argc, argv))
    args.insert(args.begin() + 1, noOpOnDiagnostic);

  args.push_back(nullptr);
  argc = static_cast<int>(args.size()) - 1;
  argv = args.data();

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
