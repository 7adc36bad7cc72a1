// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-prepare-entry
// RUN: not ckpt-opt %s -split-input-file --ckpt-prepare-entry="func=missing" 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED: error: ckpt-prepare-entry: no function named 'missing'

// expected-error @+1 {{ckpt-run supports static tensors of f32, f64, i32 and i64, got 'tensor<4xf16>' (argument #1 of 'half')}}
func.func @half(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{ckpt-run supports static tensors of f32, f64, i32 and i64, got 'tensor<?xf32>' (argument #0 of 'dynamic')}}
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

// -----

// expected-error @+1 {{ckpt-run supports static tensors of f32, f64, i32 and i64, got 'f32' (result #1 of 'scalar')}}
func.func @scalar(%a: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4xf32>, f32) {
  %c = arith.constant 1.0 : f32
  return %a, %c : tensor<4xf32>, f32
}

// -----

// expected-error @+1 {{ckpt-run supports static tensors of f32, f64, i32 and i64, got 'tensor<4xi8>' (argument #0 of 'bytes')}}
func.func @bytes(%a: tensor<4xi8>) {
  return
}

// -----

// expected-error @+1 {{ckpt-run supports static tensors of f32, f64, i32 and i64, got 'memref<4xf32>' (argument #0 of 'buffer')}}
func.func @buffer(%a: memref<4xf32>) {
  return
}
