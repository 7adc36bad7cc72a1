// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-reject-opaque | FileCheck %s --check-prefix=OK
// Every ckpt.opaque op is an error at the op, nested ones included; the run
// fails.
// RUN: not ckpt-opt %s -split-input-file --ckpt-reject-opaque -o /dev/null 2>&1 | FileCheck %s
// CHECK: reject-opaque.mlir:[[# @LINE + 5]]:8: error: 'ckpt.opaque' op "aten.foo" has no lowering: it stands for an op the importer could not translate; the step can be planned but not executed

ckpt.step @step(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.opaque' op "aten.foo" has no lowering: it stands for an op the importer could not translate; the step can be planned but not executed}}
  %b = ckpt.opaque "aten.foo"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %l = tensor.extract_slice %b[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l, %b : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// Inside a recompute region and in a plain function.
ckpt.step @nested(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %r = ckpt.recompute (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'ckpt.opaque' op "f1" has no lowering}}
    %b = ckpt.opaque "f1"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    ckpt.yield %b : tensor<4xf32>
  }
  %l = tensor.extract_slice %r[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l, %r : tensor<1xf32>, tensor<4xf32> loss(0)
}

func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op "f2" has no lowering}}
  %b = ckpt.opaque "f2"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// Without opaque ops nothing changes.
// OK-LABEL: ckpt.step @fine(
// OK-NEXT:    math.exp
ckpt.step @fine(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l, %a : tensor<1xf32>, tensor<4xf32> loss(0)
}
