// ckpt.opaque has no lowering: both lowerings stop at their first pass, with
// one error at each opaque op (nested ones included) and nothing else (no
// bufferization error: -verify-diagnostics rejects unexpected ones).
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-lower-to-cpu
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-lower-to-cpu=dealloc=upstream
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-lower-to-nvptx=format=isa
// The run fails (exit code 1) with the message at the op.
// RUN: not ckpt-opt %s -split-input-file --ckpt-lower-to-cpu 2>&1 | FileCheck %s
// CHECK: lower-opaque-invalid.mlir:[[# @LINE + 6]]:8: error: 'ckpt.opaque' op "aten.foo" has no lowering: it stands for an op the importer could not translate; the step can be planned but not executed
// CHECK: lower-opaque-invalid.mlir:[[# @LINE + 17]]:8: error: 'ckpt.opaque' op "f1" has no lowering

ckpt.step @step(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.opaque' op "aten.foo" has no lowering: it stands for an op the importer could not translate; the step can be planned but not executed}}
  %b = ckpt.opaque "aten.foo"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %l = tensor.extract_slice %b[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %g = arith.mulf %b, %a : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// A rematerialized step: the recomputed copy is reported too, and so is an
// opaque op in a plain function.
ckpt.step @recomputed(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'ckpt.opaque' op "f1" has no lowering}}
  %a = ckpt.opaque "f1"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.free %a : tensor<4xf32>
  %r = ckpt.recompute (%x) {stage = 1 : i64, instance = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: tensor<4xf32>):
    // expected-error @+1 {{'ckpt.opaque' op "f1" has no lowering}}
    %c = ckpt.opaque "f1"(%in) : (tensor<4xf32>) -> tensor<4xf32>
    ckpt.yield %c : tensor<4xf32>
  }
  %g = arith.mulf %r, %r : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}

func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op "aten.bar" has no lowering}}
  %y = ckpt.opaque "aten.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
