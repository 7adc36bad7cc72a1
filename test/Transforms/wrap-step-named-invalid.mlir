// RUN: ckpt-opt %s -verify-diagnostics --ckpt-wrap-step="func=unmarked"

// expected-error @+1 {{cannot wrap 'unmarked': no loss given (set 'ckpt.loss' on the function or the pass option loss-index)}}
func.func @unmarked(%a: f32) -> f32 {
  return %a : f32
}
