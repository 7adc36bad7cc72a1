// RUN: ckpt-opt %s -verify-diagnostics --ckpt-print-analysis -o /dev/null
// RUN: ckpt-opt %s --ckpt-plan="budget=100% slots=0 fit=model" | FileCheck %s --check-prefix=MODEL-ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=144 slots=0 fit=model" | FileCheck %s --check-prefix=MODEL144
// RUN: not ckpt-opt %s --ckpt-plan="budget=143 slots=0 fit=model" 2>&1 | FileCheck %s --check-prefix=MODEL143
// RUN: ckpt-opt %s --ckpt-plan="budget=100%" | FileCheck %s --check-prefix=SIM-ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=128" | FileCheck %s --check-prefix=SIM128
// RUN: ckpt-opt %s --ckpt-plan="budget=111" | FileCheck %s --check-prefix=SIM111
// RUN: not ckpt-opt %s --ckpt-plan="budget=95" 2>&1 | FileCheck %s --check-prefix=SIM95
// RUN: ckpt-opt %s --ckpt-plan="budget=128" --ckpt-rematerialize --ckpt-insert-frees | FileCheck %s --check-prefix=REMAT
// RUN: ckpt-opt %s --ckpt-plan="budget=144 slots=0 fit=model" --ckpt-report="slots=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// A training step made of ckpt.opaque ops only, as the graph importer emits
// it: three forward ops f1, f2, f3 (8 x f32 = 32 B each), the loss (4 B, 16
// B allocated), and the backward f3_backward (reads l, c), f2_backward
// (reads gc, b), f1_backward (reads gb, a; 4 x f32 = 16 B, returned). Times
// come from ckpt.cost: 1 per forward op, 2 per backward op. Every opaque
// result is a new buffer (no in-place reuse).
//
// Memory of the step as written, by hand (16 B alignment; buffer [def, last use]):
//   a [0,6], b [1,5], c [2,4], l [3,end], gc [4,5], gb [5,6], ga [6,end].
//   live: #0 32, #1 64, #2 96, #3 112, #4 144, #5 144 (c freed), #6 96.
//
// fit=simulation (the default): the percentage is of the step as written,
// 144 B. Under 128 B some 32 B buffer must be off memory at #4 and #5: a,
// recomputed (f1, cost 1) before f1_backward, is the cheapest: a [0,1],
// b [1,5], c [2,4], l [3,end], gc [4,5], gb [5,7], a' [6,7], ga [7,end];
// live #4 = b + c + l + gc = 112, #5 = b + l + gc + gb = 112: peak 112,
// time 11. No schedule does better: at f2_backward gc, b, gb and the
// returned l are 112 B.
//
// Under 112 B the returned l must be off memory at f2_backward, so it is
// recomputed after the backward (f2, f3, loss again, from a, as f1_backward
// reads it). Then b is off memory at f1_backward (gb + a + ga + b = 112) and
// at f3_backward (l + c + gc + b = 112): f1 and f2 run again before
// f2_backward; and a is off memory at f2_backward (gc + b + gb + a = 128):
// f1 runs again before f1_backward. Six recomputations, time 16, peak 96
// at f2 again and f2_backward (live by hand: #0 32, #1 64, #2 64, #3 48,
// #4 80, f1 64, f2 96, #5 96, f1 64, #6 80, f2 80, f3 80, loss 64).
// f2_backward alone reads and writes 96 B, so 95 B is infeasible.
//
// fit=model: the chain (stages {f1} {f2} {f3} {loss}): uf = [1, 1, 1, 1];
// ub = [0, 2, 2, 2]; wa = [0, 32, 32, 32, 16]; wabar = [32, 32, 32, 16];
// ga (16 B, returned) is made by B2, so wdelta = [16, 48, 32, 32, 16] and
// ob = [0, 32 + 16, 32, 32]. Store-all (start: delta^4 = 16): Fall1 48,
// Fall2 80, Fall3 112, Fall4 128, B4 160 -> 128, B3 160 -> 96, B2 144 -> 80:
// the percentage is of 160 B. B2 alone holds delta^2 + abar^2 + abar^1 +
// ob^2 = 32 + 32 + 32 + 48 = 144 in any chain schedule: 143 B is
// infeasible for the model; at 144 B its sequence (Fck1 Fn2 Fall3 Fall4 B4
// B3 Fall1 Fall2 B2 B1) is the schedule above once f2's unread
// recomputation is pruned.

