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
// `CompiledStep` (ckpt.compile_step) runs a pipeline that ends in
// ckpt-lower-to-cpu or ckpt-lower-to-nvptx and JITs the step once
// (ckpt::jitModule, as ckpt-run does); it is then called on memref
// descriptors built by the Python side over the caller's tensors (on the
// CPU) or over managed copies of them (CUDA), its allocations counted by the
// ckpt runtime linked into this extension (runtime_reset, runtime_stats,
// runtime_allocation, runtime_free) or, for a CUDA step, by the
// libckpt_cuda_runtime.so it loads (CUDA_RUNTIME; the step's own methods
// reach either).
//
// Kept apart from `_ckpt` (the solver bindings) so that `import ckpt` does
// not load libMLIR.so; `ckpt.optimize` and `ckpt.run_passes` load it on
// first use.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Engine/Jit.h"
#include "ckpt/Engine/StepRuntime.h"
#include "ckpt/InitCkpt.h"
#include "ckpt/Runtime/Runtime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

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

#include <cstdio>
#include <memory>
#include <vector>

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <unistd.h>

namespace py = pybind11;

namespace {

/// ckpt.PipelineError, created in the module init (never freed: it lives as
/// long as the interpreter).
PyObject *pipelineError = nullptr;

/// The least feasible budget an infeasible-budget error names, in bytes:
/// "... the least feasible budget is 1536 B (1.50 KiB)" (the first one;
/// with offload=auto "... the least feasible budget with offloading is").
std::optional<uint64_t> leastFeasibleBytes(llvm::StringRef diagnostics) {
  llvm::StringRef lead = "the least feasible budget ";
  size_t at = diagnostics.find(lead);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = diagnostics.drop_front(at + lead.size());
  rest.consume_front("with offloading ");
  if (!rest.consume_front("is "))
    return std::nullopt;
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
    mlir::registerBuiltinDialectTranslation(*r);
    mlir::registerLLVMDialectTranslation(*r);
    return r;
  }();
  return *registry;
}

/// What is written to standard error while `fn` runs, one line per message
/// without llvm::cl's empty program-name prefix: a pass option's parser
/// (PassOptions.h) reports a bad value there ("for the --budget option:
/// ..."), not to the pipeline parser's stream, and the Python caller gets
/// it in its PipelineError.
template <typename Fn> std::string captureStderr(Fn &&fn) {
  llvm::errs().flush();
  std::fflush(stderr);
  std::FILE *file = std::tmpfile();
  int saved = file ? ::dup(2) : -1;
  if (saved < 0) {
    if (file)
      std::fclose(file);
    fn();
    return "";
  }
  ::dup2(::fileno(file), 2);
  fn();
  llvm::errs().flush();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::string text;
  std::rewind(file);
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), file)) > 0;)
    text.append(buffer, n);
  std::fclose(file);
  std::string lines;
  for (llvm::StringRef line : llvm::split(llvm::StringRef(text), '\n')) {
    if (line.empty())
      continue;
    if (line.starts_with(": "))
      line = line.drop_front(2);
    lines += line.str() + "\n";
  }
  return lines;
}

