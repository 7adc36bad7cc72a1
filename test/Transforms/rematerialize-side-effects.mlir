// RUN: ckpt-opt %s -split-input-file --ckpt-remat-pipeline="strategy=memory-poor fit=model budget=1MiB" | FileCheck %s
// Ops with memory effects keep their order when the schedule reorders the
// step (docs/BAD-INPUT.md, "side-effecting op"). Regression: an effectful op
// that the loss does not depend on was a backward op, and memory-poor moved
// it to the end of the step, after forward ops written after it.

// A store into an argument before the forward reads that memory: it stays
// before the read (it used to move after it, so the step read stale data).
// CHECK-LABEL: ckpt.step @store_before_read(
// CHECK:         memref.store
// CHECK-NEXT:    bufferization.to_tensor
// CHECK-NOT:     memref.store
// CHECK:         ckpt.return
func.func @store_before_read(%x: tensor<4xf32>, %m: memref<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {ckpt.loss = 0 : i64} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0] : memref<4xf32>
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %a = math.exp %x : tensor<4xf32>
  %s = arith.addf %a, %t : tensor<4xf32>
  %b = math.sin %s : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %l = tensor.extract_slice %c[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %gb = arith.mulf %c, %b : tensor<4xf32>
  %ga = arith.mulf %gb, %s : tensor<4xf32>
  return %l, %ga : tensor<1xf32>, tensor<4xf32>
}

// -----

// Two calls in the backward: the second reads a gradient of a later stage
// (B3, which runs first), but it still runs after the first call (it used
// to run before it).
// CHECK-LABEL: ckpt.step @calls_in_order(
// CHECK:         ckpt.recompute
// CHECK:         call @log({{.*}}) {order = 1 : i64}
// CHECK-NEXT:    call @log({{.*}}) {order = 2 : i64}
// CHECK-NOT:     call
// CHECK:         ckpt.return
func.func private @log(tensor<4xf32>)
func.func @calls_in_order(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {ckpt.loss = 0 : i64} {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %l = tensor.extract_slice %c[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %gc = arith.mulf %c, %c : tensor<4xf32>
  %gb = arith.mulf %gc, %b : tensor<4xf32>
  %ga = arith.mulf %gb, %a : tensor<4xf32>
  call @log(%ga) {order = 1} : (tensor<4xf32>) -> ()
  call @log(%gc) {order = 2} : (tensor<4xf32>) -> ()
  return %l, %ga : tensor<1xf32>, tensor<4xf32>
}
