// A step that moves a value to host memory lowers for the CPU (the host copy
// is allocated between the runtime's two host-copy calls; ckpt-run counts
// it as host memory; test/Run/offload-steps.test runs such steps).
// ckpt-lower-to-nvptx does not lower host copies yet: it stops with an
// error at the ckpt.offload.
// RUN: ckpt-opt %s --ckpt-lower-to-cpu | FileCheck %s --check-prefix=CPU
// RUN: not ckpt-opt %s --ckpt-lower-to-nvptx=format=isa 2>&1 | FileCheck %s --check-prefix=GPU

// CPU-LABEL: llvm.func @moved(
// CPU:         llvm.call @ckptRuntimeBeginHostCopy() : () -> ()
// CPU-NEXT:    llvm.mlir.constant
// CPU:         llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CPU:         llvm.call @ckptRuntimeEndHostCopy() : () -> ()
// CPU-NOT:     ckpt.offload
// CPU-NOT:     ckpt.reload
// GPU: lower-offload.mlir:[[# @LINE + 4]]:14: error: ckpt-lower-to-nvptx: a host copy (ckpt.offload) is not lowered to the GPU yet; plan with offload=off for this lowering
ckpt.step @moved(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %h, %off = ckpt.offload %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  ckpt.wait %off
  ckpt.free %a : tensor<4xf32>
  %l = tensor.extract_slice %c[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %a2, %on = ckpt.reload %h after %off : tensor<4xf32>
  ckpt.wait %on
  %g = arith.mulf %c, %a2 : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}
