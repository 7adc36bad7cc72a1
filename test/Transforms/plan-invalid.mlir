// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-plan="budget=79 slots=0 fit=model"
// RUN: not ckpt-opt %s --ckpt-plan="budget=lots fit=model" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not ckpt-opt %s --ckpt-plan="budget=12XB fit=model" 2>&1 | FileCheck %s --check-prefix=UNIT
// RUN: not ckpt-opt %s --ckpt-plan="budget=0% fit=model" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ckpt-opt %s --ckpt-plan="strategy=fastest fit=model" 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not ckpt-opt %s --ckpt-plan="strategy=periodic:0 fit=model" 2>&1 | FileCheck %s --check-prefix=PERIODIC
// RUN: not ckpt-opt %s --ckpt-plan="device=tpu fit=model" 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not ckpt-opt %s --ckpt-plan="slots=-1 fit=model" 2>&1 | FileCheck %s --check-prefix=SLOTS
// RUN: not ckpt-opt %s --ckpt-report="slots=-1" 2>&1 | FileCheck %s --check-prefix=SLOTS
// RUN: not ckpt-opt %s --ckpt-plan="profile=%S/Inputs/missing.json fit=model" 2>&1 | FileCheck %s --check-prefix=PROFILE
// RUN: not ckpt-opt %s --ckpt-plan="budget=1 slots=1 fit=model" 2>&1 | FileCheck %s --check-prefix=SLOTMIN
// RUN: not ckpt-opt %s --ckpt-plan="strategy=ilp time-limit=0" 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not ckpt-opt %s --ckpt-plan="strategy=ilp time-limit=-3" 2>&1 | FileCheck %s --check-prefix=TIME
// TIME: for the --time-limit option: '{{0|-3}}' is not a valid value: expected a positive number of seconds
// BUDGET: for the --budget option: invalid budget 'lots': expected a number of bytes with an optional unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, in any case) or a percentage of the store-all peak such as '70%'
// UNIT: for the --budget option: invalid budget '12XB'
// ZERO: for the --budget option: invalid budget '0%'
// STRATEGY: for the --strategy option: unknown strategy 'fastest': expected optimal, ilp, store-all, periodic:K, sqrt, revolve, memory-poor, articulation, speed, manual or keep
// PERIODIC: for the --strategy option: invalid strategy 'periodic:0': periodic:K needs an integer K >= 1
// fit=model is the chain model's: the strategies that plan a schedule without
// a chain (ilp, keep) refuse it rather than plan with fit=simulation.
// RUN: not ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="strategy=ilp fit=model" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ILPMODEL
// ILPMODEL: error: strategy 'ilp' failed: fit=model applies to the chain strategies; 'ilp' is a schedule, planned with fit=simulation
// DEVICE: for the --device option: 'tpu' is not a valid value: expected h100, a100, v100, cpu or gh200
// A misspelt fit is rejected, not read as the default.
// RUN: not ckpt-opt %s --ckpt-plan="fit=simulaton" 2>&1 | FileCheck %s --check-prefix=FIT
// FIT: for the --fit option: 'simulaton' is not a valid value: expected simulation or model
// SLOTS: for the --slots option: '-1' is not a valid value: expected 0 or a positive integer
// PROFILE: error: cannot read profile '{{.*}}missing.json'
// With one slot the budget is one unit and every size rounds up to it.
// SLOTMIN: error: budget of 1 B is infeasible for strategy 'optimal'

// The chain of plan.mlir: B2 holds 80 B in any schedule, so 79 B is infeasible.
// expected-error @+1 {{budget of 79 B is infeasible for strategy 'optimal': the least feasible budget is 80 B}}
ckpt.step @chain6(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %b = math.sin %a {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %c = math.cos %b {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %d = math.exp %c {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %e = math.sin %d {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32> to tensor<1xf32>
  %ge = arith.mulf %e, %e {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %gd = arith.mulf %ge, %d {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %gc = arith.mulf %gd, %c {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %gb = arith.mulf %gc, %b {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %ga = arith.mulf %gb, %a {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

ckpt.step @dynamic(%v: tensor<?xf32>, %l: f32) -> (f32, tensor<?xf32>) {
  // expected-error @+1 {{'math.exp' op has a dynamically shaped operand (#0: 'tensor<?xf32>'); the planner needs static shapes}}
  %x = math.exp %v : tensor<?xf32>
  ckpt.return %l, %x : f32, tensor<?xf32> loss(0)
}

// -----

ckpt.step @already_offloaded(%v: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %x = math.exp %v : tensor<4xf32>
  // expected-error @+1 {{ckpt-plan cannot plan a step that already moves values to host memory: plan the step as written, with offload=auto to move values}}
  %h, %off = ckpt.offload %x : tensor<4xf32>
  %r, %on = ckpt.reload %h after %off : tensor<4xf32>
  ckpt.wait %on
  ckpt.return %l, %r : f32, tensor<4xf32> loss(0)
}
