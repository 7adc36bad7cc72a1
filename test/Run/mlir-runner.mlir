// libckpt_runtime.so counts the allocations of a module run by the stock
// mlir-runner too: it defines the hooks the lowered code calls, and the module
// prints the counters by calling ckptRuntimePrintStats.
//
// REQUIRES: ckpt-run
// UNSUPPORTED: asan
// (In a sanitizer build libckpt_runtime.so needs the ASan runtime loaded first,
// which the uninstrumented stock mlir-runner does not do. ckpt-run, which
// links the same runtime, is tested under ASan by the other Run tests.)
// RUN: ckpt-opt %s --ckpt-lower-to-cpu \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%ckpt_lib_dir/libckpt_runtime%shlibext \
// RUN:   | FileCheck %s

// x (64 bytes), y (128 live), free x, z (128), free y: peak 128; z is
// returned to main and never freed. The frees are the input's own
// dealloc_tensor ops: ckpt-lower-frees adds none of its own to these buffers
// (with dealloc=ckpt, the default, as well; see lower-frees.mlir).
// CHECK: {"peak_bytes": 128, "live_bytes": 64, "allocs": 3, "frees": 2, "unknown_frees": 0, "total_bytes": 192}
func.func @step(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %x = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %y = linalg.mul ins(%x, %b : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  bufferization.dealloc_tensor %x : tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %z = linalg.sub ins(%y, %a : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  bufferization.dealloc_tensor %y : tensor<16xf32>
  return %z : tensor<16xf32>
}

func.func private @ckptRuntimePrintStats()

func.func @main() {
  %a = arith.constant dense<1.0> : tensor<16xf32>
  %b = arith.constant dense<2.0> : tensor<16xf32>
  %z = call @step(%a, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  call @ckptRuntimePrintStats() : () -> ()
  return
}
