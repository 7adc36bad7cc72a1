// RUN: ckpt-opt %s --ckpt-plan="budget=100% slots=0 fit=model" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=1KiB fit=model" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=112 slots=0 strategy=store-all fit=model" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=96 slots=0 fit=model" | FileCheck %s --check-prefix=OPT96
// RUN: ckpt-opt %s --ckpt-plan="budget=100 slots=0 device=cpu fit=model" | FileCheck %s --check-prefix=OPT96
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 fit=model" | FileCheck %s --check-prefix=OPT80
// 80 B = 71.4% of 112 B: 71.43% rounds down to 80 B.
// RUN: ckpt-opt %s --ckpt-plan="budget=71.43% fit=model" | FileCheck %s --check-prefix=OPT80
// RUN: ckpt-opt %s --ckpt-plan="budget=112 slots=0 strategy=periodic:2 fit=model" | FileCheck %s --check-prefix=PERIODIC
// RUN: ckpt-opt %s --ckpt-plan="budget=112 slots=0 strategy=sqrt fit=model" | FileCheck %s --check-prefix=PERIODIC
// RUN: ckpt-opt %s --ckpt-plan="budget=112 slots=0 strategy=revolve fit=model" | FileCheck %s --check-prefix=REVOLVE
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 strategy=memory-poor fit=model" | FileCheck %s --check-prefix=POOR
// RUN: ckpt-opt %s --ckpt-plan="budget=112 slots=0 strategy=articulation fit=model" | FileCheck %s --check-prefix=ART

// A six-stage chain with hand-set costs: a = exp(x), b = sin(a), c = cos(b),
// d = exp(c), e = sin(d), the loss l = e[0]; the backward ge, gd, gc, gb, ga
// reads e, d, c, b, a (ga is returned, like a parameter gradient). Every
// separator is one 16 B tensor, the loss 4 B.
// Backward stages: B^l may read a^{l-1} (the separator before stage l), so
// ge (reads e = a^5) runs in B6, gd in B5, gc in B4, gb in B3, ga in B2.
// Chain (stage: uf, ub): 1: 1, 0; 2..6: 1, 2.
//   wa = [0, 16, 16, 16, 16, 16, 4]; wabar = [16, 16, 16, 16, 16, 4]; of = 0;
//   wdelta = [16, 32, 16, 16, 16, 16, 4]: ga (16 B, returned) is made by B2
//   and stays, so it rides along with delta^1 and delta^0;
//   ob = max(B^l's own peak, wa[l-1] + returned bytes of B^l) = [0, 32, 16, 16, 16, 16].
// Store-all, memory while each op runs -> after it (start: delta^6 = 4):
//   Fall1 20, Fall2 36, Fall3 52, Fall4 68, Fall5 84, Fall6 88,
//   B6 104 -> 96, B5 112 -> 80, B4 96 -> 64, B3 80 -> 48, B2 80 -> 48, B1 48:
//   peak 112, time 6 + 10 = 16.
// ALL: ckpt.step @chain6
// ALL-SAME: ckpt.plan = #ckpt.plan<strategy = "{{optimal|store-all}}", budget = {{112|1024}}, peak = 112, time = 1.600000e+01, store_all_peak = 112, store_all_time = 1.600000e+01,
// ALL-SAME: stages = [<index = 1, kind = "all", ops = 1, forward = 1.000000e+00, backward = 0.000000e+00, input_bytes = 0, saved_bytes = 16>,
// ALL-SAME: <index = 2, kind = "all", ops = 1, forward = 1.000000e+00, backward = 2.000000e+00, input_bytes = 16, saved_bytes = 16>,
// ALL-SAME: <index = 6, kind = "all", ops = 1, forward = 1.000000e+00, backward = 2.000000e+00, input_bytes = 16, saved_bytes = 4>],
// ALL-SAME: sequence = "Fall1 Fall2 Fall3 Fall4 Fall5 Fall6 B6 B5 B4 B3 B2 B1"
// ALL: math.exp %{{.*}} {ckpt.cost = {{.*}}, ckpt.stage = 1 : i64}
// ALL: math.sin %{{.*}} {ckpt.cost = {{.*}}, ckpt.stage = 2 : i64}
// ALL: math.cos %{{.*}} {ckpt.cost = {{.*}}, ckpt.stage = 3 : i64}
// ALL: tensor.extract_slice {{.*}}ckpt.stage = 6 : i64
// Backward ops carry no stage.
// ALL-NOT: ckpt.stage

