// RUN: ckpt-opt %s --ckpt-plan="budget=100%" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=1KiB" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=96 strategy=store-all" | FileCheck %s --check-prefix=ALL
// RUN: ckpt-opt %s --ckpt-plan="budget=80" | FileCheck %s --check-prefix=OPT80
// 80 B = 83.33% of 96 B: 83.34% rounds down to 80 B.
// RUN: ckpt-opt %s --ckpt-plan="budget=83.34%" | FileCheck %s --check-prefix=OPT80
// RUN: ckpt-opt %s --ckpt-plan="budget=64 device=cpu" | FileCheck %s --check-prefix=OPT64
// RUN: ckpt-opt %s --ckpt-plan="budget=48" | FileCheck %s --check-prefix=OPT48
// RUN: not ckpt-opt %s --ckpt-plan="budget=31" 2>&1 | FileCheck %s --check-prefix=LEAST
// RUN: ckpt-opt %s --ckpt-plan="budget=96 strategy=periodic:2" | FileCheck %s --check-prefix=PERIODIC
// RUN: ckpt-opt %s --ckpt-plan="budget=96 strategy=sqrt" | FileCheck %s --check-prefix=PERIODIC
// RUN: ckpt-opt %s --ckpt-plan="budget=96 strategy=memory-poor" | FileCheck %s --check-prefix=POOR
// RUN: ckpt-opt %s --ckpt-plan="budget=80 slots=0 fit=model" | FileCheck %s --check-prefix=MODEL
// RUN: not ckpt-opt %s --ckpt-plan="budget=79 slots=0 fit=model" 2>&1 | FileCheck %s --check-prefix=MODEL-LEAST

// A six-op chain with hand-set costs (positions: 0 a = exp(x), 1 b = sin(a),
// 2 c = cos(b), 3 d = exp(c), 4 e = sin(d), 5 the loss l = e[0], then the
// backward 6 ge, 7 gd, 8 gc, 9 gb, 10 ga reading e, d, c, b, a; ga is
// returned like a parameter gradient). Forward ops cost 1, backward ops 2.
// Every tensor is 16 B (the 4 B loss too, rounded up to the 16 B alignment).
// Memory model: an elementwise op writes in place into its first operand
// when that dies there.
//
// Store-all, bytes live while each op runs: a 16, b 32, c 48, d 64, e 80,
// l 96, ge 96 (in place into e), gd 96 (then d dies), gc 80, gb 64, ga 48:
// peak 96 (a, b, c, d, e, l from l to gd), time 6 + 10 = 16.
// ALL: ckpt.step @chain6
// ALL-SAME: ckpt.plan = #ckpt.plan<strategy = "{{optimal|store-all}}", budget = {{96|1024}}, peak = 96, time = 1.600000e+01, store_all_peak = 96, store_all_time = 1.600000e+01, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]>

// 80 B: one 16 B buffer must be off memory from l to gd; any one
// recomputation does it (cost 1), and none does better than 80: the first a
// dies at b (b writes into it), a runs again before ga: a/b 16, c 32, d 48,
// e 64, l 80, ge 80, gd 80, gc 64, gb 48, a 48, ga 48. Time 17.
// OPT80: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 1.700000e+01, store_all_peak = 96, store_all_time = 1.600000e+01, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 10]>

// 64 B: two buffers off from l to gd: one recomputation leaves 80 at least
// (dropping d even costs 96, at its recomputation), two (c before gc, a
// before ga) reach 64. Time 18.
// OPT64: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 64, time = 1.800000e+01, store_all_peak = 96
// OPT64-SAME: schedule = [0, 1, 2, 3, 4, 5, 6, 7, 2, 8, 9, 0, 10], device = cpu>

// 48 B: gd reads ge and d (and writes in place into ge) while b is held for
// gb, unless b too is run again later. The loss l is a view of e's buffer
// (tensor.extract_slice bufferizes to a subview), so e's buffer stays as long
// as the returned l: cheapest is to let the first l die unread and run d, e
// and l again at the very end from a c kept since its recomputation before
// gc. By hand (16 B buffers; in place = into the first operand when it dies):
// a 16, b 16 (into a), c 32, d 32 (into c), e 48, l 48, ge 48 (into e),
// gd 48 (into ge; d dies), c 48, gc 48 (into gd), gb 48 (into gc; b dies),
// a 48, ga 48 (into gb; a dies), d 32 (into c), e 32, l 32: peak 48. Time
// 16 + c, a, d, e, l again = 21.
// OPT48: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 48, peak = 48, time = 2.100000e+01, store_all_peak = 96, store_all_time = 1.600000e+01, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 2, 8, 9, 0, 10, 3, 4, 5]>
// 32 B is the least any schedule needs: gd reads ge and d at once (and
// writes in place into ge); with l run again at the end, nothing else has to
// be held then (b, c, a are run again from x before gc, gb, ga).
// LEAST: error: budget of 31 B is infeasible for strategy 'optimal': the least feasible budget is 32 B

// checkpoint_sequential with 2 segments over the 5 stages before the loss
// (one stage per op here): Fck1 Fn2 Fall3..Fall6 B6..B3 Fall1 Fall2 B2 B1,
// expanded: the forward as written, ge gd gc gb, a and b again (b has no
// reader left: gb ran before it; pruned), ga. By hand: the first a dies at
// b, so b writes into it: 16 32 48 64 80 80 80 64 48, a 48, ga 48: peak 80,
// time 17. sqrt: K = round(sqrt(5)) = 2.
// PERIODIC: peak = 80, time = 1.700000e+01, store_all_peak = 96, store_all_time = 1.600000e+01, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 10]>

// memory-poor recomputes from x before each backward op: 4 + 3 + 2 + 1
// forward runs (e, the first one, is the forward's own), time 26, and peaks
// at the least, 48.
// POOR: peak = 48, time = 2.600000e+01

// fit=model: the chain model's peak must fit (Theorem 1 as the paper states
// it). Its least feasible budget is 80 B: B2 alone holds delta^2 + abar^2 +
// a^1 + o_b = 16 + 16 + 16 + 32 in any schedule. The schedule of the DP's
// sequence is evaluated exactly: it peaks lower.
// MODEL: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = {{[0-9]+}}
// MODEL-LEAST: error: budget of 79 B is infeasible for strategy 'optimal': the least feasible budget is 80 B
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
