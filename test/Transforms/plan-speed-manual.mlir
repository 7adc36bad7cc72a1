// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=speed budget=1KiB" | FileCheck %s --check-prefix=PLAN
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=speed budget=1KiB" --ckpt-rematerialize | FileCheck %s --check-prefix=SPEED
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=manual budget=1KiB" | FileCheck %s --check-prefix=MPLAN
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=manual budget=1KiB" --ckpt-rematerialize | FileCheck %s --check-prefix=MANUAL

// speed (openai's 'speed' mode): the only separator is the matmul's output
// %m. Stage 1 = {a, m}, stage 2 = {b, c, l} (the loss). Every stage but the
// loss keeps only its input (Fck) and is recomputed once (Fall) right before
// its backward: Fck1 Fall2 B2 Fall1 B1. The backward: g1, g2 in B2 (g2
// reads m, B2's input a^1), g3 in B1 (reads a). Positions: 0 %zero, 1 a,
// 2 %e, 3 %z, 4 m, 5 b, 6 c, 7 l, 8 g1, 9 g2, 10 g3; the schedule runs a
// again before g3 (the recomputed matmul and its fill have no reader: g2 ran
// on the kept m). Time: 14 as written (plus the roofline's tiny times of
// the constant, empty and fill), + 1.
// Memory by hand (4x4xf32 = 64 B; the fill writes into the empty, the
// matmul into the fill; the loss l is a view of c's buffer, which it holds
// to the end, so g1 cannot write into c and gets a buffer of its own; g2 and
// g3 write into g1): as written a 64, e 128, z 128, m 128, b 192, c 256,
// l 256, g1 320 (b dies after it), g2 256, g3 192: 320. With a recomputed,
// the first a dies at m: m 128 -> 64, b 128, c 192, l 192, g1 256, g2 192,
// a 192, g3 192: 256.
// PLAN-LABEL: ckpt.step @speed
// PLAN-SAME: strategy = "speed", budget = 1024, peak = 256, time = 15.00{{[0-9]*}}, store_all_peak = 320, store_all_time = 14.00{{[0-9]*}}, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 10]>
// In the rewrite, B1 needs only the recomputed a: the recomputed matmul is
// read by nobody (g2 ran in B2 on the kept m) and is pruned.
// SPEED-LABEL: ckpt.step @speed(
// SPEED-SAME:      %[[X:[^:]*]]: tensor<4x4xf32>
// SPEED:         %[[M:.*]] = linalg.matmul
// SPEED:         %[[G2:.*]] = arith.mulf %{{.*}}, %[[M]]
// SPEED-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
// SPEED-NEXT:    ^bb0(%[[IN:.*]]: tensor<4x4xf32>):
// SPEED-NEXT:      %[[R:.*]] = math.exp %[[IN]]
// SPEED-NEXT:      ckpt.yield %[[R]]
// SPEED-NEXT:    }
// SPEED-NEXT:    arith.mulf %[[G2]], %[[A2]]
ckpt.step @speed(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> (tensor<1x1xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = math.exp %x {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 4.0>} ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = math.tanh %m {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4x4xf32>
  %c = math.exp %b {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4x4xf32>
  %l = tensor.extract_slice %c[0, 0] [1, 1] [1, 1] {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4x4xf32> to tensor<1x1xf32>
  %g1 = arith.mulf %c, %b {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4x4xf32>
  %g2 = arith.mulf %g1, %m {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4x4xf32>
  %g3 = arith.mulf %g2, %a {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4x4xf32>
  ckpt.return %l, %g3 : tensor<1x1xf32>, tensor<4x4xf32> loss(0)
}

// -----

// manual (openai's 'collection' mode): the only separator is the value the
// user checkpointed, %b. Stage 1 = {a, b}, stage 2 = {c, d, l}; the
// checkpoint is computed once and kept, never part of a stage. The same
// schedule shape: Fck1 Fall2 B2 Fall1 B1; B1 (ga) reads the recomputed a.
// Positions: 0 a, 1 b, 2 %k, 3 c, 4 d, 5 l, 6 gd, 7 gc, 8 gb, 9 ga. By hand
// (16 B each): as written 16, 32, -, 48, 64, 80, 80, 80, 64, 48: 80; with a
// recomputed, b writes into the first a (it dies there): 16, 16, -, 32, 48,
// 64, 64, 64, 48, a 48, ga 48: 64, time 13 + 1.
// MPLAN-LABEL: ckpt.step @manual
// MPLAN-SAME: strategy = "manual", budget = 1024, peak = 64, time = 1.400000e+01, store_all_peak = 80, store_all_time = 1.300000e+01, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 9]>
// MANUAL-LABEL: ckpt.step @manual(
// MANUAL-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// MANUAL:         %[[K:.*]] = ckpt.checkpoint
// MANUAL:         %[[GB:.*]] = arith.mulf %{{.*}}, %[[K]]
// MANUAL-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> {
// MANUAL-NEXT:    ^bb0(%[[IN:.*]]: tensor<4xf32>):
// MANUAL-NEXT:      math.exp %[[IN]]
// MANUAL:         arith.mulf %[[GB]], %[[A2]]
ckpt.step @manual(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %b = math.sin %a {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %k = ckpt.checkpoint %b : tensor<4xf32>
  %c = math.cos %k {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %d = math.exp %c {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32>
  %l = tensor.extract_slice %d[0] [1] [1] {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<4xf32> to tensor<1xf32>
  %gd = arith.mulf %d, %d {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %gc = arith.mulf %gd, %c {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %gb = arith.mulf %gc, %k {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  %ga = arith.mulf %gb, %a {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}
