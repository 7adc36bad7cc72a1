// RUN: ckpt-opt %s -split-input-file --ckpt-wrap-step | FileCheck %s
// RUN: ckpt-opt %s -split-input-file --ckpt-wrap-step="loss-index=1" | FileCheck %s --check-prefix=INDEX
// The whole file as one module (no split), so that func= finds its function.
// RUN: ckpt-opt %s --ckpt-wrap-step="func=plain loss-index=0" | FileCheck %s --check-prefix=NAMED
// Wrapping then unwrapping gives back the original functions (a shared
// tensor.empty stays split: @shared_empty below).
// RUN: ckpt-opt %s -split-input-file --ckpt-wrap-step --ckpt-unwrap-step | FileCheck %s --check-prefix=BACK

// Everything the user wrote is kept: name, visibility, argument and result
// attributes, other attributes, the body, and attributes on the return.
// CHECK-LABEL: ckpt.step private @step(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32> {test.role = "param"}, %[[L:.*]]: f32)
// CHECK-SAME:      -> (tensor<4xf32>, f32 {test.role = "loss"})
// CHECK-SAME:      attributes {custom = "kept"}
// CHECK-NOT:     ckpt.loss
// CHECK:         %[[E:.*]] = math.exp %[[X]] : tensor<4xf32>
// CHECK:         ckpt.return %[[E]], %[[L]] : tensor<4xf32>, f32 loss(1) {note = "on return"}
// INDEX-LABEL: ckpt.step private @step(
// INDEX:         ckpt.return {{.*}} loss(1)
// With func= naming another function, this one is left alone.
// NAMED-LABEL: func.func private @step(
// NAMED-SAME:      attributes {ckpt.loss = 1 : i64, custom = "kept"}
// BACK-LABEL: func.func private @step(
// BACK-SAME:      %{{.*}}: tensor<4xf32> {test.role = "param"}, %{{.*}}: f32)
// BACK-SAME:      -> (tensor<4xf32>, f32 {test.role = "loss"})
// BACK-SAME:      attributes {ckpt.loss = 1 : i64, custom = "kept"}
// BACK:         return {note = "on return"} %{{.*}}, %{{.*}} : tensor<4xf32>, f32
func.func private @step(%x: tensor<4xf32> {test.role = "param"}, %l: f32)
    -> (tensor<4xf32>, f32 {test.role = "loss"}) attributes {ckpt.loss = 1 : i64, custom = "kept"} {
  %e = math.exp %x : tensor<4xf32>
  return {note = "on return"} %e, %l : tensor<4xf32>, f32
}

// -----

// Without ckpt.loss and without options, a function is left alone; with
// loss-index it is wrapped; with func=plain it is the one selected.
// CHECK-LABEL: func.func @plain(
// INDEX-LABEL: ckpt.step @plain(
// INDEX:         ckpt.return %{{.*}}, %{{.*}} : f32, f32 loss(1)
// NAMED-LABEL: ckpt.step @plain(
// NAMED:         ckpt.return %{{.*}}, %{{.*}} : f32, f32 loss(0)
func.func @plain(%a: f32, %b: f32) -> (f32, f32) {
  return %a, %b : f32, f32
}

// -----

// With loss-index alone, declarations are not training steps and stay.
// INDEX-LABEL: func.func private @declared(f32) -> f32
// NAMED: func.func private @declared(f32) -> f32
func.func private @declared(f32) -> f32

// -----

// A tensor.empty shared by several destinations (as torch-mlir writes them)
// is split: the first user keeps it, every later one gets its own, right
// before it.
// CHECK-LABEL: ckpt.step @shared_empty(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = linalg.exp ins(%{{.*}} : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT:    %[[E2:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = linalg.exp ins(%[[A]] : tensor<4xf32>) outs(%[[E2]] : tensor<4xf32>)
// CHECK-NEXT:    %[[E3:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = linalg.add ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>) outs(%[[E3]] : tensor<4xf32>)
func.func @shared_empty(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) attributes {ckpt.loss = 1 : i64} {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %l = tensor.extract_slice %c[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  return %c, %l : tensor<4xf32>, tensor<1xf32>
}
