// RUN: ckpt-opt %s -verify-diagnostics --ckpt-print-analysis -o /dev/null
// RUN: ckpt-opt %s --ckpt-plan="budget=100% slots=0 fit=model" | FileCheck %s --check-prefix=MODEL-ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=144 slots=0 fit=model" | FileCheck %s --check-prefix=MODEL144
// RUN: not ckpt-opt %s --ckpt-plan="budget=143 slots=0 fit=model" 2>&1 | FileCheck %s --check-prefix=MODEL143
// RUN: ckpt-opt %s --ckpt-plan="budget=100%" | FileCheck %s --check-prefix=SIM-ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=128" | FileCheck %s --check-prefix=SIM128
// RUN: not ckpt-opt %s --ckpt-plan="budget=111" 2>&1 | FileCheck %s --check-prefix=SIM111
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
// Chain (stages {f1} {f2} {f3} {loss}): uf = [1, 1, 1, 1]; backward ops go
// to B4 (gc), B3 (gb), B2 (ga): ub = [0, 2, 2, 2]; wa = [0, 32, 32, 32, 4];
// wabar = [32, 32, 32, 4]; of = 0; ga (16 B, returned) is made by B2, so
// wdelta = [16, 48, 32, 32, 4] and ob = [0, 32 + 16, 32, 32].
// Store-all under the model (start: delta^4 = 4): Fall1 36, Fall2 68,
// Fall3 100, Fall4 104, B4 104 + 32 = 136 -> 128, B3 128 + 32 = 160 -> 96,
// B2 96 + 48 = 144 -> 80, B1 80: peak 160 (at B3), time 4 + 6 = 10.
// Least budget: drop a^1 from memory during B3 by recomputing stage 1:
// Fck1 36, Fn2 68 -> 36, Fall3 68, Fall4 72, B4 104 -> 96, B3 128 -> 32,
// Fall1 64, Fall2 96, B2 96 + 48 = 144 -> 80, B1 80: peak 144, time 12.
// B2 alone holds delta^2 + abar^2 + abar^1 + ob^2 = 32 + 32 + 32 + 48 = 144
// in any schedule, so 143 B is infeasible.

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

// fit=model: the percentage is of the model's store-all peak, 160 B.
// MODEL-ALL: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 160, peak = 160, time = 1.000000e+01, store_all_peak = 160, store_all_time = 1.000000e+01,
// MODEL-ALL-SAME: sequence = "Fall1 Fall2 Fall3 Fall4 B4 B3 B2 B1", simulated_peak = 144>
// MODEL144: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 144, peak = 144, time = 1.200000e+01, store_all_peak = 160,
// MODEL144-SAME: <index = 1, kind = "ck"
// MODEL144-SAME: <index = 2, kind = "none"
// MODEL144-SAME: sequence = "Fck1 Fn2 Fall3 Fall4 B4 B3 Fall1 Fall2 B2 B1", simulated_peak = 112>
// The opaque ops are stages: ckpt.stage on the forward ones only.
// MODEL144: ckpt.opaque "f1"{{.*}}ckpt.stage = 1 : i64
// MODEL144: ckpt.opaque "f2"{{.*}}ckpt.stage = 2 : i64
// MODEL144: ckpt.opaque "f3"{{.*}}ckpt.stage = 3 : i64
// MODEL144: ckpt.opaque "loss"{{.*}}ckpt.stage = 4 : i64
// MODEL144-NOT: ckpt.stage
// MODEL143: error: budget of 143 B is infeasible for strategy 'optimal': the least feasible budget is 144 B

// fit=simulation (the default): the percentage is of the step as written,
// 144 B. Under 128 B the store-all step (144 B) does not fit; the plan
// above does. Its rewrite (REMAT, by hand): f2's recomputation is pruned
// (f1_backward reads only a), so f1 alone runs again, inside a region.
// With frees: a [0,2], b [1,9], c [3,6], l [4,end], gc [5,8], gb [7,13],
// a' [10,12], ga [11,end]; live #5..#8 = b + c|gb + l + gc = 112: the peak.
// SIM-ALL: budget = 144, peak = 160, time = 1.000000e+01
// SIM-ALL-SAME: simulated_peak = 144>
// SIM128: budget = 128, peak = 144, time = 1.200000e+01
// SIM128-SAME: sequence = "Fck1 Fn2 Fall3 Fall4 B4 B3 Fall1 Fall2 B2 B1", simulated_peak = 112>
// SIM111: error: budget of 111 B is infeasible for strategy 'optimal': the least feasible budget is 112 B

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
// REMAT-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) {instance = 1 : i64, stage = 1 : i64} : (tensor<4xf32>) -> tensor<8xf32> {
// REMAT-NEXT:    ^bb0(%[[IN:.*]]: tensor<4xf32>):
// REMAT-NEXT:      %[[R:.*]] = ckpt.opaque "f1"(%[[IN]]) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.000000e+00>} : (tensor<4xf32>) -> tensor<8xf32>
// REMAT-NEXT:      ckpt.yield %[[R]] : tensor<8xf32>
// REMAT-NEXT:    }
// REMAT-NEXT:    %[[GA:.*]] = ckpt.opaque "f1_backward"(%[[GB]], %[[A2]])
// REMAT-NEXT:    ckpt.free %[[A2]] : tensor<8xf32>
// REMAT-NEXT:    ckpt.free %[[GB]] : tensor<8xf32>
// REMAT-NEXT:    ckpt.return %[[L]], %[[GA]] : tensor<1xf32>, tensor<4xf32> loss(0)

// 112 / 144 = 77.8%, 144 / 160 = 90.0%, (12 - 10) / 10 = +20.0%.
// REPORT: remark: ckpt: 'opaque_chain' with optimal under 144 B: predicted peak 112 B (77.8% of the step as written), chain-model peak 144 B (90.0% of store-all), time +20.0%, 4 stages
