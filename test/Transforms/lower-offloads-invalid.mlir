// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(ckpt-lower-offloads))"

// An event that leaves the function: the CPU has no event to give.
func.func @event_returned(%x: tensor<4xf32>) -> !ckpt.event {
  // expected-error @+1 {{'ckpt.offload' op host copy or event is used by an op other than ckpt.reload and ckpt.wait}}
  %h, %off = ckpt.offload %x : tensor<4xf32>
  return %off : !ckpt.event
}

// -----

func.func @reload_event_returned(%x: tensor<4xf32>) -> !ckpt.event {
  %h, %off = ckpt.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.reload' op event is used by an op other than ckpt.wait}}
  %r, %on = ckpt.reload %h after %off : tensor<4xf32>
  return %on : !ckpt.event
}
