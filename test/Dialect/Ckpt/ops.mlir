// RUN: ckpt-opt %s -split-input-file | FileCheck %s
// Printing is stable: the printed form parses back to the same text.
// RUN: ckpt-opt %s -split-input-file | ckpt-opt -split-input-file | FileCheck %s
// The generic form parses back to the custom form.
// RUN: ckpt-opt %s -split-input-file -mlir-print-op-generic | ckpt-opt -split-input-file | FileCheck %s

// CHECK-LABEL: ckpt.step @scalar_loss(
// CHECK-SAME:      %[[X:.*]]: f32) -> f32 {
// CHECK:         %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:         ckpt.return %[[Y]] : f32 loss(0)
ckpt.step @scalar_loss(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  ckpt.return %y : f32 loss(0)
}

// -----

// A loss that is not the first result, a one-element tensor, and attributes
// on arguments, results and the step itself survive printing.
// CHECK-LABEL: ckpt.step private @tensor_loss(
// CHECK-SAME:      %{{.*}}: tensor<4xf32> {test.role = "param"}
// CHECK-SAME:      -> (tensor<4xf32>, tensor<1x1xf32> {test.role = "loss"})
// CHECK-SAME:      attributes {custom = 7 : i64}
// CHECK:         ckpt.return %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<1x1xf32> loss(1)
ckpt.step private @tensor_loss(%w: tensor<4xf32> {test.role = "param"}, %l: tensor<1x1xf32>)
    -> (tensor<4xf32>, tensor<1x1xf32> {test.role = "loss"}) attributes {custom = 7 : i64} {
  ckpt.return %w, %l : tensor<4xf32>, tensor<1x1xf32> loss(1)
}

// -----

// CHECK-LABEL: ckpt.step @checkpoint_and_free(
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : tensor<4xf32>
// CHECK:         %[[C:.*]] = ckpt.checkpoint %[[E]] : tensor<4xf32>
// CHECK:         %[[S:.*]] = math.sin %[[C]] : tensor<4xf32>
// CHECK:         ckpt.free %[[C]] : tensor<4xf32>
// CHECK:         ckpt.return
ckpt.step @checkpoint_and_free(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  %c = ckpt.checkpoint %e : tensor<4xf32>
  %s = math.sin %c : tensor<4xf32>
  ckpt.free %c : tensor<4xf32>
  ckpt.return %l, %s : f32, tensor<4xf32> loss(0)
}

// -----

// CHECK-LABEL: ckpt.step @recompute(
// CHECK:         %[[R:.*]]:2 = ckpt.recompute(%{{.*}}) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[A]] : tensor<4xf32>
// CHECK-NEXT:      %[[U:.*]] = math.exp %[[T]] : tensor<4xf32>
// CHECK-NEXT:      ckpt.yield %[[T]], %[[U]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK:         arith.addf %[[R]]#0, %[[R]]#1
ckpt.step @recompute(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %r:2 = ckpt.recompute (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %t = math.tanh %a : tensor<4xf32>
    %u = math.exp %t : tensor<4xf32>
    ckpt.yield %t, %u : tensor<4xf32>, tensor<4xf32>
  }
  %s = arith.addf %r#0, %r#1 : tensor<4xf32>
  ckpt.return %l, %s : f32, tensor<4xf32> loss(0)
}

// -----

// A rematerialized step: its allocations pinned (bufferization.alloc_tensor,
// also inside recompute regions) and the budget it was rewritten for.
// CHECK-LABEL: ckpt.step @pinned(
// CHECK-SAME:    attributes {ckpt.budget = {bytes = 64 : i64, peak = 48 : i64}}
// CHECK:         ckpt.recompute(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK:           bufferization.alloc_tensor() : tensor<4xf32>
// CHECK:           linalg.generic
ckpt.step @pinned(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>)
    attributes {ckpt.budget = {bytes = 64 : i64, peak = 48 : i64}} {
  %r = ckpt.recompute (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = bufferization.alloc_tensor() : tensor<4xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = math.tanh %in : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    ckpt.yield %t : tensor<4xf32>
  }
  ckpt.return %l, %r : f32, tensor<4xf32> loss(0)
}

// -----

