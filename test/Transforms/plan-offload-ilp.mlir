// REQUIRES: ilp
// RUN: ckpt-opt %s --ckpt-plan="budget=80 offload=auto device=cpu strategy=ilp" | FileCheck %s --check-prefix=B80
// RUN: ckpt-opt %s --ckpt-plan="budget=64 offload=auto device=cpu strategy=ilp" | FileCheck %s --check-prefix=B64
// RUN: not ckpt-opt %s --ckpt-plan="budget=16 offload=auto device=cpu strategy=ilp" 2>&1 | FileCheck %s --check-prefix=INFEASIBLE

// strategy=ilp offload=auto: the faster of the joint planner's plan and
// the ILP with paging's, on plan-offload.mlir's six-op chain (its
// derivation by hand). At 80 and 64 B the copies hide behind compute: the
// store-all time, which no plan beats, so the joint planner's plan stays
// (the ILP's replaces it only when faster). A plan that copies carries no
// lower bound (the ILP's bounds its program's synchronous stages, not the
// plan's overlapping copies).
// B80: ckpt.plan = #ckpt.plan<strategy = "ilp", budget = 80, peak = 80, time = 0.0050000124, store_all_peak = 96, store_all_time = 0.0050000124, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], device = cpu, transfers = {{\[\[}}0, 0, 1, 2, 8]], host_peak = 16>
// B64: ckpt.plan = #ckpt.plan<strategy = "ilp", budget = 64, peak = 64, time = 0.0050000124, {{.*}}, transfers = {{\[\[}}0, 0, 1, 2, 8], [1, 0, 2, 3, 7]], host_peak = 32>
// B64-NOT: lower_bound
// At 16 B the paging program has no schedule either, which CBC proves: a
// backward op reads a 16 B gradient while it writes its own 16 B.
// INFEASIBLE: error: budget of 16 B is infeasible for strategy 'ilp' with offloading (no copies bring a recomputation plan under it) (CBC proved that no schedule fits): the least feasible budget with offloading is 32 B; of recomputation alone 32 B
ckpt.step @chain6(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %b = math.sin %a {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %c = math.cos %b {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %d = math.exp %c {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %e = math.sin %d {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %ge = arith.mulf %e, %e : tensor<4xf32>
  %gd = arith.mulf %ge, %d : tensor<4xf32>
  %gc = arith.mulf %gd, %c : tensor<4xf32>
  %gb = arith.mulf %gc, %b : tensor<4xf32>
  %ga = arith.mulf %gb, %a : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}
