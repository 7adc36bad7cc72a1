// ckpt-report's lower bound over the schedules that run each op a first
// time in the step's order (lower_bound_in_order; LowerBound.h), by hand,
// beside the bound over every schedule (lower_bound), which a reordering
// escapes here.
// RUN: ckpt-opt %s --ckpt-plan="budget=150" --ckpt-report="slots=0 output=%t.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: ckpt-opt %s --ckpt-plan="budget=150" --ckpt-report="slots=0 lower-bound=false" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=NONE

// f0: x -> a (96 B, time 1); f1: x -> b (96 B, 3); u0: a -> c (16 B, 1,
// returned); u1: b -> d (16 B, 1, returned). Store-all: peak 208 B when u0
// runs (a, b, c), time 6.
// In order, at 150 B: when f1 first runs, b (96 B) is fresh and a is read
// later by u0: a is kept or recomputed; 54 B are left for its 96: the
// linear relaxation recomputes 42/96 of f0, 0.4375. When u0 first runs, a is
// read (96 B) and c fresh (16 B), and b is read later by u1: 38 B are left
// for b's 96, 58/96 of f1: 1.8125, the bound (cut at position 2, u0). The
// cheapest schedule in order recomputes both (f0, f1, f0, u0, f1, u1: peak
// 128 B, time 10, the optimum of the ilp's program: 10 / 7.8125 - 1 = 28%
// above the bound, report-lower-bound-in-order-ilp.test).
// Over every schedule the bound is 0, and `optimal` runs f0, u0, f1, u1
// within 128 B with nothing recomputed (plan_in_order false: the in-order
// bound does not cover it, so no plan_above_percent). No cut binds: when f1
// runs, nothing must have run before it (its only read is the input).
// CHECK:      "plan": {
// CHECK-NEXT:   "feasible": true,
// CHECK-NEXT:   "peak_bytes": 128,
// CHECK-NEXT:   "time_s": 6,
// CHECK:      "lower_bound": {
// CHECK-NEXT:   "scope": "every schedule of recomputation alone within the budget (cuts at single ops, Lagrangian relaxation)",
// CHECK-NEXT:   "cuts": 4,
// CHECK-NEXT:   "cuts_binding": 0,
// CHECK-NEXT:   "recompute_s": 0,
// CHECK-NEXT:   "time_s": 6,
// CHECK-NEXT:   "plan_above_percent": 0
// CHECK:      "lower_bound_in_order": {
// CHECK-NEXT:   "scope": "every schedule of recomputation alone within the budget that runs each op a first time in the step's order, as the ilp program does (cuts at single ops, Lagrangian relaxation)",
// CHECK-NEXT:   "cuts": 4,
// CHECK-NEXT:   "cuts_binding": 2,
// CHECK-NEXT:   "plan_in_order": false,
// CHECK-NEXT:   "recompute_s": 1.81249999
// CHECK-NEXT:   "time_s": 7.81249999
// CHECK-NEXT:   "cut_position": 2,
// CHECK-NEXT:   "cut_op": "ckpt.opaque",
// CHECK-NEXT:   "cut_loc": "{{.*}}report-lower-bound-in-order.mlir:[[@LINE+8]]:8"
// CHECK-NEXT: },
// NONE-NOT: lower_bound
// NONE: "store_all"

ckpt.step @hand(%x: tensor<0xi8>) -> (tensor<1xf32>, tensor<1xf32>) {
  %a = ckpt.opaque "f0"(%x) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<0xi8>) -> tensor<96xi8>
  %b = ckpt.opaque "f1"(%x) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 3.0>} : (tensor<0xi8>) -> tensor<96xi8>
  %c = ckpt.opaque "u0"(%a) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<96xi8>) -> tensor<1xf32>
  %d = ckpt.opaque "u1"(%b) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<96xi8>) -> tensor<1xf32>
  ckpt.return %c, %d : tensor<1xf32>, tensor<1xf32> loss(0)
}
