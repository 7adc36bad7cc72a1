// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-insert-frees | FileCheck %s

// A step with a ckpt.budget (what ckpt-rematerialize leaves) is simulated
// again once its frees are in: whatever ran in between must not have made it
// peak over the budget. 16xf32 = 64 B: %a and %b are live together (128 B),
// %c writes in place into %a.

// expected-note @+1 {{the step is here}}
ckpt.step @over(%x: tensor<16xf32>, %l: f32) -> (f32, tensor<16xf32>)
    attributes {ckpt.budget = {bytes = 127 : i64, peak = 64 : i64}} {
  %a = math.tanh %x : tensor<16xf32>
  // expected-error @+1 {{the step now peaks at 128 B here, over the budget of 127 B it was rematerialized for (it peaked at 64 B then): a pass run after ckpt-rematerialize made buffers live longer (CSE merging values computed twice, fusion reading a producer's inputs later, a fold that drops a copy); run such passes before ckpt-plan}}
  %b = math.exp %x : tensor<16xf32>
  %c = arith.addf %a, %b : tensor<16xf32>
  ckpt.return %l, %c : f32, tensor<16xf32> loss(0)
}

// -----

// At the budget it fits: the frees go in and the budget stays.
// CHECK-LABEL: ckpt.step @fits(
// CHECK-SAME:    ckpt.budget = {bytes = 128 : i64, peak = 128 : i64}
// CHECK:         %[[B:.*]] = math.exp
// CHECK-NEXT:    %[[C:.*]] = arith.addf
// CHECK-NEXT:    ckpt.free %[[B]]
ckpt.step @fits(%x: tensor<16xf32>, %l: f32) -> (f32, tensor<16xf32>)
    attributes {ckpt.budget = {bytes = 128 : i64, peak = 128 : i64}} {
  %a = math.tanh %x : tensor<16xf32>
  %b = math.exp %x : tensor<16xf32>
  %c = arith.addf %a, %b : tensor<16xf32>
  ckpt.return %l, %c : f32, tensor<16xf32> loss(0)
}
