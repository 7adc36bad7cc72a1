// A step that moves a value to host memory lowers for the CPU (the host copy
// is allocated between the runtime's two host-copy calls; ckpt-run counts
// it as host memory; test/Run/offload-steps.test runs such steps).
// ckpt-lower-to-nvptx keeps the host copy in host memory (allocated by the
// host, the same two calls around it, not managed memory) and copies to and
// from it on the host, from and into the managed buffers the synchronous
// kernel launches wrote; the copies do not overlap the kernels yet.
// RUN: ckpt-opt %s --ckpt-lower-to-cpu | FileCheck %s --check-prefix=CPU
// RUN: ckpt-opt %s --ckpt-lower-to-nvptx=format=isa | FileCheck %s --check-prefix=GPU

// CPU-LABEL: llvm.func @moved(
// CPU:         llvm.call @ckptRuntimeBeginHostCopy() : () -> ()
// CPU-NEXT:    llvm.mlir.constant
// CPU:         llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CPU:         llvm.call @ckptRuntimeEndHostCopy() : () -> ()
// CPU-NOT:     ckpt.offload
// CPU-NOT:     ckpt.reload
// GPU-LABEL: llvm.func @moved(
// GPU:         llvm.call @mgpuMemAlloc
// GPU:         llvm.call @ckptRuntimeBeginHostCopy() : () -> ()
// GPU-NOT:     mgpuMemAlloc
// GPU:         %[[HOST:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc
// GPU-NEXT:    llvm.call @ckptRuntimeEndHostCopy() : () -> ()
// GPU:         "llvm.intr.memcpy"(%[[HOST]],
// GPU:         "llvm.intr.memcpy"(%{{.*}}, %[[HOST]],
// GPU-NEXT:    llvm.call @_mlir_memref_to_llvm_free(%[[HOST]])
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
