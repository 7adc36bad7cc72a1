// RUN: ckpt-opt %s --ckpt-plan="budget=100% slots=0" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=64 slots=0" | FileCheck %s --check-prefix=OPT64
// RUN: ckpt-opt %s --ckpt-plan="budget=80%" | FileCheck %s --check-prefix=OPT64
// RUN: ckpt-opt %s --ckpt-plan="budget=1KiB" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 strategy=periodic:2" | FileCheck %s --check-prefix=PERIODIC
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 strategy=sqrt" | FileCheck %s --check-prefix=PERIODIC
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 strategy=revolve" | FileCheck %s --check-prefix=REVOLVE
// RUN: ckpt-opt %s --ckpt-plan="budget=64 slots=0 strategy=memory-poor" | FileCheck %s --check-prefix=POOR
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 strategy=store-all" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 strategy=articulation" | FileCheck %s --check-prefix=ART
// The device only matters for ops without a cost; every op here has one.
// RUN: ckpt-opt %s --ckpt-plan="budget=64 slots=0 device=cpu" | FileCheck %s --check-prefix=OPT64

// A four-stage chain with hand-set costs: a = exp(x), b = sin(a), c = cos(b),
// the loss l = c[0]; the backward reads c, then b, then a (ga is returned,
// a parameter gradient). Each separator is one 16 B tensor, the loss 4 B.
// Chain (stage: uf, ub): 1: 1, 2; 2: 1, 2; 3: 1, 2; 4 (loss): 1, 0.
//   wa = [0, 16, 16, 16, 4]; wabar = [16, 16, 16, 4]; of = 0;
//   wdelta = [16, 16, 16, 16, 4] (delta^0 carries ga, 16 B);
//   ob = max(backward peak, wdelta[l-1]) = 16 for every stage.
// Store-all Fall1..Fall4 B4..B1, memory before/after each op (start: delta^4 = 4):
//   Fall1 20, Fall2 36, Fall3 52, Fall4 56, B4 56+16 = 72 -> 64,
//   B3 64+16 = 80 -> 48, B2 64 -> 32, B1 48 -> 16: peak 80, time 4 + 6 = 10.
// ALL: ckpt.step @chain4
// ALL-SAME: ckpt.plan = #ckpt.plan<strategy = "{{optimal|store-all}}", budget = {{80|1024}}, peak = 80, time = 1.000000e+01, store_all_peak = 80, store_all_time = 1.000000e+01,
// ALL-SAME: stages = [<index = 1, kind = "all", ops = 1, forward = 1.000000e+00, backward = 2.000000e+00, input_bytes = 0, saved_bytes = 16>,
// ALL-SAME: <index = 2, kind = "all", ops = 1, forward = 1.000000e+00, backward = 2.000000e+00, input_bytes = 16, saved_bytes = 16>,
// ALL-SAME: <index = 3, kind = "all", ops = 1, forward = 1.000000e+00, backward = 2.000000e+00, input_bytes = 16, saved_bytes = 16>,
// ALL-SAME: <index = 4, kind = "all", ops = 1, forward = 1.000000e+00, backward = 0.000000e+00, input_bytes = 16, saved_bytes = 4>],
// ALL-SAME: sequence = "Fall1 Fall2 Fall3 Fall4 B4 B3 B2 B1">
// ALL: math.exp %{{.*}} {ckpt.cost = {{.*}}, ckpt.stage = 1 : i64}
// ALL: math.sin %{{.*}} {ckpt.cost = {{.*}}, ckpt.stage = 2 : i64}
// ALL: math.cos %{{.*}} {ckpt.cost = {{.*}}, ckpt.stage = 3 : i64}
// ALL: tensor.extract_slice {{.*}}ckpt.stage = 4 : i64
// Backward ops carry no stage.
// ALL-NOT: ckpt.stage

// Budget 64 = 80% of 80. During B3 the memory holds delta^3, abar^3, a^2
// and o_b: 4 x 16 = 64, so nothing else may be held then: stage 1 must be
// recomputed after B3, and since only F_none frees its input (and it keeps a
// plain a), a^2 is plain at B3 and stage 2 must be recomputed too: two
// extra forwards, time 12. The sequence, by hand:
//   Fck1 20, Fn2 36 -> 20, Fall3 36, Fall4 40, B4 56 -> 48, B3 64 -> 16,
//   Fall1 32, Fall2 48, B2 64 -> 32, B1 48: peak 64.
// OPT64: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 64, time = 1.200000e+01, store_all_peak = 80,
// OPT64-SAME: <index = 1, kind = "ck"
// OPT64-SAME: <index = 2, kind = "none"
// OPT64-SAME: <index = 3, kind = "all"
// OPT64-SAME: sequence = "Fck1 Fn2 Fall3 Fall4 B4 B3 Fall1 Fall2 B2 B1">

// checkpoint_sequential with 2 segments over the 3 non-loss stages: one
// checkpointed segment of 1 stage, then Fall for the rest: Fck1 Fall2 Fall3
// Fall4 B4 B3 B2 Fall1 B1; stage 1 runs twice: time 11; B3 still sees
// a^1 + abar^2 + abar^3 + delta^3 + o_b = 80. sqrt: K = round(sqrt(3)) = 2.
// PERIODIC: peak = 80, time = 1.100000e+01
// PERIODIC-SAME: sequence = "Fck1 Fall2 Fall3 Fall4 B4 B3 B2 Fall1 B1">

// revolve keeps plain a's and runs Fall right before each B: 7 forwards.
// Fck1 20, Fck2 36, Fck3 52, Fall4 56, B4 72 -> 48, Fall3 64, B3 80 -> 32 ...
// REVOLVE: peak = 80, time = 1.300000e+01
// REVOLVE-SAME: sequence = "Fck1 Fck2 Fck3 Fall4 B4 Fall3 B3 Fall2 B2 Fall1 B1">

// memory-poor recomputes from a^0 before each backward: 4+3+2+1 forwards.
// POOR: peak = 64, time = 1.600000e+01
// POOR-SAME: sequence = "Fck1 Fn2 Fn3 Fall4 B4 Fck1 Fn2 Fall3 B3 Fck1 Fall2 B2 Fall1 B1">

// Every value of this chain is an articulation point: the same chain, and
// 80 B fit storing everything.
// ART: ckpt.plan = #ckpt.plan<strategy = "articulation", budget = 80, peak = 80, time = 1.000000e+01
// ART-SAME: sequence = "Fall1 Fall2 Fall3 Fall4 B4 B3 B2 B1">
ckpt.step @chain4(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %b = math.sin %a {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %c = math.cos %b {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %l = tensor.extract_slice %c[0] [1] [1] {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32> to tensor<1xf32>
  %gc = arith.mulf %c, %c {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %gb = arith.mulf %gc, %b {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %ga = arith.mulf %gb, %a {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}
