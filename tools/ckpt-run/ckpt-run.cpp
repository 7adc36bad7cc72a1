//===- ckpt-run.cpp - run a lowered training step and measure its memory --===//
//
// JITs a module lowered to the LLVM dialect on the CPU (MLIR ExecutionEngine),
// calls one entry point with deterministic inputs, and prints one JSON object:
// the SHA-256 of the results and what the step allocated (peak, live at exit,
// count, total) through the ckpt runtime's counting allocation hooks.
//
//   ckpt-run FILE.mlir --entry=NAME [--seed=N] [--repeat=K] [--gpu]
//                      [--print-outputs] [--opt-level=0..3]
//                      [--shared-libs=a.so,b.so]
//
// The entry must have been prepared by `ckpt-prepare-entry` before lowering:
// it carries `ckpt.signature = <tensor function type>` and has a C interface
// `_mlir_ciface_NAME(results*, arg0*, arg1*, ...)` taking ranked memref
// descriptors (results come back through the first pointer, a struct of one
// descriptor per result).
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"
#include "ckpt/Runtime/Runtime.h"
#include "ckpt/Runtime/Sha256.h"
#include "ckpt/Solver/Json.h"
#include "ckpt/Solver/SplitMix64.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using ckpt::SplitMix64;

namespace cl = llvm::cl;

static cl::OptionCategory runCategory("ckpt-run options");

static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<module lowered to LLVM>"),
                                          cl::cat(runCategory));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: the only function that "
                       "carries ckpt.signature)"),
              cl::value_desc("name"), cl::cat(runCategory));
static cl::opt<uint64_t>
    seed("seed", cl::desc("Seed of the deterministic inputs (default 0)"),
         cl::init(0), cl::cat(runCategory));
static cl::opt<unsigned>
    repeat("repeat",
           cl::desc("Run the entry this many times (fresh inputs and "
                    "counters each time; the results must not change)"),
           cl::init(1), cl::cat(runCategory));
static cl::opt<bool> useGpu("gpu", cl::desc("Run on a CUDA device"),
                            cl::cat(runCategory));
static cl::opt<bool>
    printOutputs("print-outputs",
                 cl::desc("Add every result's values to the JSON object"),
                 cl::cat(runCategory));
static cl::opt<unsigned>
    optLevel("opt-level",
             cl::desc("LLVM optimization level of the JIT, 0-3 (default 2)"),
             cl::init(2), cl::cat(runCategory));
static cl::list<std::string>
    sharedLibs("shared-libs",
               cl::desc("Shared libraries the JIT'd code may call into"),
               cl::CommaSeparated, cl::cat(runCategory));

/// The discardable attribute `ckpt-prepare-entry` records the tensor
/// signature in; it survives the lowering onto the llvm.func.
static constexpr llvm::StringLiteral kSignatureAttrName = "ckpt.signature";
static constexpr llvm::StringLiteral kCifacePrefix = "_mlir_ciface_";

static int fail(const llvm::Twine &message) {
  llvm::errs() << "ckpt-run: error: " << message << "\n";
  return 1;
}

//===----------------------------------------------------------------------===//
// --gpu
//===----------------------------------------------------------------------===//

