//===- Jit.cpp - JIT a lowered training step ------------------------------===//

#include "ckpt/Engine/Jit.h"
#include "ckpt/Runtime/Runtime.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/OptUtils.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdlib>

using namespace mlir;

static llvm::Error jitError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string ckpt::defaultJitCpu() {
  const char *isa = std::getenv("CKPT_ISA");
  return isa ? isa : "";
}

llvm::Expected<std::unique_ptr<ExecutionEngine>>
ckpt::jitModule(ModuleOp module, const JitOptions &options) {
  unsigned codegenLevel = options.codegenLevel.value_or(options.optLevel);
  if (options.optLevel > 3 || codegenLevel > 3)
    return jitError("the optimization level must be 0, 1, 2 or 3");
  // A target machine of our own, so that the code generator runs at the
  // chosen level (ExecutionEngine's default one does not take it) and for
  // the chosen CPU.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  static const llvm::CodeGenOptLevel codegenLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return jitError("cannot describe the host CPU: " +
                    llvm::toString(tmBuilder.takeError()));
  const std::string &cpu = options.cpu;
  if (!cpu.empty() && cpu != "host" && cpu != "native") {
    std::string llvmCpu = cpu == "generic" ? "x86-64"
                          : cpu == "avx2"  ? "x86-64-v3"
                                           : cpu;
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(tmBuilder->getTargetTriple(), error);
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target ? target->createMCSubtargetInfo(tmBuilder->getTargetTriple(), "",
                                               "")
               : nullptr);
    if (!info || !info->isCPUStringValid(llvmCpu))
      return jitError("cannot create a target machine for CPU '" + cpu +
                      "': not a CPU of " + tmBuilder->getTargetTriple().str() +
                      " (use host, generic, avx2 or an LLVM CPU name such as "
                      "x86-64-v4)");
    tmBuilder->setCPU(llvmCpu);
    tmBuilder->getFeatures() = llvm::SubtargetFeatures();
  }
  tmBuilder->setCodeGenOptLevel(codegenLevels[codegenLevel]);
  auto targetMachine = tmBuilder->createTargetMachine();
  if (!targetMachine)
    return jitError("cannot create a target machine for CPU '" + cpu +
                    "': " + llvm::toString(targetMachine.takeError()));
  auto optimize = makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0,
                                            targetMachine->get());
  std::function<llvm::Error(llvm::Module *)> transformer = optimize;
  if (options.reassociate)
    transformer = [optimize](llvm::Module *module) {
      for (llvm::Function &function : *module)
        for (llvm::Instruction &inst : llvm::instructions(function))
          if (inst.getOpcode() == llvm::Instruction::FAdd ||
              inst.getOpcode() == llvm::Instruction::FSub ||
              inst.getOpcode() == llvm::Instruction::FMul) {
            inst.setHasAllowReassoc(true);
            inst.setHasAllowContract(true);
          }
      return optimize(module);
    };
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = codegenLevels[codegenLevel];
  llvm::SmallVector<llvm::StringRef> libPaths(options.sharedLibs.begin(),
                                              options.sharedLibs.end());
  engineOptions.sharedLibPaths = libPaths;
  auto engine =
      ExecutionEngine::create(module, engineOptions, std::move(*targetMachine));
  if (!engine)
    return jitError("cannot JIT the module: " +
                    llvm::toString(engine.takeError()));
  // Bind the allocation hooks to the counting runtime (and memrefCopy, which
  // strided memref.copy lowers to, to Debian's libmlir_c_runner_utils).
  JitHooks hooks = options.hooks;
  (*engine)->registerSymbols([hooks](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](llvm::StringRef name, llvm::orc::ExecutorAddr address) {
      symbols[interner(name)] = {address, llvm::JITSymbolFlags::Exported};
    };
    using llvm::orc::ExecutorAddr;
    add("_mlir_memref_to_llvm_alloc", ExecutorAddr::fromPtr(hooks.alloc));
    add("_mlir_memref_to_llvm_aligned_alloc",
        ExecutorAddr::fromPtr(hooks.alignedAlloc));
    add("_mlir_memref_to_llvm_free", ExecutorAddr::fromPtr(hooks.free));
    add("memrefCopy", ExecutorAddr::fromPtr(&memrefCopy));
    add("ckptRuntimeBeginHostCopy", ExecutorAddr::fromPtr(hooks.beginHostCopy));
    add("ckptRuntimeEndHostCopy", ExecutorAddr::fromPtr(hooks.endHostCopy));
    // The copy thread of ckpt-async-host-copies{runtime=cpu}.
    add("ckptRuntimeCopyAsync", ExecutorAddr::fromPtr(&ckptRuntimeCopyAsync));
    add("ckptRuntimeWaitCopy", ExecutorAddr::fromPtr(&ckptRuntimeWaitCopy));
    // The marks of ckpt-profile-ops (the lowerings' profile=true), read
    // back by the driver from this process's runtime.
    add("ckptRuntimeProfileBegin",
        ExecutorAddr::fromPtr(&ckptRuntimeProfileBegin));
    add("ckptRuntimeProfileEnd", ExecutorAddr::fromPtr(&ckptRuntimeProfileEnd));
    // The kernels of ckpt-call-kernels (ckpt-lower-to-cpu{kernels=blas}).
    add("_mlir_ciface_ckpt_kernel_contract_f32",
        ExecutorAddr::fromPtr(&_mlir_ciface_ckpt_kernel_contract_f32));
    add("_mlir_ciface_ckpt_kernel_conv2d_nchw_fchw_f32",
        ExecutorAddr::fromPtr(&_mlir_ciface_ckpt_kernel_conv2d_nchw_fchw_f32));
    add("_mlir_ciface_ckpt_kernel_embedding_grad_f32",
        ExecutorAddr::fromPtr(&_mlir_ciface_ckpt_kernel_embedding_grad_f32));
    add("_mlir_ciface_ckpt_kernel_exp_contract_f32",
        ExecutorAddr::fromPtr(&_mlir_ciface_ckpt_kernel_exp_contract_f32));
    add("_mlir_ciface_ckpt_kernel_conv2d_filter_grad_f32",
        ExecutorAddr::fromPtr(
            &_mlir_ciface_ckpt_kernel_conv2d_filter_grad_f32));
    return symbols;
  });
  return std::move(*engine);
}
