// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=keep budget=1KiB" | FileCheck %s --check-prefix=PLAN
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=keep budget=1KiB" --ckpt-rematerialize | FileCheck %s --check-prefix=REMAT
// RUN: ckpt-opt %s -split-input-file --ckpt-plan="strategy=keep budget=64B" | FileCheck %s --check-prefix=EXACT
// RUN: not ckpt-opt %s -split-input-file --ckpt-plan="strategy=keep budget=48B" 2>&1 | FileCheck %s --check-prefix=TIGHT
// RUN: not ckpt-opt %s -split-input-file --ckpt-plan="strategy=keep fit=model" 2>&1 | FileCheck %s --check-prefix=MODEL

// keep (PyTorch's selective activation checkpointing, the checkpoint marks
// as its save list): two blocks, x -> a -> b and b -> c -> d; the user keeps
// b, the first block's output (and so the second block's input). Every other
// forward value is recomputed right before the backward first reads it, its
// missing inputs first: gd reads d, which needs c (c reads the kept %k):
// c, d run again before gd; ga reads a: a runs again before ga. Positions:
// 0 a, 1 b, 2 %k, 3 c, 4 d, 5 l, 6 gd, 7 gc, 8 gb, 9 ga. Time 13 as written
// (the checkpoint is a marker and costs nothing),
// + 3 (c, d, a).
// Memory by hand (16 B each; an elementwise op writes into its first
// operand's buffer when nothing later reads that buffer). As written: a 16,
// b 32 (a is read by ga), c 48, d 64, l 80, gd 80, gc 80, gb 64, ga 48:
// peak 80. With the keep schedule: a 16, b into a's buffer (a's first
// version dies there) 16, c 32 (%k is read later), d into c 32, l 48 (c and
// d's first versions die at d and l), c again 48, d again 64, gd 64, gc 64,
// gb 48, a again 48 (the buffer of b dies at gb), ga 48: peak 64.
// PLAN-LABEL: ckpt.step @two_blocks
// PLAN-SAME: strategy = "keep", budget = 1024, peak = 64, time = 1.600000e+01, store_all_peak = 80, store_all_time = 1.300000e+01, schedule = [0, 1, 2, 3, 4, 5, 3, 4, 6, 7, 8, 0, 9]>
// The rewrite: c and d recomputed from the kept %k before gd, a from x
// before ga.
// REMAT-LABEL: ckpt.step @two_blocks(
// REMAT-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// REMAT:         %[[K:.*]] = ckpt.checkpoint
// REMAT:         %[[CD:.*]]:2 = ckpt.recompute(%[[K]]) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// REMAT:         %[[GD:.*]] = arith.mulf %[[CD]]#1, %[[CD]]#1
// REMAT-NEXT:    %[[GC:.*]] = arith.mulf %[[GD]], %[[CD]]#0
// REMAT-NEXT:    %[[GB:.*]] = arith.mulf %[[GC]], %[[K]]
// REMAT-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> {
// REMAT:         arith.mulf %[[GB]], %[[A2]]
// The plan is fixed: any budget from its peak up takes it.
// EXACT-LABEL: ckpt.step @two_blocks
// EXACT-SAME: strategy = "keep", budget = 64, peak = 64,
// Below its peak the budget is refused, naming the peak.
// TIGHT: error: budget of 48 B is infeasible for strategy 'keep': the least feasible budget is 64 B
// MODEL: error: strategy 'keep' failed: fit=model applies to the chain strategies; 'keep' is a schedule, planned with fit=simulation
ckpt.step @two_blocks(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
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
