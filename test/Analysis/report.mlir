// RUN: ckpt-opt %s --ckpt-plan="budget=64 slots=0" --ckpt-report="slots=0 output=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.json
// Without output= the report goes to standard output.
// RUN: ckpt-opt %s --ckpt-plan="budget=64 slots=0" --ckpt-report="slots=0 device=cpu" -o /dev/null 2>/dev/null | FileCheck %s
// RUN: ckpt-opt %s --ckpt-report 2>&1 -o /dev/null | FileCheck %s --check-prefix=UNPLANNED
// RUN: not ckpt-opt %s --ckpt-report="device=tpu" 2>&1 -o /dev/null | FileCheck %s --check-prefix=DEVICE
// RUN: not ckpt-opt %s --ckpt-report="profile=%S/Inputs/missing.json" 2>&1 -o /dev/null | FileCheck %s --check-prefix=PROFILE
// RUN: not ckpt-opt %s --ckpt-plan="budget=64 slots=0" --ckpt-report="output=%S/Inputs/no-such-dir/r.json" 2>&1 -o /dev/null | FileCheck %s --check-prefix=OUTPUT

// The chain of plan.mlir under 64 B (80% of the store-all 80 B, see there).
// REMARK: remark: ckpt: 'chain4' with optimal under 64 B: peak 64 B (80.0% of store-all), time +20.0%, 4 stages
// UNPLANNED: warning: no ckpt.plan on this step: run ckpt-plan first; the step is left out of the report
// RUN: not ckpt-opt %s --ckpt-report="slots=-2" 2>&1 -o /dev/null | FileCheck %s --check-prefix=SLOTS
// DEVICE: error: unknown device 'tpu'
// SLOTS: error: slots must be 0 (exact sizes) or positive, got -2
// PROFILE: error: cannot read profile
// OUTPUT: error: cannot write the report:

// CHECK:      "step": "chain4",
// CHECK-NEXT: "strategy": "optimal",
// CHECK-NEXT: "budget_bytes": 64,
// CHECK-NEXT: "stages": 4,
// CHECK-NEXT: "separator_bytes": [16, 16, 16],
// CHECK-NEXT: "plan": {
// CHECK-NEXT:   "feasible": true,
// CHECK-NEXT:   "peak_bytes": 64,
// CHECK-NEXT:   "time_s": 12,
// CHECK-NEXT:   "overhead_percent": 20,
// CHECK-NEXT:   "sequence": "Fck1 Fn2 Fall3 Fall4 B4 B3 Fall1 Fall2 B2 B1",
// CHECK-NEXT:   "min_feasible_bytes": 64
// CHECK:      "store_all": {
// CHECK-NEXT:   "feasible": true,
// CHECK-NEXT:   "peak_bytes": 80,
// CHECK-NEXT:   "time_s": 10,
// Baselines at the same 64 B: store-all and checkpoint_sequential need 80 B
// (see plan.mlir); periodic:4 needs K <= L = 3.
// CHECK:      "baselines": {
// CHECK-NEXT:   "store-all": {
// CHECK-NEXT:     "feasible": false,
// CHECK-NEXT:     "min_feasible_bytes": 80
// CHECK:        "periodic:2": {
// CHECK-NEXT:     "feasible": false,
// CHECK:        "periodic:4": {
// CHECK-NEXT:     "error": "strategy periodic:4 needs 1 <= K <= L (L = 3)"
// revolve at 64 B, by hand: Fck1 20, Fn2 36 -> 20, Fck3 36, Fall4 40,
// B4 56 -> 32, Fall3 48, B3 64 -> 16, Fck1 32, Fall2 48, B2 64 -> 16,
// Fall1 32, B1 48: 8 forwards + 6 = 14, 40% over store-all.
// CHECK:        "revolve": {
// CHECK-NEXT:     "feasible": true,
// CHECK-NEXT:     "peak_bytes": 64,
// CHECK-NEXT:     "time_s": 14,
// CHECK-NEXT:     "overhead_percent": 40,
// CHECK-NEXT:     "sequence": "Fck1 Fn2 Fck3 Fall4 B4 Fall3 B3 Fck1 Fall2 B2 Fall1 B1",
// CHECK:        "memory-poor": {
// CHECK-NEXT:     "feasible": true,
// CHECK-NEXT:     "peak_bytes": 64,
// CHECK-NEXT:     "time_s": 16,
// The written order: a 16, +b 32, +c 48, +l 52, +gc 68, gb (c dead) 68,
// ga (b, gc dead) 16 + 4 + 16 + 16 = 52.
// CHECK:      "timeline_bytes": [16, 32, 48, 52, 68, 68, 52],
// CHECK-NEXT: "timeline_peak_bytes": 68
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