/// One parse and pipeline run in its own context, its diagnostics (with
/// locations and source lines) collected; failures raise PipelineError.
class PipelineRun {
public:
  PipelineRun(const std::string &text, const std::string &filename,
              bool allowUnregistered)
      : context(std::make_unique<mlir::MLIRContext>(
            getRegistry(), mlir::MLIRContext::Threading::DISABLED)),
        diagOS(diagnostics) {
    registerAllPassesOnce();
    context->allowUnregisteredDialects(allowUnregistered);
    // As ckpt-opt reports them: the message and its location, not the op.
    context->printOpOnDiagnostic(false);
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, filename), llvm::SMLoc());
    handler.emplace(sourceMgr, context.get(), diagOS);
  }

  [[noreturn]] void fail(const std::string &what) {
    diagOS.flush();
    std::string message = what;
    if (!diagnostics.empty())
      message += ":\n" + diagnostics;
    raisePipelineError(message, leastFeasibleBytes(diagnostics));
  }

  /// Parses the text and runs `pipeline` (with or without its
  /// builtin.module(...) anchor; empty: none) on it.
  mlir::OwningOpRef<mlir::ModuleOp> run(const std::string &pipeline) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(
            sourceMgr, mlir::ParserConfig(context.get()));
    if (!module)
      fail("could not parse the input");
    mlir::PassManager pm(context.get(), mlir::ModuleOp::getOperationName());
    std::string pipelineErrors;
    llvm::raw_string_ostream pipelineOS(pipelineErrors);
    llvm::StringRef spec = llvm::StringRef(pipeline).trim();
    if (spec.starts_with("builtin.module(") && spec.ends_with(")"))
      spec = spec.drop_front(strlen("builtin.module(")).drop_back();
    mlir::LogicalResult parsed = mlir::failure();
    std::string optionErrors = captureStderr(
        [&] { parsed = mlir::parsePassPipeline(spec, pm, pipelineOS); });
    if (mlir::failed(parsed)) {
      pipelineOS.flush();
      raisePipelineError("invalid pass pipeline '" + pipeline +
                             "': " + optionErrors + pipelineErrors,
                         std::nullopt);
    }
    // Nothing written there is lost: what a pipeline that parsed wrote goes
    // where it would have gone.
    llvm::errs() << optionErrors;
    if (mlir::failed(pm.run(*module)))
      fail("the pipeline '" + pipeline + "' failed");
    return module;
  }

  std::string takeDiagnostics() {
    diagOS.flush();
    return diagnostics;
  }

  std::unique_ptr<mlir::MLIRContext> context;

private:
  std::string diagnostics;
  llvm::raw_string_ostream diagOS;
  llvm::SourceMgr sourceMgr;
  std::optional<mlir::SourceMgrDiagnosticHandler> handler;
};

/// Parses `text`, runs `pipeline` over it and prints the result. Returns
/// (text, diagnostics of a successful run); throws PipelineError (set up in
/// the module init) with every diagnostic on failure.
std::pair<std::string, std::string>
runPasses(const std::string &text, const std::string &pipeline,
          bool allowUnregistered, const std::string &filename, bool generic) {
  PipelineRun run(text, filename, allowUnregistered);
  mlir::OwningOpRef<mlir::ModuleOp> module = run.run(pipeline);
  std::string out;
  llvm::raw_string_ostream os(out);
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  os.flush();
  return {out, run.takeDiagnostics()};
}

/// A training step compiled in process (ckpt.compile_step): the module
/// after its pipeline (ending in ckpt-lower-to-cpu, or ckpt-lower-to-nvptx
/// when `cudaRuntime` names the CUDA runtime to run it with), JIT'd once,
/// called on memref descriptors.
class CompiledStep {
public:
  CompiledStep(const std::string &text, const std::string &pipeline,
               const std::string &entry, unsigned optLevel,
               const std::string &cpu, const std::string &filename,
               std::optional<unsigned> codegenLevel, bool fastMath,
               const std::string &cudaRuntime) {
    // Without the driver library this fails at once, before the lowering.
    if (!cudaRuntime.empty()) {
      auto loaded = ckpt::loadCudaRuntime(cudaRuntime);
      if (!loaded)
        throw std::runtime_error(llvm::toString(loaded.takeError()));
      runtime = *loaded;
    }
    PipelineRun run(text, filename, /*allowUnregistered=*/false);
    mlir::OwningOpRef<mlir::ModuleOp> module = run.run(pipeline);
    auto fn = module->lookupSymbol<mlir::LLVM::LLVMFuncOp>(entry);
    if (!fn || fn.isExternal())
      run.fail("no function '" + entry +
               "' in the module lowered to the LLVM dialect");
    auto typeAttr = fn->getAttrOfType<mlir::TypeAttr>("ckpt.signature");
    auto signature =
        typeAttr ? mlir::dyn_cast<mlir::FunctionType>(typeAttr.getValue())
                 : mlir::FunctionType();
    if (!signature)
      run.fail("'" + entry +
               "' has no ckpt.signature (ckpt-prepare-entry, "
               "which ckpt-lower-to-cpu runs, records it)");
    auto ranges =
        fn->getAttrOfType<mlir::ArrayAttr>(ckpt::kInputRangesAttrName);
    for (auto [i, type] : llvm::enumerate(signature.getInputs())) {
      mlir::Attribute range = ranges && i < ranges.size() ? ranges[i] : nullptr;
      inputs.append(describe(run, type, range));
    }
    for (mlir::Type type : signature.getResults())
      results.append(describe(run, type, nullptr));
    numInputs = signature.getNumInputs();
    hasResults = signature.getNumResults() != 0;

    ckpt::JitOptions options;
    options.optLevel = optLevel;
    options.codegenLevel = codegenLevel;
    options.reassociate = fastMath;
    options.cpu = cpu.empty() ? ckpt::defaultJitCpu() : cpu;
    options.hooks = runtime.hooks();
    // A CUDA step calls the runtime's mgpu* functions.
    if (runtime.onDevice())
      options.sharedLibs.push_back(runtime.cudaLibrary);
    auto maybeEngine = ckpt::jitModule(*module, options);
    if (!maybeEngine)
      run.fail(llvm::toString(maybeEngine.takeError()));
    engine = std::move(*maybeEngine);
    // Compiles the module and resolves every symbol it calls.
    auto maybeCall = engine->lookupPacked("_mlir_ciface_" + entry);
    if (!maybeCall)
      run.fail("cannot find the C interface of '" + entry +
               "': " + llvm::toString(maybeCall.takeError()));
    call = *maybeCall;
    // The constructors of a CUDA step load its kernels: the device must be
    // there by then.
    if (runtime.onDevice()) {
      if (llvm::Error blas = ckpt::loadCudaLibrariesIfCalled(runtime, *module))
        throw std::runtime_error(llvm::toString(std::move(blas)));
      auto device = ckpt::probeCudaDevice(runtime);
      if (!device)
        throw std::runtime_error(llvm::toString(device.takeError()));
      deviceName = *device;
    }
    uint64_t errors = cudaErrors();
    engine->initialize();
    if (cudaErrors() != errors)
      throw std::runtime_error("loading the step's kernels failed (the CUDA "
                               "errors are on stderr)");
    // The engine owns the compiled code; the module and context may go.
    module = nullptr;
    context = std::move(run.context);
  }