/// Probes the CUDA driver through dlopen (ckpt-run must start on machines
/// without one) and reports what it finds; GPU execution itself is not
/// implemented yet, so this always returns 1.
static int probeGpu() {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    const char *why = dlerror();
    return fail(llvm::Twine("no CUDA device available (cannot load the CUDA "
                            "driver libcuda.so.1: ") +
                (why ? why : "unknown reason") + ")");
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  using NameFn = int (*)(int, const char **);
  auto init = reinterpret_cast<InitFn>(dlsym(driver, "cuInit"));
  auto count = reinterpret_cast<CountFn>(dlsym(driver, "cuDeviceGetCount"));
  auto name = reinterpret_cast<NameFn>(dlsym(driver, "cuGetErrorName"));
  if (!init || !count)
    return fail("no CUDA device available (libcuda.so.1 lacks cuInit or "
                "cuDeviceGetCount)");
  int result = init(0);
  if (result != 0) {
    const char *errorName = nullptr;
    if (name && name(result, &errorName) != 0)
      errorName = nullptr;
    if (!errorName && result == 34) // CUDA_ERROR_STUB_LIBRARY
      errorName = "CUDA_ERROR_STUB_LIBRARY: only the driver stub is "
                  "installed, no NVIDIA driver";
    return fail(llvm::Twine("no CUDA device available (cuInit failed: ") +
                (errorName ? errorName : std::to_string(result).c_str()) + ")");
  }
  int devices = 0;
  if (count(&devices) != 0 || devices <= 0)
    return fail("no CUDA device available");
  return fail(llvm::Twine("found ") + llvm::Twine(devices) +
              " CUDA device(s), but GPU execution is not implemented in "
              "ckpt-run yet; run without --gpu to execute on the CPU");
}

//===----------------------------------------------------------------------===//
// Tensors and memref descriptors
//===----------------------------------------------------------------------===//

namespace {
enum class ElementKind { F32, F64, I32, I64 };

/// One argument or result of the entry, from its tensor type.
struct TensorSpec {
  RankedTensorType type;
  ElementKind kind;
  unsigned elementBytes;
  int64_t numElements;
  SmallVector<int64_t> shape;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// Words (8 bytes) of a ranked memref descriptor: allocated, aligned,
  /// offset, sizes[rank], strides[rank].
  size_t descriptorWords() const { return 3 + 2 * shape.size(); }
  uint64_t byteSize() const { return numElements * elementBytes; }
};

/// Frees memory from posix_memalign.
struct FreeDeleter {
  void operator()(void *ptr) const { std::free(ptr); }
};
using AlignedBuffer = std::unique_ptr<uint8_t, FreeDeleter>;

} // namespace

/// The spec of `type`, or nullopt when ckpt-run cannot build it.
static std::optional<TensorSpec> getTensorSpec(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getEncoding())
    return std::nullopt;
  Type element = tensor.getElementType();
  TensorSpec spec;
  if (element.isF32())
    spec.kind = ElementKind::F32, spec.elementBytes = 4;
  else if (element.isF64())
    spec.kind = ElementKind::F64, spec.elementBytes = 8;
  else if (element.isSignlessInteger(32))
    spec.kind = ElementKind::I32, spec.elementBytes = 4;
  else if (element.isSignlessInteger(64))
    spec.kind = ElementKind::I64, spec.elementBytes = 8;
  else
    return std::nullopt;
  spec.type = tensor;
  spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  spec.numElements = tensor.getNumElements();
  return spec;
}

/// Fills `data` with the next values of `rng`: floats uniform in [-0.5, 0.5)
/// (24 or 53 random bits, exact in the type), integers in [-8, 8].
static void fillInput(const TensorSpec &spec, uint8_t *data, SplitMix64 &rng) {
  for (int64_t i = 0; i < spec.numElements; ++i) {
    uint64_t bits = rng.next();
    switch (spec.kind) {
    case ElementKind::F32: {
      float v = static_cast<float>(bits >> 40) * 0x1p-24f - 0.5f;
      std::memcpy(data + 4 * i, &v, 4);
      break;
    }
    case ElementKind::F64: {
      double v = static_cast<double>(bits >> 11) * 0x1p-53 - 0.5;
      std::memcpy(data + 8 * i, &v, 8);
      break;
    }
    case ElementKind::I32: {
      int32_t v = static_cast<int32_t>(bits % 17) - 8;
      std::memcpy(data + 4 * i, &v, 4);
      break;
    }
    case ElementKind::I64: {
      int64_t v = static_cast<int64_t>(bits % 17) - 8;
      std::memcpy(data + 8 * i, &v, 8);
      break;
    }
    }
  }
}

