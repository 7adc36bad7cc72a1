// RUN: ckpt-opt %s -split-input-file --ckpt-inline-recompute | FileCheck %s

// Each ckpt.recompute is replaced by the ops of its region: block arguments
// become the region's inputs, the results the yielded values. Nothing is
// merged with the original ops (the recomputed exp stays a second exp).
// CHECK-LABEL: ckpt.step @region(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// CHECK:         %[[E:.*]] = math.exp %[[X]] : tensor<4xf32>
// CHECK:         %[[T:.*]] = math.tanh %[[E]] : tensor<4xf32>
// CHECK:         ckpt.free %[[E]] : tensor<4xf32>
// CHECK-NEXT:    %[[E2:.*]] = math.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[T2:.*]] = math.tanh %[[E2]] : tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[E2]], %[[T2]] : tensor<4xf32>
// CHECK-NOT:     ckpt.recompute
// CHECK-NOT:     ckpt.yield
// CHECK:         ckpt.return %{{.*}}, %[[S]], %[[T]] : f32, tensor<4xf32>, tensor<4xf32> loss(0)
ckpt.step @region(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  %t = math.tanh %e : tensor<4xf32>
  ckpt.free %e : tensor<4xf32>
  %r:2 = ckpt.recompute (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e2 = math.exp %a : tensor<4xf32>
    %t2 = math.tanh %e2 : tensor<4xf32>
    ckpt.yield %e2, %t2 : tensor<4xf32>, tensor<4xf32>
  }
  %s = arith.addf %r#0, %r#1 : tensor<4xf32>
  ckpt.return %l, %s, %t : f32, tensor<4xf32>, tensor<4xf32> loss(0)
}

// -----

// A ckpt.checkpoint marker is replaced by its operand.
// CHECK-LABEL: ckpt.step @marker(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = math.sin %[[E]] : tensor<4xf32>
// CHECK-NEXT:    ckpt.return %{{.*}}, %[[S]] : f32, tensor<4xf32> loss(0)
ckpt.step @marker(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  %c = ckpt.checkpoint %e : tensor<4xf32>
  %s = math.sin %c : tensor<4xf32>
  ckpt.return %l, %s : f32, tensor<4xf32> loss(0)
}

// -----

// The pass runs on any op: a step without regions or markers is unchanged.
// CHECK-LABEL: ckpt.step @plain(
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf
// CHECK-NEXT:    ckpt.return %[[Y]] : f32 loss(0)
ckpt.step @plain(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  ckpt.return %y : f32 loss(0)
}
