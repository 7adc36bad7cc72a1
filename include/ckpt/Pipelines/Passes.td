//===- Passes.td - the GPU passes of ckpt-lower-to-nvptx ---*- tablegen -*-===//
//
// Passes that exist for the NVPTX lowering (lib/Pipelines/NVPTX.cpp). They
// are registered like the other ckpt passes, so each can be run and tested
// alone; ckpt-lower-to-nvptx adds them through their create functions.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_PIPELINES_PASSES
#define CKPT_PIPELINES_PASSES

include "mlir/Pass/PassBase.td"

def GPUManagedMemoryPass
    : Pass<"ckpt-gpu-managed-memory", "mlir::func::FuncOp"> {
  let summary = "Buffers of a bufferized step in managed memory";
  let description = [{
    Moves a bufferized host function's buffers to memory both the host and
    the kernels can reach: `memref.alloc` becomes `gpu.alloc host_shared`
    (managed memory), `memref.dealloc` becomes `gpu.dealloc` (async on a
    fresh stream, waited for at once, as gpu-to-llvm requires), and, with
    `host-register`, every memref argument is `gpu.host_register`ed at entry
    and `gpu.host_unregister`ed before every return. Constant buffers
    (`memref.get_global`) live in host memory the kernels cannot read: they
    are an error. Declarations (no body) are left alone.
  }];
  let options = [
    Option<"hostRegister", "host-register", "bool", /*default=*/"true",
           "Register the memref arguments with the driver for the length of "
           "the call">,
  ];
}

def GPUApproximateMathPass
    : Pass<"ckpt-gpu-approximate-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "Math functions in kernels without libdevice";
  let description = [{
    Rewrites the math ops of a `gpu.module` so that the PTX calls no `__nv_*`
    function: polynomial approximations (tanh, exp, log, erf, ...) and
    expansions (rsqrt, powf, ...) in arith; floor, ceil, sqrt and fma as the
    NVPTX intrinsics of their instructions (`llvm.nvvm.floor.f`, ...); absf
    and copysign as sign-bit operations. What has no approximation (e.g.
    `math.log10`) stays, and `ckpt-gpu-module-to-binary` reports it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUModuleToBinaryPass
    : Pass<"ckpt-gpu-module-to-binary", "mlir::ModuleOp"> {
  let summary = "gpu-module-to-binary whose errors fail the run";
  let description = [{
    Runs upstream's `gpu-module-to-binary` on the module with the CUDA toolkit
    found by ckpt-lower-to-nvptx's rules (`toolkit` when given; else
    CUDA_ROOT, CUDA_HOME or CUDA_PATH; else /usr/local/cuda; else the
    toolkit of the `ptxas` on PATH), and fails when it reports an error
    (upstream reports a toolkit it cannot use and goes on). A toolkit that is
    named but does not exist is an error at the step. Without libdevice
    (`math=approx`, or a toolkit without `nvvm/libdevice/libdevice.10.bc`), a
    kernel that calls an `__nv_*` function is an error at its launch.
  }];
  let options = [
    Option<"format", "format", "::ckpt::GPUFormat",
           /*default=*/"::ckpt::GPUFormat::Fatbin",
           "GPU binary: isa, bin or fatbin", [{CKPT_GPU_FORMAT_VALUES}]>,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit (empty: found as ckpt-lower-to-nvptx does)">,
    Option<"math", "math", "::ckpt::MathMode", /*default=*/"::ckpt::MathMode::Auto",
           "Whether libdevice is linked: libdevice, approx (never) or auto "
           "(when the toolkit has it)", [{CKPT_MATH_VALUES}]>,
  ];
}

#endif // CKPT_PIPELINES_PASSES
