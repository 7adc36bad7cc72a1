//===- ckpt-run.cpp - run a lowered training step and measure its memory --===//
//
// JITs a module lowered to the LLVM dialect (MLIR ExecutionEngine), calls one
// entry point with deterministic inputs, and prints one JSON object: the
// SHA-256 of the results and what the step allocated (peak, live at exit,
// count, total) through the ckpt runtime's counting allocation hooks.
//
// With --gpu the module is a ckpt-lower-to-nvptx output: its host code and
// the gpu.binary kernels it launches run on CUDA device 0 through
// libckpt_cuda_runtime.so (loaded at run time, so ckpt-run starts without a
// CUDA driver), and the memory figures are those of the device allocations.
//
//   ckpt-run FILE.mlir --entry=NAME [--seed=N] [--repeat=K]
//                      [--gpu [--cuda-runtime=PATH]]
//                      [--print-outputs] [--opt-level=0..3]
//                      [--shared-libs=a.so,b.so] [--profile=FILE]
//
// The entry must have been prepared by `ckpt-prepare-entry` before lowering:
// it carries `ckpt.signature = <tensor function type>` and has a C interface
// `_mlir_ciface_NAME(results*, arg0*, arg1*, ...)` taking ranked memref
// descriptors (results come back through the first pointer, a struct of one
// descriptor per result).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/Progress.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Engine/Jit.h"
#include "ckpt/Engine/StepRuntime.h"
#include "ckpt/InitCkpt.h"
#include "ckpt/Runtime/Runtime.h"
#include "ckpt/Solver/Support/SplitMix64.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
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
static cl::opt<bool>
    useGpu("gpu",
           cl::desc("Run a step lowered by ckpt-lower-to-nvptx on CUDA device "
                    "0 (through libckpt_cuda_runtime.so and the CUDA driver)"),
           cl::cat(runCategory));
static cl::opt<std::string>
    cudaRuntime("cuda-runtime",
                cl::desc("With --gpu: the libckpt_cuda_runtime.so to load "
                         "(default: the one in ckpt-run's ../lib)"),
                cl::value_desc("path"), cl::cat(runCategory));
static cl::opt<bool>
    printOutputs("print-outputs",
                 cl::desc("Add every result's values to the JSON object"),
                 cl::cat(runCategory));
static cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc("LLVM optimization level of the JIT, 0-3 (default 0: compiles a "
             "10,000-op step in seconds; 1-3 compile in time that grows "
             "faster than the step, for timing a small step's code)"),
    cl::init(0), cl::cat(runCategory));
static cl::opt<bool>
    quiet("quiet",
          cl::desc("No progress line while compiling (drawn on a terminal "
                   "when compiling takes over a second)"),
          cl::cat(runCategory));
static cl::opt<std::string> jitCpu(
    "jit-cpu",
    cl::desc("CPU the JIT compiles for: 'host' (default), 'generic' (x86-64 "
             "baseline, SSE2), 'avx2' (x86-64-v3) or an LLVM CPU name; the "
             "environment variable CKPT_ISA (generic, avx2) sets it when the "
             "option is not given"),
    cl::value_desc("cpu"), cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> profileFile(
    "profile",
    cl::desc("Write the time of every op of the step, and of the copy link, "
             "as a profile for ckpt-plan's profile= (a JSON object of "
             "seconds): the step must be lowered with profile=true; with "
             "--repeat, each op's median over the runs"),
    cl::value_desc("file"), cl::cat(runCategory));
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
// The runtime: counting hooks, and with --gpu the mgpu* wrappers
//===----------------------------------------------------------------------===//

/// libckpt_cuda_runtime.so: --cuda-runtime, else beside ckpt-run's lib/.
static std::string cudaRuntimePath(const char *argv0) {
  if (!cudaRuntime.empty())
    return cudaRuntime;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&cudaRuntimePath));
  SmallString<256> path(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(path, "..", "lib", "libckpt_cuda_runtime.so");
  return std::string(path);
}

