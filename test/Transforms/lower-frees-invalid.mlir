// RUN: ckpt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(func.func(ckpt-lower-frees))"

// A free left on a tensor (not bufferized) is an error.
func.func @tensor_free(%t: tensor<4xf32>) -> tensor<4xf32> {
  %e = math.exp %t : tensor<4xf32>
  // expected-error @+1 {{'ckpt.free' op is left on a tensor after bufferization}}
  ckpt.free %e : tensor<4xf32>
  return %t : tensor<4xf32>
}
