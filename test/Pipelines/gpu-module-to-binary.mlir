// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-gpu-module-to-binary="format=isa math=approx" | FileCheck %s
// RUN: not ckpt-opt %s -split-input-file --ckpt-gpu-module-to-binary="format=isa toolkit=%t.nonexistent" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTOOLKIT

// A kernel already in NVVM becomes a gpu.binary of PTX text (format=isa;
// without libdevice no toolkit is needed: LLVM's NVPTX backend writes it).
// CHECK: gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">
// CHECK-SAME: .entry kern(
// CHECK-NOT: gpu.module
// A toolkit that is named but missing is an error at the step (the first
// op outside the kernels), whatever the kernels are.
// NOTOOLKIT: gpu-module-to-binary.mlir:[[# @LINE + 8]]:3: error: ckpt-lower-to-nvptx: the CUDA toolkit named by toolkit= ({{.*}}nonexistent) does not exist
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @kern(%x: f32) attributes {gpu.kernel, nvvm.kernel} {
      %y = llvm.fmul %x, %x : f32
      llvm.return
    }
  }
  llvm.func @host(%x: f32) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%x : f32)
    llvm.return
  }
}

// -----

// Without libdevice (math=approx), a kernel that calls an __nv_* function
// is an error at its launch, never PTX that ptxas rejects.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @__nv_log10f(f32) -> f32
    llvm.func @kern(%x: f32) attributes {gpu.kernel, nvvm.kernel} {
      %t = llvm.call @__nv_log10f(%x) : (f32) -> f32
      llvm.return
    }
  }
  llvm.func @host(%x: f32) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    // expected-error @+1 {{ckpt-lower-to-nvptx: kernel @k calls '__nv_log10f', which only libdevice defines, and libdevice is not linked}}
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%x : f32)
    llvm.return
  }
}
