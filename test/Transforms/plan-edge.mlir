// RUN: ckpt-opt %s -split-input-file -allow-unregistered-dialect --ckpt-plan="budget=100%" | FileCheck %s
// RUN: ckpt-opt %s -split-input-file -allow-unregistered-dialect --ckpt-remat-pipeline="budget=100%" | FileCheck %s --check-prefix=REMAT

// A step that holds no buffer: 100% of nothing is still a budget (1 B), and
// the plan runs its one op once.
// CHECK-LABEL: ckpt.step @scalar_only
// CHECK-SAME: budget = 1, peak = 0,
// CHECK-SAME: schedule = [0]>
// REMAT-LABEL: ckpt.step @scalar_only
// REMAT-NEXT:    arith.mulf
// REMAT-NEXT:    ckpt.return
ckpt.step @scalar_only(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  ckpt.return %y : f32 loss(0)
}

// -----

// The loss is an argument: no forward op at all; the step is left as it is.
// CHECK-LABEL: ckpt.step @loss_is_argument
// CHECK-SAME: schedule = [0]>
// REMAT-LABEL: ckpt.step @loss_is_argument
// REMAT-NEXT:    math.exp
// REMAT-NEXT:    ckpt.return
ckpt.step @loss_is_argument(%l: f32, %x: tensor<4xf32>) -> (f32, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  ckpt.return %l, %e : f32, tensor<4xf32> loss(0)
}

// -----

// An unknown op in the forward is kept: computed once, never recomputed.
// CHECK-LABEL: ckpt.step @unknown_forward
// CHECK-SAME: schedule = [0, 1, 2, 3]>
// CHECK: "foreign.op"
// REMAT-LABEL: ckpt.step @unknown_forward
// REMAT-COUNT-1: "foreign.op"
// REMAT-NOT: "foreign.op"
ckpt.step @unknown_forward(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = "foreign.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = math.exp %a : tensor<4xf32>
  %l = tensor.extract_slice %b[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %g = arith.mulf %b, %a : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}