// expected-remark @+1 {{forward ops: 4, backward ops: 3, activations: 4 (100 B), peak 144 B at #4}}
ckpt.step @opaque_chain(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  // expected-remark @+1 {{#0 forward, activation, allocates 32 B, live 32 B}}
  %a = ckpt.opaque "f1"(%x) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<4xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{#1 forward, activation, allocates 32 B, live 64 B}}
  %b = ckpt.opaque "f2"(%a) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{#2 forward, activation, allocates 32 B, live 96 B}}
  %c = ckpt.opaque "f3"(%b) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{#3 forward, activation, allocates 16 B, live 112 B}}
  %l = ckpt.opaque "loss"(%c) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<8xf32>) -> tensor<1xf32>
  // expected-remark @+1 {{#4 backward, allocates 32 B, live 144 B}}
  %gc = ckpt.opaque "f3_backward"(%l, %c) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{#5 backward, allocates 32 B, live 144 B}}
  %gb = ckpt.opaque "f2_backward"(%gc, %b) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{#6 backward, allocates 16 B, live 96 B}}
  %ga = ckpt.opaque "f1_backward"(%gb, %a) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}

// MODEL-ALL: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 160, peak = 144, time = 1.000000e+01, store_all_peak = 144, store_all_time = 1.000000e+01, schedule = [0, 1, 2, 3, 4, 5, 6]>
// MODEL144: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 144, peak = 112, time = 1.100000e+01, store_all_peak = 144, store_all_time = 1.000000e+01, schedule = [0, 1, 2, 3, 4, 5, 0, 6]>
// MODEL143: error: budget of 143 B is infeasible for strategy 'optimal': the least feasible budget is 144 B
// SIM-ALL: budget = 144, peak = 144, time = 1.000000e+01, store_all_peak = 144, store_all_time = 1.000000e+01, schedule = [0, 1, 2, 3, 4, 5, 6]>
// SIM128: budget = 128, peak = 112, time = 1.100000e+01, store_all_peak = 144, store_all_time = 1.000000e+01, schedule = [0, 1, 2, 3, 4, 5, 0, 6]>
// SIM111: budget = 111, peak = 96, time = 1.600000e+01, store_all_peak = 144, store_all_time = 1.000000e+01, schedule = [0, 1, 2, 3, 4, 0, 1, 5, 0, 6, 1, 2, 3]>
// SIM95: error: budget of 95 B is infeasible for strategy 'optimal': the least feasible budget is 96 B

// The rewrite at 128 B, frees by hand from the buffers above: a after f2,
// c after f3_backward, gc and b after f2_backward, then f1 again in a region,
// a' and gb after f1_backward.
// REMAT-LABEL: ckpt.step @opaque_chain(
// REMAT-SAME:      %[[X:.*]]: tensor<4xf32>)
// REMAT-NEXT:    %[[A:.*]] = ckpt.opaque "f1"(%[[X]])
// REMAT-NEXT:    %[[B:.*]] = ckpt.opaque "f2"(%[[A]])
// REMAT-NEXT:    ckpt.free %[[A]] : tensor<8xf32>
// REMAT-NEXT:    %[[C:.*]] = ckpt.opaque "f3"(%[[B]])
// REMAT-NEXT:    %[[L:.*]] = ckpt.opaque "loss"(%[[C]])
// REMAT-NEXT:    %[[GC:.*]] = ckpt.opaque "f3_backward"(%[[L]], %[[C]])
// REMAT-NEXT:    ckpt.free %[[C]] : tensor<8xf32>
// REMAT-NEXT:    %[[GB:.*]] = ckpt.opaque "f2_backward"(%[[GC]], %[[B]])
// REMAT-NEXT:    ckpt.free %[[GC]] : tensor<8xf32>
// REMAT-NEXT:    ckpt.free %[[B]] : tensor<8xf32>
// REMAT-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) : (tensor<4xf32>) -> tensor<8xf32> {
// REMAT-NEXT:    ^bb0(%[[IN:.*]]: tensor<4xf32>):
// REMAT-NEXT:      %[[R:.*]] = ckpt.opaque "f1"(%[[IN]]) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.000000e+00>} : (tensor<4xf32>) -> tensor<8xf32>
// REMAT-NEXT:      ckpt.yield %[[R]] : tensor<8xf32>
// REMAT-NEXT:    }
// REMAT-NEXT:    %[[GA:.*]] = ckpt.opaque "f1_backward"(%[[GB]], %[[A2]])
// REMAT-NEXT:    ckpt.free %[[A2]] : tensor<8xf32>
// REMAT-NEXT:    ckpt.free %[[GB]] : tensor<8xf32>
// REMAT-NEXT:    ckpt.return %[[L]], %[[GA]] : tensor<1xf32>, tensor<4xf32> loss(0)

// 112 / 144 = 77.8%, (11 - 10) / 10 = +10.0%.
// REPORT: remark: ckpt: 'opaque_chain' with optimal under 144 B: peak 112 B (77.8% of the store-all peak), time 11 s (+10.0%), 1 recomputation
