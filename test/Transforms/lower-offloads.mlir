// RUN: ckpt-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(ckpt-lower-offloads))" | FileCheck %s
// RUN: ckpt-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(ckpt-lower-offloads,convert-elementwise-to-linalg),one-shot-bufferize{bufferize-function-boundaries},ckpt-lower-host-copies)" | FileCheck %s --check-prefix=HOST

// The host copy is a tensor in memory space 1, copied back into memory
// space 0 by the reload and released at the wait on the reload; the wait
// on the offload goes (the ckpt.free after it stays).
// CHECK-LABEL: func.func @moved(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[A:.*]] = math.exp %[[X]]
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[H:.*]] = bufferization.alloc_tensor() copy(%[[A]]) {memory_space = 1 : i64} : tensor<4xf32>
// CHECK-NEXT:    ckpt.free %[[A]]
// CHECK-NEXT:    %[[C:.*]] = math.cos %[[B]]
// CHECK-NEXT:    %[[A2:.*]] = bufferization.alloc_tensor() copy(%[[H]]) {memory_space = 0 : i64} : tensor<4xf32>
// CHECK-NEXT:    bufferization.dealloc_tensor %[[H]]
// CHECK-NEXT:    %[[D:.*]] = arith.mulf %[[C]], %[[A2]]
// CHECK-NEXT:    return %[[D]]
// After bufferization, the host buffer is allocated between the runtime's
// two calls, in the default memory space, and freed by the dealloc.
// HOST:         func.func private @ckptRuntimeBeginHostCopy()
// HOST-NEXT:    func.func private @ckptRuntimeEndHostCopy()
// HOST-LABEL:   func.func @moved(
// HOST:           call @ckptRuntimeBeginHostCopy() : () -> ()
// HOST-NEXT:      %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// HOST-NEXT:      call @ckptRuntimeEndHostCopy() : () -> ()
// HOST-NEXT:      memref.copy %{{.*}}, %[[H]] : memref<4xf32{{.*}}> to memref<4xf32>
// HOST:           %[[A2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// HOST-NEXT:      memref.copy %[[H]], %[[A2]] : memref<4xf32> to memref<4xf32>
// HOST-NEXT:      memref.dealloc %[[H]] : memref<4xf32>
// HOST-NOT:       memref<4xf32, 1>
// HOST:           return
func.func @moved(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %h, %off = ckpt.offload %a : tensor<4xf32>
  ckpt.wait %off
  ckpt.free %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %a2, %on = ckpt.reload %h after %off : tensor<4xf32>
  ckpt.wait %on
  %d = arith.mulf %c, %a2 : tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// A copy never reloaded (no plan makes one: a value never read again is
// freed, not moved) is never released; nothing reads it, so bufferization
// drops it as dead code and no host memory is allocated.
// CHECK-LABEL: func.func @never_reloaded(
// CHECK:         bufferization.alloc_tensor() copy(%{{.*}}) {memory_space = 1 : i64}
// CHECK-NOT:     dealloc_tensor
// CHECK:         return
// HOST-NOT:      ckptRuntimeBeginHostCopy
// HOST-LABEL:    func.func @never_reloaded(
// HOST-NOT:      ckptRuntimeBeginHostCopy
func.func @never_reloaded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %h, %off = ckpt.offload %a : tensor<4xf32>
  ckpt.wait %off
  return %b : tensor<4xf32>
}
