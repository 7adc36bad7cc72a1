// RUN: ckpt-opt %s -split-input-file -verify-diagnostics

func.func @used_before_wait(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h, %off = ckpt.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.reload' op result is used before a ckpt.wait on its event in this block}}
  %r, %on = ckpt.reload %h after %off : tensor<4xf32>
  // expected-note @+1 {{use is here}}
  %y = math.exp %r : tensor<4xf32>
  ckpt.wait %on
  return %y : tensor<4xf32>
}

// -----

func.func @waited_on_another_event(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h, %off = ckpt.offload %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.reload' op result is used before a ckpt.wait on its event in this block}}
  %r, %on = ckpt.reload %h after %off : tensor<4xf32>
  ckpt.wait %off
  // expected-note @+1 {{use is here}}
  return %r : tensor<4xf32>
}

// -----

func.func @not_after_its_offload(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %h, %off = ckpt.offload %x : tensor<4xf32>
  %g, %off2 = ckpt.offload %y : tensor<4xf32>
  // expected-error @+1 {{'ckpt.reload' op must reload after the event of the ckpt.offload that made its host copy}}
  %r, %on = ckpt.reload %h after %off2 : tensor<4xf32>
  return
}

// -----

func.func @host_from_elsewhere(%h: !ckpt.host<tensor<4xf32>>, %e: !ckpt.event) {
  // expected-error @+1 {{'ckpt.reload' op must reload after the event of the ckpt.offload that made its host copy}}
  %r, %on = ckpt.reload %h after %e : tensor<4xf32>
  return
}

// -----

func.func @wrong_host_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ckpt.offload' op failed to verify that the host copy holds the value's type}}
  %h, %off = "ckpt.offload"(%x) : (tensor<4xf32>) -> (!ckpt.host<tensor<8xf32>>, !ckpt.event)
  return
}

// -----

func.func @no_event() {
  // expected-error @+1 {{'ckpt.wait' op needs at least one event}}
  ckpt.wait
  return
}
