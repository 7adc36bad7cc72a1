// RUN: ckpt-opt %s --pass-pipeline='builtin.module(gpu.module(ckpt-gpu-approximate-math))' | FileCheck %s

// Without libdevice, a kernel's math ops become what NVPTX has instructions
// for: tanh a polynomial approximation (its fmas as llvm.nvvm.fma.rn.f),
// floor the llvm.nvvm.floor.f intrinsic, absf a sign-bit mask; log10,
// which has no approximation, stays (ckpt-gpu-module-to-binary reports it).
// CHECK-LABEL: gpu.func @t(
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.floor
// CHECK-NOT:     math.absf
// CHECK-DAG:     llvm.call_intrinsic "llvm.nvvm.fma.rn.f"
// CHECK-DAG:     llvm.call_intrinsic "llvm.nvvm.floor.f"
// CHECK-DAG:     arith.andi %{{.*}}, %{{.*}} : i32
// CHECK:         math.log10
// CHECK:         gpu.return
gpu.module @k {
  gpu.func @t(%x: f32, %out: memref<4xf32>) kernel {
    %a = math.tanh %x : f32
    %b = math.floor %a : f32
    %c = math.absf %b : f32
    %d = math.log10 %c : f32
    %i = arith.constant 0 : index
    memref.store %d, %out[%i] : memref<4xf32>
    gpu.return
  }
}