  /// Runs the step: `results` is the address of one memref descriptor per
  /// result (filled by the step), `args` the address of each argument's.
  void invoke(uintptr_t resultsAddress, const std::vector<uintptr_t> &args) {
    if (args.size() != numInputs)
      throw py::value_error("the step takes " + std::to_string(numInputs) +
                            " arguments, got " + std::to_string(args.size()));
    std::vector<void *> descriptors(args.size());
    for (size_t i = 0; i < args.size(); ++i)
      descriptors[i] = reinterpret_cast<void *>(args[i]);
    void *resultPtr = reinterpret_cast<void *>(resultsAddress);
    std::vector<void *> packed;
    if (hasResults)
      packed.push_back(&resultPtr);
    for (void *&descriptor : descriptors)
      packed.push_back(&descriptor);
    uint64_t errors = cudaErrors();
    bool synchronized = true;
    {
      py::gil_scoped_release release;
      call(packed.data());
      if (runtime.onDevice())
        synchronized = runtime.synchronize() != 0;
    }
    if (!synchronized || cudaErrors() != errors)
      throw std::runtime_error("the device failed while running the step "
                               "(the CUDA errors are on stderr)");
  }

  /// Zeroes the counters of the step's runtime.
  void reset() { runtime.reset(); }

  /// The counters of the step's runtime since the last reset: those of the
  /// memory the step allocates (device memory for a CUDA step) and of the
  /// host copies of offloaded values.
  py::dict stats() const {
    CkptRuntimeStats stats = {};
    runtime.getStats(&stats);
    bool device = runtime.onDevice();
    py::dict d;
    d["live_bytes"] = device ? stats.deviceLiveBytes : stats.liveBytes;
    d["peak_bytes"] = device ? stats.devicePeakBytes : stats.peakBytes;
    d["total_bytes"] = device ? stats.deviceTotalBytes : stats.totalBytes;
    d["allocs"] = device ? stats.deviceAllocCount : stats.allocCount;
    d["frees"] = device ? stats.deviceFreeCount : stats.freeCount;
    d["host_copy_peak_bytes"] = stats.hostCopyPeakBytes;
    d["kernel_launches"] = stats.kernelLaunches;
    return d;
  }

  /// (size, on_device) of the live allocation of the step's runtime that
  /// starts at `ptr`, or None.
  py::object allocation(uintptr_t ptr) const {
    size_t size = 0;
    auto *p = reinterpret_cast<const void *>(ptr);
    if (runtime.onDevice() && runtime.findDevice(p, &size))
      return py::make_tuple(size, true);
    if (runtime.findHost(p, &size))
      return py::make_tuple(size, false);
    return py::none();
  }