/// Writes an identity-layout descriptor of `spec` over `data` into `desc`.
static void makeDescriptor(const TensorSpec &spec, void *data, int64_t *desc) {
  desc[0] = reinterpret_cast<intptr_t>(data);
  desc[1] = reinterpret_cast<intptr_t>(data);
  desc[2] = 0;
  int64_t stride = 1;
  for (int64_t d = spec.rank() - 1; d >= 0; --d) {
    desc[3 + d] = spec.shape[d];
    desc[3 + spec.rank() + d] = stride;
    stride *= spec.shape[d];
  }
}

/// Calls `fn(elementPtr)` for every element of the memref `desc` of `spec`
/// in row-major order of its logical indices, whatever its strides.
template <typename Fn>
static void forEachElement(const TensorSpec &spec, const int64_t *desc, Fn fn) {
  const auto *aligned = reinterpret_cast<const uint8_t *>(desc[1]);
  int64_t offset = desc[2];
  const int64_t *sizes = desc + 3;
  const int64_t *strides = desc + 3 + spec.rank();
  if (spec.numElements == 0)
    return;
  SmallVector<int64_t> index(spec.rank(), 0);
  for (int64_t n = 0; n < spec.numElements; ++n) {
    int64_t linear = offset;
    for (int64_t d = 0; d < spec.rank(); ++d)
      linear += index[d] * strides[d];
    fn(aligned + linear * spec.elementBytes);
    for (int64_t d = spec.rank() - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

/// Whether `desc` is the dense row-major layout of `spec`.
static bool isContiguous(const TensorSpec &spec, const int64_t *desc) {
  int64_t expected = 1;
  for (int64_t d = spec.rank() - 1; d >= 0; --d) {
    if (desc[3 + d] != spec.shape[d])
      return false;
    if (spec.shape[d] != 1 && desc[3 + spec.rank() + d] != expected)
      return false;
    expected *= spec.shape[d];
  }
  return true;
}

static void hashResult(const TensorSpec &spec, const int64_t *desc,
                       ckpt::runtime::Sha256 &sha) {
  if (isContiguous(spec, desc)) {
    const auto *aligned = reinterpret_cast<const uint8_t *>(desc[1]);
    sha.update(aligned + desc[2] * spec.elementBytes, spec.byteSize());
    return;
  }
  forEachElement(spec, desc, [&](const uint8_t *element) {
    sha.update(element, spec.elementBytes);
  });
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// A JSON string literal (the solver layer's writer, shared by every tool).
static std::string jsonString(StringRef s) {
  return ckpt::json::quote(std::string_view(s.data(), s.size()));
}

/// A JSON number for a float; NaN and infinities become strings.
static std::string jsonFloat(double v, int digits) {
  if (std::isnan(v))
    return "\"nan\"";
  if (std::isinf(v))
    return v > 0 ? "\"inf\"" : "\"-inf\"";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*g", digits, v);
  return buffer;
}

static std::string formatValues(const TensorSpec &spec, const int64_t *desc) {
  std::string out = "[";
  bool first = true;
  forEachElement(spec, desc, [&](const uint8_t *element) {
    if (!first)
      out += ", ";
    first = false;
    switch (spec.kind) {
    case ElementKind::F32: {
      float v;
      std::memcpy(&v, element, 4);
      out += jsonFloat(v, 9);
      break;
    }
    case ElementKind::F64: {
      double v;
      std::memcpy(&v, element, 8);
      out += jsonFloat(v, 17);
      break;
    }
    case ElementKind::I32: {
      int32_t v;
      std::memcpy(&v, element, 4);
      out += std::to_string(v);
      break;
    }
    case ElementKind::I64: {
      int64_t v;
      std::memcpy(&v, element, 8);
      out += std::to_string(v);
      break;
    }
    }
  });
  return out + "]";
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

/// Functions with a body a user may mean: llvm.func (but not the generated
/// C-interface wrappers) and func.func.
static SmallVector<std::string> listFunctions(ModuleOp module) {
  SmallVector<std::string> names;
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op)) {
      if (!fn.isExternal() && !fn.getSymName().starts_with(kCifacePrefix))
        names.push_back(fn.getSymName().str());
    } else if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
      if (!fn.isExternal())
        names.push_back(fn.getName().str());
    }
  }
  return names;
}

static std::string describe(Operation *op) {
  std::string text = op->getName().getStringRef().str();
  if (auto name =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    text += " '" + name.getValue().str() + "'";
  return text;
}

/// The first op that is not in the LLVM dialect (the entry first, when it is
/// one), or null.
static Operation *findUnloweredOp(ModuleOp module, StringRef entry) {
  if (!entry.empty())
    if (Operation *op = SymbolTable::lookupSymbolIn(module, entry))
      if (!isa<LLVM::LLVMFuncOp>(op))
        return op;
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<LLVM::LLVMDialect>(dialect)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Releases the ckpt runtime's allocations when it goes out of scope.
struct RuntimeCleanup {
  ~RuntimeCleanup() { ckptRuntimeFreeAll(); }
};

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ckpt-run: JIT a step lowered to the LLVM dialect on the CPU, run it on "
      "deterministic inputs, and print one JSON object (result hash, peak and "
      "leaked bytes, allocation counts, time)\n");

  if (useGpu)
    return probeGpu();
  if (repeat < 1)
    return fail("--repeat must be at least 1");
  if (optLevel > 3)
    return fail("--opt-level must be 0, 1, 2 or 3");

  // Parse.
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file)
    return fail("cannot open '" + inputFilename + "': " + errorMessage);

  DialectRegistry registry;
  registerAllDialects(registry);
  ckpt::registerTrainingStepDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFilename + "'");

  // Check it is lowered and find the entry.
  if (Operation *op = findUnloweredOp(*module, entryName))
    return fail("the module is not lowered to the LLVM dialect: run "
                "ckpt-lower-to-cpu first (found " +
                describe(op) + ")");
  SmallVector<std::string> functions = listFunctions(*module);
  std::string available =
      functions.empty() ? std::string("no functions")
                        : "the module has: " + llvm::join(functions, ", ");
  std::string entry = entryName;
  if (entry.empty()) {
    SmallVector<std::string> candidates;
    for (auto fn : module->getOps<LLVM::LLVMFuncOp>())
      if (!fn.isExternal() && fn->hasAttr(kSignatureAttrName) &&
          !fn.getSymName().starts_with(kCifacePrefix))
        candidates.push_back(fn.getSymName().str());
    if (candidates.size() != 1)
      return fail("--entry=NAME is required (" + available + ")");
    entry = candidates.front();
  }
  auto fn = module->lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!fn)
    return fail("no function named '" + entry + "'; " + available);
  if (fn.isExternal())
    return fail("'" + entry +
                "' is only declared in the module, not defined; " + available);

  auto signatureAttr = fn->getAttr(kSignatureAttrName);
  if (!signatureAttr)
    return fail("function '" + entry + "' has no '" + kSignatureAttrName +
                "' attribute: run ckpt-prepare-entry before bufferization "
                "(ckpt-lower-to-cpu does)");
  auto typeAttr = dyn_cast<TypeAttr>(signatureAttr);
  auto signature =
      typeAttr ? dyn_cast<FunctionType>(typeAttr.getValue()) : FunctionType();
  if (!signature) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << signatureAttr;
    return fail("'" + kSignatureAttrName + "' of '" + entry +
                "' must be a function type, got " + text);
  }

  SmallVector<TensorSpec> inputs, results;
  auto collect = [&](TypeRange types, StringRef kind,
                     SmallVectorImpl<TensorSpec> &specs) -> bool {
    for (auto [i, type] : llvm::enumerate(types)) {
      std::optional<TensorSpec> spec = getTensorSpec(type);
      if (!spec) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << type;
        fail("unsupported " + kind + " type " + text + " (" + kind + " #" +
             llvm::Twine(i) + " of '" + entry +
             "'): ckpt-run supports static tensors of f32, f64, i32 and i64");
        return false;
      }
      specs.push_back(*spec);
    }
    return true;
  };
  if (!collect(signature.getInputs(), "argument", inputs) ||
      !collect(signature.getResults(), "result", results))
    return 1;

  std::string cifaceName = (kCifacePrefix + entry).str();
  auto ciface = module->lookupSymbol<LLVM::LLVMFuncOp>(cifaceName);
  if (!ciface || ciface.isExternal())
    return fail("no '" + cifaceName + "' in the module: '" + entry +
                "' was lowered without llvm.emit_c_interface (run "
                "ckpt-prepare-entry before lowering)");
  size_t expectedParams = inputs.size() + (results.empty() ? 0 : 1);
  if (ciface.getNumArguments() != expectedParams)
    return fail("'" + cifaceName + "' takes " +
                llvm::Twine(ciface.getNumArguments()) +
                " parameters, but the signature in '" + kSignatureAttrName +
                "' implies " + llvm::Twine(expectedParams));

  // JIT.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto transformer = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  ExecutionEngineOptions options;
  options.transformer = transformer;
  static const llvm::CodeGenOptLevel codegenLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  options.jitCodeGenOptLevel = codegenLevels[optLevel];
  SmallVector<StringRef> libPaths(sharedLibs.begin(), sharedLibs.end());
  options.sharedLibPaths = libPaths;
  auto maybeEngine = ExecutionEngine::create(*module, options);
  if (!maybeEngine)
    return fail("cannot JIT '" + inputFilename +
                "': " + llvm::toString(maybeEngine.takeError()));
  std::unique_ptr<ExecutionEngine> engine = std::move(*maybeEngine);
  // Bind the allocation hooks to our counting runtime (and memrefCopy, which
  // strided memref.copy lowers to, to Debian's libmlir_c_runner_utils).
  engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](StringRef name, llvm::orc::ExecutorAddr address) {
      symbols[interner(name)] = {address, llvm::JITSymbolFlags::Exported};
    };
    add("_mlir_memref_to_llvm_alloc",
        llvm::orc::ExecutorAddr::fromPtr(&_mlir_memref_to_llvm_alloc));
    add("_mlir_memref_to_llvm_aligned_alloc",
        llvm::orc::ExecutorAddr::fromPtr(&_mlir_memref_to_llvm_aligned_alloc));
    add("_mlir_memref_to_llvm_free",
        llvm::orc::ExecutorAddr::fromPtr(&_mlir_memref_to_llvm_free));
    add("memrefCopy", llvm::orc::ExecutorAddr::fromPtr(&memrefCopy));
    return symbols;
  });
  engine->initialize();
  auto maybeCall = engine->lookupPacked(cifaceName);
  if (!maybeCall)
    return fail("cannot find '" + cifaceName + "' in the JIT'd code: " +
                llvm::toString(maybeCall.takeError()));
  void (*call)(void **) = *maybeCall;

  // Inputs: one splitmix64 stream over all arguments in order.
  SmallVector<AlignedBuffer> inputData;
  SmallVector<std::vector<int64_t>> inputDescs;
  SmallVector<void *> inputDescPtrs;
  for (const TensorSpec &spec : inputs) {
    void *data = nullptr;
    size_t bytes = std::max<size_t>(64, (spec.byteSize() + 63) / 64 * 64);
    if (posix_memalign(&data, 64, bytes) != 0)
      return fail("out of memory for the inputs");
    inputData.emplace_back(static_cast<uint8_t *>(data));
    inputDescs.emplace_back(spec.descriptorWords());
    makeDescriptor(spec, data, inputDescs.back().data());
    inputDescPtrs.push_back(inputDescs.back().data());
  }
  size_t resultWords = 0;
  for (const TensorSpec &spec : results)
    resultWords += spec.descriptorWords();
  std::vector<int64_t> resultStorage(std::max<size_t>(resultWords, 1), 0);
  void *resultPtr = resultStorage.data();
  SmallVector<void *> packedArgs;
  if (!results.empty())
    packedArgs.push_back(&resultPtr);
  for (void *&descPtr : inputDescPtrs)
    packedArgs.push_back(&descPtr);

  RuntimeCleanup cleanup;
  std::string hash, outputsJson;
  CkptRuntimeStats stats = {};
  uint64_t resultBytes = 0;
  std::vector<double> times;
  for (unsigned run = 0; run < repeat; ++run) {
    SplitMix64 rng{seed};
    for (auto [spec, data] : llvm::zip(inputs, inputData))
      fillInput(spec, data.get(), rng);
    std::fill(resultStorage.begin(), resultStorage.end(), 0);

    ckptRuntimeReset();
    auto start = std::chrono::steady_clock::now();
    call(packedArgs.data());
    auto stop = std::chrono::steady_clock::now();
    ckptRuntimeGetStats(&stats);
    times.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());

    // Hash the results in order; find the buffers they own.
    ckpt::runtime::Sha256 sha;
    llvm::SmallDenseSet<void *> owned;
    SmallVector<void *> ownedInOrder;
    resultBytes = 0;
    size_t offset = 0;
    if (printOutputs && run == 0)
      outputsJson = "[";
    for (auto [i, spec] : llvm::enumerate(results)) {
      const int64_t *desc = resultStorage.data() + offset;
      offset += spec.descriptorWords();
      hashResult(spec, desc, sha);
      if (printOutputs && run == 0) {
        std::string type;
        llvm::raw_string_ostream os(type);
        os << spec.type;
        outputsJson += (i ? ", " : "") + std::string("{\"type\": ") +
                       jsonString(type) +
                       ", \"values\": " + formatValues(spec, desc) + "}";
      }
      auto *allocated = reinterpret_cast<void *>(desc[0]);
      size_t size = 0;
      if (ckptRuntimeFindAllocation(allocated, &size) &&
          owned.insert(allocated).second) {
        resultBytes += size;
        ownedInOrder.push_back(allocated);
      }
    }
    if (printOutputs && run == 0)
      outputsJson += "]";
    std::string runHash = ckpt::runtime::Sha256::toHex(sha.finish());
    if (run == 0)
      hash = runHash;
    else if (runHash != hash)
      return fail("the results of run " + llvm::Twine(run + 1) +
                  " differ from those of run 1 (the step is not "
                  "deterministic)");

    // Free the results, then whatever the step leaked.
    for (void *ptr : ownedInOrder)
      _mlir_memref_to_llvm_free(ptr);
    ckptRuntimeFreeAll();
  }

  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double median = sorted[sorted.size() / 2];
  if (sorted.size() % 2 == 0)
    median = (sorted[sorted.size() / 2 - 1] + median) / 2;
  auto ms = [](double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.3f", v);
    return std::string(buffer);
  };
  uint64_t leaked =
      stats.liveBytes > resultBytes ? stats.liveBytes - resultBytes : 0;

  llvm::outs() << "{\"entry\": " << jsonString(entry)
               << ", \"outputs_sha256\": \"" << hash << "\""
               << ", \"peak_bytes\": " << stats.peakBytes
               << ", \"live_bytes_at_exit\": " << stats.liveBytes
               << ", \"result_bytes\": " << resultBytes
               << ", \"leaked_bytes\": " << leaked
               << ", \"allocs\": " << stats.allocCount
               << ", \"frees\": " << stats.freeCount
               << ", \"unknown_frees\": " << stats.unknownFrees
               << ", \"total_bytes\": " << stats.totalBytes
               << ", \"seed\": " << seed << ", \"repeat\": " << repeat
               << ", \"wall_ms\": " << ms(median)
               << ", \"wall_ms_min\": " << ms(sorted.front());
  if (printOutputs)
    llvm::outs() << ", \"outputs\": " << outputsJson;
  llvm::outs() << "}\n";
  return 0;
}