/// Loads the CUDA runtime into `api` (ckpt::StepRuntime: on the CPU the
/// static CkptRuntime linked into ckpt-run); returns false after printing
/// one line saying why it cannot be used.
static bool loadGpuRuntime(const char *argv0, ckpt::StepRuntime &api) {
  auto loaded = ckpt::loadCudaRuntime(cudaRuntimePath(argv0),
                                      ", or give --cuda-runtime=PATH");
  if (!loaded) {
    fail(llvm::toString(loaded.takeError()));
    return false;
  }
  api = *loaded;
  return true;
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
  /// Integer arguments with a valid range [lo, hi) (ckpt.input_ranges).
  bool ranged = false;
  int64_t lo = 0, hi = 1;

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
/// (24 or 53 random bits, exact in the type), integers in [-8, 8], or
/// LO + bits % (HI - LO) when the argument has a valid range [LO, HI)
/// (`ckpt.range`, recorded as `ckpt.input_ranges` by ckpt-prepare-entry).
static void fillInput(const TensorSpec &spec, uint8_t *data, SplitMix64 &rng) {
  uint64_t width =
      static_cast<uint64_t>(spec.hi) - static_cast<uint64_t>(spec.lo);
  auto drawn = [&](uint64_t bits) {
    return static_cast<int64_t>(bits % width);
  };
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
      int32_t v = static_cast<int32_t>(spec.ranged ? spec.lo + drawn(bits)
                                                   : bits % 17 - 8);
      std::memcpy(data + 4 * i, &v, 4);
      break;
    }
    case ElementKind::I64: {
      int64_t v = spec.ranged ? spec.lo + drawn(bits)
                              : static_cast<int64_t>(bits % 17) - 8;
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
                       llvm::SHA256 &sha) {
  if (isContiguous(spec, desc)) {
    const auto *aligned = reinterpret_cast<const uint8_t *>(desc[1]);
    sha.update(llvm::ArrayRef<uint8_t>(aligned + desc[2] * spec.elementBytes,
                                       spec.byteSize()));
    return;
  }
  forEachElement(spec, desc, [&](const uint8_t *element) {
    sha.update(llvm::ArrayRef<uint8_t>(element, spec.elementBytes));
  });
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// A float as a JSON number with `digits` significant digits (enough to
/// round-trip); NaN and infinities become strings.
static void writeFloat(llvm::json::OStream &json, double v, int digits) {
  if (std::isnan(v))
    return json.value("nan");
  if (std::isinf(v))
    return json.value(v > 0 ? "inf" : "-inf");
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*g", digits, v);
  json.rawValue(buffer);
}

/// The elements of a result, row-major, as a JSON array.
static void writeValues(llvm::json::OStream &json, const TensorSpec &spec,
                        const int64_t *desc) {
  json.arrayBegin();
  forEachElement(spec, desc, [&](const uint8_t *element) {
    switch (spec.kind) {
    case ElementKind::F32: {
      float v;
      std::memcpy(&v, element, 4);
      writeFloat(json, v, 9);
      break;
    }
    case ElementKind::F64: {
      double v;
      std::memcpy(&v, element, 8);
      writeFloat(json, v, 17);
      break;
    }
    case ElementKind::I32: {
      int32_t v;
      std::memcpy(&v, element, 4);
      json.value(static_cast<int64_t>(v));
      break;
    }
    case ElementKind::I64: {
      int64_t v;
      std::memcpy(&v, element, 8);
      json.value(v);
      break;
    }
    }
  });
  json.arrayEnd();
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
/// one), or null. `gpu.binary` (the compiled kernels) and `gpu.launch_func`
/// (their launches, which the translation turns into mgpu* calls) are lowered
/// enough when `gpu` is set.
static Operation *findUnloweredOp(ModuleOp module, StringRef entry, bool gpu) {
  if (!entry.empty())
    if (Operation *op = SymbolTable::lookupSymbolIn(module, entry))
      if (!isa<LLVM::LLVMFuncOp>(op))
        return op;
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    if (gpu && isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
      return WalkResult::skip();
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<LLVM::LLVMDialect>(dialect)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

//===----------------------------------------------------------------------===//
// --profile: the ops' times and the copy link
//===----------------------------------------------------------------------===//

namespace {
/// The times of the ops ckpt-profile-ops marked, run by run.
struct OpTimes {
  /// The key of each mark's id (the module's ckpt.profile_keys).
  SmallVector<std::string> keys;
  /// Per id, the mean time of its executions in each run.
  std::vector<std::vector<double>> runs;

  /// Reads the keys; an error when the module has none.
  llvm::Error readKeys(ModuleOp module) {
    auto attr = module->getAttrOfType<ArrayAttr>(ckpt::kProfileKeysAttrName);
    if (!attr)
      return llvm::createStringError(
          "--profile needs a step lowered with profile=true "
          "(ckpt-lower-to-cpu{profile=true} or "
          "ckpt-lower-to-nvptx{profile=true}); the module has no '" +
          ckpt::kProfileKeysAttrName + "'");
    // An array of strings: the dialect verified it when the module parsed.
    for (StringRef key : attr.getAsValueRange<StringAttr>())
      keys.push_back(key.str());
    runs.resize(keys.size());
    return llvm::Error::success();
  }

  /// Records the run that just ended (ckptRuntimeProfileRead).
  void recordRun() {
    for (auto [id, times] : llvm::enumerate(runs)) {
      double seconds = 0;
      uint64_t count =
          ckptRuntimeProfileRead(static_cast<int64_t>(id), &seconds);
      if (count)
        times.push_back(seconds / static_cast<double>(count));
    }
  }
};

/// The median of `values` (not empty).
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

/// The link of the step's copies into and out of host copies, as the plan
/// models it: a copy of B bytes takes latency + B / bandwidth. Measured
/// with the step's own copy functions (the copy thread; with --gpu the copy
/// stream, between managed and page-locked memory): the latency is the time
/// of a copy of kTinyCopy bytes, the bandwidth that of kLargeCopy bytes
/// beyond it.
struct LinkTimes {
  double toHost = 0, toDevice = 0, latency = 0;
};
constexpr size_t kTinyCopy = 256, kLargeCopy = 32 << 20;

/// The median time of `rounds` copies of `bytes` from `src` to `dst`.
double timeCopies(const ckpt::StepRuntime &api, void *dst, void *src,
                  size_t bytes, int rounds = 7) {
  std::vector<double> times;
  for (int i = 0; i < rounds; ++i) {
    auto start = std::chrono::steady_clock::now();
    api.waitCopy(api.copyAsync(reinterpret_cast<int64_t>(dst),
                               reinterpret_cast<int64_t>(src),
                               static_cast<int64_t>(bytes)));
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return median(times);
}

/// Bytes per second of one direction, and the time of its tiny copy.
std::pair<double, double> timeDirection(const ckpt::StepRuntime &api, void *dst,
                                        void *src) {
  timeCopies(api, dst, src, kLargeCopy, 1); // pages mapped, thread started
  double tiny = timeCopies(api, dst, src, kTinyCopy);
  double large = timeCopies(api, dst, src, kLargeCopy);
  return {(kLargeCopy - kTinyCopy) / std::max(large - tiny, 1e-9), tiny};
}

std::optional<LinkTimes> measureLink(const ckpt::StepRuntime &api) {
  void *device = nullptr, *host = nullptr;
  if (api.onDevice()) {
    device = api.allocDevice(kLargeCopy, nullptr, /*managed=*/true);
    api.beginHostCopy();
    host = api.alignedAlloc(64, kLargeCopy);
    api.endHostCopy();
  } else {
    device = api.alignedAlloc(64, kLargeCopy);
    host = api.alignedAlloc(64, kLargeCopy);
  }
  std::optional<LinkTimes> link;
  if (device && host) {
    std::memset(host, 1, kLargeCopy);
    auto [toHost, tinyToHost] = timeDirection(api, host, device);
    auto [toDevice, tinyToDevice] = timeDirection(api, device, host);
    link = LinkTimes{toHost, toDevice, (tinyToHost + tinyToDevice) / 2};
  }
  if (host)
    api.freeHost(host);
  if (device && api.onDevice())
    api.freeDevice(device, nullptr);
  else if (device)
    api.freeHost(device);
  return link;
}

/// Opens the profile for writing before anything runs.
llvm::Expected<std::unique_ptr<llvm::raw_fd_ostream>>
openProfile(StringRef path) {
  std::error_code error;
  auto os = std::make_unique<llvm::raw_fd_ostream>(path, error);
  if (error)
    return llvm::createStringError("cannot write the profile '" + path +
                                   "': " + error.message());
  return os;
}

/// Writes the profile: each key's median time over the runs, then the link.
void writeProfile(llvm::raw_ostream &os, const OpTimes &times,
                  const LinkTimes &link) {
  llvm::json::Object object;
  for (auto [key, runs] : llvm::zip(times.keys, times.runs))
    if (!runs.empty())
      object[key] = median(runs);
  object["link.to_host"] = link.toHost;
  object["link.to_device"] = link.toDevice;
  object["link.latency"] = link.latency;
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(object))) << "\n";
}
} // namespace

/// Releases the ckpt runtime's allocations when it goes out of scope.
struct RuntimeCleanup {
  const ckpt::StepRuntime &api;
  ~RuntimeCleanup() {
    api.freeAllHost();
    if (api.freeAllDevice)
      api.freeAllDevice();
  }
};

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ckpt-run: JIT a step lowered to the LLVM dialect, run it on the CPU "
      "(or with --gpu on a CUDA device) on deterministic inputs, and print one "
      "JSON object (result hash, peak and leaked bytes, allocation counts, "
      "time)\n");

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
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFilename + "'");

  // Check it is lowered (for the device asked for) and find the entry.
  auto binaries = module->getOps<gpu::BinaryOp>();
  if (!useGpu && !binaries.empty())
    return fail("the module holds GPU kernels (" + describe(*binaries.begin()) +
                "): it was lowered by ckpt-lower-to-nvptx; run it with --gpu, "
                "or lower the step with ckpt-lower-to-cpu");
  if (Operation *op = findUnloweredOp(*module, entryName, useGpu))
    return fail(llvm::Twine("the module is not lowered to the LLVM dialect: "
                            "run ") +
                (useGpu ? "ckpt-lower-to-nvptx" : "ckpt-lower-to-cpu") +
                " first (found " + describe(op) + ")");
  if (useGpu && binaries.empty())
    return fail("--gpu needs a step lowered by ckpt-lower-to-nvptx, and the "
                "module holds no gpu.binary (run without --gpu to execute a "
                "ckpt-lower-to-cpu output on the CPU)");
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
  // Valid ranges of integer arguments (ckpt.range, recorded by
  // ckpt-prepare-entry): their inputs are drawn inside them.
  if (auto ranges = fn->getAttrOfType<ArrayAttr>(ckpt::kInputRangesAttrName)) {
    if (ranges.size() != inputs.size())
      return fail("'" + ckpt::kInputRangesAttrName + "' of '" + entry +
                  "' has " + llvm::Twine(ranges.size()) + " entries for " +
                  llvm::Twine(inputs.size()) + " arguments");
    for (auto [i, attr] : llvm::enumerate(ranges)) {
      auto range = dyn_cast<DenseI64ArrayAttr>(attr);
      if (!range || range.empty())
        continue;
      TensorSpec &spec = inputs[i];
      if (range.size() != 2 || range[0] >= range[1] ||
          (spec.kind != ElementKind::I32 && spec.kind != ElementKind::I64))
        return fail("'" + ckpt::kInputRangesAttrName + "' of '" + entry +
                    "': argument #" + llvm::Twine(i) +
                    " needs an integer tensor and array<i64: LO, HI>, LO < HI");
      if (spec.kind == ElementKind::I32 &&
          (range[0] < INT32_MIN || range[1] - 1 > INT32_MAX))
        return fail("'" + ckpt::kInputRangesAttrName + "' of '" + entry +
                    "': argument #" + llvm::Twine(i) +
                    "'s range does not fit its i32 elements");
      spec.ranged = true;
      spec.lo = range[0];
      spec.hi = range[1];
    }
  }

  OpTimes opTimes;
  std::unique_ptr<llvm::raw_fd_ostream> profileStream;
  if (!profileFile.empty()) {
    if (llvm::Error error = opTimes.readKeys(*module))
      return fail(llvm::toString(std::move(error)));
    auto opened = openProfile(profileFile);
    if (!opened)
      return fail(llvm::toString(opened.takeError()));
    profileStream = std::move(*opened);
  }

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

  // The runtime: with --gpu, libckpt_cuda_runtime.so (loading it needs the
  // CUDA driver library, not a device).
  ckpt::StepRuntime api;
  if (useGpu && !loadGpuRuntime(argv[0], api))
    return 1;

  // Translating and compiling a large step takes seconds: one progress line
  // on a terminal (Analysis/Progress.h), erased before anything is printed.
  ckpt::setProgressQuiet(quiet);
  size_t llvmOps = 0;
  module->walk([&](Operation *) { ++llvmOps; });
  std::optional<ckpt::ProgressLine> progress;
  progress.emplace("ckpt-run: @" + entry);
  progress->phase("compiling " + std::to_string(llvmOps) +
                  " LLVM ops at opt-level " + std::to_string(optLevel));
  ckpt::JitOptions jit;
  jit.optLevel = optLevel;
  jit.cpu = jitCpu.empty() ? ckpt::defaultJitCpu() : std::string(jitCpu);
  jit.sharedLibs.assign(sharedLibs.begin(), sharedLibs.end());
  // With --gpu the JIT takes every mgpu* function the kernels' loading and
  // launches call from the CUDA runtime (a missing one fails the lookup).
  if (useGpu)
    jit.sharedLibs.push_back(api.cudaLibrary);
  jit.hooks = api.hooks();
  auto maybeEngine = ckpt::jitModule(*module, jit);
  if (!maybeEngine) {
    progress.reset();
    return fail(llvm::toString(maybeEngine.takeError()));
  }
  std::unique_ptr<ExecutionEngine> engine = std::move(*maybeEngine);
  // Looking the entry up compiles the module and resolves every symbol it
  // calls; initialize() then runs its constructors, which for a GPU step
  // load the kernels: the device must be there by then.
  auto maybeCall = engine->lookupPacked(cifaceName);
  progress.reset();
  if (!maybeCall)
    return fail("cannot find '" + cifaceName + "' in the JIT'd code: " +
                llvm::toString(maybeCall.takeError()));
  void (*call)(void **) = *maybeCall;
  std::string deviceName = "cpu";
  if (useGpu) {
    // cuBLAS and cuDNN, when the step calls them, before the device (no
    // device needed).
    if (llvm::Error blas = ckpt::loadCudaLibrariesIfCalled(api, *module))
      return fail(llvm::toString(std::move(blas)));
    auto device = ckpt::probeCudaDevice(api);
    if (!device)
      return fail(llvm::toString(device.takeError()));
    deviceName = *device;
  }
  engine->initialize();
  if (useGpu && api.errorCount() != 0)
    return fail("loading the kernels failed (the CUDA errors are above)");

  // Inputs: one splitmix64 stream over all arguments in order.
  SmallVector<AlignedBuffer> inputData;
  SmallVector<std::vector<int64_t>> inputDescs;
  SmallVector<void *> inputDescPtrs;
  for (const TensorSpec &spec : inputs) {
    void *data = nullptr;
    // With --gpu the step registers each argument with the driver, which
    // pins whole pages: two arguments must not share one.
    size_t align = useGpu ? 4096 : 64;
    size_t bytes =
        std::max<size_t>(align, (spec.byteSize() + align - 1) / align * align);
    if (posix_memalign(&data, align, bytes) != 0)
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

  RuntimeCleanup cleanup{api};
  std::string hash, outputsJson;
  CkptRuntimeStats stats = {};
  uint64_t resultBytes = 0;
  std::vector<double> times;
  for (unsigned run = 0; run < repeat; ++run) {
    SplitMix64 rng{seed};
    for (auto [spec, data] : llvm::zip(inputs, inputData))
      fillInput(spec, data.get(), rng);
    std::fill(resultStorage.begin(), resultStorage.end(), 0);

    api.reset();
    ckptRuntimeProfileReset();
    auto start = std::chrono::steady_clock::now();
    call(packedArgs.data());
    // The launches are synchronous, but wait for the device all the same.
    if (useGpu && !api.synchronize())
      return fail("the device failed while running '" + entry +
                  "' (the CUDA errors are above)");
    auto stop = std::chrono::steady_clock::now();
    api.getStats(&stats);
    if (useGpu && api.errorCount() != 0)
      return fail("the device failed while running '" + entry +
                  "' (the CUDA errors are above)");
    times.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
    opTimes.recordRun();

    // Hash the results in order; find the buffers they own.
    llvm::SHA256 sha;
    llvm::SmallDenseSet<void *> owned;
    // The buffers the results own, and whether each is a device buffer.
    SmallVector<std::pair<void *, bool>> ownedInOrder;
    resultBytes = 0;
    size_t offset = 0;
    // The outputs of the first run, as a JSON array.
    std::optional<llvm::raw_string_ostream> outputsStream;
    std::optional<llvm::json::OStream> outputs;
    if (printOutputs && run == 0) {
      outputsStream.emplace(outputsJson);
      outputs.emplace(*outputsStream);
      outputs->arrayBegin();
    }
    for (auto [i, spec] : llvm::enumerate(results)) {
      const int64_t *desc = resultStorage.data() + offset;
      offset += spec.descriptorWords();
      hashResult(spec, desc, sha);
      if (outputs) {
        std::string type;
        llvm::raw_string_ostream os(type);
        os << spec.type;
        outputs->object([&] {
          outputs->attribute("type", type);
          outputs->attributeBegin("values");
          writeValues(*outputs, spec, desc);
          outputs->attributeEnd();
        });
      }
      auto *allocated = reinterpret_cast<void *>(desc[0]);
      size_t size = 0;
      bool onDevice = useGpu && api.findDevice(allocated, &size);
      if ((onDevice || api.findHost(allocated, &size)) &&
          owned.insert(allocated).second) {
        resultBytes += size;
        ownedInOrder.emplace_back(allocated, onDevice);
      }
    }
    if (outputs)
      outputs->arrayEnd();
    outputs.reset();
    outputsStream.reset();
    std::string runHash = llvm::toHex(sha.final(), /*LowerCase=*/true);
    if (run == 0)
      hash = runHash;
    else if (runHash != hash)
      return fail("the results of run " + llvm::Twine(run + 1) +
                  " differ from those of run 1 (the step is not "
                  "deterministic)");

    // Free the results, then whatever the step leaked.
    for (auto [ptr, onDevice] : ownedInOrder) {
      if (onDevice)
        api.freeDevice(ptr, nullptr);
      else
        api.freeHost(ptr);
    }
    api.freeAllHost();
    if (useGpu)
      api.freeAllDevice();
  }

  if (!profileFile.empty()) {
    std::optional<LinkTimes> link = measureLink(api);
    if (!link)
      return fail("--profile: cannot allocate the buffers that time the "
                  "copy link");
    writeProfile(*profileStream, opTimes, *link);
    profileStream.reset();
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
  // The step's memory: the host hooks' counters on the CPU; with --gpu the
  // device allocations' (mgpuMemAlloc), where every buffer of a
  // ckpt-lower-to-nvptx step lives; its host allocations are given apart.
  uint64_t live =
      useGpu ? stats.deviceLiveBytes + stats.liveBytes : stats.liveBytes;
  uint64_t leaked = live > resultBytes ? live - resultBytes : 0;

  llvm::json::OStream json(llvm::outs());
  json.object([&] {
    json.attribute("entry", entry);
    if (useGpu)
      json.attribute("device", deviceName);
    json.attribute("outputs_sha256", hash);
    // The step's own memory: the device's with --gpu, else the host's.
    json.attribute("peak_bytes",
                   useGpu ? stats.devicePeakBytes : stats.peakBytes);
    json.attribute("live_bytes_at_exit",
                   useGpu ? stats.deviceLiveBytes : stats.liveBytes);
    json.attribute("result_bytes", resultBytes);
    json.attribute("leaked_bytes", leaked);
    json.attribute("allocs",
                   useGpu ? stats.deviceAllocCount : stats.allocCount);
    json.attribute("frees", useGpu ? stats.deviceFreeCount : stats.freeCount);
    json.attribute("unknown_frees",
                   useGpu ? stats.deviceUnknownFrees : stats.unknownFrees);
    json.attribute("total_bytes",
                   useGpu ? stats.deviceTotalBytes : stats.totalBytes);
    if (useGpu) {
      json.attribute("host_peak_bytes", stats.peakBytes);
      json.attribute("kernels", stats.kernelLaunches);
    }
    if (!profileFile.empty())
      json.attribute("profiled_ops", static_cast<int64_t>(opTimes.keys.size()));
    json.attribute("seed", static_cast<uint64_t>(seed));
    json.attribute("repeat", static_cast<int64_t>(repeat));
    auto raw = [&](llvm::StringRef key, llvm::StringRef text) {
      json.attributeBegin(key);
      json.rawValue(text);
      json.attributeEnd();
    };
    raw("wall_ms", ms(median)); // milliseconds to the microsecond
    raw("wall_ms_min", ms(sorted.front()));
    // Host copies of offloaded values (ckpt.offload), apart from the step's
    // memory above: on the CPU the step's host memory; with --gpu beside
    // the host allocations of host_peak_bytes.
    json.attribute(useGpu ? "host_copy_peak_bytes" : "host_peak_bytes",
                   stats.hostCopyPeakBytes);
    json.attribute("host_copies", stats.hostCopyAllocCount);
    json.attribute(useGpu ? "host_copy_live_bytes_at_exit"
                          : "host_live_bytes_at_exit",
                   stats.hostCopyLiveBytes);
    if (printOutputs)
      raw("outputs", outputsJson);
  });
  llvm::outs() << "\n";
  return 0;
}
