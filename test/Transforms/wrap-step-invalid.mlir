// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-wrap-step
// RUN: not ckpt-opt %s -split-input-file --ckpt-wrap-step="func=missing" 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED-NOT: see current operation
// NAMED: error: no function named 'missing' to wrap into a training step

// expected-error @+1 {{cannot wrap a function declaration: a training step needs a body}}
func.func private @declared(f32) -> f32 attributes {ckpt.loss = 0 : i64}

// -----

// expected-error @+1 {{cannot wrap a function with 2 blocks: a training step has a single block}}
func.func @two_blocks(%x: f32) -> f32 attributes {ckpt.loss = 0 : i64} {
  cf.br ^next
^next:
  return %x : f32
}

// -----

// expected-error @+1 {{the loss (result #0) must be a float scalar or a float tensor of one element, got 'tensor<4xf32>'}}
func.func @loss_not_scalar(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ckpt.loss = 0 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{cannot wrap 'called': it is referenced, and a training step cannot be called}}
func.func @called(%x: f32) -> f32 attributes {ckpt.loss = 0 : i64} {
  return %x : f32
}
func.func @caller(%x: f32) -> f32 {
  // expected-note @+1 {{referenced here}}
  %r = call @called(%x) : (f32) -> f32
  return %r : f32
}
