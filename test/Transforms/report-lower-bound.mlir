// ckpt-report's lower bound on the time of every schedule of recomputation
// alone within the budget (lib/Solver/Schedule/LowerBound.h), by hand.
// RUN: ckpt-opt %s --ckpt-plan="budget=207" --ckpt-report="slots=0 output=%t.207.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=AT207 --input-file=%t.207.json
// RUN: ckpt-opt %s --ckpt-plan="budget=192" --ckpt-report="slots=0 output=%t.192.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=AT192 --input-file=%t.192.json
// RUN: ckpt-opt %s --ckpt-plan="budget=208" --ckpt-report="slots=0 output=%t.208.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=AT208 --input-file=%t.208.json
// lower-bound=false leaves it out.
// RUN: ckpt-opt %s --ckpt-plan="budget=207" --ckpt-report="slots=0 lower-bound=false" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=NONE

// f0: x -> a (96 B, time 1); f1: a -> b (96 B, 5); the loss: b -> l (16 B,
// returned, so live to the end); g1: l, a -> gb (48 B); g0: gb, x -> ga
// (96 B, returned). Store-all: peak 208 B when the loss runs (a, b, l), time
// 9. The cut at the loss (position 2): b is read there, l is its result, a
// is read later by g1, so a is kept (96 B) or f0 runs again after the loss.
// Under 207 B, 191 B are left beside l for a and b: the linear relaxation
// keeps 95 of a's 96 bytes and recomputes 1/96 of f0: 0.0104166 s; the
// plan recomputes f0 (time 10): 10 / 9.0104166 - 1 = 10.98%. Under 192 B:
// 176 B beside l, a keeps 80 B, 16/96 of f0 = 0.1666 s: 10 / 9.1666 - 1 =
// 9.09%. f1 needs a and b at once: 192 B is the least feasible budget. At
// 208 B no cut binds: the bound is the step's own time.
// AT207:      "lower_bound": {
// AT207-NEXT:   "scope": "every schedule of recomputation alone within the budget (cuts at single ops, Lagrangian relaxation)",
// AT207-NEXT:   "cuts": 5,
// AT207-NEXT:   "cuts_binding": 1,
// AT207-NEXT:   "recompute_s": 0.01041666
// AT207-NEXT:   "time_s": 9.01041666
// AT207-NEXT:   "cut_position": 2,
// AT207-NEXT:   "cut_op": "ckpt.opaque",
// AT207-NEXT:   "cut_loc": "{{.*}}report-lower-bound.mlir:[[@LINE+15]]:8",
// AT207-NEXT:   "plan_above_percent": 10.98
// AT192:        "recompute_s": 0.1666666
// AT192:        "plan_above_percent": 9.09
// AT208:      "lower_bound": {
// AT208:        "cuts_binding": 0,
// AT208-NEXT:   "recompute_s": 0,
// AT208-NEXT:   "time_s": 9,
// AT208-NEXT:   "plan_above_percent": 0
// NONE-NOT: lower_bound
// NONE: "store_all"

ckpt.step @hand(%x: tensor<0xi8>) -> (tensor<1xf32>, tensor<96xi8>) {
  %a = ckpt.opaque "f0"(%x) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<0xi8>) -> tensor<96xi8>
  %b = ckpt.opaque "f1"(%a) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 5.0>} : (tensor<96xi8>) -> tensor<96xi8>
  %l = ckpt.opaque "loss"(%b) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<96xi8>) -> tensor<1xf32>
  %gb = ckpt.opaque "g1"(%l, %a) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<1xf32>, tensor<96xi8>) -> tensor<48xi8>
  %ga = ckpt.opaque "g0"(%gb, %x) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<48xi8>, tensor<0xi8>) -> tensor<96xi8>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<96xi8> loss(0)
}
