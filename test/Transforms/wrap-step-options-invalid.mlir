// Errors that depend on the pass options.
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-wrap-step="loss-index=0"

// expected-error @+1 {{'ckpt.loss' = 1 disagrees with the pass option loss-index=0}}
func.func @disagree(%a: f32, %b: f32) -> (f32, f32) attributes {ckpt.loss = 1 : i64} {
  return %a, %b : f32, f32
}

// -----

// expected-error @+1 {{loss index 0 is out of range: the function returns 0 values}}
func.func @no_results(%a: f32) {
  return
}
