// A step that moves a value to host memory lowers for the CPU (the host copy
// is allocated between the runtime's two host-copy calls; ckpt-run counts
// it as host memory; test/Run/offload-steps.test runs such steps).
// ckpt-lower-to-nvptx keeps the host copy in host memory (allocated by the
// host, the same two calls around it, not managed memory; page-locked by
// the CUDA runtime). By default (async-copies) the copies into and out of it
// run on the CUDA runtime's copy stream: the offload, issued after the
// launches that wrote %a, runs beside the cos kernel and is waited for just
// before %a is freed; the reload is waited for before the host copy is
// freed, where the plan's wait on it is, before the mul kernel reads it.
// With async-copies=false they are host memcpys between the synchronous
// launches, as ckpt-lower-to-cpu does by default; its async-copies=true
// runs them on the ckpt runtime's copy thread.
// RUN: ckpt-opt %s --ckpt-lower-to-cpu | FileCheck %s --check-prefix=CPU
// RUN: ckpt-opt %s --ckpt-lower-to-cpu=async-copies=true | FileCheck %s --check-prefix=CPUASYNC
// RUN: ckpt-opt %s --ckpt-lower-to-nvptx=format=isa | FileCheck %s --check-prefix=GPU
// RUN: ckpt-opt %s --ckpt-lower-to-nvptx="format=isa async-copies=false" | FileCheck %s --check-prefix=GPUSYNC

// CPU-LABEL: llvm.func @moved(
// CPU:         llvm.call @ckptRuntimeBeginHostCopy() : () -> ()
// CPU-NEXT:    llvm.mlir.constant
// CPU:         llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CPU:         llvm.call @ckptRuntimeEndHostCopy() : () -> ()
// CPU-NOT:     ckpt.offload
// CPU-NOT:     ckpt.reload
// CPU-NOT:     CopyAsync
// CPUASYNC-LABEL: llvm.func @moved(
// CPUASYNC:         llvm.call @ckptRuntimeEndHostCopy() : () -> ()
// CPUASYNC:         %[[OFF:.*]] = llvm.call @ckptRuntimeCopyAsync(
// CPUASYNC:         llvm.store
// CPUASYNC:         llvm.call @ckptRuntimeWaitCopy(%[[OFF]])
// CPUASYNC-NOT:     llvm.store
// CPUASYNC:         llvm.call @_mlir_memref_to_llvm_free(
// CPUASYNC:         %[[ON:.*]] = llvm.call @ckptRuntimeCopyAsync(
// CPUASYNC-NEXT:    llvm.call @ckptRuntimeWaitCopy(%[[ON]])
// CPUASYNC-NOT:     llvm.store
// CPUASYNC:         llvm.call @_mlir_memref_to_llvm_free(
// CPUASYNC:         llvm.store
// GPU-LABEL: llvm.func @moved(
// GPU:         llvm.call @mgpuMemAlloc
// GPU:         llvm.call @ckptRuntimeBeginHostCopy() : () -> ()
// GPU-NOT:     mgpuMemAlloc
// GPU:         %[[HOST:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc
// GPU-NEXT:    llvm.call @ckptRuntimeEndHostCopy() : () -> ()
// GPU:         %[[OFF:.*]] = llvm.call @ckptCudaCopyAsync(
// GPU-NOT:     ckptCudaWaitCopy
// GPU:         gpu.launch_func @moved_kernel_1::@moved_kernel
// GPU-NEXT:    llvm.call @mgpuStreamCreate()
// GPU-NEXT:    llvm.call @ckptCudaWaitCopy(%[[OFF]])
// GPU-NEXT:    llvm.extractvalue
// GPU-NEXT:    llvm.call @mgpuMemFree(
// GPU:         %[[ON:.*]] = llvm.call @ckptCudaCopyAsync(
// GPU-NEXT:    llvm.call @ckptCudaWaitCopy(%[[ON]])
// GPU-NEXT:    llvm.call @_mlir_memref_to_llvm_free(%[[HOST]])
// GPU-NOT:     llvm.call
// GPU:         gpu.launch_func @moved_kernel_2::@moved_kernel
// GPUSYNC-LABEL: llvm.func @moved(
// GPUSYNC:         %[[HOST:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc
// GPUSYNC-NEXT:    llvm.call @ckptRuntimeEndHostCopy() : () -> ()
// GPUSYNC:         "llvm.intr.memcpy"(%[[HOST]],
// GPUSYNC:         "llvm.intr.memcpy"(%{{.*}}, %[[HOST]],
// GPUSYNC-NEXT:    llvm.call @_mlir_memref_to_llvm_free(%[[HOST]])
// GPUSYNC-NOT:     CopyAsync
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
