// A module with nothing to wrap says so, as a warning at the module: the
// module is unchanged. ckpt-plan then finds no step either, which is an error
// naming what to add unless allow-no-step=true. An empty file is such a
// module. A bad budget or strategy is an error even without a step (a
// strategy when the options are parsed).
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-wrap-step --ckpt-plan=allow-no-step=true | FileCheck %s
// RUN: not ckpt-opt %S/Inputs/empty.mlir --ckpt-wrap-step --ckpt-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.mlir:0:0: warning: ckpt-wrap-step: nothing to wrap: no function carries 'ckpt.loss' and neither loss-index nor func is given
// EMPTY-NEXT: empty.mlir:0:0: error: ckpt-plan: no ckpt.step to plan: mark the loss result of the training function with 'ckpt.loss = <result index>' (ckpt-wrap-step then makes a step of it), or pass allow-no-step=true to accept a module without one
// RUN: ckpt-opt %S/Inputs/empty.mlir --ckpt-wrap-step --ckpt-plan=allow-no-step=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOWED
// ALLOWED: warning: ckpt-wrap-step: nothing to wrap
// ALLOWED-NOT: error
// RUN: not ckpt-opt %S/Inputs/empty.mlir --ckpt-plan="budget=banana allow-no-step=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: for the --budget option: invalid budget 'banana'
// RUN: not ckpt-opt %S/Inputs/empty.mlir --ckpt-plan="strategy=banana allow-no-step=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: for the --strategy option: unknown strategy 'banana': expected optimal, ilp,

// expected-warning @below {{ckpt-wrap-step: nothing to wrap: no function carries 'ckpt.loss' and neither loss-index nor func is given}}
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
