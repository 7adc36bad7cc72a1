//===- mlir_module.cpp - ckpt's MLIR pipeline for Python -----------------===//
//
// The extension `ckpt._ckpt_mlir`: parses MLIR text in a context that holds
// every upstream dialect plus ckpt's (the registry ckpt-opt uses), runs a
// textual pass pipeline over it (every upstream pass and every ckpt pass and
// pipeline), and returns the printed result. Diagnostics are collected, with
// their locations and source lines, and raised as one `PipelineError`
// (a ValueError) when parsing, verification or a pass fails. Warnings and
// remarks of a run that succeeds are returned next to the text.
//
// Kept apart from `_ckpt` (the solver bindings) so that `import ckpt` does
// not load libMLIR.so; `ckpt.optimize` and `ckpt.run_passes` load it on
// first use.
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace py = pybind11;

namespace {

/// ckpt.PipelineError, created in the module init (never freed: it lives as
/// long as the interpreter).
PyObject *pipelineError = nullptr;

/// The least feasible budget an infeasible-budget error names, in bytes:
/// "... the least feasible budget is 1536 B (1.50 KiB)" (the first one).
std::optional<uint64_t> leastFeasibleBytes(llvm::StringRef diagnostics) {
  llvm::StringRef lead = "the least feasible budget is ";
  size_t at = diagnostics.find(lead);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = diagnostics.drop_front(at + lead.size());
  size_t end = rest.find(" B");
  uint64_t bytes = 0;
  if (end == llvm::StringRef::npos ||
      rest.take_front(end).getAsInteger(10, bytes))
    return std::nullopt;
  return bytes;
}

/// Raises ckpt.PipelineError(message) with its `least_feasible_bytes`
/// attribute (None when the error names no least feasible budget).
[[noreturn]] void raisePipelineError(const std::string &message,
                                     std::optional<uint64_t> least) {
  py::object error = py::reinterpret_borrow<py::object>(pipelineError);
  py::object instance = error(message);
  instance.attr("least_feasible_bytes") =
      least ? py::object(py::int_(*least)) : py::none();
  PyErr_SetObject(pipelineError, instance.ptr());
  throw py::error_already_set();
}

/// Registers every pass once per process (the registry is global).
void registerAllPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerAllPasses();
    ckpt::registerPasses();
  });
}

const mlir::DialectRegistry &getRegistry() {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    mlir::registerAllDialects(*r);
    mlir::registerAllExtensions(*r);
    ckpt::registerTrainingStepDialects(*r);
    return r;
  }();
  return *registry;
}

/// Parses `text`, runs `pipeline` over it and prints the result. Returns
/// (text, diagnostics of a successful run); throws PipelineError (set up in
/// the module init) with every diagnostic on failure.
std::pair<std::string, std::string>
runPasses(const std::string &text, const std::string &pipeline,
          bool allowUnregistered, const std::string &filename, bool generic) {
  registerAllPassesOnce();
  mlir::MLIRContext context(getRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(allowUnregistered);
  // As ckpt-opt reports them: the message and its location, not the op.
  context.printOpOnDiagnostic(false);

  std::string diagnostics;
  llvm::raw_string_ostream diagOS(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, filename), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagOS);

  auto fail = [&](const std::string &what) {
    diagOS.flush();
    std::string message = what;
    if (!diagnostics.empty())
      message += ":\n" + diagnostics;
    raisePipelineError(message, leastFeasibleBytes(diagnostics));
  };

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr,
                                            mlir::ParserConfig(&context));
  if (!module)
    fail("could not parse the input");

  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  std::string pipelineErrors;
  llvm::raw_string_ostream pipelineOS(pipelineErrors);
  // Accept the pipeline with or without its builtin.module(...) anchor.
  llvm::StringRef spec = llvm::StringRef(pipeline).trim();
  if (spec.starts_with("builtin.module(") && spec.ends_with(")"))
    spec = spec.drop_front(strlen("builtin.module(")).drop_back();
  mlir::LogicalResult parsed = mlir::parsePassPipeline(spec, pm, pipelineOS);
  if (mlir::failed(parsed)) {
    pipelineOS.flush();
    raisePipelineError("invalid pass pipeline '" + pipeline +
                           "': " + pipelineErrors,
                       std::nullopt);
  }
  if (mlir::failed(pm.run(*module)))
    fail("the pipeline '" + pipeline + "' failed");

  std::string out;
  llvm::raw_string_ostream os(out);
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  os.flush();
  diagOS.flush();
  return {out, diagnostics};
}

} // namespace

PYBIND11_MODULE(_ckpt_mlir, m) {
  m.doc() = "ckpt's MLIR passes and pipelines on MLIR text (loads libMLIR)";
  py::object valueError = py::module_::import("builtins").attr("ValueError");
  py::object errorType =
      py::module_::import("builtins")
          .attr("type")("PipelineError", py::make_tuple(valueError),
                        py::dict(py::arg("__module__") = "ckpt",
                                 py::arg("__doc__") =
                                     "Parsing, verifying or running a pass "
                                     "pipeline failed; the message holds "
                                     "every diagnostic with its location; "
                                     "least_feasible_bytes is the least "
                                     "feasible budget an infeasible budget's "
                                     "error names, in bytes, else None."));
  m.attr("PipelineError") = errorType;
  pipelineError = errorType.inc_ref().ptr();
  m.def("run_passes", &runPasses, py::arg("text"), py::arg("pipeline"),
        py::arg("allow_unregistered") = false, py::arg("filename") = "<input>",
        py::arg("generic") = false,
        R"doc(Parse `text` as an MLIR module, run the textual pass
`pipeline` on it (e.g. "ckpt-wrap-step,ckpt-plan{budget=70%}" or the same
inside "builtin.module(...)"), and return (printed module, diagnostics of the
successful run: warnings and remarks). Raises PipelineError (a ValueError)
with every diagnostic when parsing, verification or a pass fails.)doc");
}
