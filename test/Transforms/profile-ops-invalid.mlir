// RUN: ckpt-opt %s --ckpt-profile-ops -verify-diagnostics

// A recompute region may hold no calls (its verifier): the marks need the
// region inlined first.
ckpt.step @region(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  ckpt.free %e : tensor<4xf32>
  // expected-error @+1 {{'ckpt.recompute' op must be inlined before its ops are timed: run ckpt-inline-recompute before ckpt-profile-ops}}
  %r = ckpt.recompute (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e2 = math.exp %a : tensor<4xf32>
    ckpt.yield %e2 : tensor<4xf32>
  }
  ckpt.return %l, %r : f32, tensor<4xf32> loss(0)
}
