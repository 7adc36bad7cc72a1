// RUN: ckpt-opt %s --ckpt-annotate-costs | FileCheck %s
// RUN: ckpt-opt %s --ckpt-annotate-costs="device=cpu" | FileCheck %s --check-prefix=CPU
// RUN: ckpt-opt %s --ckpt-annotate-costs="overwrite=true" | FileCheck %s --check-prefix=OVER

// The cost of a ckpt.opaque: its ckpt.cost when present, else the opaque
// estimate: the bytes of its operands and results, no flops. By hand:
// "no_cost" reads 4 x f32 = 16 B and writes 8 x f32 = 32 B: 48 B;
//   h100 (3.35e12 B/s): 48 / 3.35e12 = 1.43283e-11 s; cpu (2e10 B/s): 2.4e-9 s.
// "two_results" reads 32 B and writes 2 x 8 x i64 = 128 B: 160 B, 4.77612e-11 s.
// CHECK-LABEL: ckpt.step @opaque_costs(
// CHECK:         ckpt.opaque "no_cost"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 48, time = 1.43283{{[0-9]+}}E-11>}
// CHECK:         ckpt.opaque "two_results"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 160, time = 4.77611{{[0-9]+}}E-11>}
// CHECK:         ckpt.opaque "with_cost"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 10, bytes = 20, time = 2.500000e-06>}
// CPU-LABEL: ckpt.step @opaque_costs(
// CPU:         ckpt.opaque "no_cost"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 48, time = 2.400000e-09>}
// CPU:         ckpt.opaque "with_cost"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 10, bytes = 20, time = 2.500000e-06>}
// With overwrite=true the attribute is replaced by the estimate: 32 B in, 4 B out.
// OVER-LABEL: ckpt.step @opaque_costs(
// OVER:         ckpt.opaque "with_cost"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 36, time = 1.07462{{[0-9]+}}E-11>}
ckpt.step @opaque_costs(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<2x8xi64>) {
  %a = ckpt.opaque "no_cost"(%x) : (tensor<4xf32>) -> tensor<8xf32>
  %r = ckpt.opaque "two_results"(%a) : (tensor<8xf32>) -> tensor<2x8xi64>
  %l = ckpt.opaque "with_cost"(%a) {ckpt.cost = #ckpt.cost<flops = 10, bytes = 20, time = 2.5e-06>} : (tensor<8xf32>) -> tensor<1xf32>
  ckpt.return %l, %r : tensor<1xf32>, tensor<2x8xi64> loss(0)
}