// Budget 96. The store-all peak is at B5: delta^5, abar^5, a^4, o_b and
// the 48 B of stages 1-3. Getting 16 B lower needs one of them off memory
// at B5; only F_none frees its input and it keeps a plain a, so the stage
// it frees and the stage after must both be recomputed: time 18. By hand:
//   Fall1 20, Fall2 36, Fck3 52, Fn4 68 -> 52, Fall5 68, Fall6 72,
//   B6 88 -> 80, B5 96 -> 48, Fall3 64, Fall4 80, B4 96 -> 64, B3 80 -> 48,
//   B2 80 -> 48, B1 48: peak 96.
// OPT96: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = {{96|100}}, peak = 96, time = 1.800000e+01, store_all_peak = 112,
// OPT96-SAME: <index = 3, kind = "ck"
// OPT96-SAME: <index = 4, kind = "none"
// OPT96-SAME: sequence = "Fall1 Fall2 Fck3 Fn4 Fall5 Fall6 B6 B5 Fall3 Fall4 B4 B3 B2 B1"

// Budget 80, the least: B2 alone holds delta^2 + abar^2 + a^1 + o_b =
// 16 + 16 + 16 + 32 = 80 in any schedule. By hand:
//   Fck1 20, Fn2 36 -> 20, Fn3 36 -> 20, Fall4 36, Fall5 52, Fall6 56,
//   B6 72 -> 64, B5 80 -> 48, B4 64 -> 16, Fall1 32, Fall2 48, Fall3 64,
//   B3 80 -> 48, B2 80 -> 48, B1 48: peak 80, 9 forwards: time 19.
// OPT80: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 1.900000e+01, store_all_peak = 112,
// OPT80-SAME: sequence = "Fck1 Fn2 Fn3 Fall4 Fall5 Fall6 B6 B5 B4 Fall1 Fall2 Fall3 B3 B2 B1"

// checkpoint_sequential with 2 segments over the 5 non-loss stages: one
// checkpointed segment of floor(5/2) = 2 stages, then Fall for the rest.
//   Fck1 20, Fn2 36 -> 20, Fall3 36, Fall4 52, Fall5 68, Fall6 72,
//   B6 88 -> 80, B5 96 -> 64, B4 80 -> 48, B3 64 -> 16, Fall1 32, Fall2 48,
//   B2 80 -> 48, B1 48: peak 96, time 8 + 10 = 18. sqrt: K = round(sqrt(5)) = 2.
// PERIODIC: peak = 96, time = 1.800000e+01
// PERIODIC-SAME: sequence = "Fck1 Fn2 Fall3 Fall4 Fall5 Fall6 B6 B5 B4 B3 Fall1 Fall2 B2 B1"

// revolve keeps plain a's and runs Fall right before each B: 11 forwards.
//   Fck1..Fck5 20 36 52 68 84, Fall6 88, B6 104 -> 80, Fall5 96, B5 112 -> 64 ...
// REVOLVE: peak = 112, time = 2.100000e+01
// REVOLVE-SAME: sequence = "Fck1 Fck2 Fck3 Fck4 Fck5 Fall6 B6 Fall5 B5 Fall4 B4 Fall3 B3 Fall2 B2 Fall1 B1"

// memory-poor recomputes from a^0 before each backward: 6+5+4+3+2+1 = 21
// forwards, time 31; it fits the least budget, 80.
// POOR: peak = 80, time = 3.100000e+01

// Every value of this chain is an articulation point: the same chain, and
// 112 B fit storing everything.
// ART: ckpt.plan = #ckpt.plan<strategy = "articulation", budget = 112, peak = 112, time = 1.600000e+01
// ART-SAME: sequence = "Fall1 Fall2 Fall3 Fall4 Fall5 Fall6 B6 B5 B4 B3 B2 B1"
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
