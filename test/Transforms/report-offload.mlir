// RUN: ckpt-opt %s --ckpt-plan="budget=64 offload=auto device=cpu" --ckpt-report="output=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.json

// The report of a plan with copies, and the two offloading baselines, on
// the six-op chain of plan-offload.mlir (forward ops 1 ms each, 16 B
// buffers, the cpu device's link: 16 B in 1.6 ns) with c marked by
// ckpt.checkpoint (positions: 0 a, 1 b, 2 c, 3 ck, 4 d, 5 e, 6 l, 7 ge,
// 8 gd, 9 gc, 10 gb, 11 ga). By hand:
//  - the plan moves a (offloaded after b, waited for after c, reloaded
//    after gb) and b (offloaded after c, waited for after d, reloaded after
//    gc): 64 B with no stall, in the store-all time; 32 B on the host;
//  - save_on_cpu moves what the backward reads after the forward: a (after
//    b, back after gb), b (after c, back after gc) and d (after e, back
//    after ge); c cannot move (ck, a view of it, comes later) and e is read
//    by ge right after l. Each reload is issued just before its reader, so
//    gd, gb and ga each wait 1.6 ns: 4.8 ns in all (9.6e-5 %). 48 B on the
//    host; 64 B on the device (c, d, e, ge at ge);
//  - checkpoint_offload (strategy keep with c marked, then save_on_cpu on
//    that schedule): the backward recomputes d and e before ge and a and b
//    before gb, 4 ms more (80%); c, the block input, waits on the host
//    (16 B).
// REMARK: remark: ckpt: 'chain6' with optimal under 64 B: peak 64 B (66.7% of the store-all peak), time 0.005 s (+0.0%), 0 recomputations, 2 values moved to host memory (host peak 32 B)
// CHECK:      "plan": {
// CHECK:        "peak_bytes": 64,
// CHECK:        "transfers": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "position": 0,
// CHECK-NEXT:       "result": 0,
// CHECK-NEXT:       "op": "math.exp",
// CHECK-NEXT:       "loc": "{{.*}}report-offload.mlir:[[# @LINE + 30]]:8",
// CHECK-NEXT:       "offload_after": 1,
// CHECK-NEXT:       "offload_done": 2,
// CHECK-NEXT:       "reload_after": 9
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "position": 1,
// CHECK-NEXT:       "result": 0,
// CHECK-NEXT:       "op": "math.sin",
// CHECK-NEXT:       "loc": "{{.*}}report-offload.mlir:[[# @LINE + 22]]:8",
// CHECK-NEXT:       "offload_after": 2,
// CHECK-NEXT:       "offload_done": 4,
// CHECK-NEXT:       "reload_after": 8
// CHECK-NEXT:     }
// CHECK-NEXT:   ],
// CHECK:        "host_peak_bytes": 32,
// CHECK:        "stall_s": 0,
// CHECK:      "save_on_cpu": {
// CHECK-NEXT:   "feasible": true,
// CHECK-NEXT:   "peak_bytes": 64,
// CHECK-NEXT:   "time_s": 0.0050000171{{[0-9]*}},
// CHECK-NEXT:   "overhead_percent": 9.59{{[0-9]*}}e-05,
// CHECK-NEXT:   "host_peak_bytes": 48
// CHECK:      "checkpoint_offload": {
// CHECK-NEXT:   "feasible": true,
// CHECK-NEXT:   "peak_bytes": 64,
// CHECK-NEXT:   "time_s": 0.0090000156{{[0-9]*}},
// CHECK-NEXT:   "overhead_percent": 79.99{{[0-9]*}},
// CHECK-NEXT:   "host_peak_bytes": 16
ckpt.step @chain6(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.exp %x {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %b = math.sin %a {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %c = math.cos %b {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %ck = ckpt.checkpoint %c : tensor<4xf32>
  %d = math.exp %ck {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %e = math.sin %d {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 1.0e-3>} : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %ge = arith.mulf %e, %e : tensor<4xf32>
  %gd = arith.mulf %ge, %d : tensor<4xf32>
  %gc = arith.mulf %gd, %c : tensor<4xf32>
  %gb = arith.mulf %gc, %b : tensor<4xf32>
  %ga = arith.mulf %gb, %a : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}
