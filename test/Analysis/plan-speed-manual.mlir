// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=speed fit=model slots=0 budget=1KiB" | FileCheck %s --check-prefix=PLAN
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=speed fit=model slots=0 budget=1KiB" --ckpt-rematerialize | FileCheck %s --check-prefix=SPEED
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=manual fit=model slots=0 budget=1KiB" | FileCheck %s --check-prefix=MPLAN
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=manual fit=model slots=0 budget=1KiB" --ckpt-rematerialize | FileCheck %s --check-prefix=MANUAL

// speed (openai's 'speed' mode): the only separator is the matmul's output
// %m. Stage 1 = {a, m} (uf 1 + 4), stage 2 = {b, c, l} (uf 3, the loss).
// Every stage but the loss keeps only its input (Fck) and is recomputed
// once (Fall) right before its backward: Fck1 Fall2 B2 Fall1 B1. The
// backward: g1, g2 in B2 (g2 reads m, B2's input a^1), g3 in B1 (reads a).
// Time: forwards 5 + 3 + 5, backwards 4 + 2: 19 (store-all: 14).
// PLAN-LABEL: ckpt.step @speed
// PLAN-SAME: strategy = "speed"
// PLAN-SAME: time = 19.0{{[0-9]*}}, store_all_peak = {{[0-9]+}}, store_all_time = 14.0{{[0-9]*}},
// PLAN-SAME: stages = [<index = 1, kind = "ck", ops = 2, forward = 5.000000e+00, backward = 2.000000e+00
// PLAN-SAME: <index = 2, kind = "all", ops = 3, forward = 3.000000e+00, backward = 4.000000e+00
// PLAN-SAME: sequence = "Fck1 Fall2 B2 Fall1 B1"
// In the rewrite, B1 needs only the recomputed a: the recomputed matmul is
// read by nobody (g2 ran in B2 on the kept m) and is pruned.
// SPEED-LABEL: ckpt.step @speed(
// SPEED-SAME:      %[[X:[^:]*]]: tensor<4x4xf32>
// SPEED:         %[[M:.*]] = linalg.matmul
// SPEED:         %[[G2:.*]] = arith.mulf %{{.*}}, %[[M]]
// SPEED-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) {instance = 1 : i64, stage = 1 : i64}
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
// MPLAN-LABEL: ckpt.step @manual
// MPLAN-SAME: strategy = "manual"
// MPLAN-SAME: stages = [<index = 1, kind = "ck", ops = 2,
// MPLAN-SAME: <index = 2, kind = "all", ops = 4,
// MPLAN-SAME: sequence = "Fck1 Fall2 B2 Fall1 B1"
// MPLAN: ckpt.checkpoint
// MPLAN-NOT: ckpt.stage
// MPLAN-SAME: tensor<4xf32>
// MANUAL-LABEL: ckpt.step @manual(
// MANUAL-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// MANUAL:         %[[K:.*]] = ckpt.checkpoint
// MANUAL:         %[[GB:.*]] = arith.mulf %{{.*}}, %[[K]]
// MANUAL-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) {instance = 1 : i64, stage = 1 : i64}
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
