// RUN: ckpt-opt %s -verify-diagnostics --ckpt-lower-to-cpu -o /dev/null
// RUN: ckpt-opt %s -verify-diagnostics --ckpt-lower-to-nvptx=format=isa -o /dev/null
// RUN: ckpt-opt %s --ckpt-lower-to-cpu=check-budget=false | ckpt-run - | FileCheck %s
// RUN: ckpt-opt %s --ckpt-lower-to-nvptx="format=isa check-budget=false" | FileCheck %s --check-prefix=GPU

// Both lowerings check the bufferized step against its ckpt.budget
// (ckpt-check-peak after deallocation). 16xf32 = 64 B: %a and %b are live
// together, 128 B, one byte over; %c writes in place into %a; the loss is a
// 16 B buffer allocated once %b is freed.
ckpt.step @over(%x: tensor<16xf32>) -> (tensor<f32>, tensor<16xf32>)
    attributes {ckpt.budget = {bytes = 127 : i64, peak = 64 : i64}} {
  %cst = arith.constant 0.0 : f32
  // expected-note @+1 {{a live buffer of 64 B}}
  %a = math.tanh %x : tensor<16xf32>
  // expected-error @+3 {{this allocation brings the step's live buffers to 128 B, over the budget of 127 B}}
  // expected-note @+2 {{2 buffers are live}}
  // expected-note @+1 {{a live buffer of 64 B}}
  %b = math.exp %x : tensor<16xf32>
  %c = arith.addf %a, %b : tensor<16xf32>
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  ckpt.return %f, %c : tensor<f32>, tensor<16xf32> loss(0)
}

// With check-budget=false the program lowers, and runs at the 128 B the
// check counted (three allocations: 64 + 64 + 16 B, 144 B in all).
// CHECK: "peak_bytes":128,
// CHECK-SAME: "allocs":3,
// CHECK-SAME: "total_bytes":144,
// GPU: gpu.binary