  /// Frees an allocation of the step's runtime (`allocation` says which).
  void free(uintptr_t ptr, bool onDevice) const {
    auto *p = reinterpret_cast<void *>(ptr);
    if (onDevice && runtime.onDevice())
      runtime.freeDevice(p, nullptr);
    else
      runtime.freeHost(p);
  }

  /// Managed memory for the arguments of a CUDA step (not counted).
  uintptr_t allocStaging(uint64_t bytes) const {
    if (!runtime.onDevice())
      throw py::value_error("staging buffers are for CUDA steps");
    void *ptr = runtime.allocStaging(bytes);
    if (!ptr && bytes)
      throw std::runtime_error("cannot allocate " + std::to_string(bytes) +
                               " bytes of managed memory (the CUDA error is "
                               "on stderr)");
    return reinterpret_cast<uintptr_t>(ptr);
  }

  void freeStaging(uintptr_t ptr) const {
    if (runtime.onDevice())
      runtime.freeStaging(reinterpret_cast<void *>(ptr));
  }

  py::list inputs, results;
  /// "cpu", or the CUDA device's name.
  std::string deviceName = "cpu";

private:
  /// {"dtype", "shape", "range"} of one argument or result.
  static py::dict describe(PipelineRun &run, mlir::Type type,
                           mlir::Attribute range) {
    auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
    mlir::Type element = tensor ? tensor.getElementType() : mlir::Type();
    const char *dtype = !element                        ? nullptr
                        : element.isF32()               ? "float32"
                        : element.isF64()               ? "float64"
                        : element.isSignlessInteger(32) ? "int32"
                        : element.isSignlessInteger(64) ? "int64"
                                                        : nullptr;
    if (!dtype || !tensor.hasStaticShape() || tensor.getEncoding()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << type;
      run.fail("the step takes or returns " + text +
               ": a compiled step takes static tensors of f32, f64, i32 and "
               "i64");
    }
    py::dict d;
    d["dtype"] = dtype;
    d["shape"] = py::tuple(py::cast(std::vector<int64_t>(
        tensor.getShape().begin(), tensor.getShape().end())));
    auto bounds = mlir::dyn_cast_or_null<mlir::DenseI64ArrayAttr>(range);
    d["range"] = bounds && bounds.size() == 2
                     ? py::object(py::make_tuple(bounds[0], bounds[1]))
                     : py::none();
    return d;
  }

  /// Driver calls of the CUDA runtime that failed so far (0 on the CPU).
  uint64_t cudaErrors() const {
    return runtime.onDevice() ? runtime.errorCount() : 0;
  }

