//===- ckpt-fuzz-opt.cpp - libFuzzer target: parse, verify, remat ---------===//
//
// LLVMFuzzerTestOneInput treats the bytes as MLIR text. Each input gets a fresh
// MLIRContext (no interned state carries over from one input to the next, so
// every crash reproduces from its input alone) with the dialects ckpt-opt
// registers: every upstream dialect and extension plus the ckpt dialect and
// its interface models. Diagnostics are swallowed by a handler. What parses
// is verified and then run through the remat pipeline (ckpt-remat-pipeline:
// ckpt-wrap-step, ckpt-plan, ckpt-rematerialize, ckpt-insert-frees) by a
// PassManager that verifies after each pass, first with budget=100% and,
// when that succeeds, on a fresh parse with budget=40% (so infeasible and
// rewriting plans are reached too).
//
// A crash reproduces with `ckpt-fuzz-opt CRASH_FILE`, or through ckpt-opt:
//   ckpt-opt CRASH_FILE --ckpt-remat-pipeline="budget=100%"   (or 40%)
// See docs/RELIABILITY.md.
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"
#include "ckpt/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    ckpt::registerTrainingStepDialects(*r);
    ckpt::registerPasses();
    return r;
  }();
  return *registry;
}

/// Whether `text` starts with a well-formed dense i64 array body as
/// DenseI64ArrayAttr::parse accepts it: `[` (-?digits (`,` -?digits)*)? `]`.
bool startsWithI64Array(llvm::StringRef text) {
  text = text.ltrim();
  if (!text.consume_front("["))
    return false;
  text = text.ltrim();
  if (text.consume_front("]"))
    return true;
  while (true) {
    text.consume_front("-");
    size_t digits = 0;
    while (digits < text.size() && llvm::isDigit(text[digits]))
      ++digits;
    if (digits == 0)
      return false;
    text = text.drop_front(digits).ltrim();
    if (text.consume_front("]"))
      return true;
    if (!text.consume_front(","))
      return false;
    text = text.ltrim();
  }
}

/// Inputs that crash upstream MLIR 22's parser before any ckpt code runs
/// (docs/RELIABILITY.md, "Upstream crashes"), skipped so that the fuzzer can
/// get past them:
///   U1: linalg.transpose / linalg.broadcast with a `permutation =` /
///       `dimensions =` value that does not parse as a dense i64 array (e.g.
///       `linalg.transpose permutation=1`, or `[1,` cut short): the custom
///       parser stores the null attribute of the failed
///       DenseI64ArrayAttr::parse and segfaults in NamedAttrList::set
///       (Debian's mlir-opt too). Conservatively, any such keyword followed
///       by `=` and no well-formed array skips the input.
bool hitsKnownUpstreamCrash(llvm::StringRef text) {
  for (llvm::StringRef keyword : {"permutation", "dimensions"}) {
    size_t pos = 0;
    while ((pos = text.find(keyword, pos)) != llvm::StringRef::npos) {
      pos += keyword.size();
      llvm::StringRef rest = text.drop_front(pos).ltrim();
      if (rest.consume_front("=") && !startsWithI64Array(rest))
        return true;
    }
  }
  return false;
}

bool verbose() {
  static const bool v = std::getenv("CKPT_FUZZ_VERBOSE") != nullptr;
  return v;
}

/// Parses `text` in a fresh context, verifies it and runs the remat pipeline
/// with `budget`. Returns true when the pipeline succeeded.
bool runOnce(llvm::StringRef text, llvm::StringRef budget) {
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler swallow(&context, [](Diagnostic &diag) {
    if (verbose())
      llvm::errs() << diag << "\n";
    return success();
  });

  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, config, "fuzz-input");
  if (!module)
    return false;
  if (failed(verify(*module)))
    return false;

  PassManager pm(&context, ModuleOp::getOperationName());
  pm.enableVerifier(true);
  ckpt::RematPipelineOptions options;
  options.budget = budget.str();
  bool ok = succeeded(ckpt::buildRematPipeline(pm, options)) &&
            succeeded(pm.run(*module));
  if (verbose())
    llvm::errs() << "ckpt-fuzz-opt: budget=" << budget << ": "
                 << (ok ? "ok" : "failed") << "\n";
  return ok;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  (void)getRegistry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A copy with a null terminator after the bytes, as a file read by
  // ckpt-opt has: MLIR's lexer reads one byte past the end of a token at the
  // end of the buffer (e.g. `func.func @lo`), which in libFuzzer's exactly
  // sized buffer is a heap-buffer-overflow that no real input can cause.
  std::string copy(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(copy);
  if (hitsKnownUpstreamCrash(text))
    return 0;
  if (runOnce(text, "100%"))
    runOnce(text, "40%");
  return 0;
}
