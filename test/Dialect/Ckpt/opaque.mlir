// RUN: ckpt-opt %s -split-input-file | FileCheck %s
// Printing is stable: the printed form parses back to the same text.
// RUN: ckpt-opt %s -split-input-file | ckpt-opt -split-input-file | FileCheck %s
// The generic form parses back to the custom form.
// RUN: ckpt-opt %s -split-input-file -mlir-print-op-generic | ckpt-opt -split-input-file | FileCheck %s
// The name is an inherent attribute, ckpt.cost a discardable one.
// RUN: ckpt-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Two operands, two results of different element types, a cost.
// CHECK-LABEL: func.func @two_results(
// CHECK-SAME:      %[[A:.*]]: tensor<1x4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK:         %[[R:.*]]:2 = ckpt.opaque "aten.max_pool2d_with_indices"(%[[A]], %[[B]]) {ckpt.cost = #ckpt.cost<flops = 10, bytes = 20, time = {{.*}}>} : (tensor<1x4xf32>, tensor<4xf32>) -> (tensor<1x2xf32>, tensor<1x2xi64>)
// CHECK:         return %[[R]]#0, %[[R]]#1
// GENERIC-LABEL: sym_name = "two_results"
// GENERIC:       "ckpt.opaque"(%{{.*}}, %{{.*}}) <{name = "aten.max_pool2d_with_indices"}> {ckpt.cost = #ckpt.cost<flops = 10, bytes = 20, time = {{.*}}>}
func.func @two_results(%a: tensor<1x4xf32>, %b: tensor<4xf32>) -> (tensor<1x2xf32>, tensor<1x2xi64>) {
  %r:2 = ckpt.opaque "aten.max_pool2d_with_indices"(%a, %b) {ckpt.cost = #ckpt.cost<flops = 10, bytes = 20, time = 1.0e-06>} : (tensor<1x4xf32>, tensor<4xf32>) -> (tensor<1x2xf32>, tensor<1x2xi64>)
  return %r#0, %r#1 : tensor<1x2xf32>, tensor<1x2xi64>
}

// -----

// No operands (a source node of a graph), one result (printed without
// parentheses), no cost; 0-d tensors and names with any characters.
// CHECK-LABEL: ckpt.step @in_a_step(
// CHECK:         %[[S:.*]] = ckpt.opaque "node 0: conv \22a\22"() : () -> tensor<3x0xi8>
// CHECK:         %[[L:.*]] = ckpt.opaque "loss"(%{{.*}}, %[[S]]) : (tensor<4xf32>, tensor<3x0xi8>) -> tensor<f32>
// CHECK:         ckpt.return %[[L]] : tensor<f32> loss(0)
// GENERIC-LABEL: sym_name = "in_a_step"
// GENERIC:       "ckpt.opaque"() <{name = "node 0: conv \22a\22"}> : () -> tensor<3x0xi8>
ckpt.step @in_a_step(%x: tensor<4xf32>) -> tensor<f32> {
  %s = ckpt.opaque "node 0: conv \"a\""() : () -> tensor<3x0xi8>
  %l = ckpt.opaque "loss"(%x, %s) : (tensor<4xf32>, tensor<3x0xi8>) -> tensor<f32>
  ckpt.return %l : tensor<f32> loss(0)
}

// -----

// Pure: a result nobody uses is dead code, and two identical ops are one.
// RUN: ckpt-opt %s -split-input-file --canonicalize --cse | FileCheck %s --check-prefix=PURE
// PURE-LABEL: func.func @pure(
// PURE-NEXT:    %[[U:.*]] = ckpt.opaque "used"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// PURE-NEXT:    return %[[U]], %[[U]]
func.func @pure(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %dead = ckpt.opaque "dead"(%x) : (tensor<4xf32>) -> tensor<8xf32>
  %u = ckpt.opaque "used"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %v = ckpt.opaque "used"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %u, %v : tensor<4xf32>, tensor<4xf32>
}

// -----

// The work of an opaque op (#ckpt.work) round-trips.
// CHECK-LABEL: func.func @work(
// CHECK-NEXT:    ckpt.opaque "aten.cumsum"(%{{.*}}) {ckpt.work = #ckpt.work<flops = 6, bytes = 48>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @work(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = ckpt.opaque "aten.cumsum"(%x) {ckpt.work = #ckpt.work<flops = 6, bytes = 48>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
