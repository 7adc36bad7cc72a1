// RUN: ckpt-opt %s --ckpt-plan="budget=80 offload=auto device=cpu" | FileCheck %s --check-prefix=B80
// RUN: ckpt-opt %s --ckpt-plan="budget=80 device=cpu" | FileCheck %s --check-prefix=OFF80
// RUN: ckpt-opt %s --ckpt-plan="budget=64 offload=auto device=cpu" | FileCheck %s --check-prefix=B64
// RUN: ckpt-opt %s --ckpt-plan="budget=48 offload=auto device=cpu" | FileCheck %s --check-prefix=B48
// RUN: ckpt-opt %s --ckpt-plan="budget=96 offload=auto device=cpu" | FileCheck %s --check-prefix=B96
// RUN: ckpt-opt %s --ckpt-remat-pipeline="budget=80 offload=auto device=cpu" | FileCheck %s --check-prefix=PIPELINE
// RUN: ckpt-opt %s --ckpt-plan="budget=80 offload=auto device=cpu profile=%S/Inputs/profile-slow-link.json" | FileCheck %s --check-prefix=SLOWLINK
// RUN: not ckpt-opt %s --ckpt-plan="budget=80 offload=auto device=cpu profile=%S/Inputs/profile-zero-link.json" 2>&1 | FileCheck %s --check-prefix=ZEROLINK
// RUN: not ckpt-opt %s --ckpt-plan="budget=16 offload=auto device=cpu" 2>&1 | FileCheck %s --check-prefix=INFEASIBLE
// RUN: not ckpt-opt %s --ckpt-plan="budget=80 offload=auto strategy=revolve" 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not ckpt-opt %s --ckpt-plan="budget=80 offload=auto fit=model" 2>&1 | FileCheck %s --check-prefix=FIT
// RUN: not ckpt-opt %s --ckpt-plan="offload=sometimes" 2>&1 | FileCheck %s --check-prefix=BADVALUE

// offload=auto on the six-op chain (positions: 0 a, 1 b, 2 c, 3 d, 4 e,
// 5 l, 6 ge, 7 gd, 8 gc, 9 gb, 10 ga; 16 B buffers; store-all peak 96 B at
// ge), whose forward ops take 1 ms each (ckpt.cost) and the cpu device's
// link copies 16 B in 1.6 ns. Worked by hand:
//  - 80 B: recomputation alone runs a again before ga (6 ms in all);
//    offloading a after b (execution 1), waiting for it after c (2: the
//    copy has ended by then) and reloading it after gc (8) saves 16 B at ge
//    with no stall: the store-all time, 5 ms + the backward's 12.4 ns.
//  - 64 B: b moves too (after c, waited for after d, reloaded after gd),
//    against 7 ms for recomputing c and a.
//  - 48 B: save_on_cpu's copies (every forward value the backward reads,
//    offloaded after its last forward reader, reloaded right before its
//    first backward reader) less the one the budget does not need (d's):
//    a, b and c move; three reloads of 1.6 ns in the backward's path stall
//    it by 4.8 ns. Recomputation alone takes 9 ms.
//  - 96 B: nothing to move.
// B80: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 0.0050000124, store_all_peak = 96, store_all_time = 0.0050000124, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], device = cpu, transfers = {{\[\[}}0, 0, 1, 2, 8]], host_peak = 16>
// OFF80: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 0.0060000124, store_all_peak = 96, store_all_time = 0.0050000124, schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 10], device = cpu>
// B64: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 64, time = 0.0050000124, {{.*}}, transfers = {{\[\[}}0, 0, 1, 2, 8], [1, 0, 2, 3, 7]], host_peak = 32>
// B48: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 48, peak = 48, time = 0.0050000171{{[0-9]*}}, {{.*}}, device = cpu, transfers = {{\[\[}}0, 0, 1, 2, 9], [1, 0, 2, 3, 8], [2, 0, 3, 4, 7]], host_peak = 48>
// B96: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 96, peak = 96, {{.*}}, device = cpu>
// A measured link in the profile wins over the device's: at 1 byte per
// second a 16 B copy takes 16 s, so recomputing a (1 ms) is faster.
// SLOWLINK: ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 0.0060000124, {{.*}}schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 10], device = cpu, profile = "{{.*}}profile-slow-link.json">
// ZEROLINK: error: the profile's 'link.to_device' must be a positive number of bytes per second
// The pipeline places the copies (rematerialize-offload.mlir checks where).
// PIPELINE: %{{.*}}, %[[OFF:.*]] = ckpt.offload
// PIPELINE: ckpt.wait %[[OFF]]
// PIPELINE: ckpt.reload
// INFEASIBLE: error: budget of 16 B is infeasible for strategy 'optimal' with offloading (no copies bring a recomputation plan under it): the least feasible budget with offloading is 32 B; of recomputation alone 32 B
// STRATEGY: error: offload=auto plans with strategy 'optimal' or 'ilp' and fit=simulation (recomputation and offloading together), not with strategy 'revolve'
// FIT: error: offload=auto plans with strategy 'optimal' or 'ilp' and fit=simulation (recomputation and offloading together), not with strategy 'optimal' and fit=model
// BADVALUE: for the --offload option: 'sometimes' is not a valid value: expected off or auto
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