// A recompute region with no inputs (it rebuilds constants).
// CHECK-LABEL: ckpt.step @recompute_no_inputs(
// CHECK:         ckpt.recompute() : () -> tensor<2xf32> {
// CHECK-NEXT:      arith.constant dense<1.000000e+00> : tensor<2xf32>
ckpt.step @recompute_no_inputs(%l: f32) -> (f32, tensor<2xf32>) {
  %r = ckpt.recompute () : () -> tensor<2xf32> {
    %c = arith.constant dense<1.0> : tensor<2xf32>
    ckpt.yield %c : tensor<2xf32>
  }
  ckpt.return %l, %r : f32, tensor<2xf32> loss(0)
}

// -----

// The cost attribute, in any field order, on any op.
// CHECK-LABEL: ckpt.step @cost(
// CHECK:         math.exp %{{.*}} {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 2.500000e-06>}
// CHECK:         math.sin %{{.*}} {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0.000000e+00>}
// A large integral time (imported graphs' costs) prints as an integer, not as
// a hexadecimal bit pattern; 1.5e15 has a short decimal form and keeps it.
// CHECK:         math.cos %{{.*}} {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1234567890123457>}
// CHECK:         math.cos %{{.*}} {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.500000e+15>}
ckpt.step @cost(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %e = math.exp %x {ckpt.cost = #ckpt.cost<time = 2.5e-6, flops = 4, bytes = 32>} : tensor<4xf32>
  %s = math.sin %e {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0>} : tensor<4xf32>
  %c1 = math.cos %s {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1234567890123457>} : tensor<4xf32>
  %c2 = math.cos %c1 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1500000000000000>} : tensor<4xf32>
  ckpt.return %l, %s : f32, tensor<4xf32> loss(0)
}

// -----

// ckpt.loss on a func.func is verified but otherwise left alone.
// CHECK-LABEL: func.func @marked(
// CHECK-SAME:    attributes {ckpt.loss = 0 : i64}
func.func @marked(%x: f32) -> f32 attributes {ckpt.loss = 0 : i64} {
  return %x : f32
}

// -----

// A planned step: the plan on the step. Its schedule runs op #0 (the exp)
// again after op #1. A plan from strategy 'ilp' carries the proven lower
// bound; it is left out when 0.
// CHECK-LABEL: ckpt.step @planned(
// CHECK-SAME:    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 48, time = 2.500000e-06, store_all_peak = 80, store_all_time = 2.000000e-06, schedule = [0, 1, 0, 2]>
// CHECK-NOT:     lower_bound
ckpt.step @planned(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 48, time = 2.5e-6,
                           store_all_peak = 80, store_all_time = 2.0e-6,
                           schedule = [0, 1, 0, 2]>} {
  %e = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %g = math.sin %e : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// CHECK-LABEL: ckpt.step @planned_ilp(
// CHECK-SAME:    ckpt.plan = #ckpt.plan<strategy = "ilp", budget = 64, peak = 48, time = 2.500000e-06, store_all_peak = 80, store_all_time = 2.000000e-06, schedule = [0, 1], lower_bound = 2.250000e-06>
ckpt.step @planned_ilp(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "ilp", budget = 64, peak = 48, time = 2.5e-6,
                           store_all_peak = 80, store_all_time = 2.0e-6,
                           schedule = [0, 1], lower_bound = 2.25e-6>} {
  %e = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// The costs of the times: a device other than h100, and a profile. The
// device is printed as its keyword and read as one or, as plans were written
// before it was an enum, as a string.
// CHECK-LABEL: ckpt.step @planned_cpu(
// CHECK-SAME:    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 48, time = 2.500000e-06, store_all_peak = 80, store_all_time = 2.000000e-06, schedule = [0, 1], device = cpu, profile = "times.json">
ckpt.step @planned_cpu(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 48, time = 2.5e-6,
                           store_all_peak = 80, store_all_time = 2.0e-6,
                           schedule = [0, 1], device = "cpu", profile = "times.json">} {
  %e = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// CHECK-LABEL: ckpt.step @planned_a100(
// CHECK-SAME:    schedule = [0, 1], device = a100>
ckpt.step @planned_a100(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 48, time = 2.5e-6,
                           store_all_peak = 80, store_all_time = 2.0e-6,
                           schedule = [0, 1], device = a100>} {
  %e = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// h100, the default, is left out.
// CHECK-LABEL: ckpt.step @planned_h100(
// CHECK-SAME:    schedule = [0, 1]>
ckpt.step @planned_h100(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 48, time = 2.5e-6,
                           store_all_peak = 80, store_all_time = 2.0e-6,
                           schedule = [0, 1], device = h100>} {
  %e = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}
