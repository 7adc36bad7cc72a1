// A module with nothing to wrap says so, as a warning at the module: the
// run succeeds and the module is unchanged. Then ckpt-plan, which finds no
// step either. An empty file is such a module (second RUN line).
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-wrap-step --ckpt-plan | FileCheck %s
// RUN: ckpt-opt %S/Inputs/empty.mlir --ckpt-wrap-step --ckpt-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.mlir:0:0: warning: ckpt-wrap-step: nothing to wrap: no function carries 'ckpt.loss' and neither loss-index nor func is given
// EMPTY-NEXT: empty.mlir:0:0: warning: ckpt-plan: no ckpt.step to plan (ckpt-wrap-step makes one from a function whose loss result is marked with 'ckpt.loss')

// expected-warning @below {{ckpt-wrap-step: nothing to wrap: no function carries 'ckpt.loss' and neither loss-index nor func is given}}
// expected-warning @below {{ckpt-plan: no ckpt.step to plan (ckpt-wrap-step makes one from a function whose loss result is marked with 'ckpt.loss')}}
module {
  // CHECK-LABEL: func.func @no_loss
  // CHECK-NEXT: return %arg0
  func.func @no_loss(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

// -----

// A module that already holds a step has nothing left to wrap, and no
// warning: wrapping twice is harmless.
// CHECK-LABEL: ckpt.step @already
module {
  ckpt.step @already(%a: f32) -> f32 {
    %x = arith.mulf %a, %a : f32
    ckpt.return %x : f32 loss(0)
  }
}
