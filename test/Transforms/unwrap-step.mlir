// RUN: ckpt-opt %s -split-input-file --ckpt-unwrap-step | FileCheck %s

// A ckpt.step becomes a func.func with the same name, visibility,
// signature and attributes, carrying ckpt.loss = <index>; ckpt.return
// becomes func.return. Recompute regions, checkpoints and frees stay.
// CHECK-LABEL: func.func private @step(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32> {test.role = "param"}, %[[L:[^:]*]]: f32)
// CHECK-SAME:      -> (tensor<4xf32>, f32 {test.role = "loss"})
// CHECK-SAME:      attributes {ckpt.loss = 1 : i64, custom = 7 : i64}
// CHECK:         %[[C:.*]] = ckpt.checkpoint
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[X]])
// CHECK:           ckpt.yield
// CHECK:         ckpt.free %[[C]] : tensor<4xf32>
// CHECK:         return %[[R]], %[[L]] : tensor<4xf32>, f32
// CHECK-NOT:     ckpt.step
// CHECK-NOT:     ckpt.return
ckpt.step private @step(%x: tensor<4xf32> {test.role = "param"}, %l: f32)
    -> (tensor<4xf32>, f32 {test.role = "loss"}) attributes {custom = 7 : i64} {
  %e = math.exp %x : tensor<4xf32>
  %c = ckpt.checkpoint %e : tensor<4xf32>
  %r = ckpt.recompute (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %t = math.tanh %a : tensor<4xf32>
    ckpt.yield %t : tensor<4xf32>
  }
  ckpt.free %c : tensor<4xf32>
  ckpt.return %r, %l : tensor<4xf32>, f32 loss(1)
}

// -----

// Functions that are not steps are left alone.
// CHECK-LABEL: func.func @not_a_step(
// CHECK-NOT:     ckpt.loss
// CHECK:         return
func.func @not_a_step(%x: f32) -> f32 {
  return %x : f32
}