  ckpt::StepRuntime runtime;
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*call)(void **) = nullptr;
  size_t numInputs = 0;
  bool hasResults = false;
};

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

  py::class_<CompiledStep>(m, "CompiledStep",
                           "A training step JIT'd in process "
                           "(ckpt.compile_step wraps it).")
      .def(py::init<const std::string &, const std::string &,
                    const std::string &, unsigned, const std::string &,
                    const std::string &, std::optional<unsigned>, bool,
                    const std::string &>(),
           py::arg("text"), py::arg("pipeline"), py::arg("entry"),
           py::arg("opt_level") = 2, py::arg("cpu") = "",
           py::arg("filename") = "<step>",
           py::arg("codegen_level") = py::none(), py::arg("fast_math") = false,
           py::arg("cuda_runtime") = "",
           "Parse `text`, run `pipeline` (ending in a lowering to the LLVM "
           "dialect, e.g. ckpt-lower-to-cpu) and JIT `entry` at LLVM "
           "`opt_level` (IR passes; the code generator's too unless "
           "`codegen_level` is given) for `cpu` (empty: CKPT_ISA or the "
           "host); `fast_math`: let LLVM reassociate and contract float "
           "additions and multiplications (JitOptions::reassociate). "
           "`cuda_runtime`: the libckpt_cuda_runtime.so a step lowered by "
           "ckpt-lower-to-nvptx runs with, on CUDA device 0 (empty: a CPU "
           "step). Raises PipelineError as run_passes does, RuntimeError "
           "when there is no CUDA device or its kernels do not load.")
      .def_readonly("inputs", &CompiledStep::inputs,
                    "Per argument: {'dtype', 'shape', 'range'}")
      .def_readonly("results", &CompiledStep::results,
                    "Per result: {'dtype', 'shape', 'range'}")
      .def_readonly("device", &CompiledStep::deviceName,
                    "'cpu', or the name of the CUDA device")
      .def("invoke", &CompiledStep::invoke, py::arg("results"), py::arg("args"),
           "Call the step on memref descriptors (addresses); the GIL is "
           "released while it runs (and, for a CUDA step, until the device "
           "is done). RuntimeError when a CUDA call failed.")
      .def("reset", &CompiledStep::reset,
           "Zero the counters of the step's runtime.")
      .def("stats", &CompiledStep::stats,
           "The counters of the step's memory (device memory for a CUDA "
           "step) since the last reset: live_bytes, peak_bytes, "
           "total_bytes, allocs, frees, host_copy_peak_bytes, "
           "kernel_launches.")
      .def("allocation", &CompiledStep::allocation, py::arg("ptr"),
           "(size, on_device) of the step runtime's live allocation at "
           "`ptr`, or None.")
      .def("free", &CompiledStep::free, py::arg("ptr"), py::arg("on_device"),
           "Free an allocation of the step's runtime.")
      .def("alloc_staging", &CompiledStep::allocStaging, py::arg("bytes"),
           "Managed memory for a CUDA step's arguments (not counted).")
      .def("free_staging", &CompiledStep::freeStaging, py::arg("ptr"),
           "Free what alloc_staging returned.");
  m.def(
      "load_cuda_runtime",
      [](const std::string &path) {
        auto loaded = ckpt::loadCudaRuntime(path);
        if (!loaded)
          throw std::runtime_error(llvm::toString(loaded.takeError()));
      },
      py::arg("path"),
      "Load the CUDA runtime at `path` (as a CUDA CompiledStep does; it "
      "stays loaded). RuntimeError when it cannot be loaded: no driver "
      "library (libcuda.so.1), no such file, or a library from another "
      "build. A device is not needed.");
  m.def(
      "load_cuda_libraries",
      [](const std::string &path) {
        auto loaded = ckpt::loadCudaRuntime(path);
        if (!loaded)
          throw std::runtime_error(llvm::toString(loaded.takeError()));
        std::vector<std::string> libraries;
        for (auto *load : {loaded->loadBlas, loaded->loadDnn}) {
          char message[1024] = {0};
          if (!load || load(message, sizeof(message)) <= 0)
            throw std::runtime_error(message);
          libraries.push_back(message);
        }
        return libraries;
      },
      py::arg("path"),
      "Load the CUDA runtime at `path`, then cuBLAS and cuDNN through it "
      "(CKPT_CUBLAS / CKPT_CUDNN, else libcublas.so.13/.12 and "
      "libcudnn.so.9 on the library path; once per process), as a CUDA "
      "step lowered with kernels=blas does: the two libraries loaded. "
      "RuntimeError when one cannot be loaded. A device is not needed.");
#ifdef CKPT_CUDA_RUNTIME_PATH
  m.attr("CUDA_RUNTIME") = CKPT_CUDA_RUNTIME_PATH;
#else
  m.attr("CUDA_RUNTIME") = py::none();
#endif
  m.def("runtime_reset", &ckptRuntimeReset,
        "Zero the allocation counters of the steps' runtime.");
  m.def(
      "runtime_stats",
      [] {
        CkptRuntimeStats stats = {};
        ckptRuntimeGetStats(&stats);
        py::dict d;
        d["live_bytes"] = stats.liveBytes;
        d["peak_bytes"] = stats.peakBytes;
        d["total_bytes"] = stats.totalBytes;
        d["allocs"] = stats.allocCount;
        d["frees"] = stats.freeCount;
        d["unknown_frees"] = stats.unknownFrees;
        return d;
      },
      "The counters since the last runtime_reset.");
  m.def(
      "runtime_allocation",
      [](uintptr_t ptr) -> py::object {
        size_t size = 0;
        if (!ckptRuntimeFindAllocation(reinterpret_cast<void *>(ptr), &size))
          return py::none();
        return py::int_(size);
      },
      py::arg("ptr"),
      "The size of the runtime's live allocation starting at `ptr`, or "
      "None when the runtime did not allocate it.");
  m.def(
      "runtime_free",
      [](uintptr_t ptr) {
        _mlir_memref_to_llvm_free(reinterpret_cast<void *>(ptr));
      },
      py::arg("ptr"), "Free an allocation of the runtime.");
}
